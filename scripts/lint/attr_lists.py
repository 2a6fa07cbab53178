"""Attribute lists ({: ...} and { #id .class key=value }) set HTML attributes too: each key they set
is held to the same allowlist as raw HTML (scripts/lint/allowlist.py)."""
from __future__ import annotations

import re

from markdown.extensions.attr_list import AttrListTreeprocessor, get_attrs_and_remainder

from ..markdown import InputError, Page
from .allowlist import attribute_problem
from .prose import Prose

ATTR_LIST = re.compile(AttrListTreeprocessor.BASE_RE)
# Braces that hold only words ({0, 1}, {x}) are prose; attr_list's own marks are ":", "#id", ".class", key=value.
LOOKS_LIKE_ATTRIBUTES = re.compile(r"^:|(?:^|\s)[#.][\w-]|=")


def attr_list_problems(page: Page, text: Prose) -> list[InputError]:
    problems = []
    for m in ATTR_LIST.finditer(text.text):
        inner = m[0][1:-1]
        if not LOOKS_LIKE_ATTRIBUTES.search(inner.strip()):
            continue
        attributes, _ = get_attrs_and_remainder(m[1])
        for key, value in attributes:
            if key in (":", ".", "id"):
                continue
            if problem := attribute_problem(None, key, value, key):
                problems.append(InputError(page.path, text.line_at(m.start()), problem))
    return problems
