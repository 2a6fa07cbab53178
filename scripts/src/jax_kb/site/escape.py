"""Front matter is text, never markup: escaping for each place the site puts it.

MkDocs does not autoescape its templates, and Material prints page.meta fields (title,
description, author, ...) and page titles as HTML; the hooks' generated Markdown (term
index, related list) is read as Markdown, where a title could open a tag, a link or a new
block. Every front matter value goes through one of these before it is placed.
"""
from __future__ import annotations

import html
import re

from jax_kb.markdown.frontmatter import schema_values

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


def template_meta(meta: dict) -> dict:
    """page.meta as the theme's templates print it: the keys and types of the front matter schema
    (jax_kb/markdown/frontmatter.py), every string as HTML text, and the summary as the description.

    Material prints page.meta.title, .description, .subtitle, ... unescaped, and MkDocs takes
    page.title (nav, header, footer, search) from meta["title"]; any other key or type (a
    mapping, a set, bytes) would be printed as Python writes it, unescaped.
    """
    values = schema_values(meta)
    if "summary" in values:
        values["description"] = values["summary"]
    return {key: [html_text(item) for item in value] if isinstance(value, list) else html_text(value)
            for key, value in values.items()}
