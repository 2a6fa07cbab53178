"""A 404 page per language, at /<lang>/404.html, in that language, linking its home and glossary.

Every language build renders Material's 404.html to the site root, each over the last; the
hooks write a non-default language's page to its own folder instead and leave the root
English. A server sends a missing /ru/... path the page /ru/404.html.
"""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from jax_kb.catalog import ui_string


def context(lang: str, prefix: str, site_url: str, languages: list[str]) -> dict:
    """What overrides/404.html shows; prefix is the language's folder ("ru/"), empty for the default.

    The default language's page, the one a host serves for every missing page, gets the
    other languages: overrides/main.html shows a missing /ru/... page the Russian one.
    """
    base = urlsplit(site_url or "/").path or "/"
    base = base if base.endswith("/") else base + "/"
    return {"title": ui_string(lang, "not_found_title"), "text": ui_string(lang, "not_found"),
            "home": base + prefix, "home_label": ui_string(lang, "home"),
            "glossary": base + prefix + "glossary/", "glossary_label": ui_string(lang, "glossary"),
            "languages": [] if prefix else languages}


def write(output: str, site_dir: str, prefix: str) -> str:
    """Writes a non-default language's 404 page to its folder; what mkdocs should write at the root."""
    if not prefix:
        return output
    target = Path(site_dir) / prefix / "404.html"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(output, encoding="utf-8")
    return ""  # mkdocs skips writing an empty page, keeping the root's English 404
