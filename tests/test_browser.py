"""The site in a real browser: Playwright drives Debian's Chromium on the fixture site
(tests/fixtures/site/), served on 127.0.0.1 the way a host serves it: under the path of
site_url, with each language's 404 page for a missing page of that language.

Each checked state is saved to test-artifacts/screenshots/.
"""
from __future__ import annotations

import functools
import http.server
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from mkdocs.utils.yaml import yaml_load

from fixtures.site.reader_site import FIXED_DATE, reader_site
from site_build import send_page, served
from jax_kb.markdown import load_site_config, read_page

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
LANGS = load_site_config().languages
DEFAULT = LANGS[0]


def folder(lang: str) -> str:
    return "" if lang == DEFAULT else f"{lang}/"


@pytest.fixture(scope="module")
def site():
    built = reader_site()
    assert built.build.returncode == 0, f"mkdocs build --strict failed:\n{built.build.stderr[-6000:]}"
    return built


def meta(site, path: str) -> dict:
    return read_page(site.project / "docs" / path, load_site_config(site.project / "mkdocs.yml")).meta


def _handler(site_dir: Path, base: str):
    class SiteHandler(http.server.SimpleHTTPRequestHandler):
        """Serves site_dir under base; a missing page gets its language's 404 page."""

        def translate_path(self, path):
            path = urlsplit(path).path
            return super().translate_path("/" + path[len(base):] if path.startswith(base) else "/\0outside")

        def send_error(self, code, message=None, explain=None):
            rel = urlsplit(self.path).path[len(base):]
            lang = rel.split("/", 1)[0]
            page = site_dir / (folder(lang) if lang in LANGS[1:] else "") / "404.html"
            if code != 404 or not page.is_file():
                return super().send_error(code, message, explain)
            body = page.read_bytes()
            send_page(self, 404, body)

        def log_message(self, *args):
            pass

    return functools.partial(SiteHandler, directory=str(site_dir))


@pytest.fixture(scope="module")
def base_url(site):
    base = urlsplit(yaml_load(open(site.project / "mkdocs.yml", encoding="utf-8"))["site_url"]).path or "/"
    with served(_handler(site.site, base), base) as url:
        yield url



@pytest.fixture
def page(browser, base_url):
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  permissions=["clipboard-read", "clipboard-write"])
    # Nothing outside the test server: Material's web fonts would only slow every page down.
    context.route(re.compile(r"^(?!http://127\.0\.0\.1:).*"), lambda route: route.abort())
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    yield tab
    context.close()


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def search(page, query: str) -> list[str]:
    """The result links Material's search shows for the query, once it has answered."""
    box = page.locator("input.md-search__input")
    box.click()
    # Material searches on keyup; Playwright types letters off the US keyboard without key events.
    box.fill(query)
    box.press("End")
    page.wait_for_function("() => /\\d/.test(document.querySelector('.md-search-result__meta').textContent)")
    return page.eval_on_selector_all(".md-search-result__item > a", "links => links.map(a => a.href)")


def test_language_switcher_keeps_the_page_in_every_language(page, base_url):
    for path in ("glossary/vmap/", "glossary/jit/"):  # jit: es and ro show the English fallback
        page.goto(base_url + path)
        for lang in [*LANGS[1:], DEFAULT]:
            page.hover(".md-header__option .md-select")
            page.click(f"a.md-select__link[hreflang={lang}]")
            page.wait_for_url(base_url + folder(lang) + path)
            assert page.get_attribute("html", "lang") == lang
            screenshot(page, f"switcher-{path.split('/')[1]}-{lang}")


def test_tooltip_shows_the_summary_in_the_language_of_the_page(page, base_url, site):
    for lang in ("ru", DEFAULT):
        page.goto(base_url + folder(lang) + "glossary/jit/")
        term = page.locator("article abbr", has_text=re.compile(r"^vmap$")).first
        term.hover()
        tooltip = page.locator(".md-tooltip2--active")
        tooltip.wait_for(state="visible")
        summary = meta(site, "glossary/vmap.md" if lang == DEFAULT else f"glossary/vmap.{lang}.md")["summary"]
        assert tooltip.inner_text().strip() == summary
        screenshot(page, f"tooltip-{lang}")


def test_code_carries_no_tooltip(page, base_url):
    page.goto(base_url + "ru/glossary/vmap/")
    assert page.locator("article pre abbr, article code abbr").count() == 0
    assert page.locator("article pre", has_text="vmap").count() >= 1


def test_search_on_russian_pages_finds_russian_pages_only_with_stemming(page, base_url):
    page.goto(base_url + "ru/glossary/vmap/")
    found = search(page, "vmap")
    assert found and all(href.startswith(base_url + "ru/") for href in found), found
    page.goto(base_url + "ru/glossary/vmap/")
    found = search(page, "векторизации")  # the page says "Векторизация": another case of the word
    screenshot(page, "search-ru")
    assert any(urlsplit(href).path.endswith("/ru/glossary/vmap/") for href in found), found
    assert all(href.startswith(base_url + "ru/") for href in found), found


def test_search_on_slovak_pages_finds_words_typed_without_diacritics(page, base_url):
    page.goto(base_url + "sk/glossary/jit/")
    found = search(page, "vektorizacia")  # the page says "Vektorizácia"
    screenshot(page, "search-sk")
    assert any(urlsplit(href).path.endswith("/sk/glossary/vmap/") for href in found), found
    assert all(href.startswith(base_url + "sk/") for href in found), found


def test_copy_button_copies_the_code(page, base_url, site):
    page.goto(base_url + "glossary/vmap/")
    block = page.locator("article div.highlight").first
    block.hover()
    block.locator("button[data-md-type=copy]").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    python = next(f for f in read_page(site.project / "docs/glossary/vmap.md",
                                       load_site_config(site.project / "mkdocs.yml")).fences if f.lang == "python")
    assert copied.strip() == python.code.strip()
    screenshot(page, "copy-button")


def test_palette_toggle_switches_the_colour_scheme(page, base_url):
    page.goto(base_url + "glossary/vmap/")
    scheme = lambda: page.get_attribute("body", "data-md-color-scheme")  # noqa: E731
    first = scheme()
    page.locator("form[data-md-component=palette] label:visible").click()
    assert scheme() != first
    screenshot(page, "palette-switched")
    page.locator("form[data-md-component=palette] label:visible").click()
    assert scheme() == first


def test_missing_page_shows_the_404_page_of_its_language(page, base_url):
    for lang in LANGS:
        response = page.goto(base_url + folder(lang) + "glossary/no-such-term/")
        assert response.status == 404
        assert page.get_attribute("html", "lang") == lang
        links = page.eval_on_selector_all("article a", "links => links.map(a => a.href)")
        assert links == [base_url + folder(lang), base_url + folder(lang) + "glossary/"]
        screenshot(page, f"404-{lang}")
    page.goto(base_url + "ru/glossary/no-such-term/")
    assert page.inner_text("article h1") == "Страница не найдена"


def test_untranslated_page_shows_the_notice_and_english_text(page, base_url):
    page.goto(base_url + "es/glossary/jit/")
    notice = page.locator("[data-kb-notice=untranslated]")
    assert notice.is_visible()
    assert "Aún sin traducir" in notice.inner_text()
    assert page.locator("article div[lang=en] h1").evaluate("h1 => h1.firstChild.textContent") == "jit"
    screenshot(page, "notice-untranslated-es")


def test_outdated_translation_shows_the_date_and_links_the_english_page(page, base_url):
    page.goto(base_url + "ro/glossary/vmap/")
    notice = page.locator("[data-kb-notice=outdated]")
    assert FIXED_DATE in notice.inner_text()
    screenshot(page, "notice-outdated-ro")
    notice.locator("a").click()
    page.wait_for_url(base_url + "glossary/vmap/")
    page.goto(base_url + "ru/glossary/jit/")
    assert "недавно" in page.locator("[data-kb-notice=outdated]").inner_text()
    screenshot(page, "notice-outdated-ru")
