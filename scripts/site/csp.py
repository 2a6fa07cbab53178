"""A Content-Security-Policy for every page: the third line of defence, after the lint and the
sanitizer (scripts/site/sanitize.py).

The page may load scripts, styles, images, fonts and data from the site only, submit forms
only to it, embed nothing, and set no <base>. Inline scripts run only if they are the theme's
own: each inline script of the finished page is compared with those of Material's templates
(partials/javascripts/), whose Jinja expressions may only have put a URL into them, and the
hashes of the ones that match are the page's policy. A script that got into the page any
other way does not run. Styles stay open to inline use, which Material's palette and
components need; they can still load nothing from elsewhere.
"""
from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import material

INLINE_SCRIPT = re.compile(r"<script(?P<attributes>[^>]*)>(?P<body>.*?)</script>", re.S | re.I)
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
# What a template expression in a theme script (base_url, a scope) may render to: no quote, no tag.
RENDERED_URL = r"[^\"'<>\\]*"
THEME_SCRIPTS = Path(material.__file__).parent / "templates" / "partials" / "javascripts"


def _theme_scripts() -> list[re.Pattern]:
    patterns = []
    for template in sorted(THEME_SCRIPTS.glob("*.html")):
        for m in INLINE_SCRIPT.finditer(template.read_text(encoding="utf-8")):
            if not m["attributes"].strip():
                parts = JINJA.split(m["body"])
                patterns.append(re.compile(RENDERED_URL.join(map(re.escape, parts)), re.S))
    return patterns


THEME = _theme_scripts()
DATA_BLOCK = re.compile(r"""\btype\s*=\s*["']?application/json""", re.I)
HEAD = re.compile(r"<head[^>]*>", re.I)


def _script_hashes(page: str) -> list[str]:
    hashes = []
    for m in INLINE_SCRIPT.finditer(page):
        if "src=" in m["attributes"] or DATA_BLOCK.search(m["attributes"]):
            continue  # a file of the site (script-src 'self'), or JSON that never runs
        if not any(pattern.fullmatch(m["body"]) for pattern in THEME):
            continue
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
