"""Worker processes: hand each a page, watch its deadlines, replace it when it dies or hangs."""
from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT = 300.0


class EngineError(Exception):
    """The engine cannot run at all (no GPU where one was asked for, a worker that cannot start)."""


@dataclass
class Job:
    key: str
    blocks: list[dict]  # as the worker takes them
    results: dict[int, dict] = field(default_factory=dict)


@dataclass
class _Worker:
    proc: subprocess.Popen
    log: str
    buffer: bytes = b""
    job: Job | None = None
    block: int | None = None
    deadline: float | None = None
    job_timeout: float = 0.0
    started: float = field(default_factory=time.monotonic)
    ready: bool = False

    def log_tail(self, size: int = 2000) -> str:
        try:
            with open(self.log, "rb") as f:
                f.seek(max(0, os.path.getsize(self.log) - size))
                return f.read().decode("utf-8", "replace").strip()
        except OSError:
            return ""


def _exit_description(code: int) -> str:
    if code < 0:
        try:
            return f"the worker process crashed with signal {signal.Signals(-code).name}"
        except ValueError:
            return f"the worker process crashed with signal {-code}"
    return f"the worker process exited with code {code} (os._exit or a fatal error)"


class Pool:
    def __init__(self, size: int, device: str, output_limit: int = 1_000_000, cache_dir: Path | None = None):
        self.size = max(1, size)
        self.device = device
        self.env = dict(os.environ, SNIPPETS_DEVICE=device, SNIPPETS_OUTPUT_LIMIT=str(output_limit),
                        SNIPPETS_CACHE_DIR=str(cache_dir or ROOT / ".cache" / "jax"),
                        JAX_PLATFORMS="cuda" if device == "gpu" else "cpu",
                        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        if device == "gpu":
            self.env.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
        self.logdir = tempfile.mkdtemp(prefix="snippet-workers-")
        self.selector = selectors.DefaultSelector()
        self.workers: list[_Worker] = []
        self.info: dict = {}
        self.spawned = 0

    def _spawn(self) -> _Worker:
        self.spawned += 1
        log = os.path.join(self.logdir, f"worker-{self.spawned}.log")
        proc = subprocess.Popen([sys.executable, "-m", "scripts.snippets.worker"], cwd=ROOT,
                                env=dict(self.env, SNIPPETS_WORKER_LOG=log),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        os.set_blocking(proc.stdout.fileno(), False)
        worker = _Worker(proc, log)
        self.selector.register(proc.stdout, selectors.EVENT_READ, worker)
        self.workers.append(worker)
        return worker

    def _retire(self, worker: _Worker) -> None:
        self.selector.unregister(worker.proc.stdout)
        self.workers.remove(worker)
        if worker.proc.poll() is None:
            worker.proc.kill()
        worker.proc.wait()
        worker.proc.stdout.close()
        with contextlib.suppress(OSError):  # a dead worker's stdin pipe may be broken
            worker.proc.stdin.close()

    def close(self) -> None:
        for worker in list(self.workers):
            self._retire(worker)

    def _assign(self, worker: _Worker, queue: deque) -> None:
        if worker.job is None and queue:
            worker.job = queue.popleft()
            worker.proc.stdin.write((json.dumps({"blocks": worker.job.blocks}) + "\n").encode())
            worker.proc.stdin.flush()

    def _fail_current(self, worker: _Worker, error: dict) -> Job:
        job = worker.job
        index = worker.block if worker.block is not None else next(
            (b["index"] for b in job.blocks if b["index"] not in job.results), None)
        if index is not None:
            job.results[index] = {"status": "failed", "stdout": "", "duration_s": 0.0, "error": error}
        return job

    def run(self, jobs: list[Job]) -> Iterator[Job]:
        """Runs every job, yielding each as it finishes; a worker that dies or hangs fails only its block."""
        queue = deque(jobs)
        pending = len(jobs)
        while len(self.workers) < min(self.size, pending):
            self._spawn()
        for worker in self.workers:
            self._assign(worker, queue)
        while pending:
            now = time.monotonic()
            deadlines = [w.deadline for w in self.workers if w.deadline] + \
                        [w.started + STARTUP_TIMEOUT for w in self.workers if not w.ready]
            timeout = max(0.0, min(deadlines) - now) if deadlines else None
            for key, _ in self.selector.select(timeout):
                worker = key.data
                for done in self._read(worker, queue):
                    pending -= 1
                    yield done
            for worker in list(self.workers):
                if worker.deadline and time.monotonic() > worker.deadline:
                    job = self._fail_current(worker, {"type": "Timeout", "frames": [], "message":
                                                      f"the block did not finish within its {worker.job_timeout:g} s "
                                                      "timeout; its worker was stopped"})
                    self._replace(worker, queue)
                    pending -= 1
                    yield job
                elif not worker.ready and time.monotonic() > worker.started + STARTUP_TIMEOUT:
                    raise EngineError(f"a worker did not start within {STARTUP_TIMEOUT:g} s: {worker.log_tail()}")

    def _replace(self, worker: _Worker, queue: deque) -> None:
        self._retire(worker)
        if queue:
            self._assign(self._spawn(), queue)

    def _read(self, worker: _Worker, queue: deque) -> Iterator[Job]:
        try:
            chunk = os.read(worker.proc.stdout.fileno(), 1 << 20)
        except BlockingIOError:
            return
        if not chunk:
            code = worker.proc.wait()
            if not worker.ready:
                raise EngineError(f"a worker exited before it was ready ({_exit_description(code)}): "
                                  f"{worker.log_tail()}")
            job = worker.job
            if job is not None:
                tail = worker.log_tail()
                self._fail_current(worker, {"type": "WorkerCrash", "frames": [], "message":
                                            _exit_description(code) + (f"\n{tail}" if tail else "")})
            self._replace(worker, queue)
            if job is not None:
                yield job
            return
        worker.buffer += chunk
        *lines, worker.buffer = worker.buffer.split(b"\n")
        for line in lines:
            event = json.loads(line)
            kind = event.pop("event")
            if kind == "fatal":
                raise EngineError(event["message"])
            if kind == "ready":
                worker.ready = True
                self.info = event
            elif kind == "start":
                worker.block, worker.job_timeout = event["index"], event["timeout"]
                worker.deadline = time.monotonic() + event["timeout"]
            elif kind == "result":
                worker.job.results[event.pop("index")] = event
                worker.block = worker.deadline = None
            elif kind == "page_done":
                job, worker.job = worker.job, None
                self._assign(worker, queue)
                yield job
