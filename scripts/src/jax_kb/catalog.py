"""Every page of docs/ by page id and language, and the checks of its front matter."""
from __future__ import annotations

import functools
import posixpath
from dataclasses import dataclass, field
from pathlib import Path

from urllib.parse import urlsplit

import yaml

from jax_kb.markdown import InputError, Page, SiteConfig, load_site_config, markdown_files, read_page
from jax_kb.markdown.frontmatter import REQUIRED_KEYS, schema_problems, schema_values

UI_STRINGS = Path(__file__).with_name("ui_strings.yml")


@dataclass
class Catalog:
    config: SiteConfig
    pages: dict[str, dict[str, Page]] = field(default_factory=dict)  # page id -> language -> page
    errors: list[InputError] = field(default_factory=list)

    def slugs(self) -> dict[str, str]:
        return {page_id.rsplit("/", 1)[-1]: page_id for page_id in self.pages}

    def page(self, page_id: str, lang: str) -> Page | None:
        """The page in that language, else the English one it falls back to."""
        versions = self.pages.get(page_id, {})
        return versions.get(lang) or versions.get(self.config.default_language)

    def all_pages(self) -> list[Page]:
        return [p for versions in self.pages.values() for p in versions.values()]


def load_catalog(config: SiteConfig | None = None, docs_dir: Path | None = None) -> Catalog:
    config = config or load_site_config()
    catalog = Catalog(config)
    for path in markdown_files([docs_dir or config.docs_dir]):
        try:
            page = read_page(path, config)
        except InputError as exc:
            catalog.errors.append(exc)
            continue
        catalog.pages.setdefault(page.page_id, {})[page.lang] = page
    catalog.errors.extend(duplicate_slugs(catalog))
    for page in catalog.all_pages():
        catalog.errors.extend(front_matter_problems(page, catalog) + link_problems(page, catalog))
    return catalog


def duplicate_slugs(catalog: Catalog) -> list[InputError]:
    """Two content pages with one slug in different sections: related: [slug] could name either."""
    first: dict[str, str] = {}
    problems = []
    for page_id in sorted(catalog.pages):
        versions = catalog.pages[page_id]
        page = versions.get(catalog.config.default_language) or next(iter(versions.values()))
        if not is_content_page(page):
            continue
        slug = page.slug
        if slug in first:
            problems.append(InputError(page.path, 1, f"the slug {slug!r} is also the slug of {first[slug]}: slugs "
                                       "are unique across sections (related: names pages by slug); rename one"))
        else:
            first[slug] = page_id
    return problems


def is_content_page(page: Page) -> bool:
    """A term or a guide, as opposed to the home page and the section indexes."""
    return page.page_id != "index" and not page.page_id.endswith("/index")


def front_matter_problems(page: Page, catalog: Catalog) -> list[InputError]:
    """Missing keys, keys or values outside the schema, a related slug that names no page."""
    required = REQUIRED_KEYS if is_content_page(page) else ("title", "summary")
    problems = [InputError(page.path, 1, f"front matter lacks the required key '{key}'")
                for key in required if key not in page.meta]
    problems += schema_problems(page.meta, page.meta_lines, page.path)
    slugs = catalog.slugs()
    for slug in schema_values(page.meta).get("related", []):
        if slug not in slugs:
            problems.append(InputError(page.path, page.meta_lines.get("related", 1),
                                       f"related names {slug!r}, which is no page's slug"))
    return problems


def link_problems(page: Page, catalog: Catalog) -> list[InputError]:
    """Links to pages that do not exist, or to headings those pages do not have."""
    problems = []
    here = posixpath.dirname(page.page_id)
    for target, line in page.links():
        parts = urlsplit(target)
        if parts.scheme or parts.netloc or not (parts.path.endswith(".md") or not parts.path):
            continue
        page_id = posixpath.normpath(posixpath.join(here, parts.path[:-3])) if parts.path else page.page_id
        linked = catalog.page(page_id, page.lang)
        if linked is None:
            problems.append(InputError(page.path, line, f"link to {target!r}: no such page"))
        elif parts.fragment and parts.fragment not in {i for i, _ in linked.heading_ids()} | {"related"}:
            problems.append(InputError(page.path, line, f"link to {target!r}: {linked.path} has no heading "
                                       f"with the id {parts.fragment!r}"))
    return problems



@functools.cache
def ui_strings() -> dict[str, dict[str, str]]:
    with open(UI_STRINGS, encoding="utf-8") as f:
        return yaml.safe_load(f)


def ui_string(lang: str, key: str, default_lang: str = "en") -> str:
    strings = ui_strings()
    return strings.get(lang, {}).get(key) or strings[default_lang][key]
