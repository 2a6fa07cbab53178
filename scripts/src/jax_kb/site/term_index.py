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

from jax_kb.site.collation import CYRILLIC_LANGUAGES, alphabet, foreign_script, initial, sort_key
from jax_kb.site.escape import markdown_text

# index page -> (kind of the pages it lists, grouped by initial letter)
TERMS = "glossary/index"
INDEXES = {TERMS: ("term", True), "guides/index": ("guide", False)}


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


def _anchor(group: str) -> str:
    if group == FOREIGN:
        return "letter-latin"
    return "letter-other" if group == "#" else f"letter-{group.lower()}"


def _heading(group: str, lang: str) -> str:
    if group == FOREIGN:
        return ui_string(lang, "latin_letters")
    return "\\#" if group == "#" else group


def _groups(lang: str, cat: Catalog) -> list[str]:
    """The term index's letter headings, in order."""
    return [letter for letter, _ in groupby(_entries("term", lang, cat, "glossary"),
                                            key=lambda entry: _group(entry[0], lang))]


def _place(group: str, target: str) -> int:
    """Where a heading of the source language's index falls in the target language's alphabet."""
    order = alphabet(target)
    if group == "#":
        return -1
    if group == FOREIGN:  # Latin in a Cyrillic language: where the target's Latin letters start
        return order.index("A")
    letter = initial(group, target)
    if foreign_script(letter, target) and target in CYRILLIC_LANGUAGES:
        return order.index("A")  # the target lists every Latin letter under one heading, at its first
    return order.index(letter) if letter in order else len(order)  # a script it does not order: after all


def switched_anchors(source: str, target: str, cat: Catalog) -> dict[str, str]:
    """For each letter of the source language's term index that the target's lacks, its nearest
    letter there (in the target's alphabet; of two as near, the one after): the anchor that the
    language switcher lands on instead (overrides/partials/alternate.html, assets/javascripts/kb.js)."""
    there = _groups(target, cat)
    places = {group: _place(group, target) for group in there}
    moved = {}
    for group in _groups(source, cat):
        if _anchor(group) in map(_anchor, there) or not there:
            continue
        place = _place(group, target)
        nearest = min(there, key=lambda other: (abs(places[other] - place), -places[other]))
        moved[_anchor(group)] = _anchor(nearest)
    return moved


def index_section(page_id: str, lang: str, cat: Catalog) -> str:
    """The Markdown list for an index page; empty for every other page."""
    if page_id not in INDEXES:
        return ""
    kind, by_letter = INDEXES[page_id]
    entries = _entries(kind, lang, cat, posixpath.dirname(page_id))
    if not by_letter:
        return "\n\n" + "\n".join(_item(*entry) for entry in entries) + "\n"
    parts = [f"## {_heading(letter, lang)} {{ #{_anchor(letter)} }}\n\n" + "\n".join(_item(*entry) for entry in group)
             for letter, group in groupby(entries, key=lambda entry: _group(entry[0], lang))]
    return "\n\n" + "\n\n".join(parts) + "\n"
