"""Hostile pages in a real browser: the fixture pages of tests/fixtures/site_safety/ carry every
payload kind of issues 11 and 21, in their front matter (of every type YAML has) and in their
body, with scripts, HTML and SVG files beside them in docs/, in every language, and are built
with the project's mkdocs.yml, hooks and overrides but without the lint, as a page nobody
linted would be. Chromium loads every page of every language, hovers the tooltips, clicks the
payload links, submits the form and searches; no dialog may open, no request may leave for
another host, no file a contributor added may be fetched, and the theme's configuration and
controls stay its own. What the front matter says is shown to the reader as text.
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
    (project / "build.log").write_text(build.stderr, encoding="utf-8")
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
        self.requests: list[str] = []  # every address asked for, the site's own included
        self.local = urlsplit(base_url).netloc
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.context.route("**/*", self._route)
        self.context.add_init_script(VIOLATIONS)
        self.context.on("page", self._page)
        self.tab = self.context.new_page()
        self.tab.set_default_timeout(10_000)

    def _route(self, route):
        self.requests.append(route.request.url)
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
    # home, two indexes, seven payload pages and the verification page (their titles, as text), in every language
    assert len(pages) == 11 * len(LANGS)
    for path in pages:
        watched.visit(base_url + path.removeprefix("./"))
        _hover_tooltips(watched.tab)
        watched.tab.wait_for_timeout(100)  # a refresh or a timer set by the page would fire by now
    assert watched.dialogs == []
    assert watched.foreign == []
    assert [url for url in watched.requests if "evil" in url] == []


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
    assert tab.get_attribute("meta[name=description]", "content") == meta["summary"]
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


HOSTILE_FRONT_MATTER = {"": [8, 9, 10, 11], ".es": [8, 9, 10], ".ro": [8, 9, 10], ".sk": [8, 9, 10], ".ru": [8, 9, 10]}
CONTRIBUTED_FILES = ["docs/assets/diagram.svg", "docs/assets/evil.js", "docs/assets/javascripts/kb.js",
                     "docs/guides/evil.html"]


def test_the_build_names_every_hostile_front_matter_line_and_contributed_file(project):
    log = (project / "build.log").read_text(encoding="utf-8")
    for suffix, lines in HOSTILE_FRONT_MATTER.items():
        for line in lines:
            assert f"docs/glossary/front-matter{suffix}.md:{line}: unknown front matter key " in log
    for path in CONTRIBUTED_FILES:
        assert f"{path}: a .{path.rsplit('.', 1)[1]} file in docs/ would be published as it is" in log


def test_no_file_a_contributor_adds_is_published_and_the_theme_s_own_are_served(project):
    site = project / "site"
    assert sorted(p.name for p in site.rglob("*") if p.suffix in (".svg", ".html") and "evil" in p.name
                  or p.name in ("evil.js", "diagram.svg")) == []
    assert (site / "assets" / "javascripts" / "kb.js").read_bytes() == (
        ROOT / "overrides" / "assets" / "javascripts" / "kb.js").read_bytes()  # not docs/'s look-alike


def _clobber_url(base_url: str, lang: str) -> str:
    return base_url + ("" if lang == LANGS[0] else f"{lang}/") + "guides/clobber/"


@pytest.mark.parametrize("lang", LANGS)
def test_a_page_that_takes_the_theme_s_ids_leaves_its_configuration_and_controls_its_own(base_url, watched, lang):
    watched.visit(_clobber_url(base_url, lang))
    tab = watched.tab
    config = tab.evaluate("(() => { const c = document.querySelector('#__config');"
                          " return [c.tagName, JSON.parse(c.textContent).search]; })()")
    assert config[0] == "SCRIPT" and "/assets/javascripts/workers/kb-search.js?material=search." in config[1]
    for toggle in ("__drawer", "__search", "__toc"):
        assert tab.evaluate(f"[...document.querySelectorAll('[id={toggle}]')].map(e => e.tagName)") == ["INPUT"]
    # The copy button of the page's code block copies that block, not the look-alike above it.
    copied = tab.evaluate("(() => { const block = [...document.querySelectorAll('.highlight')].find("
                          "b => b.textContent.includes('the real code block'));"
                          " const target = block.querySelector('[data-clipboard-target]').dataset.clipboardTarget;"
                          " return document.querySelector(target).textContent; })()")
    assert "the real code block" in copied and "evil.example" not in copied
    _search(tab, "clobbering")  # the site's search worker answers, with Material's inside
    assert any("/assets/javascripts/workers/kb-search.js" in url for url in watched.requests)
    assert any("/assets/javascripts/workers/search." in url for url in watched.requests)
    assert [url for url in watched.requests if "evil" in url] == []
    assert watched.dialogs == []
    assert watched.foreign == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_link_that_opens_a_tab_gives_it_no_hold_on_the_page(base_url, watched, lang):
    watched.visit(_clobber_url(base_url, lang))
    for link in ("#opener", "#opener-internal", "#opener-md"):
        assert watched.tab.get_attribute(link, "rel") == "noopener noreferrer"
    with watched.context.expect_page() as opened:
        watched.tab.locator("#opener-internal").click()
    tab = opened.value
    tab.wait_for_load_state("load")
    assert tab.evaluate("window.opener") is None
    assert watched.dialogs == []


def test_the_policy_runs_no_script_file_but_the_theme_s_even_from_the_site_itself(project, base_url, watched):
    """As if a contributor's script had been published and a page had got it loaded, as a script and as
    Material's search worker: only the theme's own files run, whatever the page says."""
    built = project / "site" / "glossary" / "plain" / "index.html"
    (project / "site" / "assets" / "published.js").write_text("alert('published-js');", encoding="utf-8")
    page = built.read_text(encoding="utf-8")
    worker = page[page.index('"search": "') + len('"search": "'):]
    worker = worker[:worker.index('"')]
    hijacked = built.with_name("hijacked.html")
    hijacked.write_text(page.replace(worker, "../../assets/published.js").replace(
        "</article>", '<script src="../../assets/published.js"></script></article>', 1), encoding="utf-8")
    watched.visit(base_url + "glossary/plain/hijacked.html")
    watched.tab.wait_for_timeout(300)
    assert watched.dialogs == []
    assert [v for v in watched.violations() if "published.js" in v]


def test_a_copy_that_is_no_git_checkout_builds_and_shows_no_last_changed_date(project):
    # The project fixture is such a copy: it built, and no page claims a date it cannot know.
    pages = sorted((project / "site").rglob("index.html"))
    assert pages
    assert not [p for p in pages if 'class="md-source-file"' in p.read_text(encoding="utf-8")]
    assert "not a git checkout" in (project / "build.log").read_text(encoding="utf-8")
