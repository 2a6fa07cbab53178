"""What a result depends on besides the page: JAX, jaxlib, Python, the device kind, the engine.

Two reports can be merged, and a result reused, only where all of these are equal.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import os
import platform
import subprocess
import sys
from pathlib import Path

KEYS = ("jax", "jaxlib", "python", "device", "device_kind", "engine")
# The engine's version is the digest of the code that reads pages and decides verdicts: any
# change there may change a result, so results of another engine are never reused. The modules
# that only plan runs and file their results (runs/, this one among them), the command line and
# the pytest glue do not count.
SNIPPETS = Path(__file__).parents[1]
ENGINE_SOURCES = (SNIPPETS.parent / "markdown", SNIPPETS, SNIPPETS / "sandbox")
FRONT_ENDS = {"cli.py", "__main__.py", "pytest_plugin.py"}


def engine_version() -> str:
    digest = hashlib.sha256()
    for folder in ENGINE_SOURCES:
        for path in sorted(folder.glob("*.py")):
            if path.name in FRONT_ENDS:
                continue
            name = path.relative_to(SNIPPETS.parent).as_posix()
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def package_version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return ""


def device_kind(device: str) -> str:
    """What JAX calls the device this run will use; on the CPU that is always "cpu"."""
    if device == "cpu":
        return "cpu"
    done = subprocess.run([sys.executable, "-c", "import jax; print(jax.devices()[0].device_kind)"],
                          env=dict(os.environ, JAX_PLATFORMS="cuda"), capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else ""


def current(device: str) -> dict:
    """The identity of a run about to start on this machine, known without running anything."""
    return {"jax": package_version("jax"), "jaxlib": package_version("jaxlib"), "python": platform.python_version(),
            "device": device, "device_kind": device_kind(device), "engine": engine_version()}


def of_report(report: dict) -> dict:
    return {key: str(report.get(key, "")) for key in KEYS}


def differences(a: dict, b: dict) -> list[str]:
    """The keys on which two identities differ, as 'jax 0.12.0 vs 0.12.1'."""
    return [f"{key} {a.get(key, '')!r} vs {b.get(key, '')!r}" for key in KEYS if a.get(key, "") != b.get(key, "")]
