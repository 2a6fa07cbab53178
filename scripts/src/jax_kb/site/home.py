"""The home page's "start here": the term index, the guides and the search, in the reader's language.

Generated, like the term index, so that every language's home page leads to the same
places whatever its prose says; the search entry opens Material's search (its toggle).
"""
from __future__ import annotations

import html

from jax_kb.catalog import Catalog, ui_string

HOME = "index"
# The index pages the home page leads to, each with its line; a site without one leaves it out.
ENTRIES = [("glossary/index", "start_glossary"), ("guides/index", "start_guides")]


def start_here(page_id: str, lang: str, cat: Catalog) -> str:
    """The Markdown section for the home page; empty for every other page."""
    if page_id != HOME:
        return ""
    text = lambda key: html.escape(ui_string(lang, key))  # noqa: E731
    links = "".join(f"- [{text(key)}]({index}.md)\n" for index, key in ENTRIES if index in cat.pages)
    return (f"\n\n## {text('start_title')} {{ #start-here }}\n\n"
            f'<div class="kb-start" data-kb-start markdown>\n\n{links}'
            f'- <label class="kb-start__search" for="__search">{text("start_search")}</label>\n'
            f"\n</div>\n")
