"""On a site in several languages every heading carries an id of its own ({ #id }, or id= on a raw
<h1>-<h6>), the same in every language.

Without one, the toc extension makes the id from the heading's text: it changes with every
translation and every rewording (links and the language switcher's anchors break), and a Russian
heading gets "_1". A site in one language (another project's docs) may leave ids to the text,
except where the text slugs to an id of the theme's ("## __config"), which the heading would
take as surely as `{ #__config }`. Explicit ids are checked with the other attributes (attr_lists.py).
"""
from __future__ import annotations

import html
import re

from markdown.extensions.toc import slugify

from jax_kb.markdown import InputError, Page
from jax_kb.lint.allowlist import reserved_id
from jax_kb.lint.prose import Prose

# A heading line, also inside blockquotes (each ">" opens one) and list items (indented).
ATX = re.compile(r"^[ \t]*(?:>[ \t]?)*[ \t]*#{1,6}(?!#)(?:[ \t]+(?P<text>.*?))?[ \t#]*$")
SETEXT = re.compile(r"^[ \t]{0,3}(?:=+|-+)[ \t]*$")
EXPLICIT_ID = re.compile(r"\{[^{}]*#[\w-]")
TAG = re.compile(r"<[^>]*>")
RAW_HEADING = re.compile(r"<h[1-6](?P<attributes>(?:\s[^>]*)?)>", re.I)
ID_ATTRIBUTE = re.compile(r"(?:^|\s)id\s*=", re.I)
FIX = "add { #id } at its end, the same id in every language"


def _missing(page: Page, line: int, text: str) -> InputError:
    return InputError(page.path, line, f"heading {text.strip()[:40]!r} has no id of its own, so its id would "
                                       f"come from its text and differ between languages: {FIX}")


def _reserved(page: Page, line: int, text: str) -> InputError | None:
    slug = slugify(html.unescape(TAG.sub("", text)), "-")
    if not reserved_id(slug):
        return None
    return InputError(page.path, line, f"heading {text.strip()[:40]!r} gets the id {slug!r} from its text, one the "
                                       "theme or the site gives its own elements: give it another with { #id }")


def heading_id_problems(page: Page, text: Prose, multilingual: bool) -> list[InputError]:
    problems = []
    lines = page.prose_lines()
    for i, line in enumerate(lines):
        if m := ATX.match(line.text):
            heading = m["text"] or ""
        elif (i and SETEXT.match(line.text) and lines[i - 1].text.strip() and lines[i - 1].page_line + 1 == line.page_line
              and not ATX.match(lines[i - 1].text)):
            line, heading = lines[i - 1], lines[i - 1].text
        else:
            continue
        if EXPLICIT_ID.search(heading):
            continue
        if problem := _missing(page, line.page_line, heading) if multilingual else _reserved(page, line.page_line, heading):
            problems.append(problem)
    for m in RAW_HEADING.finditer(text.text) if multilingual else ():
        if not ID_ATTRIBUTE.search(m["attributes"]):
            problems.append(InputError(page.path, text.line_at(m.start()),
                                       f"raw {m[0][:40]!r} has no id=: give it one, the same in every language"))
    return problems
