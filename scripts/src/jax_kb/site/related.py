"""The "Related" list a page gets from its front matter `related`, with the titles of the language read."""
from __future__ import annotations

import posixpath
from urllib.parse import quote

from jax_kb.catalog import Catalog, ui_string

from jax_kb.site.escape import markdown_text


def related_section(meta: dict, src_uri: str, lang: str, cat: Catalog) -> str:
    items = []
    here = posixpath.dirname(src_uri)
    slugs = cat.slugs()
    for slug in meta.get("related") or []:
        page_id = slugs.get(slug)
        target = cat.page(page_id, lang) if page_id else None
        if target is None:
            continue
        link = quote(posixpath.relpath(page_id + ".md", here or "."))  # a file name cannot close the link
        items.append(f"- [{markdown_text(target.meta.get('title', slug))}]({link})")
    if not items:
        return ""
    return f"\n\n## {markdown_text(ui_string(lang, 'related'))} {{ #related }}\n\n" + "\n".join(items) + "\n"
