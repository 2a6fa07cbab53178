"""A Content-Security-Policy for every page: the third line of defence, after the lint and the
sanitizer (scripts/site/sanitize.py).

The page may load scripts, styles, images, fonts and data from the site only, submit forms
only to it, embed nothing, and set no <base>. Inline scripts run only if they are the ones
the theme rendered into this page: their hashes are taken from the finished page, whose
content the sanitizer has already cleared of scripts. Styles stay open to inline use, which
Material's palette and components need; they can still load nothing from elsewhere.
"""
from __future__ import annotations

import base64
import hashlib
import re

INLINE_SCRIPT = re.compile(r"<script(?P<attributes>[^>]*)>(?P<body>.*?)</script>", re.S | re.I)
DATA_BLOCK = re.compile(r"""\btype\s*=\s*["']?application/json""", re.I)
HEAD = re.compile(r"<head[^>]*>", re.I)


def _script_hashes(page: str) -> list[str]:
    hashes = []
    for m in INLINE_SCRIPT.finditer(page):
        if "src=" in m["attributes"] or DATA_BLOCK.search(m["attributes"]):
            continue  # a file of the site (script-src 'self'), or JSON that never runs
        digest = base64.b64encode(hashlib.sha256(m["body"].encode("utf-8")).digest()).decode("ascii")
        if f"'sha256-{digest}'" not in hashes:
            hashes.append(f"'sha256-{digest}'")
    return hashes


def policy(page: str) -> str:
    return "; ".join([
        "default-src 'self'", f"script-src {' '.join(["'self'", *_script_hashes(page)])}",
        "style-src 'self' 'unsafe-inline'", "img-src 'self' data:", "font-src 'self' data:",
        "connect-src 'self'", "frame-src 'none'", "object-src 'none'", "base-uri 'none'", "form-action 'self'",
    ])


def with_policy(page: str) -> str:
    """The page with its policy as the first element of <head>, before anything it governs."""
    head = HEAD.search(page)
    if head is None:
        return page  # a template without a <head> of its own
    meta = f'\n    <meta http-equiv="Content-Security-Policy" content="{policy(page)}">'
    return page[:head.end()] + meta + page[head.end():]
