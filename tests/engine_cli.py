"""The snippet engine's command line, run as a user runs it, for the tests."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scripts.snippets", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
