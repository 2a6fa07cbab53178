"""A cgroup for each page, in the memory and pids controllers: the limits that count everything the
page's processes use (shared memory and tmpfs files included), and what they hit.

cgroup v2 (the unified hierarchy) and v1 (a hierarchy per controller) are both handled. The
groups are made under SNIPPETS_CGROUP when it names a folder delegated to us (how CI gives an
unprivileged user cgroups), else under the engine's own cgroup; where neither can be written,
there are none and the run says so.
"""
from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
CONTROLLERS = ("memory", "pids")
VARIABLE = "SNIPPETS_CGROUP"


@dataclass(frozen=True)
class PageGroup:
    folders: tuple[Path, ...]
    version: int

    @property
    def procs_files(self) -> tuple[str, ...]:
        return tuple(str(folder / "cgroup.procs") for folder in self.folders)

    def _read(self, name: str) -> dict[str, int]:
        for folder in self.folders:
            with contextlib.suppress(OSError, ValueError):
                lines = (folder / name).read_text().splitlines()
                return {key: int(value) for key, value in (line.split() for line in lines if len(line.split()) == 2)}
        return {}

    def oom_killed(self) -> bool:
        events = self._read("memory.events" if self.version == 2 else "memory.oom_control")
        return events.get("oom_kill", 0) > 0

    def peak_memory(self) -> int | None:
        """The most memory the page's processes held at once, in bytes."""
        for folder in self.folders:
            for name in ("memory.peak", "memory.max_usage_in_bytes"):
                with contextlib.suppress(OSError, ValueError):
                    return int((folder / name).read_text())
        return None

    def hit_process_limit(self) -> bool:
        return self._read("pids.events").get("max", 0) > 0

    def kill_all(self) -> None:
        for folder in self.folders:
            with contextlib.suppress(OSError, ValueError):
                for pid in (folder / "cgroup.procs").read_text().split():
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(int(pid), signal.SIGKILL)

    def remove(self) -> None:
        for folder in self.folders:
            for _ in range(50):  # the last processes of the page may still be leaving it
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)


def _own_paths() -> dict[str, str]:
    """This process's cgroup per controller ("" for v2's unified one)."""
    paths = {}
    with open("/proc/self/cgroup") as f:
        for line in f:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            for name in controllers.split(",") if controllers else [""]:
                paths[name] = path
    return paths


def _write(path: Path, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


class Cgroups:
    """The run's parent groups; one child per page, made by page_group()."""

    def __init__(self, name: str):
        self.bases: dict[str, Path] = {}  # controller -> the run's folder
        self.version = 0
        self.problem = ""
        try:
            self._make_bases(name)
        except OSError as exc:
            self.problem = f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": ")
            self.remove()

    def _make_bases(self, name: str) -> None:
        delegated = os.environ.get(VARIABLE)
        unified = (ROOT / "cgroup.controllers").is_file()
        if unified:
            self.version = 2
            parent = ROOT / (delegated or _own_paths().get("", "/")).lstrip("/")
            available = (parent / "cgroup.controllers").read_text().split()
            missing = [c for c in CONTROLLERS if c not in available]
            if missing:
                raise OSError(0, f"the {', '.join(missing)} controller is not available", str(parent))
            base = parent / name
            base.mkdir()
            self.bases = {"": base}
            _write(base / "cgroup.subtree_control", " ".join(f"+{c}" for c in CONTROLLERS))
            return
        self.version = 1
        own = _own_paths()
        for controller in CONTROLLERS:
            mount = ROOT / controller
            if not (mount / "cgroup.procs").is_file():
                raise OSError(0, f"no cgroup v1 hierarchy of the {controller} controller", str(mount))
            parent = mount / (delegated or own.get(controller, "/")).lstrip("/")
            base = parent / name
            base.mkdir()
            self.bases[controller] = base

    @property
    def available(self) -> bool:
        return bool(self.bases)

    def page_group(self, name: str, memory: int | None, processes: int) -> PageGroup:
        folders = []
        try:
            for controller, base in self.bases.items():
                folder = base / name
                folder.mkdir()
                folders.append(folder)
                if controller in ("", "memory") and memory:
                    if self.version == 2:
                        _write(folder / "memory.max", str(memory))
                        _write(folder / "memory.swap.max", "0")
                    else:
                        _write(folder / "memory.limit_in_bytes", str(memory))
                        if (folder / "memory.memsw.limit_in_bytes").exists():
                            _write(folder / "memory.memsw.limit_in_bytes", str(memory))
                if controller in ("", "pids"):
                    _write(folder / "pids.max", str(processes))
        except OSError:
            PageGroup(tuple(folders), self.version).remove()
            raise
        return PageGroup(tuple(folders), self.version)

    def remove(self) -> None:
        for base in self.bases.values():
            with contextlib.suppress(OSError):
                base.rmdir()
        self.bases = {}
