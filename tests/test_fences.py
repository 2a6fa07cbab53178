"""The one Markdown reader's fences: what the site shows as code, read as pymdownx.superfences
reads it (containers and their prefixes, closing lines, fences shown as text), checked against
what Python-Markdown with the site's extensions renders."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from jax_kb.markdown import InputError, read_page
from jax_kb.snippets.blocks import page_blocks
from shown_code import rendered, shown_python

ROOT = Path(__file__).resolve().parents[1]
CONTAINERS = ROOT / "tests" / "fixtures" / "snippets" / "containers"


def page_of(tmp_path: Path, text: str):
    path = tmp_path / "page.md"
    path.write_text(text, encoding="utf-8")
    return read_page(path, text=text)


def shown_on_the_site(text: str) -> list[str]:
    return [code.strip("\n") for code in shown_python(rendered(text, ROOT / "mkdocs.yml"))]


def run_by_the_engine(page) -> list[str]:
    return [block.fence.code.strip("\n") for block in page_blocks(page)]


def test_a_fence_in_a_blockquote_is_its_code_without_the_markers_at_its_own_lines(tmp_path):
    page = page_of(tmp_path, "# Q\n\n- item\n\n    > ```python\n    > x = 1\n    >\n    >     y = 2\n    > ```\n")
    [fence] = page.fences
    assert (fence.line, fence.end_line, fence.prefix, fence.lang) == (5, 9, "    > ", "python")
    assert fence.code == "x = 1\n\n    y = 2\n"
    assert [line.page_line for line in fence.body] == [6, 7, 8]


@pytest.mark.parametrize("text", [
    "```python\nx = 1\n    ```\ny = 2\n```\n",  # a closing line indented more is code
    "```python\nx = 1\n````\ny = 2\n```\n",  # so is a longer one
    "> ```python\n> x = 1\n>     ```\n> y = 2\n> ```\n",
])
def test_only_the_marker_itself_behind_the_fences_prefix_closes_it(tmp_path, text):
    [fence] = page_of(tmp_path, "# C\n\n" + text).fences
    assert fence.code.splitlines()[0] == "x = 1" and fence.code.splitlines()[-1] == "y = 2"
    assert fence.end_line == 7


@pytest.mark.parametrize("text, opened_at, cut_at", [
    ("- item\n\n    ```python\n    x = 1\n```\n", 5, 7),  # the closing line indented less than the fence
    ("> ```python\n> x = 1\ny = 2\n> ```\n", 3, 5),  # a line without the blockquote's marker
    ("> ```python\n> x = 1\n```\n", 3, 5),
    ("> > ```python\n> x = 1\n> > ```\n", 3, 4),  # a shallower blockquote
])
def test_a_line_that_leaves_the_fences_prefix_is_an_input_error_at_the_opening_line(tmp_path, text, opened_at,
                                                                                    cut_at):
    with pytest.raises(InputError) as caught:
        page_of(tmp_path, "# C\n\n" + text)
    assert caught.value.line == opened_at
    assert f"is cut off at line {cut_at}" in str(caught.value) and "shows it as text" in str(caught.value)
    assert shown_on_the_site("# C\n\n" + text) == []


@pytest.mark.parametrize("text", [
    "Text.\n\n    > ```python\n    > x = 1\n    > ```\n",  # a blockquote inside an indented code block
    "> Text.\n>\n>     ```python\n>     x = 1\n>     ```\n",  # an indented code block inside a blockquote
    "Text.\n- not a list item: a paragraph goes on\n\n    ```python\n    x = 1\n    ```\n",
    "```python\nx = 0\n```\n- not a list item either\n\n    ```python\n    x = 1\n    ```\n",
    "<!--\n> ```python\n> x = 1\n> ```\n-->\n",
])
def test_a_fence_the_site_shows_as_text_is_hidden_and_not_run(tmp_path, text):
    page = page_of(tmp_path, "# H\n\n" + text)
    assert [f.hidden for f in page.fences if "x = 1" in f.code] != [None]
    assert "x = 1" not in run_by_the_engine(page)
    assert run_by_the_engine(page) == shown_on_the_site("# H\n\n" + text)


def test_tabs_are_expanded_as_the_site_expands_them(tmp_path):
    [fence] = page_of(tmp_path, "# T\n\n- item\n\n\t```python\n\tif True:\n\t\tx = 1\n\t```\n").fences
    assert fence.code == "if True:\n    x = 1\n"


@pytest.mark.parametrize("name", sorted(p.name for p in CONTAINERS.glob("*.md")))
def test_the_engine_runs_exactly_what_the_site_shows_as_python(name):
    page = read_page(CONTAINERS / name)
    body = re.sub(r"\A---\n.*?\n---\n", "", page.text, flags=re.S)
    assert run_by_the_engine(page) == shown_on_the_site(body)
