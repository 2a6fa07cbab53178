"""Front matter is text, never markup: escaping for each place the site puts it.

MkDocs does not autoescape its templates, and Material prints page.meta fields (title,
description, author, ...) and page titles as HTML; the hooks' generated Markdown (term
index, related list) is read as Markdown, where a title could open a tag, a link or a new
block. Every front matter value goes through one of these before it is placed.
"""
from __future__ import annotations

import html
import re

# Markdown syntax a one-line text could start, beyond what the HTML entities take away.
# An underscore inside a word cannot start emphasis, and escaping it would hide custom_jvp
# from the abbr extension.
MARKDOWN_SPECIAL = re.compile(r"([\\`*\[\]{}!]|(?<!\w)_|_(?!\w))")
WHITE_SPACE = re.compile(r"\s+")


def html_text(value: object) -> str:
    """Text for HTML content or a quoted attribute value."""
    return html.escape(str(value), quote=True)


def markdown_text(value: object) -> str:
    """Text for one line of generated Markdown (a list item, a link text): shown as written.

    Line breaks are joined, so that the text cannot start a new block (raw HTML, a heading,
    an abbreviation); <, > and & become entities, which Markdown passes through as text.
    """
    one_line = WHITE_SPACE.sub(" ", str(value)).strip()
    return MARKDOWN_SPECIAL.sub(r"\\\1", html.escape(one_line, quote=False))


def markdown_attribute(value: object) -> str:
    """Text for an attribute that Python-Markdown writes (an abbreviation's title): shown as written.

    Its serializer escapes <, > and quotes but keeps character references, which the browser
    would then decode: "&lt;img ...&gt;" would reach the tooltip as a tag.
    """
    return str(value).replace("&", "&amp;")


def _template_value(value: object) -> object:
    if isinstance(value, str):
        return html_text(value)
    if isinstance(value, list):
        return [_template_value(item) for item in value]
    return value


def template_meta(meta: dict) -> dict:
    """page.meta as the theme's templates print it: every string (top level, or in a list) as HTML text.

    Material prints page.meta.title, .description, .author, .subtitle, ... unescaped, and
    MkDocs takes page.title (nav, header, footer, search) from meta["title"].
    """
    return {key: _template_value(value) for key, value in meta.items()}
