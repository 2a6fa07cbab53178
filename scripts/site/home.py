"""The home page's "start here": the term index, the guides and the search, in the reader's language.

Generated, like the term index, so that every language's home page leads to the same
places whatever its prose says; the search entry opens Material's search (its toggle).
"""
from __future__ import annotations

import html

from scripts.catalog import ui_string

HOME = "index"


def start_here(page_id: str, lang: str) -> str:
    """The Markdown section for the home page; empty for every other page."""
    if page_id != HOME:
        return ""
    text = lambda key: html.escape(ui_string(lang, key))  # noqa: E731
    return (f"\n\n## {text('start_title')} {{ #start-here }}\n\n"
            f'<div class="kb-start" data-kb-start markdown>\n\n'
            f"- [{text('start_glossary')}](glossary/index.md)\n"
            f"- [{text('start_guides')}](guides/index.md)\n"
            f'- <label class="kb-start__search" for="__search">{text("start_search")}</label>\n'
            f"\n</div>\n")
