"""Front matter placed by the site is shown as text: scripts/src/jax_kb/site/escape.py, checked through the
site's own Markdown extensions and by the hooks' generated sections."""
from __future__ import annotations

from html.parser import HTMLParser

import markdown
import pytest

from jax_kb.site.escape import html_text, markdown_attribute, markdown_text, template_meta

PAYLOADS = [
    "</title><script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '"><svg onload=alert(1)>',
    "sum {: onclick=alert(1) }",
    "[link](javascript:alert(1)) ![image](https://evil.example/x.png)",
    "<https://evil.example/>",
    "one\n\n<script>alert(1)</script>\n*[one]: <b>abbr</b>",
    "&lt;script&gt; &#60;b&#62;",
    "custom_jvp *not emphasis* `not code` \\",
]
EXTENSIONS = ["abbr", "attr_list", "def_list", "footnotes", "md_in_html", "tables", "toc"]


class _Elements(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text = ""

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text += data


def _render(markdown_source: str) -> _Elements:
    elements = _Elements()
    elements.feed(markdown.markdown(markdown_source, extensions=EXTENSIONS))
    return elements


@pytest.mark.parametrize("payload", PAYLOADS)
def test_markdown_text_in_a_generated_list_item_is_only_text(payload):
    rendered = _render(f"- [{markdown_text(payload)}](page.md): {markdown_text(payload)}")
    assert rendered.tags == [("ul", {}), ("li", {}), ("a", {"href": "page.md"})]
    shown = " ".join(payload.split())
    assert rendered.text.strip() == f"{shown}: {shown}"


def test_markdown_text_keeps_underscores_inside_words_for_the_abbr_extension():
    assert markdown_text("custom_jvp") == "custom_jvp"


@pytest.mark.parametrize("payload", PAYLOADS)
def test_html_text_stays_inside_its_attribute_and_element(payload):
    parsed = _Elements()
    parsed.feed(f'<meta content="{html_text(payload)}"><title>{html_text(payload)}</title>')
    assert parsed.tags == [("meta", {"content": payload}), ("title", {})]
    assert parsed.text == payload


def test_template_meta_escapes_every_string_the_templates_could_print():
    meta = {"title": "<b>t</b>", "summary": "a < b", "aliases": ["<i>a</i>", "b"]}
    assert template_meta(meta) == {"title": "&lt;b&gt;t&lt;/b&gt;", "summary": "a &lt; b",
                                   "description": "a &lt; b", "aliases": ["&lt;i&gt;a&lt;/i&gt;", "b"]}


def test_template_meta_lets_only_the_schema_s_keys_and_types_reach_a_template():
    """A mapping key, bytes, a set, a number or a key outside the schema would be printed as Python
    writes it, unescaped: none of them is passed on."""
    meta = {"title": {"</small><script src=x.js></script>": 1}, "summary": b"<script>", "tags": {"<b>"},
            "aliases": ["ok", 3], "related": ["plain"], "subtitle": "<img src=x onerror=alert(1)>",
            "template": "redirect.html", "kind": "term", 7: "x"}
    assert template_meta(meta) == {"related": ["plain"], "kind": "term"}


def test_an_abbreviation_title_shows_character_references_as_written():
    md = markdown.Markdown(extensions=["abbr"], extension_configs={"abbr": {"glossary": {
        "term": markdown_attribute("&lt;img src=x onerror=alert(1)&gt; & <b>")}}})
    parsed = _Elements()
    parsed.feed(md.convert("a term"))
    assert parsed.tags[1] == ("abbr", {"title": "&lt;img src=x onerror=alert(1)&gt; & <b>"})
