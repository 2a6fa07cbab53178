"""Highlighting of fenced code, once per distinct block for the whole build.

Translations carry the same code as the English page, so the site highlights the same blocks
five times. This is SuperFences' own extension point, a custom fence (mkdocs.yml, name "*"):
each block still goes through SuperFences' highlighter, and the HTML is kept by everything it
depends on: the code, its language, its options and attributes, and the block's position on
its page (line spans and anchors are numbered by it, and that number is kept in step). The
block's title is not: the site's own labels ("Output", "Raises X") are in the reader's language,
so a block is highlighted under a placeholder title that is then replaced by its own, escaped as
Pygments escapes a title.
"""
from __future__ import annotations

from pygments.util import html_escape

MAX_ENTRIES = 20_000  # bounds a long `make serve` session; a build of this site holds a few thousand

_cache: dict[tuple, str] = {}
TITLE_PLACEHOLDER = "KbHighlightCacheTitle"  # letters only: Pygments' escaping leaves it as it is


def format_fence(src, language, class_name, options, md, **kwargs) -> str:
    fenced = md.preprocessors["fenced_code_block"]
    counter = fenced.highlight_ext  # SuperFences numbers the blocks of a page on the Highlight extension
    attrs = kwargs.get("attrs") or {}
    options = dict(options)
    title = options.pop("title", None)
    if title is not None:
        options["title"] = TITLE_PLACEHOLDER
    key = (src, language, tuple(sorted(options.items())), tuple(kwargs.get("classes") or ()),
           kwargs.get("id_value"), tuple(sorted(attrs.items())), counter.pygments_code_block)
    html = _cache.get(key)
    if html is None:
        if len(_cache) >= MAX_ENTRIES:
            _cache.clear()
        html = _cache[key] = fenced.highlight(src, language, options, md, **kwargs)
    else:
        counter.pygments_code_block += 1  # as the highlighter would have done
    if title is None:
        return html
    return html.replace(TITLE_PLACEHOLDER, html_escape(title.strip()), 1)
