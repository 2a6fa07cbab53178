"""The site's MkDocs plugin: the project's one Markdown reader behind every reader feature.

mkdocs-static-i18n builds each language in turn; the plugin's events run in every one of those
builds, read the pages through jax_kb.catalog and hand each reader feature to its module in
jax_kb/site/. Registered as the `jax-kb` plugin (entry point `mkdocs.plugins`); list it after
`i18n` in mkdocs.yml.
"""
from __future__ import annotations

import copy
import logging
import os
from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.config import base, config_options
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import File, InclusionLevel
from mkdocs.utils import get_relative_url

from jax_kb.catalog import Catalog, load_catalog, ui_string
from jax_kb.markdown import InputError, Page, load_site_config
from jax_kb.site import (accessibility, alternates, code_labels, csp, git_dates, home, nav_order, not_found, notebooks,
                         notices, numbers, published_files, sanitize, search_index, template_cache, term_index, tooltips,
                         verification_page, verified)
from jax_kb.site.escape import template_meta
from jax_kb.site.related import related_section
from jax_kb.snippets.project_config import load_project_config

log = logging.getLogger("mkdocs.plugins.jax_kb")


class KnowledgeBaseConfig(base.Config):
    # The engine's reports behind the "verified" badge, relative to mkdocs.yml's folder.
    reports_dir = config_options.Type(str, default="reports")


def _docs_state(docs_dir: Path, snippets: list[str]) -> tuple:
    files = [p for base_dir in [docs_dir, *map(Path, snippets)] for p in sorted(Path(base_dir).rglob("*"))
             if p.is_file()]
    return tuple((str(p), p.stat().st_mtime_ns) for p in files)


def _site_path(config) -> str:
    """The path of the site's root on its host ("/jax-kb/")."""
    path = urlsplit(config.site_url or "/").path or "/"
    return path if path.endswith("/") else path + "/"


def _below_title(html: str, badge: str) -> str:
    """The badge right after the page's first heading; first on a page without one."""
    head, found, rest = html.partition("</h1>")
    return head + found + badge + rest if found else badge + html


class KnowledgeBasePlugin(BasePlugin[KnowledgeBaseConfig]):
    def __init__(self):
        self._key: tuple | None = None
        self._catalog: Catalog | None = None
        self._by_path: dict[str, Page] = {}
        self._reported: set[str] = set()
        self._runs: list = []
        self._backing: dict[str, list[verified.Run] | None] = {}  # per page path, its backing runs in this build
        self._fallbacks: dict[str, set[str]] = {}  # per language, the URLs of its pages shown in English
        self._names: dict[str, dict[str, list[str]]] = {}  # per language and URL, a term's one-word names
        self._project = None  # the snippet engine's settings, for the notebooks (jax_kb/site/notebooks.py)

    def catalog(self, config, refresh: bool = False) -> Catalog:
        """The catalog of docs/; refreshed at the start of each build, read again only if a file changed (live reload)."""
        if self._catalog is not None and not refresh:
            return self._catalog
        site = self._catalog.config if self._catalog else load_site_config(Path(config.config_file_path).resolve())
        key = _docs_state(site.docs_dir, site.snippets["base_path"])
        if key != self._key:
            self._key, self._catalog, self._reported = key, load_catalog(site), set()
            self._by_path = {page.path: page for page in self._catalog.all_pages()}
        return self._catalog

    def _report_once(self, message: str) -> None:
        if message not in self._reported:
            self._reported.add(message)
            log.error(message)

    def _language(self, config) -> str:
        return config.theme.get("language") or self.catalog(config).config.default_language

    def _folder(self, config) -> str:
        """This build's language folder ("ru/"); empty for the language at the site root."""
        return search_index.folder(self._language(config), config.plugins["i18n"].default_language)

    def _source(self, page, cat: Catalog) -> Page | None:
        """The catalog's reading of the file a page is built from; None when it could not be read or is generated."""
        if page.file.abs_src_path is None:
            return None
        return self._by_path.get(Path(os.path.relpath(page.file.abs_src_path, cat.config.root)).as_posix())

    @event_priority(100)  # before the dates plugin reads git in its own on_config
    def _on_config_dates(self, config):
        if git_dates.turn_off_outside_git(config, Path(config.config_file_path).resolve().parent):
            log.info("not a git checkout: the pages show no last-changed date")
        return config

    @event_priority(-110)  # after mkdocs-static-i18n has set this build's language
    def _on_config_language(self, config):
        cat = self.catalog(config, refresh=True)
        lang = self._language(config)
        config.mdx_configs["abbr"] = {**config.mdx_configs.get("abbr", {}),
                                      "glossary": tooltips.abbreviations(cat, lang)}
        config.extra["language_root"] = self._folder(config)  # overrides/main.html: where this language's search index is
        config.extra["material_search_worker"] = search_index.material_worker()  # imported by the site's worker
        self._fallbacks[lang], self._names[lang] = set(), {}  # this language's build lists them again
        # toc's permalink title is no theme string, and the i18n plugin may not override mdx_configs.
        config.extra["theme_strings"] = ui_string(lang, "theme")  # overrides/partials/language.html
        config.mdx_configs["toc"] = {**config.mdx_configs.get("toc", {}), "permalink_title": ui_string(lang, "permalink")}
        try:
            self._runs, self._backing = verified.load_runs(cat.config.root, self.config.reports_dir), {}
            self._project = load_project_config(cat.config)
        except InputError as exc:
            raise PluginError(str(exc)) from None
        return config

    on_config = CombinedEvent(_on_config_dates, _on_config_language)

    def on_env(self, env, config, files):
        env.bytecode_cache = template_cache.CACHE
        return env

    def _check_files(self, files, config):
        for error in self.catalog(config).errors:
            self._report_once(str(error))
        root = self.catalog(config).config.root
        for path, problem in published_files.refused(files, config):
            self._report_once(f"{Path(os.path.relpath(Path(config.docs_dir, path), root)).as_posix()}: {problem}")
        return files

    @event_priority(-110)  # after mkdocs-static-i18n has chosen this language's files
    def _add_verification_page(self, files, config):
        """This language's verification page, and its translations for the language switcher."""
        i18n = config.plugins["i18n"]
        current = self._language(config)
        pages = {}
        for lang in i18n.build_languages:
            # Only this language's page is built here: the others lend the switcher their URLs, their content unread.
            content = verification_page.markdown(lang) if lang == current else ""
            page = File.generated(config, verification_page.SRC_URI, content=content, inclusion=InclusionLevel.NOT_IN_NAV)
            folder = search_index.folder(lang, i18n.default_language)
            page.dest_uri = verification_page.url(folder) + "index.html"
            page.url = verification_page.url(folder)
            # What mkdocs-static-i18n gives its own files, read by its switcher and page context.
            page.locale = page.locale_alternate_of = lang
            page.localization, page.norm_src_uri = None, verification_page.SRC_URI
            pages[lang] = page
        for page in pages.values():
            page.alternates = pages
        files.append(pages[current])
        return files

    on_files = CombinedEvent(_check_files, _add_verification_page)

    def _backing_runs(self, source: Page) -> list[verified.Run] | None:
        """verified.backing_runs() of a page, once per build: its badge, its downloads and the verification page ask."""
        if source.path not in self._backing:
            self._backing[source.path] = verified.backing_runs(source, self._runs)
        return self._backing[source.path]

    def _is_verification_page(self, page) -> bool:
        return page.file.abs_src_path is None and page.file.src_uri == verification_page.SRC_URI

    def on_page_markdown(self, markdown, page, config, files):
        if self._is_verification_page(page):
            page.edit_url = None  # generated: there is no Markdown file to edit
            return markdown  # its front matter is ours (jax_kb/site/verification_page.py)
        cat = self.catalog(config)
        lang = self._language(config)
        source = self._source(page, cat)
        # The templates get the project's own reading of the front matter, only what the schema lets
        # through (what else the page says is reported in on_files), printed as HTML text.
        page.meta = template_meta(source.meta if source is not None else {})
        if source is None:
            # Unreadable, reported in on_files: keep pymdownx.snippets from aborting the whole build on it.
            return markdown.replace("--8<--", ";--8<--")
        page.meta["search"] = {**(page.meta.get("search") or {}), "boost": search_index.boost(source)}
        page.meta["tags"] = search_index.search_tags(source)
        url = page.url.removeprefix(self._folder(config))  # as the language's search index has it
        self._names.setdefault(lang, {})[url] = search_index.one_word_names(source)
        if source.lang != lang:
            # An English fallback is found in this language's search too, marked as English.
            self._fallbacks.setdefault(lang, set()).add(url)
        return (f"{code_labels.labelled(markdown, lang)}\n\n{notices.GENERATED}\n"
                + home.start_here(source.page_id, lang, cat)
                + term_index.index_section(source.page_id, lang, cat)
                + related_section(page.meta, page.file.src_uri, lang, cat))

    def on_page_content(self, html, page, config, files):
        html = sanitize.page_html(html)  # the page's own HTML; the hooks' notices are added after
        sanitize.toc_titles(page.toc)
        if self._is_verification_page(page):
            return html + verification_page.tables(self.catalog(config), self._runs, self._backing_runs,
                                                   self._language(config), self._folder(config))
        # Without a title of its own, MkDocs' (from the first heading, as HTML), as text.
        page.meta.setdefault("title", sanitize.TEXT_ONLY.clean(page.title or ""))
        cat = self.catalog(config)
        lang = self._language(config)
        source = self._source(page, cat)
        if source is None:
            return html
        english = page.file.alternates.get(cat.config.default_language)
        english_link = get_relative_url(english.url, page.url) if english else ""
        badge = verified.verified_badge(source, self._backing_runs(source), lang,
                                        self._verification_link(source, page, config),
                                        self._downloads(source, page, config))
        own_summary = source.meta.get("summary") if source.meta.get("kind") == "term" else None
        html = tooltips.first_mentions(html, own_summary if isinstance(own_summary, str) else None)
        html = numbers.keep_numbers_together(html)
        return _below_title(notices.with_notices(html, source, lang, cat, english_link), badge)

    def _verification_link(self, source: Page, page, config) -> str:
        """The relative URL of the page's entry on this language's verification page."""
        target = verification_page.url(self._folder(config))
        return f"{get_relative_url(target, page.url)}#{verification_page.anchor(source.page_id)}"

    def _downloads(self, source: Page, page, config) -> str:
        """The badge's "Run this page" item, its files written beside the page (jax_kb/site/notebooks.py)."""
        backing = self._backing_runs(source)
        site_url = config.site_url or ""
        address = (site_url if site_url.endswith("/") else site_url + "/") + page.url
        return notebooks.offer(source, self.catalog(config).config, self._project, backing, self._language(config),
                               address, Path(page.file.abs_dest_path).parent) if backing else ""

    @event_priority(40)  # after mkdocs-static-i18n has set this page's switcher links
    def on_page_context(self, context, page, config, nav):
        # Its links to a language's home are absolute ("/jax-kb/es/"): made relative to the site's root,
        # which the theme's url filter makes relative to the page, they hold wherever the site is mounted.
        site_path = _site_path(config)
        # mkdocs-static-i18n sets them as an attribute, which the theme reads before the item.
        for alternate in getattr(config.extra, "alternate", None) or []:
            if alternate.get("link", "").startswith(site_path):
                alternate["link"] = alternate["link"][len(site_path):] or "./"
        cat = self.catalog(config)
        source = self._source(page, cat)
        if source is not None and source.page_id == term_index.TERMS:
            # The switcher lands on the nearest letter where the other language's index lacks this one.
            lang = self._language(config)
            context["switched_anchors"] = {other: term_index.switched_anchors(lang, other, cat)
                                           for other in config.plugins["i18n"].build_languages if other != lang}
        return context

    def on_template_context(self, context, template_name, config):
        if template_name == "404.html":
            i18n = config.plugins["i18n"]
            if i18n.extra_alternate:
                # The switcher would otherwise keep the links of the last page rendered (set the way the plugin sets them).
                config.extra.alternate = copy.deepcopy(i18n.extra_alternate)
            others = [lang for lang in i18n.build_languages if lang != i18n.default_language]
            context["not_found"] = not_found.context(self._language(config), self._folder(config), config.site_url, others)
        return context

    def on_post_template(self, output, template_name, config):
        if template_name == "404.html":
            folder = self._folder(config)
            page_path = _site_path(config) + folder + "404.html"
            return not_found.write(self._finished(output, page_path, config), config.site_dir, folder)
        return output

    def on_post_page(self, output, page, config):
        return self._finished(output, _site_path(config) + page.url, config)

    def _finished(self, output: str, page_path: str, config) -> str:
        """What every template's page gets, the 404 pages included; page_path: where it is served."""
        output = accessibility.named_landmarks(output, ui_string(self._language(config), "search"))
        output = alternates.without_head_alternates(output)
        return csp.with_policy(output, page_path, csp.Theme.of(config, _site_path(config)))

    @event_priority(-110)  # after mkdocs-static-i18n has built every language and written their joint index
    def on_post_build(self, config):
        i18n = config.plugins["i18n"]
        # The other languages' builds run inside the first one's post_build, with `building` set.
        if not i18n.building and search_index.index_path(Path(config.site_dir), i18n.default_language,
                                                         i18n.default_language).is_file():
            search_index.split_index(Path(config.site_dir), i18n.build_languages, i18n.default_language,
                                     self._fallbacks, {lang: ui_string(lang, "search_english")
                                                       for lang in i18n.build_languages}, self._names)
        if not i18n.building:
            verified.copy_reports(self._runs, self.catalog(config).config.root, Path(config.site_dir))

    @event_priority(-110)  # after mkdocs-static-i18n has made this language's navigation
    def on_nav(self, nav, config, files):
        cat = self.catalog(config)

        def title_of(item) -> str | None:
            source = self._source(item, cat)
            return str(source.meta["title"]) if source is not None and source.meta.get("title") else None

        nav_order.sort_sections(nav, title_of, self._language(config))
        return nav
