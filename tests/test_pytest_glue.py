"""The pytest front end on a small project of its own: ids, failure report, -k, -x and --lf."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PAGE = """---
title: Glue
summary: A page with a passing and a failing block.
kind: term
---
# Glue

```python
print("ok")
```

```{.text .output}
ok
```

```python
print(41)
```

```{.text .output}
42
```
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("glue")
    for name in ("mkdocs.yml", "pyproject.toml"):
        shutil.copy(ROOT / name, root / name)
    shutil.copytree(ROOT / "scripts", root / "scripts", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "snippets").mkdir()
    (root / "tests").mkdir()
    (root / "docs" / "glossary").mkdir(parents=True)
    (root / "docs" / "glossary" / "glue.md").write_text(PAGE)
    (root / "docs" / "glossary" / "glue.es.md").write_text(PAGE.replace("# Glue", "# Pegamento"))
    return root


def pytest_in(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", *args], cwd=project,
                          capture_output=True, text=True, timeout=300)


def test_one_item_per_block_named_by_file_and_line(project):
    done = pytest_in(project, "docs", "--collect-only", "-q")
    assert "docs/glossary/glue.md::line8" in done.stdout and "docs/glossary/glue.es.md::line16" in done.stdout


def test_failure_shows_file_line_block_expected_and_actual(project):
    done = pytest_in(project, "docs", "-q")
    assert done.returncode == 1
    assert "2 failed, 2 passed" in done.stdout
    for text in ("docs/glossary/glue.md:16: block failed", "print(41)", "expected output:", "42",
                 "actual output:", "41"):
        assert text in done.stdout


def test_k_selects_blocks(project):
    done = pytest_in(project, "docs", "-q", "-k", "glue.es and line8")
    assert "1 passed, 3 deselected" in done.stdout


def test_x_stops_at_the_first_failure(project):
    done = pytest_in(project, "docs", "-q", "-x")
    assert "1 failed" in done.stdout and "stopping after 1 failures" in done.stdout


def test_lf_reruns_only_the_failed_blocks(project):
    pytest_in(project, "docs", "-q")
    done = pytest_in(project, "docs", "-q", "--lf")
    assert "2 failed" in done.stdout and "passed" not in done.stdout.splitlines()[-1]


def test_an_unreadable_page_is_one_failing_item_and_the_session_goes_on(project, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(project, broken, ignore=shutil.ignore_patterns(".pytest_cache"))
    (broken / "docs" / "glossary" / "bad.md").write_text(PAGE.replace("```python\nprint(41)", '```{.python timeout="1e9"}\nprint(41)'))
    (broken / "tests" / "test_tooling.py").write_text("def test_tooling_still_runs():\n    pass\n")
    done = pytest_in(broken, "docs", "tests", "-q")
    assert "error during collection" not in done.stdout and "Interrupted" not in done.stdout
    assert "FAILED docs/glossary/bad.md::page" in done.stdout
    assert "error: docs/glossary/bad.md:16: timeout='1e9' is more than 86400" in done.stdout
    assert "3 failed, 3 passed" in done.stdout  # the page, the two wrong outputs; two blocks and the tooling test
