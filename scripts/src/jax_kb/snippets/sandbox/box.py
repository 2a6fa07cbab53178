"""A page's box, made of the kernel's own isolation, entered by the page's process before any page code.

The zygote forks a keeper for each page; the keeper takes new namespaces (PID, mount, network,
IPC, UTS; a user namespace too when it is not root) and forks the page's process, which is PID 1
of its own PID namespace: it sees no other process, and when it ends the kernel ends every
process the page started. Inside, the machine is read-only; /tmp (the working folder, HOME and
/dev/shm within it) is a private tmpfs of a fixed size (the project and the Python environment
stay visible in it, read-only, where they lie under /tmp); the page's own folder of JAX's compilation
cache is the one other writable place; the limits of its cgroups and rlimits apply; it holds no
capability. Nothing of another page is visible, and nothing of the page outlives it.
"""
from __future__ import annotations

import os
import resource
import socket
import sys
from dataclasses import dataclass, field

from jax_kb.snippets.sandbox import kernel

NAMESPACES = kernel.CLONE_NEWNS | kernel.CLONE_NEWPID | kernel.CLONE_NEWNET | kernel.CLONE_NEWIPC | kernel.CLONE_NEWUTS
TMP = "/tmp"
WORKDIR = "/tmp/work"
HOME = "/tmp/home"
SHM = "/tmp/.shm"
CACHE = "/tmp/.jax-cache"
HOSTNAME = "page"
RLIMITS = {"open_files": resource.RLIMIT_NOFILE, "file_size": resource.RLIMIT_FSIZE,
           "cpu_seconds": resource.RLIMIT_CPU, "data": resource.RLIMIT_DATA}


@dataclass(frozen=True)
class BoxSpec:
    """What one page's box is made of; travels from the engine to the zygote as JSON."""

    tmp_size: int  # bytes of /tmp, /dev/shm and the working folder together
    cgroups: tuple[str, ...] = ()  # the cgroup.procs files the page's process joins first
    cache_dir: str | None = None  # the page's own folder of JAX's compilation cache (on the host)
    hide: tuple[str, ...] = ()  # folders covered with an empty read-only tmpfs (other pages' caches)
    visible: tuple[str, ...] = ()  # folders the page sees read-only even under /tmp (the project's)
    limits: dict = field(default_factory=dict)  # RLIMITS name -> value
    environment: dict = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict) -> "BoxSpec":
        return cls(int(data["tmp_size"]), tuple(data.get("cgroups", ())), data.get("cache_dir"),
                   tuple(data.get("hide", ())), tuple(data.get("visible", ())), dict(data.get("limits", {})),
                   dict(data.get("environment", {})))

    def to_json(self) -> dict:
        return {"tmp_size": self.tmp_size, "cgroups": list(self.cgroups), "cache_dir": self.cache_dir,
                "hide": list(self.hide), "visible": list(self.visible), "limits": self.limits,
                "environment": self.environment}


def take_namespaces() -> None:
    """In the keeper: new namespaces for the next child. Unprivileged, a user namespace first, mapping
    our own ids, so that files keep their owner and the namespaces can be made at all."""
    if os.geteuid() == 0:
        kernel.unshare(NAMESPACES)
        return
    uid, gid = os.getuid(), os.getgid()
    kernel.unshare(kernel.CLONE_NEWUSER | NAMESPACES)
    with open("/proc/self/setgroups", "w") as f:
        f.write("deny")
    with open("/proc/self/uid_map", "w") as f:
        f.write(f"{uid} {uid} 1")
    with open("/proc/self/gid_map", "w") as f:
        f.write(f"{gid} {gid} 1")


def _join_cgroups(procs_files: tuple[str, ...]) -> None:
    for procs in procs_files:
        with open(procs, "w") as f:
            f.write("0")  # the writing process itself


def _kept_under_tmp(visible: tuple[str, ...]) -> list[str]:
    """The folders under /tmp that stay visible, read-only, over the page's own /tmp, as the rest of
    the machine is: those Python imports from (a virtual environment made there) and `visible` (a
    project checked out there). Outermost only: a folder within another comes with it."""
    folders = {os.path.realpath(p) for p in [*sys.path, sys.prefix, sys.exec_prefix, *visible]
               if p and os.path.isdir(p)}
    under = sorted(f for f in folders if f.startswith(TMP + "/"))
    return [f for f in under if not any(f.startswith(outer + "/") for outer in under)]


def _seen(folder: str, kept: dict[str, int]) -> bool:
    """Whether the page would see the folder: outside /tmp, or within a folder kept over it."""
    return not folder.startswith(TMP + "/") or any(folder == k or folder.startswith(k + "/") for k in kept)


def _mounts(spec: BoxSpec) -> None:
    kernel.mount(None, "/", None, kernel.MS_REC | kernel.MS_PRIVATE)  # nothing below reaches the host
    cache = os.open(spec.cache_dir, os.O_PATH | os.O_DIRECTORY) if spec.cache_dir else None
    kept = {folder: os.open(folder, os.O_PATH | os.O_DIRECTORY) for folder in _kept_under_tmp(spec.visible)}
    kernel.mount("proc", "/proc", "proc", kernel.MS_NOSUID | kernel.MS_NODEV | kernel.MS_NOEXEC)
    kernel.mount_setattr("/", kernel.MOUNT_ATTR_RDONLY | kernel.MOUNT_ATTR_NOSUID)
    kernel.mount("tmpfs", TMP, "tmpfs", kernel.MS_NOSUID | kernel.MS_NODEV, f"size={spec.tmp_size},mode=1777")
    for folder in (WORKDIR, HOME, SHM):
        os.mkdir(folder, 0o1777 if folder == SHM else 0o700)
    for folder, fd in kept.items():
        os.makedirs(folder, exist_ok=True)
        kernel.mount(f"/proc/self/fd/{fd}", folder, None, kernel.MS_BIND)  # read-only, as its source now is
        os.close(fd)
    kernel.mount(SHM, "/dev/shm", None, kernel.MS_BIND)  # shared memory counts against the same size
    if cache is not None:
        os.mkdir(CACHE, 0o700)
        kernel.mount(f"/proc/self/fd/{cache}", CACHE, None, kernel.MS_BIND)
        kernel.mount_setattr(CACHE, attr_clr=kernel.MOUNT_ATTR_RDONLY, recursive=False)
        os.close(cache)
    for folder in spec.hide:
        if os.path.isdir(folder) and _seen(os.path.realpath(folder), kept):
            kernel.mount("tmpfs", folder, "tmpfs", kernel.MS_RDONLY | kernel.MS_NOSUID | kernel.MS_NODEV, "size=4k")


def apply_limits(limits: dict) -> None:
    for name, value in limits.items():
        if value is not None:
            resource.setrlimit(RLIMITS[name], (value, value))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def enter(spec: BoxSpec) -> None:
    """In the page's process (PID 1 of the new namespaces), before any page code: the box closes."""
    _join_cgroups(spec.cgroups)
    _mounts(spec)
    socket.sethostname(HOSTNAME)
    kernel.loopback_up()
    apply_limits(spec.limits)
    os.environ.clear()
    os.environ.update(spec.environment, HOME=HOME, TMPDIR=TMP)
    kernel.drop_capabilities()
    os.chdir(WORKDIR)
