"""Sets up the virtual environment of `make test-gpu` for the interpreter it runs under.

Uses the interpreter's own CUDA-enabled JAX (0.11 or newer) when it has one, through a venv
with system site packages, and then installs only what is absent; otherwise installs the
pinned CUDA build of JAX from requirements-gpu.lock. Standard library only: it runs before
any venv exists.
"""
from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
JAX_PACKAGES = re.compile(r"^(jax|jaxlib|jax-cuda\d+-.*|nvidia-.*)$", re.IGNORECASE)


def _version_tuple(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:3])


def has_cuda_jax() -> str | None:
    """The interpreter's JAX version when it is 0.11 or newer with a CUDA plugin, else None."""
    try:
        version = importlib.metadata.version("jax")
    except importlib.metadata.PackageNotFoundError:
        return None
    plugins = [d.metadata["Name"] for d in importlib.metadata.distributions()
               if re.match(r"jax[-_]cuda\d+[-_]plugin", d.metadata["Name"] or "", re.IGNORECASE)]
    return version if plugins and _version_tuple(version) >= (0, 11) else None


def _pins(lock: Path) -> list[str]:
    return [line.strip() for line in lock.read_text().splitlines() if "==" in line and not line.startswith("#")]


def _pip(python: Path, args: list[str]) -> None:
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *args])
    if done.returncode:
        sys.exit(f"error: installing {' '.join(args)} failed: with no network, install these packages into "
                 f"{sys.executable}'s environment first")


def main(target: str) -> int:
    env = ROOT / target
    python = env / "bin" / "python"
    system_jax = has_cuda_jax()
    stamp = env / (".system-jax" if system_jax else ".pinned-jax")
    if stamp.exists():
        return 0
    venv.EnvBuilder(with_pip=True, system_site_packages=bool(system_jax), clear=True).create(env)
    pins = _pins(ROOT / "requirements.lock")
    if system_jax:
        print(f"using the interpreter's CUDA-enabled JAX {system_jax}")
        have = subprocess.run([str(python), "-c", "import importlib.metadata as m, json; print(json.dumps("
                               "[d.metadata['Name'].lower().replace('_', '-') for d in m.distributions()]))"],
                              capture_output=True, text=True, check=True).stdout
        present = set(__import__("json").loads(have))
        missing = [p for p in pins if not JAX_PACKAGES.match(p.split("==")[0])
                   and p.split("==")[0].lower().replace("_", "-") not in present]
        if missing:
            _pip(python, ["--no-deps", *missing])
    else:
        print("installing the pinned CUDA build of JAX")
        _pip(python, ["--no-deps", "-r", str(ROOT / "requirements.lock"), "-r", str(ROOT / "requirements-gpu.lock")])
    _pip(python, ["--no-deps", "--no-build-isolation", "-e", str(ROOT)])  # jax_kb itself, as make setup does
    stamp.touch()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else ".venv-gpu"))
