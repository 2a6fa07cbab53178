"""The engine as a library: one options object and one entry point for every front end."""
from __future__ import annotations

import dataclasses
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
