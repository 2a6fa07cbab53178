"""What the engine takes away from page code: secrets in the environment, the network, unbounded memory.

These are precautions against accidents and careless pages, not a sandbox: page code still runs
as the user who runs the engine, with that user's files.
"""
from __future__ import annotations

import ctypes
import os
import re

_ALLOWED = re.compile(r"(PATH|HOME|USER|LOGNAME|SHELL|TERM|TZ|LANG|LANGUAGE|LC_\w+|TMPDIR|PYTHONHASHSEED"
                      r"|PYTHONPATH|LD_LIBRARY_PATH|(JAX|XLA|TF_CPP|CUDA|NVIDIA|NCCL)_\w+)")
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(i?B)?\s*", re.IGNORECASE)
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
MIN_MEMORY_LIMIT = 512 << 20  # JAX's CPU backend alone needs about 230 MiB of data


def scrubbed_environment(env: dict[str, str]) -> dict[str, str]:
    """The variables page code may see: the allowlist; tokens, keys and CI secrets stay out."""
    return {name: value for name, value in env.items() if _ALLOWED.fullmatch(name)}


def parse_size(text: str) -> int:
    """Bytes in '4GiB', '512M', '1.5G' or a plain number of bytes; ValueError otherwise."""
    match = _SIZE.fullmatch(text)
    if not match:
        raise ValueError(f"{text!r} is not a size (such as 4GiB or 512MiB)")
    size = int(float(match[1]) * _UNITS[match[2].upper()])
    if size < MIN_MEMORY_LIMIT:
        raise ValueError(f"{text!r} is below the {MIN_MEMORY_LIMIT >> 20} MiB that JAX needs to start")
    return size


def format_size(size: int) -> str:
    for unit in ("T", "G", "M", "K"):
        if size >= _UNITS[unit]:
            return f"{size / _UNITS[unit]:.3g} {unit}iB"
    return f"{size} B"


def machine_memory() -> int:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def default_memory_limit(jobs: int) -> int:
    """Each worker's share of 80% of the machine's memory, so that all of them together cannot exhaust it."""
    return max(MIN_MEMORY_LIMIT, int(machine_memory() * 0.8) // max(1, jobs))


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def drop_network() -> str:
    """Moves this (still single-threaded) process into a network namespace of its own, with no
    interfaces but a loopback that is down; says how, or why it could not."""
    try:
        os.unshare(os.CLONE_NEWNET)
        return "on (network namespace)"
    except (OSError, AttributeError):
        pass
    uid, gid = os.getuid(), os.getgid()
    try:  # unprivileged: a user namespace first, mapping our own ids so files keep their owner
        os.unshare(os.CLONE_NEWUSER | os.CLONE_NEWNET)
        with open("/proc/self/setgroups", "w") as f:
            f.write("deny")
        with open("/proc/self/uid_map", "w") as f:
            f.write(f"{uid} {uid} 1")
        with open("/proc/self/gid_map", "w") as f:
            f.write(f"{gid} {gid} 1")
        return "on (user and network namespace)"
    except (OSError, AttributeError) as exc:
        return f"off: this system does not let an unprivileged process drop the network ({exc.strerror or exc})"


_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


def _prctl(option: int, value: int) -> bool:
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def die_with_parent(signal_number: int) -> bool:
    return _prctl(_PR_SET_PDEATHSIG, signal_number)


def become_subreaper() -> bool:
    """Orphaned descendants (a page's daemonized children) are then reparented to us, to be killed."""
    return _prctl(_PR_SET_CHILD_SUBREAPER, 1)
