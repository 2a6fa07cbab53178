"""MkDocs hooks: the site's use of the project's one Markdown reader.

mkdocs-static-i18n builds each language in turn; these hooks run in every
one of those builds and read the pages through scripts.catalog.
"""
from __future__ import annotations

import logging
import os
import posixpath
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.catalog import Catalog, load_catalog, ui_string  # noqa: E402

log = logging.getLogger("mkdocs.hooks.jax_kb")

_state: dict = {"key": None, "catalog": None, "reported": set()}


def _docs_state(docs_dir: Path, snippets: list[str]) -> tuple:
    files = [p for base in [docs_dir, *map(Path, snippets)] for p in sorted(Path(base).rglob("*")) if p.is_file()]
    return tuple((str(p), p.stat().st_mtime_ns) for p in files)


def catalog(config) -> Catalog:
    """The catalog of docs/, read again only when a file changed (live reload)."""
    cat = _state["catalog"]
    base = cat.config if cat else None
    if base is None:
        from scripts.markdown import load_site_config
        base = load_site_config(Path(config.config_file_path).resolve())
    key = _docs_state(base.docs_dir, base.snippets["base_path"])
    if key != _state["key"]:
        _state.update(key=key, catalog=load_catalog(base), reported=set())
    return _state["catalog"]


def _report_once(message: str) -> None:
    if message not in _state["reported"]:
        _state["reported"].add(message)
        log.error(message)


def on_files(files, config):
    for error in catalog(config).errors:
        _report_once(str(error))
    return files


def _language(config) -> str:
    return config.theme.get("language") or catalog(config).config.default_language


def _related_section(page, lang: str, cat: Catalog) -> str:
    slugs = page.meta.get("related") or []
    items = []
    here = posixpath.dirname(page.file.src_uri)
    for slug in slugs:
        page_id = cat.slugs().get(slug)
        target = cat.page(page_id, lang) if page_id else None
        if target is None:
            continue
        link = posixpath.relpath(page_id + ".md", here or ".")
        items.append(f"- [{target.meta.get('title', slug)}]({link})")
    if not items:
        return ""
    return f"\n\n## {ui_string(lang, 'related')} {{ #related }}\n\n" + "\n".join(items) + "\n"


def on_page_markdown(markdown, page, config, files):
    cat = catalog(config)
    lang = _language(config)
    source = Path(os.path.relpath(page.file.abs_src_path, cat.config.root)).as_posix()
    if not any(p.path == source for p in cat.all_pages()):
        # Unreadable, reported in on_files: keep pymdownx.snippets from aborting the whole build on it.
        return markdown.replace("--8<--", ";--8<--")
    if page.meta.get("summary"):
        page.meta.setdefault("description", page.meta["summary"])
    return markdown + _related_section(page, lang, cat)
