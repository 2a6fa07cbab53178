"""The lists of the glossary and guides index pages, generated from front matter at build time.

A new term or guide appears without anyone editing an index page. Terms are grouped by
initial letter, in the alphabetical order of the language read (scripts/src/jax_kb/site/collation.py).
"""
from __future__ import annotations

import posixpath
import re
from itertools import groupby
from urllib.parse import quote

from jax_kb.catalog import Catalog, ui_string

from jax_kb.site.collation import foreign_script, initial, sort_key
from jax_kb.site.escape import markdown_text

# index page -> (kind of the pages it lists, grouped by initial letter)
INDEXES = {"glossary/index": ("term", True), "guides/index": ("guide", False)}


def _entries(kind: str, lang: str, cat: Catalog, here: str) -> list[tuple[str, str, str]]:
    """(title, summary, link) of every page of that kind, in the language read or its fallback."""
    found = []
    for page_id in cat.pages:
        page = cat.page(page_id, lang)
        if page is None or page.meta.get("kind") != kind:
            continue
        title, summary = str(page.meta.get("title", page.slug)), str(page.meta.get("summary", ""))
        found.append((title, summary, quote(posixpath.relpath(page_id + ".md", here))))
    return sorted(found, key=lambda entry: sort_key(entry[0], lang))


CODE_SPAN = re.compile(r"(`+)(?!`)[^\n]+?(?<!`)\1(?!`)")


def _summary_text(text: str) -> str:
    """The summary as written, its `code` still code: Markdown shows a code span's text literally."""
    def plain(part: str) -> str:  # markdown_text trims: the spaces around a code span stay
        if not part.strip():
            return " " if part else ""
        return (" " if part[0].isspace() else "") + markdown_text(part) + (" " if part[-1].isspace() else "")

    parts, last = [], 0
    for code in CODE_SPAN.finditer(text):
        parts += [plain(text[last:code.start()]), code[0]]
        last = code.end()
    return ("".join(parts) + plain(text[last:])).strip()


FOREIGN = "foreign"


def _group(title: str, lang: str) -> str:
    """The heading a title is listed under; one heading for all titles in another script (Latin in ru)."""
    return FOREIGN if foreign_script(title, lang) else initial(title, lang)


def _item(title: str, summary: str, link: str) -> str:
    return f"- [{markdown_text(title)}]({link}): {_summary_text(summary)}"


def index_section(page_id: str, lang: str, cat: Catalog) -> str:
    """The Markdown list for an index page; empty for every other page."""
    if page_id not in INDEXES:
        return ""
    kind, by_letter = INDEXES[page_id]
    entries = _entries(kind, lang, cat, posixpath.dirname(page_id))
    if not by_letter:
        return "\n\n" + "\n".join(_item(*entry) for entry in entries) + "\n"
    parts = []
    for letter, group in groupby(entries, key=lambda entry: _group(entry[0], lang)):
        if letter == FOREIGN:
            heading, anchor = ui_string(lang, "latin_letters"), "letter-latin"
        else:
            heading, anchor = ("\\#", "letter-other") if letter == "#" else (letter, f"letter-{letter.lower()}")
        parts.append(f"## {heading} {{ #{anchor} }}\n\n" + "\n".join(_item(*entry) for entry in group))
    return "\n\n" + "\n\n".join(parts) + "\n"
