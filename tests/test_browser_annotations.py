"""Code annotations in Chromium, in every language: a guide's `# (1)!` marker opens its note with
the text the page's list gives it, the marker's own text never shows, the copy button copies
code that still compiles, without the marker, and axe-core finds nothing on the page with a note open."""
from __future__ import annotations

import re

import pytest

from jax_kb.markdown import load_site_config
from test_browser_a11y import SCHEMES, violations
from test_browser_reader import ROOT, base_url, folder, Tab  # noqa: F401 (base_url: the served site, a fixture)

pytestmark = pytest.mark.browser

LANGS = load_site_config().languages
GUIDE = "jit-on-classes"
MARKER = re.compile(r"[ \t]*# \(\d+\)!")


def _source(lang: str) -> str:
    suffix = "" if lang == LANGS[0] else f".{lang}"
    return (ROOT / "docs" / "guides" / f"{GUIDE}{suffix}.md").read_text(encoding="utf-8")


def first_annotated_block(lang: str) -> tuple[str, str]:
    """(the code of the page's first annotated block, the text of its note 1) as the Markdown writes them."""
    text = _source(lang)
    block = re.search(r"^```python\n(?P<code>(?:(?!```).*\n)*?.*# \(1\)!\n(?:(?!```).*\n)*)```\n\n1\.  (?P<note>.*(?:\n    .*)*)",
                      text, re.M)
    assert block, f"{GUIDE} ({lang}) has no annotated block"
    note = " ".join(line.strip() for line in block["note"].split("\n")).replace("`", "")
    return block["code"], note


@pytest.fixture
def reader(browser):
    opened = Tab(browser, viewport={"width": 1280, "height": 900}, permissions=["clipboard-read", "clipboard-write"])
    yield opened.page
    opened.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_an_annotation_opens_with_its_note_and_the_copy_button_copies_runnable_code(reader, base_url, lang):
    code, note = first_annotated_block(lang)
    reader.goto(f"{base_url}{folder(lang)}guides/{GUIDE}/")
    reader.wait_for_load_state("load")
    block = reader.locator("article div.highlight").filter(has=reader.locator(".md-annotation")).first
    block.scroll_into_view_if_needed()
    marker = block.locator(".md-annotation__index").first
    marker.wait_for(state="attached")  # Material mounts the notes after load: the block as the reader sees it
    shown = block.locator("pre > code").inner_text()  # the notes' own <code> elements are not the block's
    assert "(1)" not in shown and "self.w * x" in shown

    tooltip = block.locator(".md-annotation .md-tooltip").first
    # Closed until clicked: no pointer resting on the marker, nothing focused (either opens it).
    reader.mouse.move(0, 0)
    reader.evaluate("() => document.activeElement && document.activeElement.blur()")
    tooltip.wait_for(state="hidden")
    marker.click(force=True)  # its pulse, which invites the click, never lets it count as stable
    tooltip.wait_for(state="visible")
    assert " ".join(tooltip.inner_text().split()) == " ".join(note.split())

    block.hover()  # the copy button shows on hover
    block.locator("button[data-md-type=copy]").click()
    copied = reader.evaluate("navigator.clipboard.readText()")
    lines = [line.rstrip() for line in copied.split("\n")]
    assert lines == [MARKER.sub("", line).rstrip() for line in code.rstrip("\n").split("\n")]
    compile(copied, f"<copied from {GUIDE} ({lang})>", "exec")


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("lang", LANGS)
def test_axe_finds_no_violation_with_an_annotation_open(browser, base_url, lang, scheme):  # noqa: F811
    # bypass_csp: the site's Content-Security-Policy would refuse the injected axe script.
    opened = Tab(browser, viewport={"width": 1280, "height": 900}, color_scheme=scheme, bypass_csp=True)
    try:
        opened.page.goto(f"{base_url}{folder(lang)}guides/{GUIDE}/")
        opened.page.wait_for_load_state("load")
        opened.page.locator("article .md-annotation__index").first.click(force=True)
        opened.page.locator("article .md-annotation .md-tooltip").first.wait_for(state="visible")
        assert violations(opened.page) == []
    finally:
        opened.context.close()
