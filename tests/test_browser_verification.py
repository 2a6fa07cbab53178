"""The verification page, "Run this page" and the badge on a phone, in Chromium, in every language,
on the site served the way GitHub Pages serves it (tests/test_browser_reader.py's server)."""
from __future__ import annotations

import json

import pytest

from jax_kb.catalog import load_catalog, ui_string
from jax_kb.snippets.blocks import page_blocks
from test_browser_reader import DEFAULT, LANGS, base_url, folder, page, phone, tab  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

VMAP = "glossary/vmap/"


def _title(page) -> str:
    """The page's title, without the permalink sign after it."""
    return page.locator("article h1").evaluate("h => h.firstChild.textContent").strip()


def test_the_badges_device_link_opens_the_verification_page_in_the_readers_language(page, base_url):
    for lang in LANGS:
        page.goto(base_url + folder(lang) + VMAP)
        page.click("article .kb-badge--verified a:has-text('CPU')")
        page.wait_for_url(base_url + folder(lang) + "verification/#page-glossary-vmap")
        assert page.evaluate("document.documentElement.lang") == lang
        assert _title(page) == ui_string(lang, "verification_title")
        headings = page.locator("article h2").all_inner_texts()
        assert [h.strip() for h in headings] == [ui_string(lang, "verification_runs"),
                                                 ui_string(lang, "verification_pages")]
        heads = page.locator("article table").first.locator("th").all_inner_texts()
        assert ui_string(lang, "verification_device") in heads and ui_string(lang, "verification_commit") in heads
        entry = page.locator("tbody#page-glossary-vmap")
        assert entry.is_visible() and entry.locator("tr").count() >= 2
        assert ui_string(lang, "verified_title") in entry.inner_text()
        assert entry.locator("td", has_text=ui_string(lang, "verification_passed")).count() >= 1
        # the JSON stays beside it, for programs
        report = page.locator("article a[type='application/json']").first
        response = page.request.get(report.evaluate("a => a.href"))
        assert response.ok and "blocks" in json.loads(response.text())
        # and each entry leads back to its page
        entry.locator("a").first.click()
        page.wait_for_url(base_url + folder(lang) + VMAP)


def test_the_verification_page_switches_language_to_the_other_languages_verification_page(page, base_url):
    page.goto(base_url + "verification/")
    for lang in LANGS[1:]:
        page.hover(".md-header__option .md-select")
        page.click(f"a.md-select__link[hreflang={lang}]")
        page.wait_for_url(base_url + folder(lang) + "verification/")
        assert _title(page) == ui_string(lang, "verification_title")


def test_report_data_is_text_on_the_verification_page(page, base_url):
    page.goto(base_url + "ru/verification/")
    # every cell is text: the tables hold no element but links, times, code and line breaks
    tags = page.evaluate("() => [...new Set([...document.querySelectorAll('article table *')]"
                         ".map(e => e.tagName.toLowerCase()))].sort()")
    assert set(tags) <= {"a", "br", "code", "small", "tbody", "td", "th", "thead", "time", "tr"}


def test_run_this_page_downloads_the_notebook_and_the_python_file_with_the_translations_comments(page, base_url):
    cat = load_catalog()
    for lang in LANGS:
        page.goto(base_url + folder(lang) + VMAP)
        badge = page.locator("article .kb-badge--verified")
        assert ui_string(lang, "run_page") in badge.inner_text()
        first = page_blocks(cat.page("glossary/vmap", lang))[0].code.rstrip("\n")
        for suffix in (".ipynb", ".py"):
            link = badge.locator(f"a[download][href$='{suffix}']")
            assert link.get_attribute("title") == ui_string(lang, "run_notebook" if suffix == ".ipynb" else "run_script")
            with page.expect_download() as started:
                link.click()
            download = started.value
            assert download.suggested_filename == "vmap" + suffix
            text = open(download.path(), encoding="utf-8").read()
            if suffix == ".ipynb":
                notebook = json.loads(text)
                assert notebook["nbformat"] == 4
                code = [c["source"] for c in notebook["cells"] if c["cell_type"] == "code"]
                assert code[1] == first  # after the quiet cell: the page's first block, comments and all
            else:
                assert first in text


def test_a_page_that_is_not_verified_offers_no_download(page, base_url, built_site):
    for html_path in sorted(built_site.rglob("index.html")):
        html = html_path.read_text(encoding="utf-8")
        if "kb-badge--not-verified" in html:
            break
    else:
        pytest.skip("every page of the site is verified")
    rel = html_path.parent.relative_to(built_site).as_posix() + "/"
    page.goto(base_url + rel)
    badge = page.locator("article .kb-badge--not-verified")
    assert badge.is_visible() and badge.locator("a[download]").count() == 0
    badge.locator("a").click()
    assert "/verification/#page-" in page.url


def _lines(page, selector: str) -> list[str]:
    """The element's text as the browser lays it out, one string per line."""
    return page.evaluate("""selector => {
        const root = document.querySelector(selector);
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        const lines = [];
        let top = null;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (let i = 0; i < node.data.length; i++) {
                const range = document.createRange();
                range.setStart(node, i); range.setEnd(node, i + 1);
                const rect = range.getClientRects()[0];
                if (!rect) continue;
                if (top === null || rect.top > top + rect.height / 2) { lines.push(""); top = rect.top; }
                lines[lines.length - 1] += node.data[i];
            }
        }
        return lines;
    }""", selector)


def test_on_a_phone_no_line_of_the_badge_starts_with_a_separator(phone, base_url):
    for lang in LANGS:
        for path in (VMAP, "glossary/jit/", "guides/batch-inference/"):
            phone.goto(base_url + folder(lang) + path)
            if phone.locator("article .kb-badge").count() == 0:
                continue
            lines = [line.strip() for line in _lines(phone, "article .kb-badge")]
            if path == VMAP:
                assert len(lines) > 1, (lang, lines)  # it does wrap on a phone
            assert not [line for line in lines if line.startswith("·")], (lang, path, lines)
