"""The fork server: imports JAX once, then gives every page a box of its own (box.py).

For each page it forks a keeper, which takes new namespaces and forks the page's process: PID 1
of its own PID namespace, so that its end ends everything the page started. The keeper stays
outside that namespace, where the page cannot reach it, and ends the page when the engine asks
(SIGTERM). Talks to the engine over a SOCK_SEQPACKET socket; each request carries the page's
three file descriptors: its job (a sealed memfd the engine wrote), its facts pipe and the pipe of
its fds 1 and 2. The server never reads a page's code and keeps nothing of one page for the next.
"""
from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import socket
import sys
import tempfile

from jax_kb.snippets.sandbox import box, kernel, page_process, timings

CONTROL_FD_VARIABLE = "SNIPPETS_CONTROL_FD"
ORPHAN_SCAN_S = 0.5  # while no page exits, how often processes reparented to us are looked for
FACTS_FD = 3


def _send(control: socket.socket, message: dict) -> None:
    control.send(json.dumps(message).encode())


def _exit_as(status: int) -> None:
    """Ends this process the way the page's process ended: by the same signal, or with the same code."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        with contextlib.suppress(OSError, ValueError):
            signal.signal(number, signal.SIG_DFL)
            os.kill(os.getpid(), number)
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 70)


def _page(jax, request: dict, spec: box.BoxSpec, job_fd: int, facts_fd: int, output_fd: int) -> None:
    """The page's process: its stdio and box, then the page's blocks; it never returns."""
    os.setsid()  # out of the keeper's process group: a page that signals "its group" reaches only its own
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    os.dup2(facts_fd, FACTS_FD)
    job = os.fdopen(os.dup(job_fd), "rb")
    os.closerange(FACTS_FD + 1, job.fileno())
    os.closerange(job.fileno() + 1, 1 << 16)
    sys.stdin = open(0, "r", closefd=False)
    sys.stdout = sys.__stdout__ = open(1, "w", buffering=1, closefd=False)
    sys.stderr = sys.__stderr__ = open(2, "w", buffering=1, closefd=False)
    if request["boxed"]:
        box.enter(spec)
        cache = box.CACHE if spec.cache_dir else None
    else:  # no box on this system: a folder of its own, and the limits rlimits can give
        box.apply_limits(spec.limits)
        os.chdir(tempfile.mkdtemp(prefix="snippet-page-"))
        os.environ["TMPDIR"] = tempfile.tempdir = os.getcwd()
        cache = spec.cache_dir
    if cache:
        jax.config.update("jax_compilation_cache_dir", cache)
    timings.mark("box_ready_at")
    facts = open(FACTS_FD, "w", buffering=1, encoding="utf-8")

    def emit(fact: dict) -> None:
        facts.write(json.dumps(fact) + "\n")

    if request.get("probe"):
        emit(page_process.describe_device(jax, sys.modules["jaxlib"]))
    else:
        with job:
            blocks = json.load(job)
        page_process.run_page(jax, blocks, request["output_limit"], emit)
    sys.stdout.flush()
    facts.flush()
    os._exit(0)


def _keeper(jax, request: dict, fds: list[int]) -> None:
    """In the forked keeper: the namespaces, the page's process inside them, and its end."""
    spec = box.BoxSpec.from_json(request["box"])
    if request["boxed"]:
        box.take_namespaces()
    pid = os.fork()
    if pid == 0:
        try:
            kernel.die_with_parent(signal.SIGKILL)
            _page(jax, request, spec, *fds)
        except BaseException as exc:  # noqa: BLE001: the engine reads this from the page's fd 2
            os.write(2, f"the page's box could not be made: {type(exc).__name__}: {exc}\n".encode())
        os._exit(70)
    for fd in fds:
        os.close(fd)
    # The engine ends a page by ending its keeper: the page, PID 1 of its namespace, and all it started.
    signal.signal(signal.SIGTERM, lambda number, frame: os.kill(pid, signal.SIGKILL))
    _, status = os.waitpid(pid, 0)
    _exit_as(status)


def _fork(control: socket.socket, wakeup: tuple[int, int], jax, request: dict, fds: list[int]) -> int:
    pid = os.fork()
    if pid == 0:
        try:
            os.setpgid(0, 0)
            kernel.die_with_parent(signal.SIGKILL)
            signal.set_wakeup_fd(-1)
            for number in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD, signal.SIGPIPE):
                signal.signal(number, signal.SIG_DFL)
            control.close()
            for fd in wakeup:
                os.close(fd)
            _keeper(jax, request, fds)
        except BaseException as exc:  # noqa: BLE001: the engine reads this from the page's fd 2
            with contextlib.suppress(OSError):
                os.write(fds[2], f"the page's box could not be made: {type(exc).__name__}: {exc}\n".encode())
        os._exit(70)
    return pid


def _kill_orphans(children: dict[int, str]) -> None:
    """Kills processes reparented to us (we are their subreaper): a page whose keeper was killed."""
    me = str(os.getpid())
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in children:
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent = f.read().rsplit(")", 1)[1].split()[1]
        except (OSError, IndexError):
            continue
        if parent == me:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(entry), signal.SIGKILL)


def _reap(control: socket.socket, children: dict[int, str]) -> bool:
    reaped = False
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return reaped
        if pid == 0:
            return reaped
        reaped = True
        job = children.pop(pid, None)
        if job is not None:
            _send(control, {"exited": job, "pid": pid, "code": os.waitstatus_to_exitcode(status)})


def serve(control: socket.socket, jax) -> None:
    children: dict[int, str] = {}
    # A page's exit wakes the loop through SIGCHLD at once, rather than at the next poll: the engine
    # waits for the exit message before it counts the page done.
    wakeup = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wakeup[1], warn_on_full_buffer=False)
    signal.signal(signal.SIGCHLD, lambda number, frame: None)
    while True:
        ready, _, _ = select.select([control, wakeup[0]], [], [], ORPHAN_SCAN_S)
        if wakeup[0] in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(wakeup[0], 1 << 12)
        if control in ready:
            try:
                data, fds, _, _ = socket.recv_fds(control, 1 << 16, 3)
            except ConnectionError:
                data, fds = b"", []
            if not data:
                break  # the engine is gone
            request = json.loads(data)
            pid = _fork(control, wakeup, jax, request, fds)
            for fd in fds:
                os.close(fd)
            children[pid] = request["job"]
            _send(control, {"started": request["job"], "pid": pid})
        if _reap(control, children) or not ready:
            _kill_orphans(children)
    for pid in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)


def _probe_box(spec: box.BoxSpec) -> str:
    """Whether this system lets us make a page's box: "" when it does, else why not."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            box.take_namespaces()
            inner = os.fork()
            if inner == 0:
                try:
                    box.enter(spec)
                    os._exit(0)
                except BaseException as exc:  # noqa: BLE001: told to the engine as the reason
                    os.write(write, f"{exc}".encode()[:500])
                    os._exit(1)
            _, status = os.waitpid(inner, 0)
            os._exit(os.waitstatus_to_exitcode(status))
        except BaseException as exc:  # noqa: BLE001
            os.write(write, f"{exc}".encode()[:500])
            os._exit(1)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        why = f.read().decode("utf-8", "replace")
    _, status = os.waitpid(pid, 0)
    return "" if status == 0 else why or f"the test box ended with status {status}"


def main() -> None:
    control = socket.socket(fileno=int(os.environ.pop(CONTROL_FD_VARIABLE)))
    kernel.die_with_parent(signal.SIGKILL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the engine's to handle
    probe = box.BoxSpec.from_json(json.loads(os.environ.pop("SNIPPETS_PROBE_BOX")))
    import jax

    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    timings.install(jax)
    no_box = _probe_box(probe)
    _send(control, {"ready": True, "no_box": no_box, "orphans_killed": kernel.become_subreaper()})
    serve(control, jax)


if __name__ == "__main__":
    main()
