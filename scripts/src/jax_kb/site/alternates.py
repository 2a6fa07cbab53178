"""The head's hreflang alternates point at each language's home, with the sitemap beside it.

Material reads every `<link rel="alternate">` of the head as a language's root and fetches
the sitemap.xml next to it; mkdocs-static-i18n makes them the page's own translations, so
each page view asked for five sitemaps that do not exist. The head names the language
roots, each root gets the site's sitemap (it lists every page with its hreflang
alternates, written by mkdocs-static-i18n), and the switcher keeps the page links.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from mkdocs.utils import get_relative_url

ALTERNATE = re.compile(r'<link rel="alternate" href="[^"]*" hreflang="(?P<lang>[\w-]+)">')
SITEMAPS = ("sitemap.xml", "sitemap.xml.gz")


def head_to_language_roots(output: str, page_url: str, default: str) -> str:
    """Each alternate names its language's root, relative to the page (page_url, "ru/glossary/vmap/"),
    so that it holds wherever the site is mounted."""
    def root(match: re.Match) -> str:
        lang = match["lang"]
        href = get_relative_url("." if lang == default else f"{lang}/", page_url).rstrip("/") + "/"
        return f'<link rel="alternate" href="{href}" hreflang="{lang}">'

    return ALTERNATE.sub(root, output)


def copy_sitemaps(site_dir: Path, languages: list[str], default: str) -> None:
    for lang in languages:
        if lang == default:
            continue
        for name in SITEMAPS:
            if (site_dir / name).is_file():
                (site_dir / lang).mkdir(parents=True, exist_ok=True)
                shutil.copyfile(site_dir / name, site_dir / lang / name)
