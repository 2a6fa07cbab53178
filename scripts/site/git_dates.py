"""When a file last changed, from git: the date of its last commit, or None while it has uncommitted changes."""
from __future__ import annotations

import functools
import subprocess
from pathlib import Path


def _git(root: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


@functools.lru_cache(maxsize=None)
def _last_commit_date(path: Path, mtime_ns: int) -> str | None:
    # mtime_ns is part of the cache key: an edit during `make serve` asks git again.
    root = path.parent
    if _git(root, "status", "--porcelain", "--", path.name) != "":
        return None  # modified, untracked, or no git at all: it changed after any commit we could name
    date = (_git(root, "log", "-1", "--format=%cs", "--", path.name) or "").strip()
    return date or None


def last_commit_date(path: Path) -> str | None:
    """YYYY-MM-DD of the last commit of the file; None when it is uncommitted or git cannot tell."""
    return _last_commit_date(path, path.stat().st_mtime_ns)
