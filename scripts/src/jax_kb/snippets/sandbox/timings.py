"""Where a page's time goes, measured in its own process, for `snippets --timings` and `make bench`.

JAX's monitoring events give tracing, lowering, compiling and reading the compilation cache; it
records no event for starting its backend or writing the cache, so those two steps are timed by
wrapping them (internal functions: where a JAX release renames them, they are not measured). The
page reports these numbers itself: they inform a benchmark and decide no verdict.
"""
from __future__ import annotations

import functools
import resource
import time
from collections import defaultdict

EVENTS = {
    "/jax/core/compile/jaxpr_trace_duration": "trace",
    "/jax/core/compile/jaxpr_to_mlir_module_duration": "lower",
    "/jax/core/compile/backend_compile_duration": "compile",
    "/jax/compilation_cache/cache_retrieval_time_sec": "cache_read",
}
_totals: defaultdict[str, float] = defaultdict(float)


def _timed(name: str, function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            _totals[name] += time.perf_counter() - start
    return wrapper


def _on_duration(event: str, duration: float, **_) -> None:
    if event in EVENTS:
        _totals[EVENTS[event]] += duration


def install(jax) -> None:
    """In the zygote, before any page: every page process inherits the listeners."""
    jax.monitoring.register_event_duration_secs_listener(_on_duration)
    from jax._src import compilation_cache, xla_bridge

    for module, name, label in ((xla_bridge, "_init_backend", "backend"),
                                (compilation_cache, "put_executable_and_time", "cache_write")):
        if callable(getattr(module, name, None)):
            setattr(module, name, _timed(label, getattr(module, name)))


def mark(name: str) -> None:
    """Records when the page reached a point, on the clock the engine reads too."""
    _totals[name] = time.monotonic()


def snapshot() -> dict[str, float]:
    """The page's totals so far, and its peak resident memory in bytes."""
    return {**{k: round(v, 6) for k, v in _totals.items()},
            "peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}
