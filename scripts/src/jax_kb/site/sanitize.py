"""Defence in depth behind the lint: every page's rendered HTML is cleaned by nh3 (the Ammonia
sanitizer) before the hooks add their notices, so raw HTML that slipped past the lint (a page
linted by nobody, a trick the lint does not know) cannot run, load or redirect anything.

What survives is the allowlist a page's author may write (scripts/src/jax_kb/lint/allowlist.py), plus
what the Markdown extensions themselves generate: tabs and task lists (input, label, the
data-tabs that Material's linked tabs read), emoji (inline SVG paths), code line anchors
(name), aligned table cells (text-align only), and the hooks' own data- markers.
Comments stay: the hooks' generated-sections marker is one.
"""
from __future__ import annotations

import html

import nh3

from jax_kb.lint.allowlist import ALLOWED_TAGS, GLOBAL_ATTRIBUTES, TAG_ATTRIBUTES
from jax_kb.lint.url_policy import ALLOWED_SCHEMES, image_problem

GENERATED_TAGS = {"input", "label", "svg", "path", "g"}
GENERATED_ATTRIBUTES = {
    "a": {"name", "title", "rel"}, "div": {"data-tabs"}, "input": {"type", "id", "name", "checked", "disabled"},
    "label": {"for"},
    "svg": {"xmlns", "viewBox", "width", "height", "fill"}, "path": {"d", "fill"}, "g": {"fill"},
    "td": {"style"}, "th": {"style"},
}
# Material's search leaves out what carries data-search-exclude; the hooks mark what they generate
# in the Markdown with data-kb-* and an expected-error block with data-raises. None does anything else.
ANY_TAG = GLOBAL_ATTRIBUTES - {"markdown"} | {"data-search-exclude", "data-raises"}
PROJECT_DATA = {"data-kb-"}


def _attributes() -> dict[str, set[str]]:
    tags = {tag: set(TAG_ATTRIBUTES.get(tag, ())) for tag in ALLOWED_TAGS | GENERATED_TAGS}
    for tag, names in GENERATED_ATTRIBUTES.items():
        tags[tag] |= names
    return {"*": set(ANY_TAG), **tags}


def _filter(tag: str, attribute: str, value: str) -> str | None:
    if tag == "img" and attribute == "src" and image_problem(value, decoded=True):
        return None  # an image from another site would tell it who reads the page
    if attribute == "title":
        # Material's tooltips put the title into the page as HTML: it must hold HTML text.
        return html.escape(value, quote=False)
    return value


CLEANER = nh3.Cleaner(tags=ALLOWED_TAGS | GENERATED_TAGS, attributes=_attributes(), url_schemes=set(ALLOWED_SCHEMES),
                      generic_attribute_prefixes=PROJECT_DATA, link_rel=None, strip_comments=False,
                      filter_style_properties={"text-align"}, attribute_filter=_filter)


TEXT_ONLY = nh3.Cleaner(tags=set())


def page_html(html: str) -> str:
    return CLEANER.clean(html)


def toc_titles(toc) -> None:
    """Heading titles of the table of contents, as text: Material prints them unescaped."""
    for item in toc:
        item.title = TEXT_ONLY.clean(item.title)
        toc_titles(item.children)
