"""The site's "Run this page" downloads, as a reader runs them: every notebook the site offers runs
top to bottom in a Jupyter kernel on CPU and prints what its page shows; the Python file holds the
same code. Offered exactly where the badge says "verified".

Fast enough for every `make test`: the notebooks of one page in five languages differ only in
their comments, so each distinct notebook (code identical up to comments) runs once, and every
other one is checked against the outputs of the one that ran; kernels run side by side, with
JAX's persistent compilation cache in a temporary folder.
"""
from __future__ import annotations

import json
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from jax_kb.markdown import load_site_config, read_page
from jax_kb.snippets.blocks import page_blocks
from jax_kb.snippets.code_tokens import code_tokens
from jax_kb.snippets.output_check import mismatch, outputs_match

ROOT = Path(__file__).resolve().parents[1]
KERNEL = "jax-kb-tests"
KERNELS = 3  # a kernel waits on its own process much of the time: more kernels than cores keep both busy
CELL_TIMEOUT_S = 300
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _is_a(name: str, expected: str) -> bool:
    """Whether the exception a kernel names is the one the page expects, or a subclass of it (as the engine judges)."""
    import builtins

    import jax.errors

    def find(dotted: str):
        short = dotted.rsplit(".", 1)[-1]
        return getattr(builtins, short, None) or getattr(jax.errors, short, None)

    raised, wanted = find(name), find(expected)
    return name == expected.rsplit(".", 1)[-1] or (raised is not None and wanted is not None
                                                   and issubclass(raised, wanted))


def _shown(stdout: str, errors: list) -> str:
    """What the cell shows, as the engine tells what a block shows: what it printed and, for a cell that
    raised, the last line of the traceback (jax_kb/snippets/verdict.py shown_output)."""
    if not errors:
        return stdout
    error = errors[0]
    last = f"{error.ename}: {error.evalue}" if error.evalue else error.ename
    return stdout + ("\n" if stdout and not stdout.endswith("\n") else "") + last + "\n"


def _unqualified(expected: str, ename: str) -> str:
    """The page names a raised exception as Python does, with its module (jax.errors.X: ...); a kernel
    by its class alone: the last line that names it loses the module."""
    lines = expected.split("\n")
    named = re.compile(rf"^(?:\w+\.)+(?={re.escape(ename)}(?::|$))")
    for n in range(len(lines) - 1, -1, -1):
        if named.match(lines[n]):
            lines[n] = named.sub("", lines[n], count=1)
            break
    return "\n".join(lines)


def _code_cells(nb) -> list:
    return [cell for cell in nb.cells if cell.cell_type == "code"]


def _key(nb) -> tuple:
    """What decides what a notebook prints: its code without comments, and which cells may raise."""
    return tuple((code_tokens(cell.source), tuple(cell.metadata.get("tags", []))) for cell in _code_cells(nb))


@pytest.fixture(scope="module")
def offered(built_site) -> dict[Path, object]:
    found = {path: nbformat.read(path, as_version=4) for path in sorted(built_site.rglob("*.ipynb"))}
    assert len(found) > 20, "the site offers (almost) no notebooks"
    return found


@pytest.fixture(scope="module")
def executed(offered, tmp_path_factory) -> dict[tuple, object]:
    """Each distinct notebook, executed: by its key."""
    distinct = {}
    for nb in offered.values():
        distinct.setdefault(_key(nb), nb)
    # The kernel is this interpreter's, whatever other Python kernels the machine has installed.
    jupyter = tmp_path_factory.mktemp("jupyter")
    (jupyter / "kernels" / KERNEL).mkdir(parents=True)
    (jupyter / "kernels" / KERNEL / "kernel.json").write_text(json.dumps(
        {"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
         "display_name": KERNEL, "language": "python"}), encoding="utf-8")
    cache = tmp_path_factory.mktemp("jax-cache")
    env = dict(os.environ, JAX_PLATFORMS="cpu", JAX_COMPILATION_CACHE_DIR=str(cache),
               JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="0", JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES="0")

    def run(item):
        key, nb = item
        copy = nbformat.from_dict(json.loads(json.dumps(nb)))  # the site's copy stays as offered
        folder = tmp_path_factory.mktemp("notebook")  # a page may write files (a profiler trace)
        try:
            NotebookClient(copy, timeout=CELL_TIMEOUT_S, kernel_name=KERNEL,
                           resources={"metadata": {"path": str(folder)}}).execute(env=env)
        except CellExecutionError as exc:
            return key, f"{copy.metadata['jax_kb']['page']}: a cell failed:\n{str(exc)[-3000:]}"
        return key, copy

    with pytest.MonkeyPatch.context() as patch, ThreadPoolExecutor(KERNELS) as pool:
        patch.setenv("JUPYTER_PATH", str(jupyter))  # searched first
        return dict(pool.map(run, distinct.items()))


def test_every_notebook_is_valid_nbformat_and_names_its_page(offered):
    for path, nb in offered.items():
        nbformat.validate(nb)
        page = nb.metadata["jax_kb"]["page"]
        assert (ROOT / page).is_file(), path
        assert path.stem == Path(page).name.split(".")[0], path  # vmap.ipynb beside glossary/vmap/


def test_every_notebook_runs_top_to_bottom_on_cpu_and_prints_what_its_page_shows(offered, executed):
    failed = [result for result in executed.values() if isinstance(result, str)]
    assert not failed, "\n\n".join(failed)
    site = load_site_config()
    checked = 0
    for path, nb in offered.items():
        ran = executed[_key(nb)]
        page = read_page(ROOT / nb.metadata["jax_kb"]["page"], site)
        blocks = page_blocks(page)
        for offered_cell, cell in zip(_code_cells(nb), _code_cells(ran)):
            block_meta = offered_cell.metadata.get("jax_kb")
            if block_meta is None:
                continue  # the quiet cell, or the project's setup code
            block = blocks[block_meta["block"]]
            assert block.line == block_meta["line"] and code_tokens(block.code) == code_tokens(offered_cell.source)
            # In a kernel JAX colours what it prints (a jaxpr); Jupyter shows the colours, the text is the page's.
            printed = [o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stdout"]
            stdout = ANSI.sub("", "".join(printed))
            errors = [o for o in cell.outputs if o.output_type == "error"]
            assert not [o for o in cell.outputs if o.output_type == "execute_result"], (path, block.line)
            if block.raises:
                assert len(errors) == 1 and _is_a(errors[0].ename, block.raises), (path, block.line, errors)
            else:
                assert not errors, (path, block.line)
            if block.expected is not None:
                shown = _shown(stdout, errors)
                expected = _unqualified(block.expected, errors[0].ename) if errors else block.expected
                assert outputs_match(expected, shown, block.rtol), \
                    f"{path} (page line {block.line}):\n{mismatch(expected, shown, block.rtol)}"
            checked += 1
    assert checked > 100


def test_the_python_file_beside_each_notebook_holds_its_code_and_compiles(offered):
    for path, nb in offered.items():
        script = path.with_suffix(".py").read_text(encoding="utf-8")
        compile(script, str(path.with_suffix(".py")), "exec")
        parts = re.split(r"^# %%\n", script, flags=re.M)[1:]
        code = _code_cells(nb)[1:]  # less the notebook's quiet cell
        assert len(parts) == len(code), path
        for part, cell in zip(parts, code):
            if "raises-exception" in cell.metadata.get("tags", []):
                assert part.startswith("try:\n") and "except Exception as error:" in part, path
                body = part.split("\nexcept Exception as error:")[0].removeprefix("try:\n")
                part = "\n".join(line.removeprefix("    ") for line in body.splitlines())
            assert code_tokens(part) == code_tokens(cell.source), path


def test_run_this_page_is_offered_exactly_on_verified_pages(built_site, offered):
    for html_path in built_site.rglob("index.html"):
        html = html_path.read_text(encoding="utf-8")
        links = re.findall(r'<a href="([^"]+\.(?:ipynb|py))" download', html)
        verified = 'class="kb-badge kb-badge--verified"' in html
        if not verified:
            assert not links, html_path
            continue
        for link in links:
            assert (html_path.parent / link).is_file(), (html_path, link)
        if links:
            assert sorted(Path(link).suffix for link in links) == [".ipynb", ".py"], html_path
    offered_pages = {path.parent / "index.html" for path in offered}
    assert all('kb-badge--verified' in p.read_text(encoding="utf-8") for p in offered_pages)


# The notebook and the file, from a page and a report (no site, no kernel)

PAGE = '''# Demo

```python
import jax.numpy as jnp
x = jnp.arange(3)  # the translation's comment
print(x.sum())
```

```{.text .output}
3
```

```{.python .no-run}
print("shown, never run")
```

```{.python raises="ZeroDivisionError"}
x.sum() / 0 if False else 1 / 0
```

```{.python .gpu}
print("gpu only")
```

```python
x.sum()
```
'''


def _cells(tmp_path, text: str, statuses: list[str]):
    from jax_kb.site import notebooks
    from jax_kb.site.verified import load_runs
    from jax_kb.snippets.project_config import load_project_config

    site = load_site_config()
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "demo.md"
    path.write_text(text, encoding="utf-8")
    page = read_page(path, site)
    blocks = page_blocks(page)
    entries = [{"file": page.path, "index": b.index, "digest": b.digest, "status": status, "stdout": f"out {b.index}\n"}
               for b, status in zip(blocks, statuses)]
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "cpu.json").write_text(json.dumps({"jax": "0.12", "device": "cpu", "blocks": entries}))
    run = load_runs(tmp_path)[0]
    return notebooks, notebooks.ran_cells(page, site, load_project_config(site), run)


def test_the_notebook_holds_exactly_the_blocks_the_run_executed_with_what_they_printed(tmp_path):
    notebooks, cells = _cells(tmp_path, PAGE, ["passed", "not_run", "passed", "skipped", "passed"])
    assert [c.block.index for c in cells] == [0, 2, 4]  # not the .no-run block, nor the one for a GPU
    header = notebooks.Header("Demo <b>", "docs/demo.md", "https://example.org/demo/", "Verified.", "Quiet.",
                              "Raises {exception}.")
    nb = nbformat.reads(notebooks.notebook(cells, header), as_version=4)
    nbformat.validate(nb)
    assert nb.cells[0].cell_type == "markdown" and "Demo &lt;b&gt;" in nb.cells[0].source
    code = _code_cells(nb)
    assert code[0].source == "# Quiet.\n" + notebooks.QUIET
    assert code[1].source.endswith("print(x.sum())") and "# the translation's comment" in code[1].source
    assert code[1].outputs == [{"output_type": "stream", "name": "stdout", "text": "out 0\n"}]
    assert code[2].metadata["tags"] == ["raises-exception"] and code[2].metadata["jax_kb"]["raises"] == \
        "ZeroDivisionError"
    assert nb.metadata["jax_kb"] == {"page": "docs/demo.md"}
    script = notebooks.script(cells, header)
    compile(script, "demo.py", "exec")
    assert "try:\n    x.sum() / 0 if False else 1 / 0\nexcept Exception as error:  # Raises ZeroDivisionError.\n" in script
    assert script.startswith("# Demo <b>\n# https://example.org/demo/\n#\n# Verified.\n")


def test_no_notebook_where_it_would_not_run_as_the_engine_ran_the_page(tmp_path):
    session = "# S\n\n```pycon\n>>> 1 + 1\n2\n```\n"
    notebooks, cells = _cells(tmp_path / "a", session, ["passed"])
    assert cells is None
    wrapped = '# W\n\n```{.python raises="ValueError"}\nraise ValueError("""two\nlines""")\n```\n'
    notebooks, cells = _cells(tmp_path / "b", wrapped, ["passed"])
    assert cells and not notebooks.offered(cells)  # indenting it into try: would change the string
    notebooks, cells = _cells(tmp_path / "c", "# F\n\n```python\nprint(1)\n```\n", ["failed"])
    assert cells is None
