"""Hostile pages in a real browser: the fixture pages of tests/fixtures/site_safety/ carry every
payload kind of issue 11, in their front matter and in their body, and are built with the
project's mkdocs.yml, hooks and overrides but without the lint, as a page nobody linted would
be. Chromium loads every page of every language, hovers the tooltips, clicks the payload
links, submits the form and searches; no dialog may open and no request may leave for
another host. What the front matter says is shown to the reader as text.
"""
from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from mkdocs.utils.yaml import yaml_load

from site_build import served
from jax_kb.markdown import load_site_config, read_page

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "site_safety"
LANGS = load_site_config().languages
# What guides/body.md would run or send the reader elsewhere with on a click (its form and buttons,
# which the sanitizer takes away whole, are tried where they stand, by the field left of them).
CLICKED = ["#hex", "#decimal", "#colon", "#vbscript", "#md-hex", "#md-colon", "#attr-list", "#xlink"]
# Records what the page reports as blocked by its Content-Security-Policy.
VIOLATIONS = ("window.__violations = []; document.addEventListener('securitypolicyviolation', "
              "e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    project = tmp_path_factory.mktemp("payload-site")
    shutil.copy(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    for name in ("scripts", "overrides"):
        shutil.copytree(ROOT / name, project / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(FIXTURE / "docs", project / "docs")
    (project / "snippets").mkdir()
    # --no-strict: the payload links are broken on purpose, and MkDocs warns about them.
    build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--no-strict", "--site-dir", "site"], cwd=project,
                           env=dict(os.environ, NO_MKDOCS_2_WARNING="1"), capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, f"mkdocs build failed:\n{build.stderr[-6000:]}"
    return project


def _front_matter(project: Path, path: str) -> dict:
    return read_page(project / "docs" / path, load_site_config(project / "mkdocs.yml")).meta


class _Handler(http.server.SimpleHTTPRequestHandler):
    base = "/"

    def translate_path(self, path):
        path = urlsplit(path).path
        return super().translate_path("/" + path[len(self.base):] if path.startswith(self.base) else "/\0outside")

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def base_url(project):
    base = urlsplit(yaml_load(open(project / "mkdocs.yml", encoding="utf-8"))["site_url"]).path or "/"
    handler = type("SiteHandler", (_Handler,), {"base": base})
    with served(functools.partial(handler, directory=str(project / "site")), base) as url:
        yield url



class Watched:
    """A browser tab whose dialogs, popups and requests to other hosts are recorded (and never sent)."""

    def __init__(self, browser, base_url: str):
        self.dialogs: list[str] = []
        self.foreign: list[str] = []
        self.local = urlsplit(base_url).netloc
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.context.route("**/*", self._route)
        self.context.add_init_script(VIOLATIONS)
        self.context.on("page", self._page)
        self.tab = self.context.new_page()
        self.tab.set_default_timeout(10_000)

    def _route(self, route):
        if urlsplit(route.request.url).netloc == self.local:
            route.continue_()
        else:
            self.foreign.append(route.request.url)
            route.abort()

    def _page(self, page):
        page.on("dialog", self._dialog)

    def _dialog(self, dialog):
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def visit(self, url: str) -> None:
        self.tab.goto(url)
        self.tab.wait_for_load_state("load")

    def violations(self) -> list[str]:
        return self.tab.evaluate("window.__violations")


@pytest.fixture
def watched(browser, base_url):
    watch = Watched(browser, base_url)
    yield watch
    watch.context.close()


def _pages(project: Path) -> list[str]:
    site = project / "site"
    return sorted(p.relative_to(site).parent.as_posix() + "/" for p in site.rglob("index.html")
                  if p.relative_to(site).parts[0] != "assets")


def _hover_tooltips(tab) -> None:
    for term in tab.locator("article abbr").all():
        term.hover()


def _search(tab, query: str) -> None:
    box = tab.locator("input.md-search__input")
    box.click()
    box.fill(query)
    box.press("End")  # Material searches on keyup
    tab.wait_for_function("() => /\\d/.test(document.querySelector('.md-search-result__meta').textContent)")


def test_no_page_of_any_language_opens_a_dialog_or_asks_another_host(project, base_url, watched):
    pages = _pages(project)
    assert len(pages) == 9 * len(LANGS)  # home, two indexes and six payload pages, in every language
    for path in pages:
        watched.visit(base_url + path.removeprefix("./"))
        _hover_tooltips(watched.tab)
        watched.tab.wait_for_timeout(100)  # a refresh or a timer set by the page would fire by now
    assert watched.dialogs == []
    assert watched.foreign == []


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_clicking_every_payload_link_and_button_runs_nothing_and_sends_nothing(base_url, watched, lang):
    url = base_url + ("" if lang == LANGS[0] else f"{lang}/") + "guides/body/"
    for selector in CLICKED:
        watched.visit(url)
        target = watched.tab.locator(selector)
        assert target.count() == 1, f"{selector} is missing from the page: the fixture no longer tests it"
        target.dispatch_event("click")  # some are not visible once cleaned (an <a> left alone in an <svg>)
        watched.tab.wait_for_timeout(100)
    watched.visit(url)
    watched.tab.locator("article input[name=q]").press("Enter")
    watched.tab.wait_for_timeout(100)
    assert watched.tab.url == url
    assert watched.dialogs == []
    assert watched.foreign == []


def test_search_results_show_the_payloads_as_text(project, base_url, watched):
    """Material's search renders titles and excerpts of its index as HTML: the index holds them escaped."""
    watched.visit(base_url + "glossary/plain/")
    _search(watched.tab, "title")  # in the guide index's entry of guides/multiline.md, "multiline-title"
    shown = " ".join(watched.tab.locator(".md-search-result__item").all_inner_texts())
    assert _front_matter(project, "guides/multiline.md")["summary"] in shown, shown
    assert watched.tab.locator(".md-search-result :is(script, img, svg)").count() == 0
    assert watched.dialogs == []
    assert watched.foreign == []


def test_front_matter_is_shown_as_text_wherever_the_site_places_it(project, base_url, watched):
    meta = _front_matter(project, "glossary/front-matter.md")
    watched.visit(base_url + "glossary/front-matter/")
    tab = watched.tab
    assert tab.title() == f"{meta['title']} - JAX Knowledge Base"
    assert tab.get_attribute("meta[name=description]", "content") == meta["description"]
    assert tab.locator(".md-header__topic[data-md-component=header-topic]").inner_text().strip() == meta["title"]
    assert meta["title"] in tab.locator("nav.md-nav--primary").inner_text()
    watched.visit(base_url + "glossary/plain/")
    related = tab.locator("#related + ul").inner_text()
    assert meta["title"] in related
    term = tab.locator("article abbr", has_text="payloadterm").first
    term.hover()
    assert tab.locator(".md-tooltip2--active").inner_text().strip() == meta["summary"]
    watched.visit(base_url + "glossary/")
    assert f"{meta['title']}: {meta['summary']}" in tab.locator("article").inner_text()
    assert watched.dialogs == []


def test_the_theme_s_tooltip_of_a_cut_off_title_runs_nothing(base_url, watched):
    """Material gives a cut-off title in the header a tooltip made from its text, inserted as HTML: the
    title's text "<img src=x onerror=...>" becomes that element there, and only the policy stops it."""
    watched.tab.set_viewport_size({"width": 1300, "height": 250})
    watched.visit(base_url + "glossary/front-matter/")
    watched.tab.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the header then shows the title
    watched.tab.locator(".md-header__title--active").wait_for(state="attached")
    watched.tab.wait_for_timeout(500)  # the header's title slides in
    # The mouse itself, not a hover that would first scroll the page (and the title back out).
    box = watched.tab.locator(".md-header__topic[data-md-component=header-topic] .md-ellipsis").bounding_box()
    watched.tab.mouse.move(box["x"] + 20, box["y"] + box["height"] / 2)
    watched.tab.locator(".md-tooltip2").first.wait_for(state="attached")
    watched.tab.wait_for_timeout(200)
    assert watched.dialogs == []
    assert watched.foreign == []


def test_the_theme_runs_under_the_content_security_policy(base_url, watched):
    """Material's own inline scripts, search worker and palette work: nothing of theirs is blocked."""
    watched.visit(base_url + "glossary/plain/")
    scheme = watched.tab.get_attribute("body", "data-md-color-scheme")
    watched.tab.locator("form[data-md-component=palette] label:visible").click()
    assert watched.tab.get_attribute("body", "data-md-color-scheme") != scheme
    _search(watched.tab, "plain")
    assert [v for v in watched.violations() if v.split()[0] in ("script-src-elem", "script-src", "worker-src",
                                                                 "style-src-elem", "style-src")] == []


def test_the_policy_stops_a_script_that_got_past_every_other_defence(project, base_url, watched):
    """As if a payload had slipped past the escaping and the sanitizer: the page's policy still holds."""
    built = project / "site" / "glossary" / "plain" / "index.html"
    bypass = built.with_name("bypass.html")
    bypass.write_text(built.read_text(encoding="utf-8").replace(
        "</article>", "<script>alert('inline')</script><img src='https://evil.example/pixel.png' alt='x'>"
                      "<img src='x.png' alt='x' onerror=\"alert('onerror')\"></article>", 1), encoding="utf-8")
    watched.visit(base_url + "glossary/plain/bypass.html")
    watched.tab.wait_for_timeout(200)
    assert watched.dialogs == []
    assert watched.foreign == []
    blocked = " ".join(watched.violations())
    assert "script-src" in blocked and "evil.example" in blocked
