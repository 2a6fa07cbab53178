"""Page processes: a box for each page (box.py), made by the zygote; the engine watches their
deadlines by its own clock, their output and their channel, and ends each box when its page ends."""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
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
import weakref
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from jax_kb.snippets.sandbox.box import BoxSpec
from jax_kb.snippets.sandbox.cgroups import Cgroups, PageGroup
from jax_kb.snippets.sandbox.channel import ChannelError, FactReader
from jax_kb.snippets.sandbox.protections import (DEFAULT_OPEN_FILES, DEFAULT_PROCESSES, DEFAULT_TMP_SIZE,
                                                 format_size, page_environment)
from jax_kb.snippets.sandbox.zygote import CONTROL_FD_VARIABLE

# Where jax_kb is imported from, for the zygote: the same package whether installed or not.
PACKAGE_PARENT = Path(__file__).resolve().parents[3]
STARTUP_TIMEOUT = 300.0
OUTPUT_TAIL = 2000
PAGE_START_S = 120.0  # from the launch to the first block: the box, and JAX's backend on a cold machine
BETWEEN_BLOCKS_S = 30.0  # from a block's end to the next start, or to the page's end and exit
ZYGOTE_RESTARTS = 3


class EngineError(Exception):
    """The engine cannot run at all (no GPU where one was asked for, a zygote that cannot start)."""


def default_cache_dir() -> Path:
    """JAX's compilation cache where no project names one: the user's cache folder (XDG)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "jax-kb" / "jax"


@dataclass
class Job:
    key: str
    blocks: list[dict]  # the blocks to run, in order: {"index", "code", "raises", "timeout"}
    block_count: int  # of the whole page, which tracebacks may name
    facts: dict[int, dict] = field(default_factory=dict)  # index -> its "end" fact
    failure: dict | None = None  # the process's own end: {"index", "type", "message"}, index None for the page
    probe: bool = False
    device: dict = field(default_factory=dict)  # the probe's facts
    limits_hit: list[str] = field(default_factory=list)  # a sentence for each limit of its box the page reached
    timings: dict = field(default_factory=dict)  # where its time went (timings.py), for --timings


@dataclass
class _Running:
    job: Job
    reader: FactReader
    facts: int  # read ends of the page's pipes
    output: int
    group: PageGroup | None
    launched: float
    pid: int | None = None  # of the page's keeper
    facts_buffer: bytes = b""
    output_seen: int = 0
    output_tail: bytes = b""
    deadline: float = 0.0
    overdue: str = ""  # what the page failed to do by the deadline
    ending: float | None = None  # when the engine asked the keeper to end the page
    done_at: float | None = None  # when the page told of its end

    def tail(self) -> str:
        return self.output_tail.decode("utf-8", "replace").strip()


def _exit_description(code: int) -> str:
    if code < 0:
        known = {signal.SIGXCPU: "it used all the CPU time it may use (its limit: the sum of its blocks' timeouts)",
                 signal.SIGXFSZ: "it wrote a file larger than a page may write"}
        try:
            name = signal.Signals(-code).name
        except ValueError:
            return f"the page's process crashed with signal {-code}"
        reason = known.get(-code)
        return f"the page's process was stopped by {name}: {reason}" if reason else \
            f"the page's process crashed with signal {name}"
    return f"the page's process exited with code {code} (os._exit or a fatal error)"


def _cache_folder(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def _job_file(blocks: list[dict]) -> int:
    """The page's job, in a sealed memfd: the page reads it; nobody, the page included, can change it."""
    fd = os.memfd_create("page-job", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    data = json.dumps(blocks).encode()
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SEAL | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def pages_environment(device: str) -> dict[str, str]:
    """The environment of the zygote and of every page's process."""
    env = dict(page_environment(dict(os.environ)), JAX_PLATFORMS="cuda" if device == "gpu" else "cpu")
    if device == "gpu":
        env.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    return env


class EarlyZygote:
    """The zygote, started before the pool needs it: it imports JAX while the engine reads the pages.

    The pool that takes it owns it from then on; one nobody takes is killed with its folder when
    it is garbage or at exit."""

    def __init__(self, device: str, root: str | None = None):
        self.device = device
        self.root = root or tempfile.mkdtemp(prefix="snippet-pages-")
        self.log = os.path.join(self.root, "zygote.log")
        self._taken = [False]  # shared with the finalizer, which must not hold self
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        probe = BoxSpec(tmp_size=1 << 20, environment=pages_environment(device))
        env = dict(probe.environment, PYTHONPATH=str(PACKAGE_PARENT), SNIPPETS_PROBE_BOX=json.dumps(probe.to_json()),
                   **{CONTROL_FD_VARIABLE: str(theirs.fileno())})
        self.spawned = time.monotonic()
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen([sys.executable, "-P", "-m", "jax_kb.snippets.sandbox.zygote"],
                                            cwd=self.root, env=env, pass_fds=[theirs.fileno()],
                                            stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        theirs.close()
        self.control = ours
        self._finalizer = weakref.finalize(self, _discard, self.process, ours, self.root, self._taken)

    def take(self) -> None:
        """A pool owns it from now on."""
        self._taken[0] = True

    def close(self) -> None:
        """Ends it unless a pool took it."""
        self._finalizer()


def _discard(process: subprocess.Popen, control: socket.socket, root: str, taken: list[bool]) -> None:
    if taken[0]:
        return
    control.close()
    if process.poll() is None:
        process.kill()
        process.wait()
    shutil.rmtree(root, ignore_errors=True)


class Pool:
    def __init__(self, size: int, device: str, output_limit: int = 1_000_000, cache_dir: Path | None = None,
                 memory_limit: int | None = None, tmp_size: int = DEFAULT_TMP_SIZE,
                 process_limit: int = DEFAULT_PROCESSES, require_isolation: bool = False,
                 visible: tuple[str, ...] = (), early: EarlyZygote | None = None):
        self.size = max(1, size)
        self.device = device
        self.output_limit = output_limit
        self.memory_limit = memory_limit
        self.tmp_size = tmp_size
        self.process_limit = process_limit
        self.require_isolation = require_isolation
        self.visible = visible  # the project's folder: read-only in the box even where it lies under /tmp
        # A page reads and writes its own folder of the cache, and no other page's.
        self.cache_root = Path(os.environ.get("JAX_COMPILATION_CACHE_DIR") or cache_dir or default_cache_dir())
        self.early = early if early is not None and early.device == device else None
        self.root = self.early.root if self.early else tempfile.mkdtemp(prefix="snippet-pages-")
        self.page_env = pages_environment(device)
        self.selector = selectors.DefaultSelector()
        self.running: dict[str, _Running] = {}
        self.info: dict = {}
        self.zygote: subprocess.Popen | None = None
        self.control: socket.socket | None = None
        self.launched = 0
        self.restarts = 0
        self.boxed = False
        self.box_problem = ""
        self.cgroups: Cgroups | None = None
        self.zygote_start_s = 0.0  # spawning zygotes until they are ready: starting Python and JAX

    # --- the zygote -------------------------------------------------------------------------

    def _spawn(self) -> dict:
        launched, self.early = self.early or EarlyZygote(self.device, self.root), None
        launched.take()
        self.zygote, self.control, self.zygote_log = launched.process, launched.control, launched.log
        self.selector.register(self.control, selectors.EVENT_READ, None)
        ready = self._control_message(STARTUP_TIMEOUT)
        if not ready.get("ready"):
            raise EngineError(f"the engine's zygote did not start: {self._zygote_tail()}")
        self.zygote_start_s += time.monotonic() - launched.spawned
        return ready

    def _start(self) -> None:
        ready = self._spawn()
        self.boxed = not ready["no_box"]
        self.box_problem = ready["no_box"]
        self.cgroups = Cgroups(f"jax-kb-{os.getpid()}-{secrets.token_hex(4)}") if self.boxed else None
        self.info["protections"] = self.protections()
        if self.require_isolation and self.missing_protections():
            raise EngineError("this run must have every protection of the page boxes, and these are off: "
                              + "; ".join(self.missing_protections()))

    def _take_probe(self, probe: Job) -> None:
        """What the device probe found: this run's JAX and device, or why the run cannot go on."""
        device = probe.device
        if probe.failure or "error" in device or not device:
            why = device.get("error") or (probe.failure or {}).get("message", "no answer")
            raise EngineError(f"no {self.device.upper()} found: JAX could not start the "
                              f"{self.page_env['JAX_PLATFORMS']} backend ({why})")
        if device["backend"] != self.device:
            raise EngineError(f"no {self.device.upper()} found: JAX's default backend is {device['backend']!r} "
                              f"(devices: {', '.join(device['devices'])})")
        self.info.update({key: device[key] for key in ("jax", "jaxlib", "python", "device_kind")})

    def protections(self) -> dict:
        """What this run's boxes are made of, for the report; a value starting "off" is missing."""
        cgroups = self.cgroups.available if self.cgroups else False
        why_not = f"off: {self.box_problem}" if not self.boxed else ""
        memory = format_size(self.memory_limit) if self.memory_limit else None
        return {
            "box": why_not or ("a fresh process per page, PID 1 of its own PID, mount, IPC, UTS and network "
                               "namespaces: it sees no other process, and its end ends all it started"),
            "files": why_not or (f"the machine read-only; /tmp, the working folder and /dev/shm a private tmpfs "
                                 f"of {format_size(self.tmp_size)}"),
            "compilation_cache": why_not or "a folder per page: no page reads or writes another page's entries",
            "network": why_not or "none: a loopback of its own",
            "capabilities": why_not or "none (dropped, no new privileges)",
            "environment": "an explicit list of variables (jax_kb/snippets/sandbox/protections.py)",
            "memory_limit": ("none asked for" if memory is None else
                             f"{memory} per page, shared memory and /tmp files included (cgroup)" if cgroups else
                             f"off: no cgroup ({self.cgroups.problem if self.cgroups else self.box_problem}), so "
                             + (f"{memory} of data per page (RLIMIT_DATA), shared memory not counted"
                                if self.device == "cpu" else "none on this GPU run")),
            "process_limit": (f"{self.process_limit} processes and threads per page (cgroup)" if cgroups else
                              "off: no cgroup"),
            "time_limits": "each block's timeout and the page's, by the engine's clock; CPU time the sum of the "
                           "blocks' timeouts",
        }

    def missing_protections(self) -> list[str]:
        return [f"{name}: {value}" for name, value in self.info.get("protections", {}).items()
                if str(value).startswith("off")]

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

    def _stop_zygote(self) -> None:
        if self.control is not None:
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(self.control)
            self.control.close()
            self.control = None
        if self.zygote is not None:
            self.zygote.kill()
            self.zygote.wait()
            self.zygote = None

    def close(self) -> None:
        for page in list(self.running.values()):
            self._end(page)
        if self.zygote is not None and self.zygote.poll() is None and self.running:
            deadline = time.monotonic() + 10
            while self.running and time.monotonic() < deadline:
                with contextlib.suppress(EngineError):
                    list(self._control())
                time.sleep(0.01)
        for page in list(self.running.values()):
            self._finish(page)
        self._stop_zygote()
        if self.cgroups is not None:
            self.cgroups.remove()
        shutil.rmtree(self.root, ignore_errors=True)

    # --- pages ------------------------------------------------------------------------------

    def _spec(self, job: Job, group: PageGroup | None) -> BoxSpec:
        total = sum(b["timeout"] for b in job.blocks)
        cache = None
        if not job.probe:
            cache = self.cache_root / _cache_folder(job.key)
            cache.mkdir(parents=True, exist_ok=True)
        limits = {"open_files": DEFAULT_OPEN_FILES, "file_size": self.tmp_size,
                  "cpu_seconds": int(PAGE_START_S + total) * max(1, os.cpu_count() or 1),
                  # Without a cgroup, RLIMIT_DATA on the CPU; a GPU's driver maps far more than it uses.
                  "data": None if group or self.device != "cpu" else self.memory_limit}
        return BoxSpec(tmp_size=self.tmp_size, cgroups=group.procs_files if group else (),
                       cache_dir=str(cache) if cache else None,
                       hide=(str(self.cache_root), self.root), visible=self.visible, limits=limits,
                       environment=self.page_env)

    def _launch(self, job: Job) -> None:
        self.launched += 1
        job_id = str(self.launched)
        group = None
        if self.cgroups is not None and self.cgroups.available and not job.probe:
            try:
                group = self.cgroups.page_group(f"page-{job_id}", self.memory_limit, self.process_limit)
            except OSError as exc:
                raise EngineError(f"cannot make a page's cgroup: {exc}") from None
        spec = self._spec(job, group)
        job_fd = _job_file(job.blocks)
        facts_r, facts_w = os.pipe()
        output_r, output_w = os.pipe()
        request = {"job": job_id, "boxed": self.boxed, "box": spec.to_json(), "output_limit": self.output_limit,
                   "probe": job.probe}
        try:
            socket.send_fds(self.control, [json.dumps(request).encode()], [job_fd, facts_w, output_w])
        except OSError:
            for fd in (facts_r, output_r):
                os.close(fd)
            if group:
                group.remove()
            raise
        finally:
            for fd in (job_fd, facts_w, output_w):
                os.close(fd)
        page = _Running(job, FactReader([b["index"] for b in job.blocks], job.block_count, job.probe),
                        facts_r, output_r, group, time.monotonic())
        page.deadline, page.overdue = page.launched + PAGE_START_S, "start"
        for fd in (facts_r, output_r):
            os.set_blocking(fd, False)
            self.selector.register(fd, selectors.EVENT_READ, page)
        self.running[job_id] = page

    def _end(self, page: _Running) -> None:
        """Asks the page's keeper to end the box: the page's process and everything it started."""
        if page.pid is not None and page.ending is None:
            page.ending = time.monotonic()
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(page.pid, signal.SIGTERM)

    def _fail(self, page: _Running, kind: str, message: str) -> None:
        """The page's process ends as the failure of its current block (or of the page); once."""
        if page.job.failure is None:
            page.job.failure = {"index": page.reader.current, "type": kind, "message": message}
        self._end(page)

    def _finish(self, page: _Running) -> Job:
        self._drain(page)
        now, timings = time.monotonic(), page.job.timings
        if "box_ready_at" in timings:
            timings["box"] = round(timings.pop("box_ready_at") - page.launched, 6)
        timings.update(wall=round(now - page.launched, 6),
                       **({"exit": round(now - page.done_at, 6)} if page.done_at else {}))
        for fd in (page.facts, page.output):
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(fd)
            os.close(fd)
        if page.group is not None:
            if page.group.oom_killed():
                sentence = (f"the page used more than its memory limit of {format_size(self.memory_limit)} "
                            "(shared memory and files in /tmp count)")
                if page.job.failure is not None:
                    page.job.failure.update(type="MemoryLimitExceeded", message=f"{sentence}, and was stopped")
                else:  # the kernel stopped one of the page's processes, not the page's own
                    page.job.limits_hit.append(sentence)
            if page.group.hit_process_limit():
                page.job.limits_hit.append(f"the page reached its limit of {self.process_limit} processes and threads")
            if (peak := page.group.peak_memory()) is not None:
                timings["peak_memory"] = peak
            page.group.kill_all()  # nothing is left by now (the page's namespace ended): should it be, it ends
            page.group.remove()
        self.running.pop(next(k for k, v in self.running.items() if v is page), None)
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
        """Each fact moves the page's deadline, which the engine keeps by its own clock: a page that
        tells of a block's end and goes on running is stopped all the same."""
        event, now = fact["event"], time.monotonic()
        if event == "device":
            page.job.device = fact
            page.deadline, page.overdue = now + BETWEEN_BLOCKS_S, "exit"
        elif event == "start":
            timeout = next(b["timeout"] for b in page.job.blocks if b["index"] == fact["index"])
            page.deadline, page.overdue = now + timeout, f"block:{timeout:g}"
        elif event == "end":
            page.job.facts[fact["index"]] = fact
            page.deadline, page.overdue = now + BETWEEN_BLOCKS_S, "next"
        elif event == "done":
            page.deadline, page.overdue = now + BETWEEN_BLOCKS_S, "exit"
            page.done_at = now
            page.job.timings.update(fact.get("timings", {}))

    def _expire(self, page: _Running) -> None:
        what = page.overdue
        if what.startswith("block:"):
            message = f"the block did not finish within its {what[6:]} s timeout; its process was stopped"
        elif what == "start":
            message = f"the page's process did not start its first block within {PAGE_START_S:g} s; it was stopped"
        elif what == "next":
            message = (f"the page's process did not go on within {BETWEEN_BLOCKS_S:g} s after a block ended; "
                       "it was stopped")
        else:
            message = f"the page's process did not end within {BETWEEN_BLOCKS_S:g} s after its last block; it was stopped"
        page.deadline = float("inf")
        self._fail(page, "Timeout", message)

    def _exited(self, page: _Running, code: int) -> None:
        self._drain(page)
        if page.job.failure is None and not page.reader.done:
            tail = page.tail()  # a crash between blocks is told at the next one (engine._failure_index)
            self._fail(page, "WorkerCrash", _exit_description(code) + (f"\n{tail}" if tail else ""))

    def _next_deadline(self) -> float | None:
        deadlines = [p.deadline for p in self.running.values()]
        deadlines += [p.ending + BETWEEN_BLOCKS_S for p in self.running.values() if p.ending is not None]
        return max(0.0, min(deadlines) - time.monotonic()) if deadlines else None

    def _check_deadlines(self) -> bool:
        """Fails the pages past their deadline; True when the zygote no longer answers: a page it never
        started, or a page its keeper did not end when asked."""
        now, unanswered = time.monotonic(), False
        for page in list(self.running.values()):
            if now > page.deadline:
                unanswered = unanswered or page.pid is None
                self._expire(page)
            if page.ending is not None and now > page.ending + BETWEEN_BLOCKS_S:
                unanswered = True
        return unanswered

    def _recover(self) -> list[Job]:
        """The zygote is gone or stuck: the pages it ran fail, and a new zygote takes the rest of the run."""
        for page in list(self.running.values()):
            self._fail(page, "EngineHelperStopped", "the engine's helper process (its zygote) stopped or stopped "
                       "answering while this page ran; a new one ran the rest of the run")
        self._stop_zygote()
        finished = [self._finish(page) for page in list(self.running.values())]
        self.restarts += 1
        if self.restarts > ZYGOTE_RESTARTS:
            raise EngineError(f"the engine's zygote stopped {self.restarts} times: {self._zygote_tail()}")
        self._spawn()
        return finished

    def _delivered(self, job: Job) -> list[Job]:
        """A finished job for the caller; the device probe's facts are the pool's own."""
        if job.probe:
            self._take_probe(job)
            return []
        return [job]

    def run(self, jobs: list[Job]) -> Iterator[Job]:
        """Runs every job, yielding each as it finishes; a page that dies or hangs fails only its block."""
        if not jobs:
            return  # without starting JAX: a shard or a --reuse run may have nothing left to run
        if self.control is None:
            self._start()
            # The device probe runs beside the first pages, not before them: a run on the wrong device
            # stops as soon as it ends.
            jobs = [Job("probe", [], 0, probe=True), *jobs]
        queue = deque(jobs)
        pending = len(jobs)
        while pending:
            lost = False
            while queue and len(self.running) < self.size and not lost:
                try:
                    self._launch(queue[0])
                    queue.popleft()
                except (OSError, ValueError):  # the zygote's socket is gone
                    lost = True
            if not lost:
                for key, _ in self.selector.select(self._next_deadline()):
                    if key.data is None:
                        try:
                            for done in self._control():
                                pending -= 1
                                yield from self._delivered(done)
                        except ConnectionError:
                            lost = True
                            break
                    else:
                        self._read(key.data, key.fd)
                lost = self._check_deadlines() or lost
            if lost:
                for done in self._recover():
                    pending -= 1
                    yield from self._delivered(done)

    def _control(self) -> Iterator[Job]:
        while True:
            try:
                data = self.control.recv(1 << 16)
            except BlockingIOError:
                return
            except ConnectionError:
                data = b""
            if not data:
                raise ConnectionError("the zygote closed its socket")
            message = json.loads(data)
            page = self.running.get(message.get("started") or message.get("exited"))
            if page is None:
                continue
            if "started" in message:
                page.pid = message["pid"]
                if page.job.failure is not None:
                    self._end(page)
            else:
                self._exited(page, message["code"])
                yield self._finish(page)
