"""Which addresses a page may link to or load: paths in the site, https: and mailto:.

The scheme is read the way a browser reads it, after character references are decoded
(`jav&#x61;script:`, `javascript&colon;`) and with the control characters and spaces that
browsers drop taken out (`java\tscript:`).
"""
from __future__ import annotations

import html
import re

ALLOWED_SCHEMES = ("https", "mailto")
SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
IGNORED_IN_SCHEME = re.compile(r"[\x00-\x20]")


def image_problem(target: str, decoded: bool = False) -> str | None:
    """What is wrong with an image address: an image from another site tells that site who reads the page."""
    if problem := url_problem(target, decoded):
        return problem
    url = IGNORED_IN_SCHEME.sub("", target if decoded else html.unescape(target))
    if SCHEME.match(url) or url.startswith("//"):
        return f"image {target!r} from another site: put the file in docs/ and link to it by its path"
    return None


def url_problem(target: str, decoded: bool = False) -> str | None:
    """What is wrong with a link or image address; None for one the site allows.

    decoded: the address was already read from HTML (html.parser decodes attribute values),
    so its character references must not be decoded a second time.
    """
    url = IGNORED_IN_SCHEME.sub("", target if decoded else html.unescape(target))
    scheme = SCHEME.match(url)
    if scheme is None:
        return None  # a path in the site, or an anchor
    name = scheme[1].lower()
    if name in ALLOWED_SCHEMES:
        return None
    if name == "javascript":
        return f"javascript: URL {target!r}: links may not run code"
    if name == "data":
        return f"data: URL {target[:40]!r}: put the file in docs/ and link to it by its path"
    if name == "http":
        return f"plain http:// link {target!r}: use https://"
    return f"{name}: URL {target!r}: links may use only https:, mailto: or a path in the site"
