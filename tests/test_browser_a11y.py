"""Accessibility: axe-core in Chromium finds nothing on one page of every template and kind, in every
language, light and dark, on a desktop and a phone: the home page, both indexes, a term, a guide,
and the language's 404 page (as GitHub Pages serves it, for a missing path of that language).

axe-core is the npm package's axe.min.js, pinned and vendored in tests/vendor/ (MPL-2.0,
licence beside it), injected into each page: no request leaves the test server.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from test_browser_reader import LANGS, MOBILE, Tab, base_url, folder  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

AXE = Path(__file__).with_name("vendor") / "axe.min.js"
AXE_VERSION = "4.14.1"
# One page of each kind: the home page, the term index, a term, the guides' index, a guide, the verification page, a missing page.
MISSING = "no-such-page/"
PAGES = ["", "glossary/", "glossary/vmap/", "guides/", "guides/vmap-and-jit/", "verification/", MISSING]
SCHEMES = ["light", "dark"]
DEVICES = {"desktop": {"viewport": {"width": 1280, "height": 900}}, "phone": MOBILE}


def violations(page) -> list[dict]:
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, help: v.help,
            nodes: v.nodes.slice(0, 5).map(n => ({target: n.target.join(' '), summary: n.failureSummary}))}));
    }""")
    return result


def test_the_vendored_axe_core_is_the_pinned_release():
    assert AXE.read_text(encoding="utf-8").startswith(f"/*! axe v{AXE_VERSION}")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("lang", LANGS)
def test_axe_finds_no_violation(browser, base_url, lang, scheme, device):  # noqa: F811
    # bypass_csp: the site's Content-Security-Policy would refuse the injected axe script.
    opened = Tab(browser, **DEVICES[device], color_scheme=scheme, bypass_csp=True)
    try:
        found = {}
        for path in PAGES:
            opened.page.goto(base_url + folder(lang) + path)
            if path == MISSING:  # the root 404 page puts the language's own in its place
                opened.page.wait_for_function(f"() => document.documentElement.lang === {lang!r}"
                                              " && document.querySelector('article h1') !== null")
            expected = "slate" if scheme == "dark" else "default"
            assert opened.page.get_attribute("body", "data-md-color-scheme") == expected
            problems = violations(opened.page)
            if problems:
                found[path or "/"] = problems
        assert not found, json.dumps(found, ensure_ascii=False, indent=1)
        assert opened.foreign == []
        assert opened.missing == [base_url + folder(lang) + MISSING]
    finally:
        opened.context.close()
