"""Headings without an id of their own get one from their text (the toc extension's slug): a
heading whose slug is an id the theme or the site uses ("## __config") takes that id as surely
as `{ #__config }` would. Explicit ids are checked with the other attributes (attr_lists.py)."""
from __future__ import annotations

import html
import re

from markdown.extensions.toc import slugify

from jax_kb.markdown import InputError, Page
from jax_kb.lint.allowlist import reserved_id

ATX = re.compile(r"^[ \t]*#{1,6}[ \t]+(?P<text>.*?)[ \t#]*$")
SETEXT = re.compile(r"^[ \t]{0,3}(?:=+|-+)[ \t]*$")
EXPLICIT_ID = re.compile(r"\{[^{}]*#[\w-]")
TAG = re.compile(r"<[^>]*>")


def heading_id_problems(page: Page) -> list[InputError]:
    problems = []
    lines = page.prose_lines()
    for i, line in enumerate(lines):
        if m := ATX.match(line.text):
            text = m["text"]
        elif (i and SETEXT.match(line.text) and lines[i - 1].text.strip() and lines[i - 1].page_line + 1 == line.page_line
              and not ATX.match(lines[i - 1].text)):
            line, text = lines[i - 1], lines[i - 1].text
        else:
            continue
        if EXPLICIT_ID.search(text):
            continue
        slug = slugify(html.unescape(TAG.sub("", text)), "-")
        if reserved_id(slug):
            problems.append(InputError(page.path, line.page_line, f"heading {text.strip()[:40]!r} gets the id {slug!r} "
                                       "from its text, one the theme or the site gives its own elements: give it "
                                       "another with { #id }"))
    return problems
