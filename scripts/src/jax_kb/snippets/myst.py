"""Notebooks kept as Markdown text.

MyST notebooks (front matter with jupytext's myst format, or file_format: mystnb): MyST-NB runs
their {code-cell} cells, in page order, in one kernel, and only those. So does the engine; the
page's other Python fences are shown, not run, as MyST-NB shows them.
jupytext's markdown format: the Python fences are the notebook's code cells, IPython syntax and all.
"""
from __future__ import annotations

import re
from dataclasses import replace

import yaml

from jax_kb.markdown import Fence, InputError, Page
from jax_kb.snippets.blocks import Block, is_python
from jax_kb.snippets.dialect import Dialect
from jax_kb.snippets.ipython_syntax import plain_python
from jax_kb.snippets.results import Skip

CODE_CELL = re.compile(r"^\{code-cell\}(?:\s+(?P<lang>\S+))?\s*$")
OPTION = re.compile(r"^:(?P<key>[\w-]+):(?:\s+(?P<value>.*))?$")
DISPLAY_FENCE = "a display fence of a MyST notebook: MyST-NB runs only the page's {code-cell} cells"


def kernel_language(page: Page) -> str | None:
    """The language of a MyST notebook's kernel; None when the page is no MyST notebook."""
    meta = page.meta if isinstance(page.meta, dict) else {}
    if meta.get("file_format") != "mystnb" and _representation(meta) != "myst":
        return None
    kernel = meta.get("kernelspec") if isinstance(meta.get("kernelspec"), dict) else {}
    return str(kernel.get("language") or kernel.get("name") or "python").lower()


def _representation(meta: dict) -> str:
    jupytext = meta.get("jupytext")
    if not isinstance(jupytext, dict) and isinstance(meta.get("jupyter"), dict):
        jupytext = meta["jupyter"].get("jupytext")  # the markdown format nests it under jupyter:
    representation = jupytext.get("text_representation") if isinstance(jupytext, dict) else None
    return str(representation.get("format_name", "")) if isinstance(representation, dict) else ""


def is_markdown_notebook(page: Page) -> bool:
    """A jupytext notebook in its markdown format: its Python fences are code cells."""
    return isinstance(page.meta, dict) and _representation(page.meta) in ("markdown", "md")


def _cell_options(fence: Fence, path: str) -> tuple[dict, int]:
    """The cell's options (a --- YAML --- header or :key: value lines) and where its code starts."""
    body = [line.text for line in fence.body]
    if body and body[0].strip() == "---":
        end = next((i for i in range(1, len(body)) if body[i].strip() == "---"), None)
        if end is None:
            raise InputError(path, fence.line, "the {code-cell}'s --- options are never closed by ---")
        try:
            options = yaml.safe_load("\n".join(body[1:end])) or {}
        except yaml.YAMLError as exc:
            raise InputError(path, fence.body[1].page_line, f"the cell's options are not valid YAML: {exc}") from None
        return (options if isinstance(options, dict) else {}), end + 1
    options, start = {}, 0
    while start < len(body) and (match := OPTION.match(body[start])):
        try:
            options[match["key"]] = yaml.safe_load(match["value"] or "")
        except yaml.YAMLError:
            options[match["key"]] = match["value"]
        start += 1
    return options, start


def _cell(fence: Fence, index: int, path: str, kernel: str) -> Block:
    options, start = _cell_options(fence, path)
    tags = options.get("tags") if isinstance(options.get("tags"), list) else []
    cell = replace(fence, body=fence.body[start:])
    if not kernel.startswith(("python", "ipython")):
        return Block(cell, index, run=False, shown_only=f"a cell of a {kernel} kernel, not Python")
    if "skip-execution" in tags:
        return Block(cell, index, run=True, skip=Skip.MARKER,
                     skip_reason="tagged skip-execution: MyST-NB does not run it")
    lines, unsupported = plain_python(cell.body)
    block = Block(replace(cell, body=lines), index, run=True, allow_error="raises-exception" in tags)
    return replace(block, skip=Skip.UNSUPPORTED, skip_reason=unsupported) if unsupported else block


def notebook_blocks(page: Page, dialect: Dialect, kernel: str) -> list[Block]:
    blocks: list[Block] = []
    for fence in page.fences:
        if fence.hidden is not None:
            continue
        if CODE_CELL.match(fence.info.strip()):
            blocks.append(_cell(fence, len(blocks), page.path, kernel))
        elif is_python(fence, dialect):
            blocks.append(Block(fence, len(blocks), run=False, shown_only=DISPLAY_FENCE))
    return blocks
