"""Defence in depth behind the lint: every page's rendered HTML is cleaned by nh3 (the Ammonia
sanitizer) before the hooks add their notices, so raw HTML that slipped past the lint (a page
linted by nobody, a trick the lint does not know) cannot run, load or redirect anything.

What survives is the allowlist a page's author may write (scripts/src/jax_kb/lint/allowlist.py), plus
what the Markdown extensions themselves generate: tabs and task lists (input, label, the
data-tabs that Material's linked tabs read), emoji (inline SVG paths), code line anchors
(name), aligned table cells (text-align only), and the hooks' own data- markers.
Comments stay: the hooks' generated-sections marker is one.

Ids and names the theme or the site give their own elements (lint/allowlist.py: reserved_id)
are taken off the page's own elements, so that the theme's scripts find only their own
(DOM clobbering); the Markdown extensions' own (tabs, code line anchors) stay where they put
them, and the site's (related, start-here, ...) in the sections the hooks generate. Every link
gets rel="noopener noreferrer": a page opened from it cannot reach back to this one.
"""
from __future__ import annotations

import html
import re

import nh3

from jax_kb.lint.allowlist import ALLOWED_TAGS, GLOBAL_ATTRIBUTES, TAG_ATTRIBUTES, THEME_ID, reserved_id
from jax_kb.lint.url_policy import ALLOWED_SCHEMES, image_problem
from jax_kb.site.notices import GENERATED

GENERATED_TAGS = {"input", "label", "svg", "path", "g"}
GENERATED_ATTRIBUTES = {
    "a": {"name", "title"}, "div": {"data-tabs"}, "input": {"type", "id", "name", "checked", "disabled"},
    "label": {"for"},
    "svg": {"xmlns", "viewBox", "width", "height", "fill"}, "path": {"d", "fill"}, "g": {"fill"},
    "td": {"style"}, "th": {"style"},
}
# Material's search leaves out what carries data-search-exclude; the hooks mark what they generate
# in the Markdown with data-kb-* and an expected-error block with data-raises. None does anything else.
ANY_TAG = GLOBAL_ATTRIBUTES - {"markdown"} | {"data-search-exclude", "data-raises"}
PROJECT_DATA = {"data-kb-"}


# The ids and names in the theme's namespace that the Markdown extensions generate: content tabs
# (pymdownx.tabbed) and code line anchors and spans (pymdownx.highlight).
EXTENSION_IDS = {"input": re.compile(r"__tabbed_\d+(?:_\d+)?"), "a": re.compile(r"__codelineno-\d+-\d+"),
                 "span": re.compile(r"__span-\d+-\d+")}
IDS = ("id", "name")


def _attributes() -> dict[str, set[str]]:
    tags = {tag: set(TAG_ATTRIBUTES.get(tag, ())) - {"rel"} for tag in ALLOWED_TAGS | GENERATED_TAGS}
    for tag, names in GENERATED_ATTRIBUTES.items():
        tags[tag] |= names
    return {"*": set(ANY_TAG), **tags}


def _filter(tag: str, attribute: str, value: str, site_ids: bool = False) -> str | None:
    if tag == "img" and attribute == "src" and image_problem(value, decoded=True):
        return None  # an image from another site would tell it who reads the page
    if attribute in IDS and reserved_id(value):
        generated = EXTENSION_IDS.get(tag)
        if not (generated and generated.fullmatch(value) or site_ids and not THEME_ID.match(value.strip())):
            return None
    if attribute == "title":
        # Material's tooltips put the title into the page as HTML: it must hold HTML text.
        return html.escape(value, quote=False)
    return value


def _cleaner(site_ids: bool) -> nh3.Cleaner:
    return nh3.Cleaner(tags=ALLOWED_TAGS | GENERATED_TAGS, attributes=_attributes(),
                       url_schemes=set(ALLOWED_SCHEMES), generic_attribute_prefixes=PROJECT_DATA,
                       link_rel="noopener noreferrer", strip_comments=False, filter_style_properties={"text-align"},
                       attribute_filter=lambda tag, attribute, value: _filter(tag, attribute, value, site_ids))


PAGE = _cleaner(site_ids=False)
GENERATED_SECTIONS = _cleaner(site_ids=True)
TEXT_ONLY = nh3.Cleaner(tags=set())


def page_html(html: str) -> str:
    """The page's HTML, cleaned; the sections the hooks generated (after their marker, which
    the page's own text comes before) may keep the site's ids."""
    own, marker, generated = html.rpartition(GENERATED)
    if not marker:
        return PAGE.clean(html)
    return PAGE.clean(own) + marker + GENERATED_SECTIONS.clean(generated)


def toc_titles(toc) -> None:
    """Heading titles of the table of contents, as text: Material prints them unescaped."""
    for item in toc:
        item.title = TEXT_ONLY.clean(item.title)
        toc_titles(item.children)
