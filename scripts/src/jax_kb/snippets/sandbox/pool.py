"""Page processes: a fresh one for each page, forked by the zygote; watch their deadlines, output and
channel, and kill each one's process group when its page ends."""
from __future__ import annotations

import contextlib
import json
import os
import secrets
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from jax_kb.snippets.sandbox.channel import ChannelError, FactReader
from jax_kb.snippets.sandbox.protections import scrubbed_environment
from jax_kb.snippets.sandbox.zygote import CONTROL_FD_VARIABLE

# Where jax_kb is imported from, for the zygote: the same package whether installed or not.
PACKAGE_PARENT = Path(__file__).resolve().parents[3]
STARTUP_TIMEOUT = 300.0
OUTPUT_TAIL = 2000


def default_cache_dir() -> Path:
    """JAX's compilation cache where no project names one: the user's cache folder (XDG)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "jax-kb" / "jax"


class EngineError(Exception):
    """The engine cannot run at all (no GPU where one was asked for, a zygote that cannot start)."""


@dataclass
class Job:
    key: str
    blocks: list[dict]  # the blocks to run, in order: {"index", "code", "raises", "timeout"}
    block_count: int  # of the whole page, which tracebacks may name
    facts: dict[int, dict] = field(default_factory=dict)  # index -> its "end" fact
    failure: dict | None = None  # the process's own end: {"index", "type", "message"}, index None for the page
    probe: bool = False
    device: dict = field(default_factory=dict)  # the probe's facts


@dataclass
class _Running:
    job: Job
    reader: FactReader
    workdir: str
    facts: int  # read ends of the page's pipes
    output: int
    pid: int | None = None
    facts_buffer: bytes = b""
    output_seen: int = 0
    output_tail: bytes = b""
    deadline: float | None = None
    timeout: float = 0.0

    def tail(self) -> str:
        return self.output_tail.decode("utf-8", "replace").strip()


def _exit_description(code: int) -> str:
    if code < 0:
        try:
            return f"the page's process crashed with signal {signal.Signals(-code).name}"
        except ValueError:
            return f"the page's process crashed with signal {-code}"
    return f"the page's process exited with code {code} (os._exit or a fatal error)"


class Pool:
    def __init__(self, size: int, device: str, output_limit: int = 1_000_000, cache_dir: Path | None = None,
                 memory_limit: int | None = None):
        self.size = max(1, size)
        self.device = device
        self.output_limit = output_limit
        self.memory_limit = memory_limit if device == "cpu" else None  # CUDA maps more than it uses
        self.root = tempfile.mkdtemp(prefix="snippet-pages-")
        self.env = dict(scrubbed_environment(dict(os.environ)),
                        SNIPPETS_CACHE_DIR=str(cache_dir or default_cache_dir()),
                        JAX_PLATFORMS="cuda" if device == "gpu" else "cpu",
                        PYTHONPATH=os.pathsep.join(filter(None, [str(PACKAGE_PARENT), os.environ.get("PYTHONPATH")])))
        if device == "gpu":
            self.env.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
        self.selector = selectors.DefaultSelector()
        self.running: dict[str, _Running] = {}
        self.info: dict = {}
        self.zygote: subprocess.Popen | None = None
        self.control: socket.socket | None = None
        self.launched = 0

    # --- the zygote -------------------------------------------------------------------------

    def _start(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.zygote_log = os.path.join(self.root, "zygote.log")
        with open(self.zygote_log, "wb") as log:
            self.zygote = subprocess.Popen([sys.executable, "-m", "jax_kb.snippets.sandbox.zygote"], cwd=self.root,
                                           env=dict(self.env, **{CONTROL_FD_VARIABLE: str(theirs.fileno())}),
                                           pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL,
                                           stdout=log, stderr=log)
        theirs.close()
        self.control = ours
        self.selector.register(ours, selectors.EVENT_READ, None)
        ready = self._control_message(STARTUP_TIMEOUT)
        if not ready.get("ready"):
            raise EngineError(f"the engine's zygote did not start: {self._zygote_tail()}")
        probe = Job("probe", [], 0, probe=True)
        for _ in self.run([probe]):
            pass
        device = probe.device
        if probe.failure or "error" in device or not device:
            why = device.get("error") or (probe.failure or {}).get("message", "no answer")
            raise EngineError(f"no {self.device.upper()} found: JAX could not start the "
                              f"{self.env['JAX_PLATFORMS']} backend ({why})")
        if device["backend"] != self.device:
            raise EngineError(f"no {self.device.upper()} found: JAX's default backend is {device['backend']!r} "
                              f"(devices: {', '.join(device['devices'])})")
        self.info = {key: device[key] for key in ("jax", "jaxlib", "python", "device_kind")}
        self.info["protections"] = {
            "process": "a fresh process per page, its process group killed at the page's end",
            "environment": "scrubbed to an allowlist (PATH, HOME, locale, JAX_*, XLA_*, CUDA/NVIDIA)",
            "network": ready["network"],
            "memory_limit": self.memory_limit or "off on GPU runs",
            "orphans": "killed" if ready["orphans_killed"] else "not tracked: no subreaper on this system",
        }

    def _zygote_tail(self) -> str:
        with contextlib.suppress(OSError), open(self.zygote_log, "rb") as f:
            return f.read()[-OUTPUT_TAIL:].decode("utf-8", "replace").strip()
        return ""

    def _control_message(self, timeout: float) -> dict:
        self.control.settimeout(timeout)
        try:
            data = self.control.recv(1 << 16)
        except (TimeoutError, ConnectionError):
            data = b""
        finally:
            self.control.setblocking(False)
        if not data:
            raise EngineError(f"the engine's zygote stopped: {self._zygote_tail()}")
        return json.loads(data)

    def close(self) -> None:
        for page in list(self.running.values()):
            self._kill(page)
            self._finish(page)
        if self.control is not None:
            self.control.close()
        if self.zygote is not None:
            self.zygote.kill()
            self.zygote.wait()
        shutil.rmtree(self.root, ignore_errors=True)

    # --- pages ------------------------------------------------------------------------------

    def _launch(self, job: Job) -> None:
        self.launched += 1
        job_id = str(self.launched)
        workdir = tempfile.mkdtemp(prefix="page-", dir=self.root)
        if not job.probe:
            with open(os.path.join(workdir, "page.json"), "w", encoding="utf-8") as f:
                json.dump(job.blocks, f)
        facts_r, facts_w = os.pipe()
        output_r, output_w = os.pipe()
        key = secrets.token_hex(16)
        request = {"job": job_id, "key": key, "dir": workdir, "output_limit": self.output_limit,
                   "memory_limit": self.memory_limit, "probe": job.probe}
        try:
            socket.send_fds(self.control, [json.dumps(request).encode()], [facts_w, output_w])
        except OSError as exc:
            raise EngineError(f"the engine's zygote stopped ({exc.strerror}): {self._zygote_tail()}") from None
        finally:
            os.close(facts_w)
            os.close(output_w)
        page = _Running(job, FactReader(job_id, key, [b["index"] for b in job.blocks], job.block_count, job.probe),
                        workdir, facts_r, output_r)
        for fd in (facts_r, output_r):
            os.set_blocking(fd, False)
            self.selector.register(fd, selectors.EVENT_READ, page)
        self.running[job_id] = page

    def _kill(self, page: _Running) -> None:
        if page.pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(page.pid, signal.SIGKILL)

    def _fail(self, page: _Running, kind: str, message: str) -> None:
        """The page's process ends as the failure of its current block (or of the page); once."""
        if page.job.failure is None:
            page.job.failure = {"index": page.reader.current, "type": kind, "message": message}
        self._kill(page)

    def _finish(self, page: _Running) -> Job:
        self._drain(page)
        self._kill(page)  # whatever the page left running in its process group
        for fd in (page.facts, page.output):
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(fd)
            os.close(fd)
        shutil.rmtree(page.workdir, ignore_errors=True)
        self.running.pop(page.reader.job_id, None)
        return page.job

    def _drain(self, page: _Running) -> None:
        for fd in (page.facts, page.output):
            while self._read(page, fd):
                pass

    def _read(self, page: _Running, fd: int) -> bool:
        """Reads what is there; False at the end of the stream or when nothing is waiting."""
        try:
            chunk = os.read(fd, 1 << 20)
        except (BlockingIOError, OSError):
            return False
        if not chunk:
            # A pipe at its end stays readable: watched on, it would spin the loop until the
            # zygote tells of the exit.
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(fd)
            return False
        if fd == page.output:
            page.output_seen += len(chunk)
            page.output_tail = (page.output_tail + chunk)[-OUTPUT_TAIL:]
            if page.output_seen > self.output_limit:
                self._fail(page, "OutputLimitExceeded", f"the page printed more than {self.output_limit} "
                           "characters to its standard output or error stream (fds 1 and 2)")
            return True
        page.facts_buffer += chunk
        *lines, page.facts_buffer = page.facts_buffer.split(b"\n")
        for line in lines:
            if page.job.failure is not None:
                break
            try:
                fact = page.reader.read(line)
            except ChannelError as exc:
                self._fail(page, "ChannelViolation", str(exc))
                break
            self._take(page, fact)
        return True

    def _take(self, page: _Running, fact: dict) -> None:
        event = fact["event"]
        if event == "device":
            page.job.device = fact
        elif event == "start":
            page.timeout = next(b["timeout"] for b in page.job.blocks if b["index"] == fact["index"])
            page.deadline = time.monotonic() + page.timeout
        elif event == "end":
            page.job.facts[fact["index"]] = fact
            page.deadline = None

    def _exited(self, page: _Running, code: int) -> None:
        self._drain(page)
        if page.job.failure is None and not page.reader.done:
            tail = page.tail()  # a crash between blocks is told at the next one (engine._failure_index)
            self._fail(page, "WorkerCrash", _exit_description(code) + (f"\n{tail}" if tail else ""))

    def run(self, jobs: list[Job]) -> Iterator[Job]:
        """Runs every job, yielding each as it finishes; a page that dies or hangs fails only its block."""
        if not jobs:
            return  # without starting JAX: a shard or a --reuse run may have nothing left to run
        if self.control is None:
            self._start()
        queue = deque(jobs)
        pending = len(jobs)
        while pending:
            while queue and len(self.running) < self.size:
                self._launch(queue.popleft())
            deadlines = [p.deadline for p in self.running.values() if p.deadline]
            timeout = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
            for key, _ in self.selector.select(timeout):
                if key.data is None:
                    for done in self._control():
                        pending -= 1
                        yield done
                else:
                    self._read(key.data, key.fd)
            for page in list(self.running.values()):
                if page.deadline and time.monotonic() > page.deadline:
                    page.deadline = None
                    self._fail(page, "Timeout", f"the block did not finish within its {page.timeout:g} s "
                               "timeout; its process was stopped")

    def _control(self) -> Iterator[Job]:
        while True:
            try:
                data = self.control.recv(1 << 16)
            except BlockingIOError:
                return
            except ConnectionError:
                data = b""
            if not data:
                raise EngineError(f"the engine's zygote stopped: {self._zygote_tail()}")
            message = json.loads(data)
            page = self.running.get(message.get("started") or message.get("exited"))
            if page is None:
                continue
            if "started" in message:
                page.pid = message["pid"]
                if page.job.failure is not None:
                    self._kill(page)
            else:
                self._exited(page, message["code"])
                yield self._finish(page)
