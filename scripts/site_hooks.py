"""MkDocs hooks: the site's use of the project's one Markdown reader.

mkdocs-static-i18n builds each language in turn; these hooks run in every one of those
builds, read the pages through scripts.catalog and hand each reader feature to its module
in scripts/site/.
"""
from __future__ import annotations

import copy
import logging
import os
import sys
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.catalog import Catalog, load_catalog, ui_string  # noqa: E402
from scripts.markdown import InputError, Page  # noqa: E402
from scripts.site import (accessibility, alternates, code_labels, csp, home, nav_order, not_found,  # noqa: E402
                          notices, numbers, sanitize, search_index, template_cache, term_index, tooltips,
                          verified)
from scripts.site.escape import template_meta  # noqa: E402
from scripts.site.related import related_section  # noqa: E402

log = logging.getLogger("mkdocs.hooks.jax_kb")

_state: dict = {"key": None, "catalog": None, "reported": set(), "runs": []}


def _docs_state(docs_dir: Path, snippets: list[str]) -> tuple:
    files = [p for base in [docs_dir, *map(Path, snippets)] for p in sorted(Path(base).rglob("*")) if p.is_file()]
    return tuple((str(p), p.stat().st_mtime_ns) for p in files)


def catalog(config, refresh: bool = False) -> Catalog:
    """The catalog of docs/; refreshed at the start of each build, read again only if a file changed (live reload)."""
    cat = _state["catalog"]
    if cat is not None and not refresh:
        return cat
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


def _language(config) -> str:
    return config.theme.get("language") or catalog(config).config.default_language


def _folder(config) -> str:
    """This build's language folder ("ru/"); empty for the language at the site root."""
    lang = _language(config)
    return "" if lang == config.plugins["i18n"].default_language else f"{lang}/"


def _site_path(config) -> str:
    """The path of the site's root on its host ("/jax-kb/")."""
    path = urlsplit(config.site_url or "/").path or "/"
    return path if path.endswith("/") else path + "/"


def _source(page, cat: Catalog) -> Page | None:
    """The catalog's reading of the file a page is built from; None when it could not be read."""
    path = Path(os.path.relpath(page.file.abs_src_path, cat.config.root)).as_posix()
    return next((p for p in cat.all_pages() if p.path == path), None)


@event_priority(-110)  # after mkdocs-static-i18n has set this build's language
def on_config(config):
    cat = catalog(config, refresh=True)
    config.mdx_configs["abbr"] = {**config.mdx_configs.get("abbr", {}),
                                  "glossary": tooltips.abbreviations(cat, _language(config))}
    config.extra["language_root"] = _folder(config)  # overrides/main.html: where this language's search index is
    # toc's permalink title is no theme string, and the i18n plugin may not override mdx_configs.
    config.extra["theme_strings"] = ui_string(_language(config), "theme")  # overrides/partials/language.html
    config.mdx_configs["toc"] = {**config.mdx_configs.get("toc", {}),
                                 "permalink_title": ui_string(_language(config), "permalink")}
    try:
        _state["runs"] = verified.load_runs(cat.config.root)
    except InputError as exc:
        raise PluginError(str(exc)) from None
    return config


def on_env(env, config, files):
    env.bytecode_cache = template_cache.CACHE
    return env


def on_files(files, config):
    for error in catalog(config).errors:
        _report_once(str(error))
    return files


def on_page_markdown(markdown, page, config, files):
    if page.meta.get("summary"):
        page.meta.setdefault("description", page.meta["summary"])
    page.meta.update(template_meta(page.meta))  # Material prints meta fields and titles as HTML
    cat = catalog(config)
    lang = _language(config)
    source = _source(page, cat)
    if source is None:
        # Unreadable, reported in on_files: keep pymdownx.snippets from aborting the whole build on it.
        return markdown.replace("--8<--", ";--8<--")
    page.meta["search"] = {**(page.meta.get("search") or {}), "boost": search_index.boost(source)}
    page.meta["tags"] = search_index.search_tags(source)
    if source.lang != lang:
        # An English fallback belongs to the English search index, not to this language's.
        page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
    return (f"{code_labels.labelled(markdown, lang)}\n\n{notices.GENERATED}\n"
            + home.start_here(source.page_id, lang, cat)
            + term_index.index_section(source.page_id, lang, cat)
            + related_section(page.meta, page.file.src_uri, lang, cat))


def on_page_content(html, page, config, files):
    html = sanitize.page_html(html)  # the page's own HTML; the hooks' notices are added after
    sanitize.toc_titles(page.toc)
    cat = catalog(config)
    lang = _language(config)
    source = _source(page, cat)
    if source is None:
        return html
    english = page.file.alternates.get(cat.config.default_language)
    english_link = get_relative_url(english.url, page.url) if english else ""
    badge = verified.verified_badge(source, _state["runs"], lang, _site_path(config))
    own_summary = source.meta.get("summary") if source.meta.get("kind") == "term" else None
    html = tooltips.first_mentions(html, own_summary if isinstance(own_summary, str) else None)
    html = numbers.keep_numbers_together(html)
    return _below_title(notices.with_notices(html, source, lang, cat, english_link), badge)


def _below_title(html: str, badge: str) -> str:
    """The badge right after the page's first heading; first on a page without one."""
    head, found, rest = html.partition("</h1>")
    return head + found + badge + rest if found else badge + html


def on_template_context(context, template_name, config):
    if template_name == "404.html":
        i18n = config.plugins["i18n"]
        if i18n.extra_alternate:
            # The switcher would otherwise keep the links of the last page rendered (set the way the plugin sets them).
            config.extra.alternate = copy.deepcopy(i18n.extra_alternate)
        others = [lang for lang in i18n.build_languages if lang != i18n.default_language]
        context["not_found"] = not_found.context(_language(config), _folder(config), config.site_url, others)
    return context


def on_post_template(output, template_name, config):
    if template_name == "404.html":
        return not_found.write(csp.with_policy(output), config.site_dir, _folder(config))
    return output


def on_post_page(output, page, config):
    output = accessibility.named_landmarks(output, ui_string(_language(config), "search"))
    output = alternates.head_to_language_roots(output, _site_path(config), config.plugins["i18n"].default_language)
    return csp.with_policy(output)


@event_priority(-110)  # after mkdocs-static-i18n has built every language and written their joint index
def on_post_build(config):
    i18n = config.plugins["i18n"]
    # The other languages' builds run inside the first one's post_build, with `building` set.
    if not i18n.building and search_index.index_path(Path(config.site_dir), i18n.default_language,
                                                     i18n.default_language).is_file():
        search_index.split_index(Path(config.site_dir), i18n.build_languages, i18n.default_language)
    if not i18n.building:
        alternates.copy_sitemaps(Path(config.site_dir), i18n.build_languages, i18n.default_language)
        verified.copy_reports(_state["runs"], catalog(config).config.root, Path(config.site_dir))


@event_priority(-110)  # after mkdocs-static-i18n has made this language's navigation
def on_nav(nav, config, files):
    cat = catalog(config)

    def title_of(item) -> str | None:
        source = _source(item, cat)
        return str(source.meta["title"]) if source is not None and source.meta.get("title") else None

    nav_order.sort_sections(nav, title_of, _language(config))
    return nav
