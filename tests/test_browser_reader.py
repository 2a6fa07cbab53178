"""The real site as its readers get it, in Chromium: served the way GitHub Pages serves it
(under site_url's path, the root 404.html for every missing page), desktop and mobile.

Each test is one point of what a reader of each language must get: their language's 404,
labelled failing examples, the verified badge, the switcher keeping the section, the
theme's own strings, the term index and navigation in the language's order, tooltips
that mark a term once, no request to a third party, the home page, code on a phone.
"""
from __future__ import annotations

import functools
import http.server
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from mkdocs.utils.yaml import yaml_load

from site_build import send_page, served
from jax_kb.catalog import load_catalog, ui_string
from jax_kb.markdown import load_site_config
from jax_kb.site.collation import sort_key

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
LANGS = load_site_config().languages
DEFAULT = LANGS[0]
with open(ROOT / "mkdocs.yml", encoding="utf-8") as _config:
    SITE_PATH = urlsplit(yaml_load(_config)["site_url"]).path
MOBILE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


def folder(lang: str) -> str:
    return "" if lang == DEFAULT else f"{lang}/"


def _github_pages(site_dir: Path, base: str):
    class Handler(http.server.SimpleHTTPRequestHandler):
        """Serves site_dir under base; every missing page gets the root 404.html, as on GitHub Pages."""

        def translate_path(self, path):
            path = urlsplit(path).path
            return super().translate_path("/" + path[len(base):] if path.startswith(base) else "/\0outside")

        def send_error(self, code, message=None, explain=None):
            if code != 404:
                return super().send_error(code, message, explain)
            body = (site_dir / "404.html").read_bytes()
            send_page(self, 404, body)

        def log_message(self, *args):
            pass

    return functools.partial(Handler, directory=str(site_dir))


@pytest.fixture(scope="module")
def base_url(built_site):
    with served(_github_pages(built_site, SITE_PATH), SITE_PATH) as url:
        yield url



class Tab:
    """A browser tab that refuses, and remembers, every request to another host than the test server."""

    def __init__(self, browser, **options):
        self.context = browser.new_context(**(options or {"viewport": {"width": 1280, "height": 900}}))
        self.foreign: list[str] = []
        self.missing: list[str] = []
        self.context.route(re.compile(r"^(?!http://127\.0\.0\.1:).*"), self._refuse)
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.page.on("response", lambda r: r.status == 404 and self.missing.append(r.url))

    def _refuse(self, route):
        self.foreign.append(route.request.url)
        route.abort()


@pytest.fixture
def tab(browser):
    opened = Tab(browser)
    yield opened
    opened.context.close()


@pytest.fixture
def page(tab):
    return tab.page


@pytest.fixture
def phone(browser):
    opened = Tab(browser, **MOBILE)
    yield opened.page
    opened.context.close()


# The 404 page


def test_a_missing_page_of_a_language_shows_that_languages_404_on_github_pages(page, base_url):
    for lang in LANGS:
        response = page.goto(base_url + folder(lang) + "glossary/no-such-term/")
        assert response.status == 404
        page.wait_for_function(f"() => document.documentElement.lang === {lang!r}"
                               " && document.querySelector('article h1') !== null")
        assert page.inner_text("article h1") == ui_string(lang, "not_found_title")
        assert page.url == base_url + folder(lang) + "glossary/no-such-term/"


# Failing examples look failing


def test_expected_errors_outputs_and_wrong_right_pairs_are_labelled(page, base_url):
    for lang in LANGS:
        page.goto(base_url + folder(lang) + "glossary/vmap/")
        mistake = page.locator("article h2#common-mistake")
        assert mistake.count() == 1
        wrong = page.locator("article .highlight.kb-wrong")
        assert wrong.count() == 1
        raises = ui_string(lang, "code_raises").format(exception="ValueError")
        assert wrong.locator(".filename").inner_text() == f"{ui_string(lang, 'code_wrong')} · {raises}"
        right = page.locator("article .highlight.kb-right")
        assert right.locator(".filename").inner_text() == ui_string(lang, "code_right")
        # the right way follows the wrong one
        assert page.evaluate("""() => { const [w, r] = [document.querySelector('.kb-wrong'),
            document.querySelector('.kb-right')]; return !!(w.compareDocumentPosition(r) & 4); }""")
        other = page.locator("article .highlight.kb-raises")
        assert other.first.locator(".filename").inner_text() == ui_string(lang, "code_raises").format(
            exception="TypeError")
        outputs = page.locator("article .highlight.kb-output .filename")
        assert outputs.count() >= 3 and set(outputs.all_inner_texts()) == {ui_string(lang, "code_output")}
        colours = wrong.evaluate("e => getComputedStyle(e).borderLeftColor"), \
            right.evaluate("e => getComputedStyle(e).borderLeftColor")
        assert colours[0] != colours[1]


def test_every_expected_error_block_of_the_site_is_marked(built_site):
    cat = load_catalog()
    total = 0
    for page_id in cat.pages:
        for lang in LANGS:
            source = cat.page(page_id, lang)
            expected = [f.attrs["raises"] for f in source.fences if f.lang in ("python", "py") and "raises" in f.attrs]
            neutral = page_id[:-len("index")] if page_id.endswith("index") else page_id + "/"
            html = (built_site / folder(lang) / neutral / "index.html").read_text(encoding="utf-8")
            marked = re.findall(r'class="language-python(?: [\w-]+)* kb-(?:raises|wrong) highlight"[^>]* '
                                r'data-raises="([\w.]+)">'
                                r'<span class="filename">', html)
            assert marked == expected, (page_id, lang)
            total += len(expected)
    assert total > 0


# The verified badge


def test_verified_badge_sits_below_the_title_with_a_local_date_devices_and_the_report(page, base_url, built_site):
    dates = {"en": "December 2, 2026", "es": "2 de diciembre de 2026", "ro": "2 decembrie 2026",
             "sk": "2. decembra 2026", "ru": "2 декабря 2026"}
    for lang in LANGS:
        page.goto(base_url + folder(lang) + "glossary/vmap/")
        badge = page.locator("article .kb-badge--verified")
        assert badge.is_visible()
        assert page.evaluate("() => document.querySelector('article h1').nextElementSibling"
                             ".classList.contains('kb-badge')")
        title_box = page.locator("article h1").bounding_box()
        assert badge.bounding_box()["y"] - (title_box["y"] + title_box["height"]) < 40
        text = badge.inner_text()
        assert ui_string(lang, "verified_title") in text and "CPU" in text
        time = badge.locator("time")
        assert time.get_attribute("datetime") == "2026-12-02" or re.fullmatch(r"\d{4}-\d\d-\d\d",
                                                                              time.get_attribute("datetime"))
        if time.get_attribute("datetime") == "2026-12-02":
            assert dates[lang] in time.inner_text()
        link = badge.locator("a", has_text="CPU")  # to the page's entry on the verification page
        assert link.get_attribute("href") == "../../verification/#page-glossary-vmap"
    assert (built_site / "reports" / "cpu.json").is_file()


# The language switcher


def test_switcher_keeps_the_section_and_marks_the_language_read(page, base_url):
    page.goto(base_url + "glossary/vmap/#common-mistake")
    for lang in [*LANGS[1:], DEFAULT]:
        page.hover(".md-header__option .md-select")
        page.click(f"a.md-select__link[hreflang={lang}]")
        page.wait_for_url(base_url + folder(lang) + "glossary/vmap/#common-mistake")
        current = page.locator("a.md-select__link[aria-current=true]")
        assert current.count() == 1 and current.get_attribute("hreflang") == lang
        weight = current.evaluate("a => getComputedStyle(a).fontWeight")
        other = page.locator("a.md-select__link:not([aria-current])").first.evaluate(
            "a => getComputedStyle(a).fontWeight")
        assert int(weight) > int(other)


# The theme's strings in the reader's language


def test_theme_strings_speak_the_readers_language(page, base_url):
    english = {"Switch to dark mode", "Switch to light mode", "Permanent link", "Made with"}
    for lang in LANGS:
        page.goto(base_url + folder(lang) + "glossary/vmap/")
        toggles = page.eval_on_selector_all("form[data-md-component=palette] label", "ls => ls.map(l => l.title)")
        assert len(toggles) == 2
        permalink = page.get_attribute("article h2 a.headerlink", "title")
        footer = page.inner_text("footer .md-copyright")
        assert permalink == ui_string(lang, "permalink")
        if lang != DEFAULT:
            assert not english & {*toggles, permalink}, (lang, toggles, permalink)
            assert "Made with" not in footer, lang
        assert footer.strip()
    page.goto(base_url + "ro/glossary/vmap/")
    assert page.get_attribute("a.md-content__button[rel=edit]", "title") == "Editează această pagină"


# The term index and the navigation


def test_russian_term_index_lists_each_letter_once_and_keeps_code_in_summaries(page, base_url, built_site):
    page.goto(base_url + "ru/glossary/")
    letters = page.eval_on_selector_all("article h2", "hs => hs.map(h => h.firstChild.textContent.trim())")
    assert len(letters) == len(set(letters)) and "C" not in letters, letters
    assert ui_string("ru", "latin_letters") in letters
    cat = load_catalog()
    with_code = [p for p in (cat.page(pid, "ru") for pid in cat.pages) if p.meta.get("kind") == "term"
                 and "`" in str(p.meta.get("summary", ""))]
    for source in with_code:
        code = re.search(r"`([^`]+)`", source.meta["summary"])[1]
        assert page.locator("article li code", has_text=code).count() >= 1, (source.path, code)


@pytest.mark.parametrize("lang", LANGS)
def test_navigation_lists_terms_in_the_order_of_the_term_index(page, base_url, lang):
    page.goto(base_url + folder(lang) + "glossary/")
    index = page.eval_on_selector_all("article li > a:first-child", "as => as.map(a => a.textContent.trim())")
    nav = page.eval_on_selector_all(
        ".md-nav--primary .md-nav__item--active > nav > ul > li > a .md-ellipsis",
        "spans => spans.map(s => s.textContent.trim())")
    assert set(index) <= set(nav), (nav, index)
    assert [t for t in nav if t in index] == index
    assert nav == sorted(nav, key=lambda title: sort_key(title, lang))


# Tooltips


def test_tooltips_mark_the_first_mention_only_and_never_a_heading(page, base_url):
    for lang in LANGS:
        page.goto(base_url + folder(lang) + "glossary/jit/")
        assert page.locator("article h1 abbr, article h2 abbr, article h3 abbr").count() == 0
        texts = page.eval_on_selector_all("article abbr", "as => as.map(a => a.textContent)")
        assert texts and len(texts) == len({t.lower() for t in texts}), (lang, texts)


def test_real_site_has_no_tooltip_in_any_title(built_site):
    for path in sorted(built_site.rglob("index.html")):
        assert not re.search(r"<h1[^>]*>(?:(?!</h1>).)*<abbr", path.read_text(encoding="utf-8"), re.S), path


def test_on_touch_a_linked_term_shows_its_definition_before_following_the_link(browser, base_url):
    opened = Tab(browser, **MOBILE)
    phone = opened.page
    try:
        phone.goto(base_url + "glossary/vmap/")
        term = phone.locator("article a abbr").first
        term.scroll_into_view_if_needed()
        href = term.evaluate("abbr => abbr.closest('a').href")
        term.tap()
        phone.wait_for_timeout(400)
        assert phone.url == base_url + "glossary/vmap/"
        assert phone.locator(".md-tooltip2--active").is_visible()
        term.tap()
        phone.wait_for_url(href)
    finally:
        opened.context.close()


# Requests


def test_a_page_view_asks_no_third_party_and_gets_no_404(tab, base_url):
    for lang in LANGS:
        tab.page.goto(base_url + folder(lang) + "glossary/vmap/")
        tab.page.wait_for_load_state("networkidle")
    assert tab.foreign == [] and tab.missing == [], (tab.foreign, tab.missing)


# The home page


def test_home_page_has_one_title_and_leads_to_the_index_the_guides_and_search(page, base_url):
    for lang in LANGS:
        page.goto(base_url + folder(lang))
        site_name = page.evaluate("() => document.querySelector('.md-header__topic .md-ellipsis').textContent.trim()")
        assert page.title() == site_name
        links = page.eval_on_selector_all("article a", "as => as.map(a => new URL(a.href).pathname)")
        assert SITE_PATH + folder(lang) + "glossary/" in links and SITE_PATH + folder(lang) + "guides/" in links
        assert page.locator("article [data-kb-start]").count() >= 1


# Code on a phone


def test_on_a_phone_the_copy_button_covers_no_code_and_a_wide_block_shows_it_scrolls(phone, base_url):
    phone.goto(base_url + "glossary/vmap/")
    phone.wait_for_load_state("load")
    checked = 0
    for block in phone.locator("article div.highlight").all()[:6]:
        block.scroll_into_view_if_needed()
        # Material 9.8's copy button (older releases: button.md-clipboard)
        button = block.locator("button.md-code__button[data-md-type='copy'], button.md-clipboard")
        if button.count() == 0:
            continue
        checked += 1
        box = button.bounding_box()
        first_line = block.locator("code > span").first.evaluate(
            """s => { const r = document.createRange(); r.selectNodeContents(s);
                      const b = r.getBoundingClientRect(); return {y: b.y, height: b.height}; }""")
        assert first_line["y"] >= box["y"] + box["height"] - 1 or first_line["y"] + first_line["height"] <= box["y"]
    assert checked >= 1, "no code block with a copy button"
    wide = phone.locator("article div.highlight.kb-scrolls")
    assert wide.count() >= 1
    hint = wide.first.evaluate("b => getComputedStyle(b, '::after').backgroundImage")
    assert "gradient" in hint


# Search in every language


def search(page, query: str) -> list[dict]:
    """Material's results for the query, once it has answered: link, title and the words it marks missing."""
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(query)
    box.press("End")  # Material searches on keyup
    page.wait_for_function("() => /\\d/.test(document.querySelector('.md-search-result__meta').textContent)")
    page.wait_for_timeout(300)
    return page.eval_on_selector_all(".md-search-result__item > a", """links => links.map(a => ({
        href: a.href, title: a.querySelector('h1, h2').textContent.trim(),
        missing: [...a.querySelectorAll('.md-search-result__terms del')].map(d => d.textContent),
        tags: [...a.querySelectorAll('.md-tag')].filter(t => t.offsetParent !== null).map(t => t.textContent)}))""")


def path_of(href: str) -> str:
    return urlsplit(href).path


WORDS = {"es": "vectorización", "ro": "vectorizare", "sk": "vektorizácia", "ru": "векторизации",
         "en": "batch"}


@pytest.mark.parametrize("lang", LANGS)
def test_search_marks_no_typed_word_missing_and_links_carry_it_to_highlight(page, base_url, lang):
    page.goto(base_url + folder(lang) + "glossary/jit/")
    results = search(page, WORDS[lang])
    assert results, lang
    assert all(not r["missing"] for r in results), [(r["title"], r["missing"]) for r in results]
    assert not [r["href"] for r in results if "h=" in r["href"] and not parse_qs(urlsplit(r["href"]).query).get("h")]
    assert all(r["tags"] == [] for r in results)  # no English topic words on the results


FOLDED = [("es", "vectorizacion", "guides/vmap-batch-processing/"), ("ru", "счетчик", None),
          ("ro", "funcţie", None), ("sk", "vektorizacia", None)]


@pytest.mark.parametrize("lang, query, expected", FOLDED)
def test_search_folds_accents_and_letter_variants(page, base_url, lang, query, expected):
    page.goto(base_url + folder(lang) + "glossary/jit/")
    results = search(page, query)
    assert results, (lang, query)
    if expected:
        assert any(path_of(r["href"]).endswith(f"/{lang}/{expected}") for r in results), results


# A term page whose title matches comes first; where no title matches, a term page still
# comes before the guides and the indexes, which come last.
RANKED = [("en", "vmap", "glossary/vmap/"), ("ru", "трассировка", "glossary/"),
          ("sk", "derivácia", "glossary/"), ("ru", "компиляция", "glossary/")]


@pytest.mark.parametrize("lang, query, expected", RANKED)
def test_search_ranks_the_matching_term_page_first_and_index_pages_last(page, base_url, lang, query, expected):
    page.goto(base_url + folder(lang) + "glossary/jit/")
    results = search(page, query)
    first = path_of(results[0]["href"])
    assert first.startswith(SITE_PATH + folder(lang) + expected) and first != SITE_PATH + folder(lang) + "glossary/", \
        [r["href"] for r in results]
    indexes = [i for i, r in enumerate(results) if re.search(r"/(glossary|guides)/$|/jax-kb/(\w\w/)?$",
                                                               path_of(r["href"]))]
    assert all(i >= len(results) - len(indexes) for i in indexes), [r["href"] for r in results]


# Numbers in prose


def test_a_number_and_its_word_never_break_across_lines(phone, base_url, built_site):
    phone.goto(base_url + "es/guides/composing-transformations/")
    phrase = phone.locator("article p", has_text="10\u00a0000\u00a0millones")
    assert phrase.count() == 1
    # squeezed to the width of the phrase, the line breaks elsewhere, never inside it
    heights = phrase.evaluate("""p => { const r = document.createRange(); const text = [...p.childNodes]
        .find(n => n.nodeType === 3 && n.textContent.includes('10\\u00a0000'));
        const start = text.textContent.indexOf('10\\u00a0000'); r.setStart(text, start);
        r.setEnd(text, start + '10\\u00a0000\\u00a0millones'.length);
        return [...r.getClientRects()].map(rect => Math.round(rect.top)); }""")
    assert len(set(heights)) == 1, heights
    for path in sorted(built_site.rglob("index.html")):
        prose = re.sub(r"<(pre|code|script)\b.*?</\1>", "", path.read_text(encoding="utf-8"), flags=re.S)
        assert not re.search(r">[^<]*\d \d{3}(?!\d)[^<]*<", prose), path
