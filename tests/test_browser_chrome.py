"""The site's chrome in Chromium, in every language, desktop and phone, served as GitHub Pages
serves it (under /jax-kb/, the root 404.html for every missing page): what a page load costs,
the language switcher, the previous and next links, each page's last-changed date, and the
sidebars' sticky titles.
"""
from __future__ import annotations

import base64
import gzip
import subprocess
from datetime import datetime, timezone
from urllib.parse import unquote, urlsplit

import pytest
from babel.dates import format_date

from test_browser_reader import DEFAULT, LANGS, MOBILE, ROOT, SITE_PATH, Tab, base_url, folder  # noqa: F401
from jax_kb.site.collation import alphabet, initial

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
DEVICES = {"desktop": DESKTOP, "phone": MOBILE}
BUDGET = 200 * 1024  # bytes, gzip-compressed, of everything the first load of a page transfers


def _tab(browser, device: str, **options) -> Tab:
    return Tab(browser, **DEVICES[device], **options)


def _next(lang: str) -> str:
    return LANGS[(LANGS.index(lang) + 1) % len(LANGS)]


def switch_language(page, lang: str, device: str) -> None:
    """Picks a language in the switcher, as a reader does: hover on a desktop, a tap on a phone."""
    button = page.locator(".md-header__option .md-select > button")
    link = page.locator(f"a.md-select__link[hreflang={lang}]")
    if device == "phone":
        button.tap()
        link.tap()
    else:
        button.hover()
        link.click()


# Weight: a page load fetches no sitemap, and the whole first load stays within the budget


@pytest.fixture(scope="module")
def first_load(browser, base_url) -> dict[str, int]:
    """Every response of the first load of ru glossary/vmap: its URL and its body's gzip-compressed size."""
    opened = Tab(browser, **DESKTOP)
    sizes: dict[str, int] = {}

    def record(response):
        try:
            body = response.body()
        except Exception:  # a redirect has no body of its own
            body = b""
        sizes[response.url] = len(gzip.compress(body, compresslevel=6))

    try:
        opened.page.on("response", record)
        opened.page.goto(base_url + "ru/glossary/vmap/")
        opened.page.wait_for_load_state("networkidle")
        opened.page.wait_for_timeout(500)
        assert opened.foreign == [] and opened.missing == []
    finally:
        opened.context.close()
    assert any(urlsplit(url).path == SITE_PATH + "ru/glossary/vmap/" for url in sizes), sorted(sizes)
    return sizes


def _heaviest(sizes: dict[str, int]) -> list[tuple[str, int]]:
    return sorted(sizes.items(), key=lambda item: -item[1])[:5]


def test_a_page_load_fetches_no_sitemap(first_load):
    assert not [url for url in first_load if "sitemap" in urlsplit(url).path], sorted(first_load)


# Search fetches its documents only once it is opened (overrides/assets/javascripts/workers/kb-search.js).
def test_the_first_load_of_a_russian_term_stays_within_the_budget_everything_included(first_load):
    assert sum(first_load.values()) <= BUDGET, (sum(first_load.values()), _heaviest(first_load))


# The language switcher: the same page, the same section, no sitemap asked for


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_switcher_lands_on_the_same_section_of_the_same_page(browser, base_url, lang, device):
    opened = _tab(browser, device)
    requested: list[str] = []
    try:
        opened.page.on("request", lambda request: requested.append(urlsplit(request.url).path))
        opened.page.goto(base_url + folder(lang) + "glossary/vmap/#common-mistake")
        target = _next(lang)
        switch_language(opened.page, target, device)
        opened.page.wait_for_url(base_url + folder(target) + "glossary/vmap/#common-mistake")
        opened.page.wait_for_load_state("networkidle")
        assert opened.page.evaluate("() => document.documentElement.lang") == target
        assert not [path for path in requested if "sitemap" in path], requested
        assert opened.foreign == [] and opened.missing == []
    finally:
        opened.context.close()


def _letters(page) -> list[str]:
    return page.eval_on_selector_all("article h2[id^='letter-']", "hs => hs.map(h => h.id)")


def _place(anchor: str, lang: str) -> int:
    """Where a term index heading falls in the language's alphabet (test_browser_reader's collation)."""
    order = alphabet(lang)
    name = anchor.removeprefix("letter-")
    if name == "other":
        return -1
    if name == "latin" or (lang == "ru" and "a" <= name[0] <= "z"):
        return order.index("A")
    letter = initial(name, lang)
    return order.index(letter) if letter in order else len(order)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_switcher_on_the_term_index_lands_on_the_nearest_letter_the_other_language_has(browser, base_url,
                                                                                           lang, device):
    opened = _tab(browser, device)
    target = _next(lang)
    try:
        opened.page.goto(base_url + folder(target) + "glossary/")
        theirs = _letters(opened.page)
        opened.page.goto(base_url + folder(lang) + "glossary/")
        ours = _letters(opened.page)
        kept = next(anchor for anchor in ours if anchor in theirs) if set(ours) & set(theirs) else None
        missing = next((anchor for anchor in ours if anchor not in theirs), None)
        for anchor in filter(None, [missing, kept]):
            opened.page.goto(base_url + folder(lang) + f"glossary/#{anchor}")
            switch_language(opened.page, target, device)
            opened.page.wait_for_url(lambda url: urlsplit(url).path == SITE_PATH + folder(target) + "glossary/")
            landed = unquote(urlsplit(opened.page.url).fragment)
            assert landed in theirs, (anchor, landed, theirs)
            if anchor == kept:
                assert landed == anchor
            else:
                distance = {other: abs(_place(other, target) - _place(anchor, target)) for other in theirs}
                assert distance[landed] == min(distance.values()), (anchor, landed, distance)
                # Of two as near, the one after.
                assert _place(landed, target) >= max(_place(o, target) for o in theirs
                                                     if distance[o] == distance[landed]), (anchor, landed)
            assert opened.page.evaluate("""id => { const r = document.getElementById(id).getBoundingClientRect();
                return r.top >= 0 && r.bottom <= innerHeight; }""", landed), landed  # scrolled to
        assert missing is not None or kept is not None
    finally:
        opened.context.close()


# Previous and next links, in the reader's language

DIRECTIONS = {"en": ("Previous", "Next"), "es": ("Anterior", "Siguiente"), "ro": ("Anterior", "Următor"),
              "sk": ("Späť", "Ďalej"), "ru": ("Назад", "Вперед")}
# The links' landmark; Material's Spanish "Pie" alone is corrected in ui_strings.yml.
FOOTER = {"en": "Footer", "es": "Pie de página", "ro": "Subsol", "sk": "Pätka", "ru": "Нижний колонтитул"}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("lang", LANGS)
def test_previous_and_next_links_lead_to_the_neighbouring_pages_in_the_readers_language(browser, base_url, lang,
                                                                                        device):
    opened = _tab(browser, device)
    page = opened.page
    try:
        page.goto(base_url + folder(lang) + "glossary/vmap/")
        footer = page.locator("nav.md-footer__inner")
        assert footer.is_visible()
        assert footer.get_attribute("aria-label") == FOOTER[lang]
        for rel, direction in zip(("prev", "next"), DIRECTIONS[lang]):
            link = footer.locator(f"a.md-footer__link--{rel}")
            assert link.count() == 1 and link.is_visible()
            title = link.locator(".md-ellipsis").inner_text().strip()
            assert link.get_attribute("aria-label") == f"{direction}: {title}"
            assert link.locator(".md-footer__direction").text_content().strip() == direction
            href = link.evaluate("a => a.href")
            assert urlsplit(href).path.startswith(SITE_PATH + folder(lang) + "glossary/") or lang == DEFAULT
            page.goto(href)
            assert page.evaluate("() => document.documentElement.lang") == lang
            assert page.locator("article h1").inner_text().removesuffix("¶").strip() == title  # less its permalink
            page.goto(base_url + folder(lang) + "glossary/vmap/")
        assert opened.foreign == [] and opened.missing == []
    finally:
        opened.context.close()


# The date each page was last changed: its own file's, in the reader's locale


def _git_date(path: str):
    stamp = subprocess.run(["git", "log", "-1", "--format=%at", "--", path], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.strip()
    return datetime.fromtimestamp(int(stamp), timezone.utc) if stamp else None


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("lang", LANGS)
def test_each_page_shows_the_date_its_own_file_last_changed_in_the_readers_locale(browser, base_url, lang, device):
    opened = _tab(browser, device)
    try:
        # Pages changed on different days: each shows its own, not the site's last change or the build's day.
        for page_path, source in [("glossary/vmap/", "glossary/vmap"), ("guides/vmap-and-jit/", "guides/vmap-and-jit"),
                                  ("glossary/", "glossary/index")]:
            own = ROOT / "docs" / (source + ("" if lang == DEFAULT else f".{lang}") + ".md")
            when = _git_date(own.relative_to(ROOT).as_posix() if own.is_file() else f"docs/{source}.md")
            if when is None:
                pytest.skip(f"{own} has no commit yet")
            opened.page.goto(base_url + folder(lang) + page_path)
            fact = opened.page.locator("article .md-source-file .md-source-file__fact").first
            fact.scroll_into_view_if_needed()
            assert fact.is_visible()
            assert fact.locator(".git-revision-date-localized-plugin-date").inner_text().strip() == \
                format_date(when, format="long", locale=lang)
            label = fact.locator(".md-icon").get_attribute("title")
            assert label and (lang == DEFAULT or label != "Last update"), label
        assert opened.foreign == []
    finally:
        opened.context.close()


# The sidebars' sticky titles hide what scrolls beneath them


def _colours(page, png: bytes) -> int:
    """How many colours a screenshot holds (read back through a canvas)."""
    return page.evaluate("""async data => {
        const image = new Image(); image.src = 'data:image/png;base64,' + data; await image.decode();
        const canvas = document.createElement('canvas'); canvas.width = image.width; canvas.height = image.height;
        const context = canvas.getContext('2d'); context.drawImage(image, 0, 0);
        const pixels = context.getImageData(0, 0, image.width, image.height).data; const seen = new Set();
        for (let i = 0; i < pixels.length; i += 4) seen.add(pixels[i] << 16 | pixels[i + 1] << 8 | pixels[i + 2]);
        return seen.size; }""", base64.b64encode(png).decode("ascii"))


# The section title above the items; the item list that scrolls beneath it, per device.
SIDEBAR = {
    "desktop": (".md-sidebar--primary .md-nav--lifted > .md-nav__list > .md-nav__item--active > .md-nav__link",
                ".md-sidebar--primary .md-sidebar__scrollwrap"),
    "phone": (".md-nav--primary > .md-nav__list > .md-nav__item--active > .md-nav > .md-nav__title",
              ".md-nav--primary > .md-nav__list > .md-nav__item--active > .md-nav > .md-nav__list"),
}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_sticky_section_title_shows_no_text_scrolled_beneath_it(browser, base_url, lang, device, scheme):
    opened = _tab(browser, device, color_scheme=scheme)
    page = opened.page
    try:
        page.goto(base_url + folder(lang) + "glossary/vmap/")
        assert page.get_attribute("body", "data-md-color-scheme") == ("slate" if scheme == "dark" else "default")
        if device == "phone":
            page.locator("label.md-header__button[for=__drawer]").tap()
            page.wait_for_timeout(500)
        title_selector, list_selector = SIDEBAR[device]
        title, items = page.locator(title_selector), page.locator(list_selector)
        assert title.is_visible()
        # Scroll the items until one stands half under the title's lower edge, where text shows through.
        # The phone's list snaps to whole items once a swipe ends; under a finger it stops anywhere.
        items.evaluate("list => { list.style.scrollSnapType = 'none'; }")
        for offset in range(0, 600, 3):
            straddles = items.evaluate("""(list, [offset, selector]) => { list.scrollTo({top: offset, behavior: "instant"});
                const edge = document.querySelector(selector).getBoundingClientRect().bottom;
                return [...list.querySelectorAll('.md-nav__item .md-ellipsis')].some(e => {
                    const r = e.getBoundingClientRect(); return r.top < edge - 2 && r.bottom > edge + 2; }); }""",
                                       [offset, title_selector])
            if straddles and items.evaluate("list => list.scrollTop") == offset:
                break
        else:
            pytest.fail("no item scrolls beneath the title")
        page.wait_for_timeout(100)
        box = title.bounding_box()
        text_bottom = title.evaluate("""e => { const r = document.createRange(); r.selectNodeContents(e);
            return r.getBoundingClientRect().bottom; }""")
        # Below the title's own text: its box and, where it is sticky over the items, the edge Material
        # gives it (0.4rem).
        edge = 8 if title.evaluate("e => getComputedStyle(e).position") == "sticky" else 0
        band = {"x": box["x"], "y": text_bottom + 1, "width": box["width"],
                "height": box["y"] + box["height"] + edge - text_bottom - 2}
        assert band["height"] > 4, band
        assert _colours(page, page.screenshot(clip=band)) == 1
    finally:
        opened.context.close()
