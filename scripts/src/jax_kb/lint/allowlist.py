"""The raw HTML a page may contain: text markup, tables, images and links, nothing that runs,
loads, restyles, redirects or sends anything. Anything not listed here is refused."""
from __future__ import annotations

import re

from jax_kb.lint.url_policy import image_problem, url_problem

ALLOWED_TAGS = frozenset({
    "a", "abbr", "b", "blockquote", "br", "caption", "cite", "code", "col", "colgroup", "dd", "del", "details",
    "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img",
    "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "s", "samp", "small", "span", "strong", "sub", "summary",
    "sup", "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr", "u", "ul", "var", "wbr",
})
# markdown: md_in_html's switch for Markdown inside a block of HTML.
GLOBAL_ATTRIBUTES = frozenset({"class", "id", "title", "lang", "dir", "markdown"})
TAG_ATTRIBUTES = {
    "a": {"href", "hreflang", "rel", "target"},
    "img": {"src", "alt", "width", "height", "loading", "align"},
    "td": {"colspan", "rowspan", "align"}, "th": {"colspan", "rowspan", "align", "scope"},
    "col": {"span"}, "colgroup": {"span"},
    "ol": {"start", "type", "reversed"}, "li": {"value"},
    "details": {"open"}, "time": {"datetime"},
    "blockquote": {"cite"}, "q": {"cite"}, "del": {"cite", "datetime"}, "ins": {"cite", "datetime"},
}
URL_ATTRIBUTES = frozenset({"href", "src", "cite"})
# What an attribute list ({: ...} after a heading, a paragraph, a link or an image) may set:
# it does not know its element, so it gets every attribute that is harmless on any of them.
ATTR_LIST_ATTRIBUTES = GLOBAL_ATTRIBUTES | {"href", "src", "alt", "width", "height", "loading", "align",
                                            "target", "rel", "hreflang"}
TAG_REASONS = {
    "script": "pages may not run or embed other documents; link to the content instead",
    "iframe": "pages may not run or embed other documents; link to the content instead",
    "object": "pages may not run or embed other documents; link to the content instead",
    "embed": "pages may not run or embed other documents; link to the content instead",
    "base": "it changes where every link of the page leads",
    "meta": "it can reload the page elsewhere (http-equiv=refresh)",
    "style": "it restyles the whole site and can load from other sites: use a class",
    "link": "it loads styles or documents from other sites",
    "form": "it sends what the reader types to another address",
    "svg": "SVG carries links and scripts of its own: save the drawing as a PNG and show it as an image",
    "math": "MathML carries links of its own",
}


# Ids (and names) that the theme and the site give their own elements. A page element with one of
# them comes first in the document, so the theme's script finds it instead of its own (DOM
# clobbering): document.querySelector("#__config") would read a page's JSON as Material's
# configuration, and the copy button's "#__code_0 > code" would copy a page's hidden text.
# Material's ids all begin with "__" (__config, __drawer, __search, __palette_0, __nav_1,
# __code_0, ...); the site's generated sections use the others.
THEME_ID = re.compile(r"__")
SITE_IDS = re.compile(r"related|start-here|letter-[\w-]+")


def reserved_id(value: str) -> bool:
    value = value.strip()
    return bool(THEME_ID.match(value) or SITE_IDS.fullmatch(value.lower()))


def id_problem(value: str) -> str | None:
    if reserved_id(value):
        return (f"id {value.strip()!r} is one the theme or the site gives its own elements (Material's begin "
                "with __; related, start-here, letter-…): choose another")
    return None


def tag_problem(tag: str) -> str | None:
    if tag in ALLOWED_TAGS:
        return None
    reason = TAG_REASONS.get(tag, "it is not one of the tags a page may use (scripts/src/jax_kb/lint/allowlist.py)")
    return f"raw <{tag}> tag: {reason}"


def attribute_problem(tag: str | None, name: str, value: str | None, shown: str) -> str | None:
    """What is wrong with one attribute; tag None for an attribute list. shown: the name as written."""
    lower = name.lower()
    if lower.startswith("on"):
        return f"event attribute {shown}= runs JavaScript: remove it"
    if lower == "style":
        return "style= can load from other sites and restyle the page: use a class"
    allowed = ATTR_LIST_ATTRIBUTES if tag is None else GLOBAL_ATTRIBUTES | TAG_ATTRIBUTES.get(tag, set())
    if lower not in allowed:
        where = "in an attribute list" if tag is None else f"on <{tag}>"
        return f"attribute {shown}= is not allowed {where}"
    if lower == "id" and value is not None:
        return id_problem(value)
    if lower == "rel" and value is not None and "opener" in value.lower().split():
        return ("rel=opener lets the linked page take over this tab (reverse tabnabbing): remove it; the site "
                'gives every link rel="noopener noreferrer"')
    if lower in URL_ATTRIBUTES and value is not None:
        check = image_problem if lower == "src" else url_problem
        return check(value, decoded=tag is not None)
    return None
