"""Attribute lists ({: ...} and { #id .class key=value }) set HTML attributes too: each key they set
is held to the same allowlist as raw HTML (scripts/src/jax_kb/lint/allowlist.py)."""
from __future__ import annotations

import re

from markdown.extensions.attr_list import get_attrs_and_remainder

from jax_kb.markdown import InputError, Page
from jax_kb.lint.allowlist import attribute_problem, id_problem
from jax_kb.lint.prose import Prose

# One pair of braces at a time: attr_list's own pattern runs to the last brace of the line.
ATTR_LIST = re.compile(r"\{:?[ ]*([^{}\n]*)\}")
# Braces that hold only words ({0, 1}, {x}) are prose; attr_list's own marks are ":", "#id", ".class", key=value.
LOOKS_LIKE_ATTRIBUTES = re.compile(r"^:|(?:^|\s)[#.][\w-]|=")


def attr_list_problems(page: Page, text: Prose) -> list[InputError]:
    problems = []
    for m in ATTR_LIST.finditer(text.text):
        if not LOOKS_LIKE_ATTRIBUTES.search(m[0][1:-1].strip()):
            continue
        attributes, _ = get_attrs_and_remainder(m[1])
        for key, value in attributes:
            if key in (":", "."):
                continue
            if problem := id_problem(value) if key == "id" else attribute_problem(None, key, value, key):
                problems.append(InputError(page.path, text.line_at(m.start()), problem))
    return problems
