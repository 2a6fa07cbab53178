"""A long-lived process that imports JAX once and runs pages sent to it.

Protocol: one JSON object per line; jobs arrive on stdin, events leave on the
original stdout. The process's own fds 0-2 are pointed away from the pipes so
that code under test cannot corrupt the protocol.
"""
from __future__ import annotations

import builtins
import contextlib
import faulthandler
import importlib
import io
import json
import os
import shutil
import sys
import tempfile
import time
import traceback

from .output_check import first_difference, outputs_match

BLOCK_FILE = "<block-{}>"
KEPT_OUTPUT = 10_000  # of a block that printed past the limit, the start is kept for the report


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


def _protocol_streams():
    """Moves the protocol to private fds and points 0, 1 and 2 elsewhere."""
    events = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    jobs = os.fdopen(os.dup(0), "r", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    log = os.environ.get("SNIPPETS_WORKER_LOG")
    if log:
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
    sys.stdin = io.StringIO("")
    sys.stdout = sys.__stdout__ = os.fdopen(1, "w", buffering=1, closefd=False)
    sys.stderr = sys.__stderr__ = os.fdopen(2, "w", buffering=1, closefd=False)
    return jobs, events


def _exception_matches(exc: BaseException, spec: str) -> bool:
    for cls in type(exc).__mro__:
        if spec in (cls.__name__, f"{cls.__module__}.{cls.__qualname__}"):
            return True
    module, _, name = spec.rpartition(".")
    if module:
        with contextlib.suppress(Exception):
            target = getattr(importlib.import_module(module), name)
            return isinstance(target, type) and isinstance(exc, target)
    return False


def _frames(exc: BaseException) -> list[dict]:
    frames = []
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == __file__:
            continue  # the worker's own exec() is no part of the reader's story
        if frame.filename.startswith("<block-"):
            frames.append({"block": int(frame.filename[7:-1]), "line": frame.lineno, "name": frame.name})
        else:
            frames.append({"file": frame.filename, "line": frame.lineno, "name": frame.name, "text": frame.line})
    if isinstance(exc, SyntaxError) and (exc.filename or "").startswith("<block-"):
        frames.append({"block": int(exc.filename[7:-1]), "line": exc.lineno or 1, "name": "<module>"})
    return frames


def _error(exc: BaseException, kind: str | None = None) -> dict:
    cls = type(exc)
    name = cls.__name__ if cls.__module__ in ("builtins", "__main__") else f"{cls.__module__}.{cls.__qualname__}"
    return {"type": kind or name, "message": str(exc), "frames": _frames(exc)}


class PageRunner:
    """Runs the blocks of one page in one namespace, then puts JAX's configuration back."""

    def __init__(self, jax, output_limit: int, emit):
        self.jax = jax
        self.output_limit = output_limit
        self.emit = emit

    def run_page(self, job: dict) -> None:
        config = dict(self.jax.config.values)
        namespace = {"__name__": "__main__", "__builtins__": builtins}
        home, workdir = os.getcwd(), tempfile.mkdtemp(prefix="snippet-page-")
        os.chdir(workdir)
        try:
            for block in job["blocks"]:
                result = self.run_block(block, namespace)
                self.emit({"event": "result", "index": block["index"], **result})
                if result["status"] == "failed":
                    break
        finally:
            os.chdir(home)
            shutil.rmtree(workdir, ignore_errors=True)
            self._restore(config)
            namespace.clear()
        self.emit({"event": "page_done"})

    def _restore(self, saved: dict) -> None:
        for name, value in saved.items():
            if self.jax.config.values.get(name) != value:
                with contextlib.suppress(Exception):
                    self.jax.config.update(name, value)

    def run_block(self, block: dict, namespace: dict) -> dict:
        if block.get("skip"):
            return {"status": "skipped", "stdout": "", "duration_s": 0.0, "error": None}
        start = time.perf_counter()
        try:
            code = compile(block["code"], BLOCK_FILE.format(block["index"]), "exec")
        except SyntaxError as exc:
            return {"status": "failed", "stdout": "", "duration_s": 0.0, "error": _error(exc)}
        if not block["run"]:
            return {"status": "not_run", "stdout": "", "duration_s": 0.0, "error": None}
        self.emit({"event": "start", "index": block["index"], "timeout": block["timeout"]})
        out, exc = LimitedOutput(self.output_limit), None
        saved = sys.stdout
        sys.stdout = out
        try:
            exec(code, namespace)
            self.jax.effects_barrier()  # jax.debug.print and callbacks may still be printing
        except BaseException as caught:  # noqa: BLE001: every exception is the block's result
            exc = caught
        finally:
            sys.stdout = saved
        result = {"stdout": out.getvalue(), "duration_s": round(time.perf_counter() - start, 4)}
        return {**result, **self._outcome(block, exc, result["stdout"])}

    def _outcome(self, block: dict, exc: BaseException | None, stdout: str) -> dict:
        failed = {"status": "failed"}
        if isinstance(exc, OutputLimitExceeded):
            return {**failed, "stdout": stdout[:KEPT_OUTPUT], "error": _error(exc, "OutputLimitExceeded")}
        if isinstance(exc, SystemExit):
            return {**failed, "error": {**_error(exc, "SystemExit"),
                                        "message": f"the block called sys.exit({exc.code!r})"}}
        expected = block.get("raises")
        if expected:
            if exc is None:
                return {**failed, "error": {"type": "MissingException", "frames": [],
                                            "message": f"expected {expected} to be raised, but nothing was raised"}}
            if not _exception_matches(exc, expected):
                error = _error(exc)
                return {**failed, "error": {**error, "message": f"expected {expected}, got "
                                            f"{error['type']}: {error['message']}"}}
        elif exc is not None:
            return {**failed, "error": _error(exc)}
        if block.get("expected") is not None and not outputs_match(block["expected"], stdout, block["rtol"]):
            return {**failed, "error": {"type": "OutputMismatch", "frames": [], "at_output": True,
                                        "message": first_difference(block["expected"], stdout, block["rtol"])}}
        return {"status": "passed", "error": None}


def _import_jax(device: str):
    import jax

    if "JAX_COMPILATION_CACHE_DIR" not in os.environ:
        jax.config.update("jax_compilation_cache_dir", os.environ["SNIPPETS_CACHE_DIR"])
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    try:
        backend = jax.default_backend()
    except Exception as exc:  # noqa: BLE001: JAX says little when a platform in JAX_PLATFORMS is absent
        raise RuntimeError(f"no {device.upper()} found: JAX could not start the {os.environ.get('JAX_PLATFORMS')} "
                           f"backend ({type(exc).__name__}: {exc})") from None
    if backend != device:
        raise RuntimeError(f"no {device.upper()} found: JAX's default backend is {backend!r} "
                           f"(devices: {', '.join(map(str, jax.devices()))})")
    return jax


def main() -> None:
    jobs, events = _protocol_streams()

    def emit(event: dict) -> None:
        events.write(json.dumps(event) + "\n")

    faulthandler.enable()
    device = os.environ.get("SNIPPETS_DEVICE", "cpu")
    try:
        jax = _import_jax(device)
    except Exception as exc:  # noqa: BLE001: reported to the parent, which exits 2
        emit({"event": "fatal", "message": str(exc)})
        return
    import jaxlib

    emit({"event": "ready", "jax": jax.__version__, "jaxlib": jaxlib.__version__,
          "python": sys.version.split()[0], "device": device, "device_kind": jax.devices()[0].device_kind})
    runner = PageRunner(jax, int(os.environ.get("SNIPPETS_OUTPUT_LIMIT", 1_000_000)), emit)
    for line in jobs:
        runner.run_page(json.loads(line))


if __name__ == "__main__":
    main()
