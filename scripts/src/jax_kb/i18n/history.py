"""When an English page last changed, from git (read-only: no command here writes the repository)."""
from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Change:
    """The newest commit that touched a file; commit None means the working tree differs from it."""

    commit: str | None
    date: str = ""
    subject: str = ""

    def __str__(self) -> str:
        return f"{self.commit} ({self.date}) {self.subject}" if self.commit else "uncommitted changes"


def _git(folder: Path, *args: str) -> str | None:
    try:
        # --no-optional-locks: `git status` would otherwise refresh and rewrite the index.
        done = subprocess.run(["git", "--no-optional-locks", "-C", str(folder), *args],
                              capture_output=True, text=True, encoding="utf-8", timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def last_change(path: Path) -> Change | None:
    """The file's uncommitted changes, else its newest commit; None where git knows nothing of it."""
    status = _git(path.parent, "status", "--porcelain", "--untracked-files=all", "--", path.name)
    if status is None:
        return None
    if status.strip():
        return Change(None)
    log = _git(path.parent, "log", "-1", "--format=%h%x00%cs%x00%s", "--", path.name)
    if not log or not log.strip():
        return None
    commit, date, subject = log.strip().split("\0", 2)
    return Change(commit, date, subject)
