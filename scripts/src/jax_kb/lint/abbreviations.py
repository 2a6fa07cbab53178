"""Abbreviation definitions (*[JIT]: Just-in-time compilation) become tooltips: plain text only.

The abbr extension keeps character references in the title it writes, so "&lt;img ...&gt;"
reaches the reader's browser as a tag; a tag in the definition is no better.
"""
from __future__ import annotations

import re

from markdown.extensions.abbr import AbbrBlockprocessor

from jax_kb.markdown import InputError, Page
from jax_kb.lint.prose import Prose

DEFINITION = re.compile(AbbrBlockprocessor.RE.pattern, re.M)
MARKUP = re.compile(r"<[A-Za-z/!?]|&(?:#\d+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);?")


def abbreviation_problems(page: Page, text: Prose) -> list[InputError]:
    return [InputError(page.path, text.line_at(m.start()), f"abbreviation {m['abbr']!r}: its definition is a "
                       "tooltip and must be plain text, without tags or character references")
            for m in DEFINITION.finditer(text.text) if MARKUP.search(m["abbr"] + " " + m["title"])]
