"""Files the tools rewrite are replaced whole: a full disk or a crash mid-write leaves the old bytes."""
from __future__ import annotations

import errno
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from jax_kb import atomic_write
from jax_kb.atomic_write import write_atomic
from jax_kb.i18n.__main__ import main as i18n_main
from jax_kb.markdown import InputError
from jax_kb.scaffold import main as scaffold_main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def full_disk(monkeypatch):
    """Every fsync fails as it does when the disk is full."""
    def no_space(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(atomic_write.os, "fsync", no_space)


def test_replaces_the_content_and_keeps_the_mode(tmp_path):
    target = tmp_path / "page.md"
    target.write_bytes(b"old\r\n")
    target.chmod(0o640)
    write_atomic(target, "new\r\nü\n")
    assert target.read_bytes() == "new\r\nü\n".encode()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["page.md"]


def test_a_full_disk_leaves_the_file_as_it_was_and_names_it(tmp_path, full_disk):
    target = tmp_path / "page.md"
    target.write_bytes(b"x" * 100_000)
    with pytest.raises(InputError) as exc:
        write_atomic(target, b"short")
    assert str(exc.value) == f"{target}: could not write the file (No space left on device); it is unchanged"
    assert target.read_bytes() == b"x" * 100_000
    assert [p.name for p in tmp_path.iterdir()] == ["page.md"]  # no temporary file left behind


def test_a_process_killed_mid_write_leaves_the_old_file(tmp_path):
    target = tmp_path / "page.md"
    target.write_bytes(b"the whole page\n" * 1000)
    # The writer dies after writing the new bytes and before the rename.
    script = ("import os, signal; from jax_kb import atomic_write\n"
              "atomic_write.os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL)\n"
              f"atomic_write.write_atomic({str(target)!r}, b'')\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT)
    assert done.returncode == -9
    assert target.read_bytes() == b"the whole page\n" * 1000


def test_i18n_mark_on_a_full_disk_reports_and_keeps_the_page(tmp_path, full_disk, capsys):
    shutil.copytree(ROOT / "tests" / "fixtures" / "i18n" / "mark", tmp_path, dirs_exist_ok=True)
    page = tmp_path / "crlf.es.md"
    before = page.read_bytes()
    assert i18n_main(["mark", str(page)]) == 1
    assert page.read_bytes() == before
    assert capsys.readouterr().err == f"error: {page}: could not write the file (No space left on device); it is unchanged\n"


def test_scaffold_on_a_full_disk_reports_and_writes_nothing(tmp_path, full_disk, capsys):
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    (tmp_path / "docs" / "glossary").mkdir(parents=True)
    assert scaffold_main(["term", "scan"], root=tmp_path) == 2
    assert not (tmp_path / "docs" / "glossary" / "scan.md").exists()
    assert "scan.md: could not write the file (No space left on device)" in capsys.readouterr().err


def test_update_outputs_on_a_full_disk_reports_every_page_and_keeps_them(tmp_path):
    pages = [tmp_path / "one.md", tmp_path / "two.md"]
    for page in pages:
        shutil.copy(ROOT / "tests" / "fixtures" / "snippets" / "update" / "crlf.md", page)
    before = [page.read_bytes() for page in pages]
    script = ("import errno, os, sys\n"
              "def no_space(fd): raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))\n"
              "os.fsync = no_space\n"
              "from jax_kb.snippets.cli import main\n"
              f"sys.exit(main([{str(pages[0])!r}, {str(pages[1])!r}, '--update-outputs']))\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert [page.read_bytes() for page in pages] == before
    for page in pages:
        assert f"error: {page}: could not write the file (No space left on device); it is unchanged" in done.stderr
    assert "Traceback" not in done.stderr
