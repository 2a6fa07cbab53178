"""Inside the fresh process of one page: run its blocks in one namespace and tell the engine raw facts.

What happened (what was printed, which exception, where) is all this side says; whether that is a
pass is the engine's decision (verdict.py), out of reach of the page's code.
"""
from __future__ import annotations

import builtins
import io
import sys
import time
import traceback

from jax_kb.snippets.sandbox import timings

BLOCK_FILE = "<block-{}>"
KEPT_OUTPUT = 10_000  # of a block that printed past the limit, the start is kept for the report
MESSAGE_LIMIT = 20_000


class OutputLimitExceeded(BaseException):
    """Raised inside the block when it prints more than the limit; BaseException so `except Exception` misses it."""


class LimitedOutput(io.StringIO):
    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def write(self, text: str) -> int:
        if self.tell() + len(text) > self.limit:
            raise OutputLimitExceeded(f"the block printed more than {self.limit} characters")
        return super().write(text)


def _frames(exc: BaseException) -> list[dict]:
    frames = []
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == __file__:
            continue  # the runner's own exec() is no part of the reader's story
        if frame.filename.startswith("<block-"):
            frames.append({"block": int(frame.filename[7:-1]), "line": frame.lineno, "name": frame.name})
        else:
            frames.append({"file": frame.filename, "line": frame.lineno, "name": frame.name, "text": frame.line})
    return frames


def exception_facts(exc: BaseException) -> dict:
    classes = type(exc).__mro__
    qualnames = [f"{c.__module__}.{c.__qualname__}" for c in classes]
    try:
        message = str(exc)
    except Exception as inner:  # noqa: BLE001: a broken __str__ is still the block's own failure
        message = f"<the exception's message could not be read: {type(inner).__name__}>"
    facts = {"qualnames": qualnames, "message": message[:MESSAGE_LIMIT], "frames": _frames(exc)}
    if isinstance(exc, SystemExit):
        facts["exit_code"] = repr(exc.code)
    return facts


def run_page(jax, blocks: list[dict], output_limit: int, emit) -> None:
    """Runs the blocks in order until one fails; `emit` sends one fact to the engine."""
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    for block in blocks:
        emit({"event": "start", "index": block["index"]})
        out, exc = LimitedOutput(output_limit), None
        start = time.perf_counter()
        saved = sys.stdout
        sys.stdout = out
        try:
            # Inside the try: a block Python cannot compile (nested too deeply) is that block's failure.
            code = compile(block["code"], BLOCK_FILE.format(block["index"]), "exec", flags=0, dont_inherit=True)
            exec(code, namespace)
            jax.effects_barrier()  # jax.debug.print and callbacks may still be printing
        except BaseException as caught:  # noqa: BLE001: every exception is the block's result
            exc = caught
        finally:
            sys.stdout = saved
        stdout = out.getvalue()
        fact = {"event": "end", "index": block["index"], "duration_s": round(time.perf_counter() - start, 4),
                "stdout": stdout[:KEPT_OUTPUT] if isinstance(exc, OutputLimitExceeded) else stdout,
                "exception": None if exc is None else exception_facts(exc),
                "output_limit": isinstance(exc, OutputLimitExceeded)}
        emit(fact)
        if exc is not None and not block["raises"] or fact["output_limit"] or isinstance(exc, SystemExit):
            break
    emit({"event": "done", "timings": timings.snapshot()})


def describe_device(jax, jaxlib) -> dict:
    """The facts of the probe: what this interpreter's JAX runs on."""
    try:
        backend = jax.default_backend()
        devices = jax.devices()
    except Exception as exc:  # noqa: BLE001: JAX says little when a platform in JAX_PLATFORMS is absent
        return {"event": "device", "error": f"{type(exc).__name__}: {exc}"}
    return {"event": "device", "backend": backend, "device_kind": devices[0].device_kind,
            "devices": [str(d) for d in devices], "jax": jax.__version__, "jaxlib": jaxlib.__version__,
            "python": sys.version.split()[0]}
