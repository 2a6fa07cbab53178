"""The engine as a library: one options object and one entry point for every front end."""
from __future__ import annotations

import dataclasses
import gc
import os
from pathlib import Path

import jax_kb.snippets as snippets
from jax_kb.markdown import load_site_config
from jax_kb.snippets import RunOptions, Skip, Status, run_pages
from jax_kb.snippets.cli import options_of, parse_args

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "snippets" / "rows"


def test_the_package_declares_its_surface():
    assert set(snippets.__all__) >= {"RunOptions", "run_pages", "Run", "BlockResult", "BlockError", "Status", "Skip",
                                     "EngineError", "LoadedPage", "ProjectConfig"}
    assert all(hasattr(snippets, name) for name in snippets.__all__)


def test_the_command_lines_defaults_are_runoptions_defaults():
    assert options_of(parse_args([])) == RunOptions()


def test_run_pages_yields_typed_results_and_a_report():
    run = run_pages([FIXTURE / "failing_middle.md"], RunOptions(jobs=1), load_site_config(ROOT / "mkdocs.yml"))
    results = [r for page in run for r in page]
    assert [r.status for r in results] == [Status.PASSED, Status.FAILED, Status.SKIPPED, Status.SKIPPED]
    assert results[1].error.line == 9 and results[2].skip is Skip.AFTER_FAILURE
    assert dataclasses.is_dataclass(results[0]) and results[0].__dataclass_params__.frozen
    report = run.report()
    assert [b["skip"] for b in report["blocks"]] == [None, None, "after_failure", "after_failure"]
    assert report["blocks"][1]["error"]["line"] == 9
    assert run.blocks_found == 4


def zygotes_of_this_process() -> list[int]:
    """The engine's zygotes this test process started and that still run."""
    me, found = str(os.getpid()), []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent = f.read().rsplit(")", 1)[1].split()[1]
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                command = f.read()
        except (OSError, IndexError):
            continue
        if parent == me and b"jax_kb.snippets.sandbox.zygote" in command:
            found.append(int(entry))
    return found


def test_the_zygote_starts_while_pages_are_read_and_ends_with_the_run(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Page\n\n```python\nprint(1 + 1)\n```\n\n```{.text .output}\n2\n```\n", encoding="utf-8")
    run = run_pages([page], RunOptions(jobs=1))
    assert run.early is not None and zygotes_of_this_process() == [run.early.process.pid]  # already starting
    root = Path(run.early.root)
    assert [r.status for page_results in run for r in page_results] == [Status.PASSED]
    assert zygotes_of_this_process() == [] and not root.exists()


def test_a_zygote_nothing_needed_is_ended(tmp_path):
    shown = tmp_path / "shown.md"
    shown.write_text("# Shown\n\n```{.python .no-run}\nprint(1)\n```\n", encoding="utf-8")
    run = run_pages([shown], RunOptions(jobs=1))  # nothing to run: the pool never takes the zygote
    root = Path(run.early.root)
    assert [r.status for page_results in run for r in page_results] == [Status.NOT_RUN]
    assert zygotes_of_this_process() == [] and not root.exists()
    never_iterated = run_pages([shown], RunOptions(jobs=1))
    root = Path(never_iterated.early.root)
    del never_iterated
    gc.collect()
    assert zygotes_of_this_process() == [] and not root.exists()
