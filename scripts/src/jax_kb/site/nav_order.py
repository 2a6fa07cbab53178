"""The left navigation in the reader's alphabetical order, the order of the generated term index.

mkdocs lists a section's pages by file name, which is the English slug; each language
reads them under its own titles, so each section is sorted again by the collation of
scripts/src/jax_kb/site/collation.py. A section's index page stays first (navigation.indexes).
"""
from __future__ import annotations

from collections.abc import Callable

from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page as NavPage

from jax_kb.site.collation import sort_key


def sort_sections(nav: Navigation, title_of: Callable[[NavPage], str | None], lang: str) -> None:
    """Sorts, in place, the pages of every section by their title in the language read."""
    def key(item):
        if isinstance(item, NavPage):
            is_index = item.file.src_uri.rsplit("/", 1)[-1].split(".")[0] == "index"
            return (not is_index, sort_key(title_of(item) or item.file.src_uri, lang))
        return (True, sort_key(item.title or "", lang))

    def visit(items):
        for item in items:
            if isinstance(item, Section):
                item.children.sort(key=key)
                visit(item.children)

    visit(nav.items)
