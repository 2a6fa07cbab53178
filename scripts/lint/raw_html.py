"""Raw HTML that runs code or embeds other documents: the site shows text, images and links only."""
from __future__ import annotations

import re

from ..markdown import InputError, Page
from .prose import Prose

FORBIDDEN_TAG = re.compile(r"<\s*(script|iframe|object|embed)\b", re.I)
TAG = re.compile(r"<[A-Za-z][\w:-]*(?:\s[^<>]*)?>")
ATTR_LIST = re.compile(r"\{[^{}\n]*\}")  # Markdown attribute lists also set HTML attributes: { onclick=... }
EVENT_ATTRIBUTE = re.compile(r"(?:^|(?<=[\s\"'/{]))(on[a-z]+)\s*=", re.I)


def raw_html_problems(page: Page, text: Prose) -> list[InputError]:
    problems = [InputError(page.path, text.line_at(m.start()), f"raw <{m[1].lower()}> tag: pages may not run "
                           "or embed other documents; link to the content instead")
                for m in FORBIDDEN_TAG.finditer(text.text)]
    for element in [*TAG.finditer(text.text), *ATTR_LIST.finditer(text.text)]:
        for m in EVENT_ATTRIBUTE.finditer(element[0]):
            problems.append(InputError(page.path, text.line_at(element.start() + m.start(1)),
                                       f"event attribute {m[1]}= runs JavaScript: remove it"))
    return problems
