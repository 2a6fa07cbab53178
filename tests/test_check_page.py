"""make check PAGE=...: one page's examples in every language it exists in, and its problems."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def check(page: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scripts.check_page", page], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_runs_the_page_in_every_language():
    done = check("docs/glossary/vmap.md")
    assert done.returncode == 0, done.stderr
    assert "glossary/vmap: 5 languages (en, es, ro, ru, sk)" in done.stdout
    assert " 0 failed" in done.stdout and "0 other problems" in done.stdout


def test_a_translation_names_the_same_page():
    assert "glossary/vmap: 5 languages" in check("docs/glossary/vmap.ru.md").stdout


def test_unknown_page_exits_2_with_its_name():
    done = check("docs/glossary/no-such-term.md")
    assert done.returncode == 2 and "docs/glossary/no-such-term.md: no such page" in done.stderr


def test_make_check_never_runs_page_as_shell(tmp_path):
    """PAGE='x; cmd' is a page name, not a command line."""
    marker = tmp_path / "ran"
    done = subprocess.run(["make", "--no-print-directory", "-o", ".venv/.installed", "check",
                           f"PAGE=docs/nothing.md; touch {marker}", f"PY={sys.executable}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert not marker.exists()
    assert done.returncode != 0 and f"docs/nothing.md; touch {marker}: no such page" in done.stderr
