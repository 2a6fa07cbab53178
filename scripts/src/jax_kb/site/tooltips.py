"""The abbreviations of one language: each glossary term's title and aliases, with its summary.

They feed the abbr extension's glossary, so that Material's content.tooltips shows the
summary on hover. abbr only rewrites text nodes, after attr_list has taken the heading
ids away, and never code, which is an AtomicString or stashed HTML.
"""
from __future__ import annotations

import re

from jax_kb.catalog import Catalog

from jax_kb.site.escape import markdown_attribute


def abbreviations(cat: Catalog, lang: str) -> dict[str, str]:
    """Spelling -> summary; a term not translated into lang has none, its summary being in another language."""
    found: dict[str, str] = {}
    for page_id in sorted(cat.pages):
        page = cat.pages[page_id].get(lang)
        summary = page.meta.get("summary") if page else None
        if page is None or page.meta.get("kind") != "term" or not isinstance(summary, str):
            continue
        aliases = page.meta.get("aliases") or []
        for name in [page.meta.get("title"), *(aliases if isinstance(aliases, list) else [])]:
            if isinstance(name, str) and name.strip():
                found.setdefault(name.strip(), markdown_attribute(summary.strip()))
    return found


ABBR = re.compile(r'<abbr title="(?P<title>[^"]*)">(?P<text>.*?)</abbr>', re.S)
HEADING = re.compile(r"<h([1-6])\b[^>]*>.*?</h\1>", re.S)


def _as_attribute(text: str) -> str:
    """The text as Python-Markdown writes it into an attribute value."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def first_mentions(html: str, own_summary: str | None) -> str:
    """Only the first mention of each term keeps its tooltip, never one in a heading or of the page's own term.

    A dotted underline on every "jit" of a page, or in its title, is noise; the first one
    is where a reader meets the word.
    """
    html = HEADING.sub(lambda heading: ABBR.sub(r"\g<text>", heading[0]), html)
    seen = {_as_attribute(own_summary)} if own_summary else set()

    def keep_first(match: re.Match) -> str:
        if match["title"] in seen:
            return match["text"]
        seen.add(match["title"])
        return match[0]

    return ABBR.sub(keep_first, html)
