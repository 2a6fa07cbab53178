"""What a page gets from the engine's environment, and the limits of its box.

The environment passed to pages is an explicit list of names, never a pattern: whatever else the
engine's environment holds (tokens, keys, CI secrets) stays out.
"""
from __future__ import annotations

import os
import re

# JAX's options that a run on CPU or GPU may be given (the JAX_* names of jax.config), XLA's and
# the CUDA runtime's own variables, and what any program needs to start.
JAX_OPTIONS = (
    "JAX_PLATFORMS", "JAX_PLATFORM_NAME", "JAX_ENABLE_X64", "JAX_DEFAULT_MATMUL_PRECISION", "JAX_DEFAULT_DTYPE_BITS",
    "JAX_NUMPY_RANK_PROMOTION", "JAX_NUMPY_DTYPE_PROMOTION", "JAX_DEBUG_NANS", "JAX_DEBUG_INFS", "JAX_DISABLE_JIT",
    "JAX_ENABLE_CHECKS", "JAX_NUM_CPU_DEVICES", "JAX_CPU_ENABLE_ASYNC_DISPATCH", "JAX_TRACEBACK_FILTERING",
    "JAX_LOG_COMPILES", "JAX_EXPLAIN_CACHE_MISSES", "JAX_DEFAULT_PRNG_IMPL", "JAX_THREEFRY_PARTITIONABLE",
    "JAX_ENABLE_COMPILATION_CACHE", "JAX_TRANSFER_GUARD", "JAX_DYNAMIC_SHAPES", "JAX_USE_SHARDY_PARTITIONER",
)
XLA_AND_CUDA = (
    "XLA_FLAGS", "XLA_PYTHON_CLIENT_PREALLOCATE", "XLA_PYTHON_CLIENT_MEM_FRACTION", "XLA_CLIENT_MEM_FRACTION",
    "XLA_PYTHON_CLIENT_ALLOCATOR", "TF_CPP_MIN_LOG_LEVEL", "TF_CPP_MAX_VLOG_LEVEL", "CUDA_VISIBLE_DEVICES",
    "CUDA_DEVICE_ORDER", "NVIDIA_TF32_OVERRIDE", "NCCL_DEBUG",
)
SYSTEM = ("PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_NUMERIC", "LC_MESSAGES", "TZ", "PYTHONHASHSEED",
          "LD_LIBRARY_PATH", "TERM")
PAGE_ENVIRONMENT = frozenset(JAX_OPTIONS + XLA_AND_CUDA + SYSTEM)

_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(i?B)?\s*", re.IGNORECASE)
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
MIN_MEMORY_LIMIT = 512 << 20  # JAX's CPU backend alone needs about 230 MiB of data
DEFAULT_TMP_SIZE = 512 << 20  # /tmp, the working folder and /dev/shm of a page, together
DEFAULT_PROCESSES = 512  # processes and threads of one page (XLA's thread pools included)
DEFAULT_OPEN_FILES = 4096


def page_environment(env: dict[str, str]) -> dict[str, str]:
    """The variables page code may see: the names of PAGE_ENVIRONMENT that are set, nothing else."""
    return {name: value for name, value in env.items() if name in PAGE_ENVIRONMENT}


def parse_size(text: str, minimum: int = MIN_MEMORY_LIMIT) -> int:
    """Bytes in '4GiB', '512M', '1.5G' or a plain number of bytes; ValueError otherwise."""
    match = _SIZE.fullmatch(text)
    if not match:
        raise ValueError(f"{text!r} is not a size (such as 4GiB or 512MiB)")
    size = int(float(match[1]) * _UNITS[match[2].upper()])
    if size < minimum:
        raise ValueError(f"{text!r} is below the {format_size(minimum)} that a page needs")
    return size


def format_size(size: int) -> str:
    for unit in ("T", "G", "M", "K"):
        if size >= _UNITS[unit]:
            return f"{size / _UNITS[unit]:.3g} {unit}iB"
    return f"{size} B"


def machine_memory() -> int:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def default_memory_limit(jobs: int) -> int:
    """Each page's share of 80% of the machine's memory, so that all of them together cannot exhaust it."""
    return max(MIN_MEMORY_LIMIT, int(machine_memory() * 0.8) // max(1, jobs))


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
