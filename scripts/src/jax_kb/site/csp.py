"""A Content-Security-Policy for every page: the third line of defence, after the lint and the
sanitizer (scripts/src/jax_kb/site/sanitize.py).

The page may load scripts, styles, images, fonts and data from the site only, submit forms
only to it, embed nothing, and set no <base>. Inline scripts run only if a template wrote
them: each inline script of the finished page is compared with those of Material's templates
(partials/javascripts/) and of the project's overrides/, whose Jinja expressions may only have
put a URL or (through tojson) JSON into them, and the hashes of the ones that match are the
page's policy. A script that got into the page any other way does not run. Styles stay open to inline use, which Material's palette and
components need; they can still load nothing from elsewhere.

Script files run only from the exact paths of the theme's own (Material's and overrides/): the
page's <script src> and Material's search worker, each allowed only where the theme provides
that file (the build publishes no script of docs/: jax_kb/site/published_files.py). A path in a policy needs a host, and the site is served from more
than one (its site_url, `make serve`, the tests), so a second policy names the paths on any
host and the first keeps scripts to the page's own origin ('self'): a browser enforces both.
"""
from __future__ import annotations

import base64
import functools
import hashlib
import json
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlsplit

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
SOURCE = re.compile(r"""\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)
CONFIG = re.compile(r"""<script\b[^>]*\bid=["']?__config\b[^>]*>(?P<body>.*?)</script>""", re.S | re.I)


@dataclass(frozen=True)
class Theme:
    """Where the site's own scripts come from, and where the site is served."""
    overrides: Path | None  # the theme's custom_dir: the project's overrides/
    dirs: tuple[str, ...]  # the theme's folders, custom_dir first (config.theme.dirs)
    site_path: str  # the site root's path on its host, "/jax-kb/"

    @classmethod
    def of(cls, config, site_path: str) -> Theme:
        custom_dir = config.theme.custom_dir
        return cls(Path(custom_dir) if custom_dir else None, tuple(config.theme.dirs), site_path)


@functools.cache
def _theme_file(path: str, dirs: tuple[str, ...]) -> bool:
    """Whether the site file at this path (relative to its root) is one of the theme's."""
    parts = path.split("/")
    return bool(path) and ".." not in parts and "" not in parts and any(Path(d, path).is_file() for d in dirs)


def _script_urls(page: str) -> list[str]:
    """The script files the page loads: its <script src> and Material's search worker."""
    urls = [next(filter(None, m.groups())) for script in INLINE_SCRIPT.finditer(page)
            if (m := SOURCE.search(script["attributes"]))]
    for config in CONFIG.finditer(page):
        try:
            search = json.loads(config["body"]).get("search")
        except (ValueError, AttributeError):
            continue
        if isinstance(search, str):
            urls.append(search)
    return urls


def theme_script_paths(page: str, page_path: str, theme: Theme) -> list[str]:
    """The absolute paths of the theme's script files that the page loads; page_path: where it is served."""
    paths = []
    for url in _script_urls(page):
        parts = urlsplit(urljoin(page_path, url.strip()))
        path = posixpath.normpath(parts.path) if parts.path else ""
        if parts.scheme or parts.netloc or not path.startswith(theme.site_path):
            continue
        if _theme_file(path[len(theme.site_path):], theme.dirs) and path not in paths:
            paths.append(path)
    return paths


def _script_hashes(page: str, overrides: Path | None) -> list[str]:
    hashes = []
    for m in INLINE_SCRIPT.finditer(page):
        if "src=" in m["attributes"] or DATA_BLOCK.search(m["attributes"]):
            continue  # a file (allowed by path, below), or JSON that never runs
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


def script_policy(page: str, page_path: str, theme: Theme) -> str:
    """The second policy: scripts only the theme's own, inline by hash and files by exact path (on any host,
    with any port: the first policy keeps them to the page's own origin)."""
    sources = [*_script_hashes(page, theme.overrides),
               *(f"*:*{path}" for path in theme_script_paths(page, page_path, theme))]
    return f"script-src {' '.join(sources) or "'none'"}"


def with_policy(page: str, page_path: str, theme: Theme) -> str:
    """The page with its policies as the first elements of <head>, before anything they govern."""
    head = HEAD.search(page)
    if head is None:
        return page  # a template without a <head> of its own
    metas = "".join(f'\n    <meta http-equiv="Content-Security-Policy" content="{content}">'
                    for content in (policy(page, theme.overrides), script_policy(page, page_path, theme)))
    return page[:head.end()] + metas + page[head.end():]
