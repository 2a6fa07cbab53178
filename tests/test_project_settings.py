"""Another project's pages run as its own tools run them, with only a settings file added: the
settings of [tool.jax-kb] (setup, exclude, skip_fences, after_failure, namespace, doctest_flags,
overrides), notebook metadata and other tools' markers, MyST notebooks, doctest sessions,
Material's classes and markdown-exec's fences."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from jax_kb.markdown import InputError, load_site_config
from jax_kb.snippets.project_config import load_project_config

ROOT = Path(__file__).resolve().parents[1]
FOREIGN = ROOT / "tests" / "fixtures" / "foreign"


def snippets(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "jax_kb.snippets", "-j", "2", *args], cwd=project,
                          capture_output=True, text=True, timeout=300, env=os.environ.copy())


def copied(tmp_path_factory, name: str) -> Path:
    target = tmp_path_factory.mktemp(name) / name
    shutil.copytree(FOREIGN / name, target)
    return target


@pytest.fixture(scope="module")
def configured(tmp_path_factory) -> tuple[subprocess.CompletedProcess, dict]:
    project = copied(tmp_path_factory, "configured")
    done = snippets(project, "--json", "report.json")
    return done, json.loads((project / "report.json").read_text())


def block(report: dict, page: str, line: int) -> dict:
    return next(b for b in report["blocks"] if b["file"] == f"docs/{page}" and b["line"] == line)


def test_setup_code_runs_before_each_page(configured):
    assert block(configured[1], "setup.md", 3)["stdout"] == "True 7\n"


def test_excluded_files_are_not_read(configured):
    assert not [b for b in configured[1]["blocks"] if "drafts" in b["file"]]


def test_a_page_stops_at_a_failure_unless_its_folder_goes_on(configured):
    stopped = block(configured[1], "stops.md", 7)
    assert (stopped["status"], stopped["skip"]) == ("skipped", "after_failure")
    went_on = block(configured[1], "goes_on/page.md", 7)
    assert (went_on["status"], went_on["stdout"]) == ("passed", "still here\n")
    assert block(configured[1], "goes_on/page.md", 3)["status"] == "failed"


def test_one_namespace_per_block_with_its_own_setup_and_continuation(configured):
    report = configured[1]
    assert block(report, "alone/page.md", 3)["stdout"] == "per block\n"
    assert block(report, "alone/page.md", 8)["stdout"] == "1\n"  # pytest-markdown-docs' continuation
    assert block(report, "alone/page.md", 12)["stdout"] == "False per block\n"


def test_notebook_metadata_without_a_site_is_read_not_refused(configured):
    report = configured[1]
    assert [block(report, "metadata.md", line)["status"] for line in (3, 15, 19)] == ["passed"] * 3
    assert block(report, "metadata.md", 19)["stdout"] == "2\n"
    for line in (7, 11):  # skip-execution tag, pytest-markdown-docs' notest
        assert (block(report, "metadata.md", line)["status"], block(report, "metadata.md", line)["skip"]) == \
            ("skipped", "marker")


def test_skip_fences_by_class_and_attribute(configured):
    for line, selector in ((23, "'.slow'"), (27, "'kind=\"network\"'")):
        skipped = block(configured[1], "metadata.md", line)
        assert skipped["skip"] == "config" and selector in skipped["reason"]


def test_sybil_skip_comments_are_read(configured):
    report = configured[1]
    assert [block(report, "sybil.md", line)["skip"] for line in (5, 11, 15)] == ["marker"] * 3
    assert block(report, "sybil.md", 21)["stdout"] == "after the range\n"


def test_a_conditional_sybil_skip_is_refused_with_a_sentence_and_the_rest_runs(configured):
    done, report = configured
    assert done.returncode == 2
    assert 'error: docs/sybil_refused.md:3: Sybil\'s skip: next if(' in done.stderr
    assert [e["file"] for e in report["input_errors"]] == ["docs/sybil_refused.md"]
    assert '  File "' not in done.stderr  # the pages' own tracebacks are there; none of the engine's


def test_a_session_under_doctest_flags(configured):
    """ELLIPSIS from the settings, <BLANKLINE>, an expected traceback with its message, values echoed
    in a loop, a directive on a continuation line, prose after a blank line, directives."""
    session = block(configured[1], "doctest.md", 3)
    assert session["status"] == "passed", session["error"]
    assert "0\n10\n" in session["stdout"]
    assert block(configured[1], "doctest.md", 32)["status"] == "passed"


def test_a_session_mismatch_names_the_statements_markdown_line(configured):
    wrong = block(configured[1], "doctest_wrong.md", 3)
    assert wrong["error"]["type"] == "OutputMismatch" and wrong["error"]["line"] == 7
    assert "expected '3', got '2'" in wrong["error"]["message"]
    assert "docs/doctest_wrong.md:3: block failed" in configured[0].stderr and "at line 7:" in configured[0].stderr


def test_a_doctest_directive_turns_a_project_flag_off(configured):
    literal = block(configured[1], "doctest_wrong.md", 14)
    assert literal["status"] == "failed" and literal["error"]["line"] == 15


def test_a_myst_notebook_runs_its_code_cells_in_order_and_shows_the_rest(configured):
    report = configured[1]
    status = {line: (block(report, "myst.md", line)["status"], block(report, "myst.md", line)["skip"])
              for line in (14, 20, 24, 30, 37, 41, 48)}
    assert status == {14: ("passed", None), 20: ("not_run", None), 24: ("passed", None), 30: ("passed", None),
                      37: ("skipped", "unsupported"), 41: ("skipped", "marker"), 48: ("passed", None)}
    # %timeit ran its statement, an f-string's =!s is Python; m came from the first cell
    assert block(report, "myst.md", 30)["stdout"] == "2.0\n"
    assert "!pip" in block(report, "myst.md", 37)["reason"]


def test_materials_classes_and_markdown_exec_fences(tmp_path_factory):
    project = copied(tmp_path_factory, "exec")
    done = snippets(project, "--json", "report.json")
    report = {b["line"]: b for b in json.loads((project / "report.json").read_text())["blocks"]}
    assert done.returncode == 1 and report[3]["stdout"] == "hi\n"  # .annotate; setup from mkdocs.yml's extra
    assert report[9]["status"] == "passed"  # .no-copy
    assert report[17]["stdout"] == "1\n"  # the exec session "s" shares its globals, and only those
    assert report[21]["error"]["type"] == "NameError"  # an exec block without a session runs alone
    assert report[25]["stdout"] == "2\n"  # a plain fence is in the page's namespace


@pytest.mark.parametrize("settings, message", [
    ('[tool.jax-kb]\nafter_failure = "maybe"\n', "pyproject.toml:2: [tool.jax-kb] after_failure: is 'maybe'"),
    ('[tool.jax-kb]\nsetup = "import ("\n', "pyproject.toml:2: [tool.jax-kb] setup: line 1 of the code"),
    ('[tool.jax-kb]\nskip = ["x"]\n', "pyproject.toml:2: [tool.jax-kb] skip: is not a setting"),
    ('[tool.jax-kb]\ndoctest_flags = ["NUMBER"]\n', "doctest flag 'NUMBER' is not supported here"),
    ('[tool.jax-kb]\n[[tool.jax-kb.overrides]]\nexclude = ["a"]\n', "overrides: #1 has no paths"),
    ('[tool.jax-kb\n', "pyproject.toml:1: not valid TOML"),
])
def test_unusable_settings_are_exit_2_naming_file_and_line(tmp_path, settings, message):
    (tmp_path / "pyproject.toml").write_text(settings)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("```python\nprint(1)\n```\n")
    done = snippets(tmp_path)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_settings_in_both_files_are_refused(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.jax-kb]\nsetup = "x = 1"\n')
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nextra:\n  jax-kb:\n    setup: x = 2\n")
    with pytest.raises(InputError, match="configured here and in pyproject.toml"):
        load_project_config(load_site_config(tmp_path / "mkdocs.yml"))


def test_a_run_that_finds_no_python_block_says_so_and_exits_5(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "prose.md").write_text("# Only prose\n\n```bash\nls\n```\n")
    done = snippets(tmp_path, "docs")
    assert done.returncode == 5 and "no Python block found in docs" in done.stderr


def test_a_jupytext_markdown_notebook_reads_ipython_syntax_in_its_cells(configured):
    report = configured[1]
    assert block(report, "jupytext.md", 11)["stdout"] == "3.0\n"
    unsupported = block(report, "jupytext.md", 22)
    assert (unsupported["status"], unsupported["skip"]) == ("skipped", "unsupported")


def test_a_notebooks_shell_command_runs_and_an_install_is_refused_with_a_sentence(configured):
    report = configured[1]
    assert block(report, "jupytext.md", 18)["status"] == "passed"
    install = block(report, "jupytext.md", 22)
    assert install["skip"] == "unsupported" and "installs packages" in install["reason"]


def test_failing_setup_code_fails_the_first_block_naming_the_settings_line(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.jax-kb]\nsetup = """\nimport math\nraise KeyError("setup")\n"""\n')
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("```python\nprint(1)\n```\n\n```python\nprint(2)\n```\n")
    done = snippets(tmp_path, "--json", "r.json")
    first, second = json.loads((tmp_path / "r.json").read_text())["blocks"]
    assert done.returncode == 1 and first["error"]["type"] == "KeyError"
    assert "the project's setup code failed" in first["error"]["message"]
    assert 'pyproject.toml", line 4' in first["error"]["message"]  # the line of the raise in the settings
    assert second["skip"] == "after_failure"


def test_on_a_site_a_skip_attribute_outside_braces_is_still_the_site_dropping_the_fence(tmp_path):
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nmarkdown_extensions:\n  - attr_list\n  - pymdownx.superfences\n"
                                         "extra:\n  jax-kb:\n    skip_fences: ['kind=\"network\"']\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "braced.md").write_text('```{.python kind="network"}\nraise RuntimeError\n```\n')
    (tmp_path / "docs" / "bare.md").write_text('```python kind="network"\nraise RuntimeError\n```\n')
    done = snippets(tmp_path, "--json", "r.json")
    report = json.loads((tmp_path / "r.json").read_text())
    assert [b["skip"] for b in report["blocks"]] == ["config"]
    assert "docs/bare.md:1: fence options 'python kind=\"network\"' must go inside braces" in done.stderr
