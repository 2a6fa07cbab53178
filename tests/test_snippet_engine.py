"""The snippet engine on the fixtures of tests/fixtures/snippets: every row of the fence table,
failures, crashes, configuration leaks, dedupe across languages and bad input."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine_cli import cli
from jax_kb.snippets import Engine, RunOptions, load
from jax_kb.snippets.runs.report import build_report, write_report

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "snippets"


def run_engine(folder: str, jobs: int = 2) -> dict[tuple[str, int], object]:
    loaded, errors = load([FIXTURES / folder])
    assert errors == []
    results = [r for page in Engine(RunOptions(jobs=jobs)).run(loaded) for r in page]
    return {(Path(r.page.path).name, r.block.line): r for r in results}


@pytest.fixture(scope="module")
def rows():
    return run_engine("rows")


def test_executed_block_and_its_output_pass(rows):
    first = rows[("fence_table.md", 8)]
    assert (first.status, first.stdout) == ("passed", "executed 4.0\n")
    assert rows[("fence_table.md", 17)].status == "passed"  # py, with a number within 1e-5


def test_no_run_block_is_compiled_not_executed(rows):
    result = rows[("fence_table.md", 25)]
    assert result.status == "not_run" and result.error is None


@pytest.mark.parametrize("line", [29, 33, 37])
def test_raises_by_name_base_class_and_dotted_path(rows, line):
    assert rows[("fence_table.md", line)].status == "passed"


def test_gpu_block_is_skipped_on_cpu_and_cpu_block_runs(rows):
    gpu = rows[("fence_table.md", 42)]
    assert gpu.status == "skipped" and "gpu only" in gpu.reason
    assert rows[("fence_table.md", 46)].stdout == "cpu only\n"


def test_rtol_on_output_widens_the_comparison(rows):
    assert rows[("fence_table.md", 54)].status == "passed"


def test_fences_inside_admonitions_and_tabs_run(rows):
    nested = rows[("fence_table.md", 64)]
    tab = rows[("fence_table.md", 74)]
    assert (nested.status, nested.stdout) == ("passed", "nested\n")
    assert (tab.status, tab.stdout) == ("passed", "tilde fence in a tab\n")


def test_non_python_fences_are_not_blocks(rows):
    assert len([k for k in rows if k[0] == "fence_table.md"]) == 11


def test_failing_block_in_the_middle_skips_the_rest_and_names_its_line(rows):
    failed = rows[("failing_middle.md", 7)]
    assert failed.status == "failed"
    assert failed.error.type == "ValueError" and failed.error.line == 9
    assert "failing_middle.md:9, in <module>" in failed.error.message
    assert "page_process.py" not in failed.error.message and "zygote.py" not in failed.error.message
    for line in (12, 16):
        later = rows[("failing_middle.md", line)]
        assert later.status == "skipped"
        assert later.reason == "skipped: an earlier block failed (tests/fixtures/snippets/rows/failing_middle.md:7)"
    assert rows[("failing_middle.md", 3)].status == "passed"


def test_wrong_output_fails_at_the_output_fence(rows):
    result = rows[("wrong_output.md", 3)]
    assert result.status == "failed" and result.error.type == "OutputMismatch"
    assert result.error.line == 7 and "expected '1.0', got '1.001'" in result.error.message


def test_raises_without_exception_or_with_another_one_fails(rows):
    missing = rows[("expected_raise_missing.md", 3)]
    assert missing.status == "failed" and missing.error.type == "MissingException"
    assert rows[("expected_raise_missing.md", 7)].status == "skipped"


def test_included_code_runs_and_errors_name_snippet_file_and_page_line(rows):
    assert rows[("include.md", 3)].stdout == "42\n"
    failed = rows[("include.md", 12)]
    assert "include.md:4 (from snippets/fixture/helpers.py:6), in broken" in failed.error.message
    assert failed.error.line == 13


@pytest.fixture(scope="module")
def containers():
    return run_engine("containers")


def test_fences_in_every_container_run_in_page_order_in_one_namespace(containers):
    page = sorted((line, r) for (name, line), r in containers.items() if name == "every_container.md")
    assert [r.status for _, r in page] == ["passed"] * 20, [r.error for _, r in page]
    assert [line for line, _ in page][:3] == [8, 12, 18]  # the fence lines of the page, blockquotes included
    assert page[-2][1].stdout == "18 next list item\n" and page[-1][1].stdout == "footnote\n"


def test_a_failure_in_a_blockquote_is_told_at_its_markdown_line(containers):
    failed = containers[("quoted_failure.md", 5)]
    assert failed.status == "failed" and failed.error.line == 8
    assert "quoted_failure.md:8, in <module>" in failed.error.message
    assert containers[("quoted_failure.md", 11)].status == "skipped"


def test_update_outputs_keeps_the_blockquote_markers_of_an_output_block(tmp_path):
    page = tmp_path / "quoted.md"
    shutil.copy(FIXTURES / "containers" / "quoted_update.md", page)
    assert cli(str(page), "--update-outputs").returncode == 0
    assert page.read_text().endswith("> ```{.text .output}\n> first\n>\n> third\n> ```\n\nAfter.\n")
    assert cli(str(page)).returncode == 0


@pytest.fixture(scope="module")
def errors():
    return run_engine("errors")


def test_an_output_after_raises_holds_the_printed_text_then_the_exceptions_last_line(errors):
    page = {line: r for (name, line), r in errors.items() if name == "shown_errors.md"}
    assert [r.status for r in page.values()] == ["passed"] * 6, [r.error for r in page.values()]
    assert page[13].output == "looking up k\nKeyError: 'k'\n" and page[13].stdout == "looking up k\n"


def test_a_changed_error_message_fails_at_its_output_showing_both_texts(errors):
    result = errors[("wrong_error.md", 3)]
    assert result.status == "failed" and result.error.type == "OutputMismatch" and result.error.line == 8
    message = result.error.message
    assert "expected output:\n    parsing\n    ValueError: invalid literal for int(): 'x'\n" in message
    assert message.endswith("actual output:\n    parsing\n    ValueError: invalid literal for int() with base 10: 'x'")


def test_update_outputs_writes_an_error_output_and_keeps_one_that_still_matches(tmp_path):
    page = tmp_path / "stale.md"
    shutil.copy(FIXTURES / "errors" / "stale_error.md", page)
    before = page.read_text()
    assert cli(str(page), "--update-outputs").returncode == 0
    assert page.read_text() == before.replace("ValueError: an old message\n", "parsing\nValueError: invalid "
                                              "literal for int() with base 10: 'x'\n")
    assert cli(str(page)).returncode == 0


@pytest.fixture(scope="module")
def crashes():
    return run_engine("crash")


@pytest.mark.parametrize("page, kind, text", [
    ("hang.md", "Timeout", "did not finish within its 2 s timeout"),
    ("sys_exit.md", "SystemExit", "sys.exit(3)"),
    ("os_exit.md", "WorkerCrash", "exited with code 7"),
    ("segfault.md", "WorkerCrash", "signal SIGSEGV"),
    ("flood.md", "OutputLimitExceeded", "more than 1000000 characters"),
])
def test_each_crash_is_that_blocks_failure(crashes, page, kind, text):
    result = next(r for (name, _), r in crashes.items() if name == page)
    assert result.status == "failed" and result.error.type == kind and text in result.error.message


def test_other_pages_still_run_beside_crashes(crashes):
    assert crashes[("healthy.md", 3)].status == "passed"
    assert crashes[("hang.md", 8)].status == "skipped"


def test_flood_keeps_only_the_start_of_its_output(crashes):
    assert len(crashes[("flood.md", 3)].stdout) <= 10_000


def test_configuration_and_directory_do_not_leak_between_pages():
    results = run_engine("leak", jobs=1)  # one at a time: each page still gets a process of its own
    assert [r.status for r in results.values()] == ["passed"] * 3, [r.error for r in results.values()]


@pytest.fixture(scope="module")
def dedupe():
    return run_engine("dedupe")


def test_translations_with_equal_code_run_once(dedupe):
    english, spanish, romanian = (dedupe[(n, ln)] for n, ln in
                                  [("page.md", 8), ("page.es.md", 8), ("page.ro.md", 9)])
    assert english.executed and not spanish.executed and not romanian.executed
    assert english.stdout == spanish.stdout == romanian.stdout == "10\n"


def test_reused_failures_are_told_in_each_pages_own_lines(dedupe):
    failed = dedupe[("page.ro.md", 19)]
    assert failed.error.line == 20 and "page.ro.md:20" in failed.error.message


def test_pages_with_different_code_run_separately(dedupe):
    slovak = dedupe[("page.sk.md", 8)]
    assert slovak.executed and slovak.stdout == "15\n" and slovak.status == "passed"


def test_report_follows_the_design_schema(dedupe):
    report = build_report(list(dedupe.values()), "cpu", {"jax": "x", "jaxlib": "y", "python": "z",
                                                        "device_kind": "cpu"})
    # DESIGN.md's keys in its order, with the additions of later issues (engine, protections, skip, group,
    # input_errors; ARCHITECTURE.md).
    assert list(report) == ["jax", "jaxlib", "python", "device", "device_kind", "engine", "created", "commit",
                            "protections", "summary", "blocks", "input_errors"]
    assert re.fullmatch(r"[0-9a-f]{40}\+?", report["commit"])  # this repository's HEAD
    assert report["summary"] == {"passed": 4, "failed": 4, "skipped": 0, "not_run": 0, "executed": 4, "reused": 0}
    block = report["blocks"][0]
    assert list(block) == ["file", "line", "lang", "page", "index", "digest", "status", "reason", "skip",
                           "executed", "duration_s", "error", "stdout", "group"]
    assert block["file"] == "tests/fixtures/snippets/dedupe/page.es.md" and block["lang"] == "es"
    failed = next(b for b in report["blocks"] if b["status"] == "failed")
    assert set(failed["error"]) == {"type", "message", "line"}



def test_report_file_is_the_report_as_json_with_one_line_per_block(dedupe, tmp_path):
    report = build_report(list(dedupe.values()), "cpu", {"jax": "x", "jaxlib": "y", "python": "z",
                                                        "device_kind": "cpu"})
    report["blocks"][0]["stdout"] = "ünïcode,\n\"quoted\" ]\n"
    write_report(tmp_path / "r.json", report)
    text = (tmp_path / "r.json").read_text(encoding="utf-8")
    assert json.loads(text) == report and "ünïcode" in text
    lines = text.splitlines()
    start = lines.index(' "blocks": [')
    assert [json.loads(line.strip().rstrip(",")) for line in lines[start + 1:start + 1 + len(report["blocks"])]] \
        == report["blocks"]
    assert lines[start + 1 + len(report["blocks"])] == " ],"
    assert lines[lines.index(' "summary": {') + 1] == '  "passed": 4,'

BAD = {
    "bad_rtol.md": (7, "rtol='-1' must be a positive number"),
    "bad_timeout.md": (3, "timeout='soon' must be a positive number"),
    "bare_options.md": (3, "must go inside braces"),
    "broken_front_matter.md": (3, "front matter is not valid YAML"),
    "missing_include.md": (4, "missing include"),
    "orphan_output.md": (5, "must come right after the Python block"),
    "unclosed_fence.md": (3, "never closed"),
    "unknown_option.md": (7, "unknown fence option 'slow'"),
    "deep_front_matter.md": (2, "front matter is nested more than 20 levels deep"),
    "alias_bomb.md": (8, "front matter uses more than 20 aliases"),
    "huge_timeout.md": (3, "timeout='1e9' is more than 86400"),
    "repeated_option.md": (3, "fence option 'timeout' is given twice"),
    "raises_system_exit.md": (3, "raises='SystemExit' can never pass"),
    "include_folder.md": (4, "include 'fixture' is a folder, not a file"),
    "include_loop.md": (4, "include loop: 'fixture/loop.py' is already being included"),
    "include_latin1.md": (4, "include snippets/fixture/latin1.py is not utf-8 text"),
    "quoted_include.md": (4, "an include (--8<--) in a blockquote is not expanded"),
    "quoted_cut_off.md": (3, "code fence ``` opened here is cut off at line 5, which does not start with the "
                             "fence's prefix '> '"),
}


def test_bad_input_exits_2_naming_file_and_line_and_the_rest_still_runs():
    done = cli(str(FIXTURES / "bad"), str(FIXTURES / "crash" / "healthy.md"), "-j", "1")
    assert done.returncode == 2, done.stderr
    for name, (line, message) in BAD.items():
        expected = f"error: tests/fixtures/snippets/bad/{name}:{line}: "
        assert any(l.startswith(expected) and message in l for l in done.stderr.splitlines()), (name, done.stderr)
    assert "tests/fixtures/snippets/crash/healthy.md: 1 passed" in done.stdout
    assert "error: tests/fixtures/snippets/bad/unknown_language.de.md: the language suffix .de is not one of " \
           "mkdocs.yml's languages" in done.stderr
    assert "Traceback" not in done.stderr


def test_report_lists_input_errors_and_counts_only_blocks_that_ran(tmp_path):
    done = cli(str(FIXTURES / "bad" / "huge_timeout.md"), str(FIXTURES / "rows" / "fence_table.md"),
               "--json", str(tmp_path / "r.json"))
    assert done.returncode == 2, done.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["input_errors"] == [{"file": "tests/fixtures/snippets/bad/huge_timeout.md", "line": 3,
                                       "message": "timeout='1e9' is more than 86400"}]
    ran = [b for b in report["blocks"] if b["status"] in ("passed", "failed")]
    assert report["summary"]["executed"] == len(ran) < len(report["blocks"])  # .no-run and .gpu did not run


def test_json_pointing_at_a_folder_is_refused_before_running(tmp_path):
    done = cli(str(FIXTURES / "crash" / "healthy.md"), "--json", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: --json {tmp_path}: is a folder")
    assert "passed" not in done.stdout


def test_a_bom_before_front_matter_is_ignored(tmp_path):
    page = tmp_path / "bom.md"
    page.write_bytes("\ufeff---\ntitle: BOM\nsummary: Saved with a BOM.\nkind: term\n---\n# BOM\n\n"
                     "```python\nprint(1)\n```\n".encode())
    from jax_kb.markdown import read_page
    assert read_page(page).meta == {"title": "BOM", "summary": "Saved with a BOM.", "kind": "term"}
    assert cli(str(page)).returncode == 0


def test_an_include_resolving_outside_snippets_is_an_input_error(tmp_path):
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "passwd.py").symlink_to("/etc/passwd")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "leak.md").write_text("# Leak\n\n```python\n--8<-- \"passwd.py\"\n```\n")
    (tmp_path / "mkdocs.yml").write_text("markdown_extensions:\n  - pymdownx.superfences\n"
                                         "  - pymdownx.snippets:\n      base_path: [snippets]\n")
    done = subprocess.run([sys.executable, "-m", "scripts.snippets"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2
    assert ("error: docs/leak.md:4: include 'passwd.py' resolves to /etc/passwd, outside snippets/"
            in done.stderr), done.stderr


def test_exit_codes_and_json_report(tmp_path):
    passing = cli(str(FIXTURES / "leak"), "--json", str(tmp_path / "r.json"))
    assert passing.returncode == 0, passing.stderr
    assert json.loads((tmp_path / "r.json").read_text())["summary"]["passed"] == 3
    assert cli(str(FIXTURES / "rows" / "wrong_output.md")).returncode == 1


def test_gpu_run_refuses_to_fall_back_to_cpu():
    done = cli(str(FIXTURES / "crash" / "healthy.md"), "--device", "gpu")
    assert done.returncode == 2
    assert "error:" in done.stderr and "GPU" in done.stderr


def test_update_outputs_changes_only_output_bodies(tmp_path):
    page = tmp_path / "crlf.md"
    shutil.copy(FIXTURES / "update" / "crlf.md", page)
    before = page.read_bytes()
    done = cli(str(page), "--update-outputs")
    assert done.returncode == 0, done.stderr
    after = page.read_bytes()
    expected = (before.replace(b"```{.text .output}\r\nstale\r\n", "```{.text .output}\r\nновый вывод\r\n42\r\n"
                               .encode())
                .replace(b"    ```{.text .output}\r\n    old\r\n", "    ```{.text .output}\r\n    nested π\r\n"
                         .encode()))
    assert after == expected
    assert b"\t" in after and b"\r\n" in after and "Überschrift".encode() in after
    assert cli(str(page)).returncode == 0


def test_update_outputs_fences_printed_fence_markers_and_breaks_printed_carriage_returns(tmp_path):
    page = tmp_path / "markers.md"
    page.write_bytes(b"# Markers\n\n```python\nprint('```python')\nprint('import os')\nprint('````')\n"
                     b"print('10%\\r20%')\n```\n\n```{.text .output}\nstale\n```\n\nAfter.\n")
    assert cli(str(page), "--update-outputs").returncode == 0
    after = page.read_bytes()
    assert after.endswith(b"`````{.text .output}\n```python\nimport os\n````\n10%\n20%\n`````\n\nAfter.\n")
    assert b"\r" not in after
    done = cli(str(page))
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr


def test_timings_say_where_the_runs_time_and_memory_went(tmp_path):
    page = tmp_path / "timed.md"
    page.write_text("# timed\n\n```python\nimport jax, jax.numpy as jnp\nprint(jax.jit(jnp.sin)(0.0))\n```\n")
    done = cli(str(page), "--timings", str(tmp_path / "timings.json"))
    assert done.returncode == 0, done.stderr
    timings = json.loads((tmp_path / "timings.json").read_text())
    assert timings["zygote_start_s"] > 0 and timings["engine_peak_rss"] > 0 and "report_s" in timings
    phases = timings["pages"][f"{page}#0"]  # the page's first (here its only) job
    for phase in ("box", "wall", "trace", "lower", "compile", "peak_rss"):  # a cold cache: it compiles
        assert phases[phase] > 0, phase
    assert phases["wall"] >= phases["compile"]
