"""The abbreviations of one language: each glossary term's title and aliases, with its summary.

They feed the abbr extension's glossary, so that Material's content.tooltips shows the
summary on hover. abbr only rewrites text nodes, after attr_list has taken the heading
ids away, and never code, which is an AtomicString or stashed HTML.
"""
from __future__ import annotations

from scripts.catalog import Catalog

from .escape import markdown_attribute


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
