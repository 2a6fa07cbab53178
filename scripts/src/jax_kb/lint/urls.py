"""Markdown link and image addresses that run code (javascript:, vbscript:), hide content in the
page (data:), are fetched without TLS (http://) or use any other scheme; addresses in raw HTML
are read by scripts/src/jax_kb/lint/raw_html.py."""
from __future__ import annotations

import re

from jax_kb.markdown import InputError, Page
from jax_kb.markdown.pages import LINK
from jax_kb.lint.prose import Prose
from jax_kb.lint.url_policy import image_problem, url_problem

REFERENCE = re.compile(r"^[ ]{0,3}\[[^\]]+\]:[ \t]*<?(?P<target>[^\s>]+)", re.M)
AUTOLINK = re.compile(r"<(?P<target>[A-Za-z][\w+.-]*:[^\s<>]*)>")


def url_problems(page: Page, text: Prose) -> list[InputError]:
    found = [(m["target"], m.start(), m[0].startswith("!")) for pattern in (LINK, REFERENCE, AUTOLINK)
             for m in pattern.finditer(text.text)]
    return [InputError(page.path, text.line_at(offset), problem) for target, offset, image in found
            if (problem := (image_problem if image else url_problem)(target))]
