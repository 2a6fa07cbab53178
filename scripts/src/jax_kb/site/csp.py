"""A Content-Security-Policy for every page: the third line of defence, after the lint and the
sanitizer (scripts/src/jax_kb/site/sanitize.py).

The page may load scripts, styles, images, fonts and data from the site only, submit forms
only to it, embed nothing, and set no <base>. Inline scripts run only if a template wrote
them: each inline script of the finished page is compared with those of Material's templates
(partials/javascripts/) and of the project's overrides/, whose Jinja expressions may only have
put a URL or (through tojson) JSON into them, and the hashes of the ones that match are the
page's policy. A script that got into the page any other way does not run. Styles stay open to inline use, which Material's palette and
components need; they can still load nothing from elsewhere.
"""
from __future__ import annotations

import base64
import functools
import hashlib
import re
from pathlib import Path

import material

INLINE_SCRIPT = re.compile(r"<script(?P<attributes>[^>]*)>(?P<body>.*?)</script>", re.S | re.I)
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
# What a template expression may have rendered: a URL (no quote, no tag), or tojson's JSON, which
# Jinja keeps free of <, >, & and '.
RENDERED_URL = r"[^\"'<>\\]*"
RENDERED_JSON = r"[^<>&']*?"
WHITE_SPACE = re.compile(r"\s+")
THEME_SCRIPTS = Path(material.__file__).parent / "templates" / "partials" / "javascripts"


def _literal(text: str) -> str:
    # Jinja's whitespace control ({{- -}}) may have taken the white space around an expression.
    return r"\s*".join(map(re.escape, WHITE_SPACE.split(text)))


def _pattern(body: str) -> re.Pattern:
    parts, end = [], 0
    for m in JINJA.finditer(body):
        parts += [_literal(body[end:m.start()]), RENDERED_JSON if "tojson" in m[0] else RENDERED_URL]
        end = m.end()
    return re.compile("".join([*parts, _literal(body[end:])]), re.S)


@functools.cache
def theme_scripts(overrides: Path | None) -> tuple[re.Pattern, ...]:
    """The inline scripts of Material's templates and of the theme's custom_dir (the project's overrides)."""
    templates = [*sorted(THEME_SCRIPTS.glob("*.html")), *(sorted(overrides.rglob("*.html")) if overrides else [])]
    return tuple(_pattern(m["body"]) for template in templates
                 for m in INLINE_SCRIPT.finditer(template.read_text(encoding="utf-8")) if not m["attributes"].strip())
DATA_BLOCK = re.compile(r"""\btype\s*=\s*["']?application/json""", re.I)
HEAD = re.compile(r"<head[^>]*>", re.I)


def _script_hashes(page: str, overrides: Path | None) -> list[str]:
    hashes = []
    for m in INLINE_SCRIPT.finditer(page):
        if "src=" in m["attributes"] or DATA_BLOCK.search(m["attributes"]):
            continue  # a file of the site (script-src 'self'), or JSON that never runs
        if not any(pattern.fullmatch(m["body"]) for pattern in theme_scripts(overrides)):
            continue
        digest = base64.b64encode(hashlib.sha256(m["body"].encode("utf-8")).digest()).decode("ascii")
        if f"'sha256-{digest}'" not in hashes:
            hashes.append(f"'sha256-{digest}'")
    return hashes


def policy(page: str, overrides: Path | None = None) -> str:
    return "; ".join([
        "default-src 'self'", f"script-src {' '.join(["'self'", *_script_hashes(page, overrides)])}",
        "style-src 'self' 'unsafe-inline'", "img-src 'self' data:", "font-src 'self' data:",
        "connect-src 'self'", "frame-src 'none'", "object-src 'none'", "base-uri 'none'", "form-action 'self'",
    ])


def with_policy(page: str, overrides: Path | None = None) -> str:
    """The page with its policy as the first element of <head>, before anything it governs."""
    head = HEAD.search(page)
    if head is None:
        return page  # a template without a <head> of its own
    meta = f'\n    <meta http-equiv="Content-Security-Policy" content="{policy(page, overrides)}">'
    return page[:head.end()] + meta + page[head.end():]
