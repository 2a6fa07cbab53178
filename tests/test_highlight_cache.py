"""The highlighting cache of the site: the same HTML as SuperFences' own highlighting, once per block."""
from __future__ import annotations

import copy
from pathlib import Path

import markdown
import pytest
from mkdocs.utils.yaml import yaml_load

from jax_kb.site import highlight_cache

ROOT = Path(__file__).resolve().parents[1]

ENGLISH = '''# Page

```python
# the sum
print(1 + 1)
```

```{.python title="two.py" linenums="3" hl_lines="2"}
x = 2
print(x)
```

```{.text .output}
2
```
'''
# The same code in another language, and a page where the same blocks sit at other positions.
SPANISH = ENGLISH.replace("the sum", "la suma").replace("# Page", "# Página")
SHIFTED = "```python\nprint('first')\n```\n\n" + ENGLISH


def site_markdown(cached: bool) -> markdown.Markdown:
    with open(ROOT / "mkdocs.yml", encoding="utf-8") as f:
        entries = yaml_load(f)["markdown_extensions"]
    names, configs = [], {}
    for entry in entries:
        name, config = next(iter(entry.items())) if isinstance(entry, dict) else (entry, {})
        config = copy.deepcopy(config)
        if name == "pymdownx.superfences" and not cached:
            config.pop("custom_fences")
        names.append(name)
        configs[name] = config
    return markdown.Markdown(extensions=names, extension_configs=configs)


@pytest.fixture(autouse=True)
def empty_cache():
    highlight_cache._cache.clear()


def test_the_site_configures_the_cache_on_every_fence():
    fences = next(e["pymdownx.superfences"]["custom_fences"] for e in yaml_load((ROOT / "mkdocs.yml").open())
                  ["markdown_extensions"] if isinstance(e, dict) and "pymdownx.superfences" in e)
    assert [(f["name"], f["format"]) for f in fences] == [("*", highlight_cache.format_fence)]


@pytest.mark.parametrize("text", [ENGLISH, SPANISH, SHIFTED], ids=["english", "translation", "shifted"])
def test_cached_highlighting_gives_the_html_of_superfences_own(text):
    cached, plain = site_markdown(True), site_markdown(False)
    for page in (ENGLISH, SPANISH, SHIFTED, text):  # the cache filled by other pages first
        expected = plain.reset().convert(page)
        assert cached.reset().convert(page) == expected


def test_a_translation_reuses_the_highlighting_of_its_identical_blocks():
    md = site_markdown(True)
    md.convert(ENGLISH)
    after_english = len(highlight_cache._cache)
    md.reset().convert(SPANISH)
    assert after_english == 3 and len(highlight_cache._cache) == 3  # its translated comment included


def test_line_anchors_follow_the_position_of_the_block_on_its_page():
    md = site_markdown(True)
    md.convert(ENGLISH)
    shifted = md.reset().convert(SHIFTED)
    assert 'id="__span-1-1"' in shifted and 'id="__span-3-1"' in shifted


LABELLED = '''# Page

```{.python title="Output · a <b> & \\"c\\""}
print(1)
```
'''


def test_blocks_that_differ_only_in_their_title_share_the_highlighting():
    cached, plain = site_markdown(True), site_markdown(False)
    for page in (LABELLED, LABELLED.replace("Output", "Salida")):
        assert cached.reset().convert(page) == plain.reset().convert(page)
    assert len(highlight_cache._cache) == 1 and "Salida" in cached.convert(LABELLED.replace("Output", "Salida"))


def test_translated_comments_share_the_highlighting_and_keep_their_words():
    cached, plain = site_markdown(True), site_markdown(False)
    pages = [ENGLISH, SPANISH, SPANISH.replace("la suma", "<b>&amp; 'x' \"y\"</b>")]
    for page in pages:
        assert cached.reset().convert(page) == plain.reset().convert(page)
    assert len(highlight_cache._cache) == 3 and "la suma" in cached.reset().convert(SPANISH)


@pytest.mark.parametrize("code", [
    "#!/usr/bin/env python\nprint(1)  # one",  # a shebang is a token of its own
    "s = '# not a comment'  # a comment",
    'text = """\n# inside a string\n"""  # after it',
    "print(1  # an open bracket: does not tokenize",
    "x = 1  # #KbHighlightCacheComment0x",  # the placeholder's own text
    "f = f'{1:#x}'  # a format spec",
    "x = 1 \\\n  # after a continuation\n",
])
def test_comment_placeholders_never_change_what_is_shown(code):
    cached, plain = site_markdown(True), site_markdown(False)
    page = f"```python\n{code}\n```\n"
    assert cached.reset().convert(page) == plain.reset().convert(page)


def test_every_page_of_the_site_is_highlighted_as_superfences_would():
    cached, plain = site_markdown(True), site_markdown(False)
    pages = sorted((ROOT / "docs").rglob("*.md"), key=lambda p: (p.name.count("."), p))  # English first
    for path in pages:
        text = path.read_text(encoding="utf-8")
        assert cached.reset().convert(text) == plain.reset().convert(text), path
        if path.name.count(".") == 1:
            english = len(highlight_cache._cache)
    # The translations add only blocks whose code differs from the English, such as a localized string.
    assert len(highlight_cache._cache) < 1.1 * english
