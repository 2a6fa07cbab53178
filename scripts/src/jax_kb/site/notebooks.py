""""Run this page": a verified page's examples as a Jupyter notebook and as a Python file, beside the page.

Built at site build time from exactly the blocks the engine ran for the page: the blocks of the
page as its project reads them (jax_kb/snippets/reading.py), in page order, less those the run
backing the page did not execute (a .no-run block, a block for another device), the project's
setup code first, as the engine runs a namespace (jax_kb/snippets/units.py). The code is the
page's own, so a translation's comments stay; each cell holds what that run printed.

Offered only where the badge says "verified" and the page's blocks share one namespace as plain
code (no interpreter session): those are what a notebook, run top to bottom, runs the same way.
Elsewhere the badge offers nothing and says why through its state: not verified yet.

A notebook displays the value of a cell's last expression, which the page (and the engine) do
not: its first cell turns that off, so that the notebook prints what the page shows. In the
Python file a block the page shows raising is wrapped in try/except, so the file runs to its end;
a page where that wrapping would change the code (a string spanning lines) is not offered.
"""
from __future__ import annotations

import io
import json
import textwrap
import tokenize
from dataclasses import dataclass
from pathlib import Path

from jax_kb.atomic_write import write_atomic
from jax_kb.catalog import ui_string
from jax_kb.markdown import InputError, Page, SiteConfig
from jax_kb.site.escape import html_text, markdown_text
from jax_kb.site.verified import Run, sentence
from jax_kb.snippets.blocks import Block
from jax_kb.snippets.project_config import ProjectConfig
from jax_kb.snippets.reading import read_blocks
from jax_kb.snippets.units import job_plans

QUIET = '%config InteractiveShell.ast_node_interactivity = "none"'
KERNEL = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
          "language_info": {"name": "python"}}


@dataclass(frozen=True)
class Cell:
    code: str
    block: Block | None  # None: the project's setup code
    stdout: str = ""  # what the backing run printed


@dataclass(frozen=True)
class Header:
    """What the notebook and the file say first, in the reader's language."""

    title: str
    page: str  # the Markdown file, relative to the project (docs/glossary/vmap.ru.md)
    url: str  # the page's address on the published site
    verified: str  # the badge's sentence
    quiet: str  # why the first cell turns off the display of values
    raises: str  # "The page shows this block raising {exception}."


def ran_cells(page: Page, site: SiteConfig, project: ProjectConfig, run: Run) -> list[Cell] | None:
    """The cells of what `run` executed of the page; None where a notebook would not run it the same way."""
    try:
        blocks = read_blocks(page, site, project.for_page(page.source))
    except InputError:
        return None
    ran = [b for b in blocks if (entry := run.entries.get((page.path, b.index)))
           and entry.get("status") == "passed" and entry.get("digest") == b.digest]
    if not ran or any(b.session for b in ran):
        return None
    plans = job_plans(ran, project.for_page(page.source))
    if len(plans) != 1:
        return None
    return [Cell(unit.code, unit.block, "" if unit.block is None else
                 str(run.entries[(page.path, unit.block.index)].get("stdout") or ""))
            for unit in plans[0].units]


def _spans_lines(code: str) -> bool:
    """Whether a string literal spans lines: indenting the code would change its value."""
    try:
        return any(t.type == tokenize.STRING and t.start[0] != t.end[0]
                   for t in tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return True


def offered(cells: list[Cell] | None) -> bool:
    return bool(cells) and not any(c.block and c.block.raises and _spans_lines(c.code) for c in cells)


def notebook(cells: list[Cell], header: Header) -> str:
    """An nbformat 4.5 notebook: a title cell, the quiet cell, then one code cell per block."""
    def code_cell(n: int, source: str, metadata: dict, outputs: list) -> dict:
        return {"cell_type": "code", "execution_count": None, "id": f"cell-{n}", "metadata": metadata,
                "outputs": outputs, "source": source}

    intro = (f"# {markdown_text(header.title)}\n\n<{header.url}>\n\n{markdown_text(header.verified)}")
    out = [{"cell_type": "markdown", "id": "cell-0", "metadata": {}, "source": intro},
           code_cell(1, f"# {header.quiet}\n{QUIET}", {}, [])]
    for n, cell in enumerate(cells, start=2):
        metadata: dict = {}
        if cell.block is not None:
            metadata["jax_kb"] = {"block": cell.block.index, "line": cell.block.line}
            if cell.block.raises:
                metadata["jax_kb"]["raises"] = cell.block.raises
                metadata["tags"] = ["raises-exception"]  # Jupyter and nbclient go on after it
        outputs = [{"output_type": "stream", "name": "stdout", "text": cell.stdout}] if cell.stdout else []
        out.append(code_cell(n, cell.code.rstrip("\n"), metadata, outputs))
    metadata = {**KERNEL, "jax_kb": {"page": header.page}}  # each cell's block is in its own metadata
    return json.dumps({"cells": out, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5},
                      ensure_ascii=False, indent=1) + "\n"


def script(cells: list[Cell], header: Header) -> str:
    """A Python file of the same cells (`# %%` marks each, as editors read it); a block the page
    shows raising runs inside try/except, so the file goes on after it as the page does."""
    head = "\n".join(f"# {line}".rstrip() for line in (header.title, header.url, "", header.verified))
    parts = [head]
    for cell in cells:
        code = cell.code.rstrip("\n")
        if cell.block is not None and cell.block.raises:
            said = header.raises.format(exception=cell.block.raises)
            code = (f"try:\n{textwrap.indent(code, '    ')}\n"
                    f"except Exception as error:  # {said}\n"
                    '    print(f"{type(error).__name__}: {error}")')
        parts.append(f"# %%\n{code}")
    return "\n\n".join(parts) + "\n"


def write(folder: Path, slug: str, cells: list[Cell], header: Header) -> tuple[str, str]:
    """Writes <slug>.ipynb and <slug>.py into the page's folder of the site; their names, for links."""
    folder.mkdir(parents=True, exist_ok=True)
    names = (f"{slug}.ipynb", f"{slug}.py")
    write_atomic(folder / names[0], notebook(cells, header))
    write_atomic(folder / names[1], script(cells, header))
    return names


def offer(page: Page, site: SiteConfig, project: ProjectConfig, backing: list[Run], lang: str, address: str,
          folder: Path) -> str:
    """Writes the page's notebook and file into its folder of the site (backing: the runs that verify
    the page, the first one's cells taken); the badge's item linking them, or "" where none is offered."""
    cells = ran_cells(page, site, project, backing[0])
    if not offered(cells):
        return ""
    header = Header(title=str(page.meta.get("title") or page.slug), page=page.path, url=address,
                    verified=sentence(backing, lang), quiet=ui_string(lang, "notebook_quiet"),
                    raises=ui_string(lang, "notebook_raises"))
    names = write(folder, page.slug, cells, header)
    links = [f'<a href="{html_text(name)}" download title="{html_text(ui_string(lang, key))}">'
             f'{html_text("." + name.rsplit(".", 1)[1])}</a>' for name, key in zip(names, ("run_notebook", "run_script"))]
    return f'{html_text(ui_string(lang, "run_page"))} {" ".join(links)}'
