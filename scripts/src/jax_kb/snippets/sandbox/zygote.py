"""The fork server: imports JAX once, then forks a fresh process for every page.

A page's process dies with the page, and with it everything the page changed: JAX's configuration,
modules, builtins, environment, signals, threads. Talks to the engine over a SOCK_SEQPACKET socket;
each request carries the page's two pipes (facts, and its fds 1 and 2) as passed file descriptors.
"""
from __future__ import annotations

import contextlib
import json
import os
import random
import resource
import select
import signal
import socket
import sys
import tempfile

from jax_kb.snippets.sandbox import protections

CONTROL_FD_VARIABLE = "SNIPPETS_CONTROL_FD"
ORPHAN_SCAN_S = 0.5  # while no page exits, how often processes reparented to us are looked for


def _send(control: socket.socket, message: dict) -> None:
    control.send(json.dumps(message).encode())


def _page_process(control: socket.socket, wakeup: tuple[int, int], jax, request: dict, facts_fd: int,
                  output_fd: int) -> None:
    """In the forked child: cut loose from the server, then run the page and exit."""
    os.setpgid(0, 0)
    protections.die_with_parent(signal.SIGKILL)
    signal.set_wakeup_fd(-1)
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD, signal.SIGPIPE):
        signal.signal(number, signal.SIG_DFL)
    control.close()
    for fd in wakeup:
        os.close(fd)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    # The facts channel sits at an unpredictable fd, closed on exec, so that page code writing to
    # "the protocol fd" reaches nothing; a page that hunts for it only garbles its own result.
    hidden = os.dup2(facts_fd, random.randrange(200, 1000), inheritable=False)
    for fd in {null, facts_fd, output_fd} - {0, 1, 2}:
        os.close(fd)
    sys.stdin = open(0, "r", closefd=False)
    sys.stdout = sys.__stdout__ = open(1, "w", buffering=1, closefd=False)
    sys.stderr = sys.__stderr__ = open(2, "w", buffering=1, closefd=False)
    if request.get("memory_limit"):
        resource.setrlimit(resource.RLIMIT_DATA, (request["memory_limit"],) * 2)
    os.chdir(request["dir"])
    os.environ["TMPDIR"] = tempfile.tempdir = request["dir"]
    facts = open(hidden, "w", buffering=1, encoding="utf-8")
    job, key = request["job"], request["key"]

    def emit(fact: dict) -> None:
        facts.write(json.dumps({"job": job, "key": key, **fact}) + "\n")

    from jax_kb.snippets.sandbox import page_process

    if request.get("probe"):
        import jaxlib

        emit(page_process.describe_device(jax, jaxlib))
    else:
        with open(os.path.join(request["dir"], "page.json"), encoding="utf-8") as f:
            blocks = json.load(f)
        os.unlink(f.name)
        page_process.run_page(jax, blocks, request["output_limit"], emit)
    sys.stdout.flush()
    facts.flush()
    os._exit(0)


def _fork(control: socket.socket, wakeup: tuple[int, int], jax, request: dict, fds: list[int]) -> int:
    pid = os.fork()
    if pid == 0:
        try:
            _page_process(control, wakeup, jax, request, *fds)
        except BaseException as exc:  # noqa: BLE001: the engine reads this from the page's fd 2
            print(f"the page process failed to start: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        os._exit(70)
    os.setpgid(pid, pid)  # also here: the engine may kill the group before the child gets to it
    return pid


def _kill_orphans(children: dict[int, str]) -> None:
    """Kills processes reparented to us (we are their subreaper) that are no page of ours."""
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
            try:
                os.kill(int(entry), signal.SIGKILL)
            except ProcessLookupError:
                pass


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
                data, fds, _, _ = socket.recv_fds(control, 1 << 16, 2)
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
            os.killpg(pid, signal.SIGKILL)


def main() -> None:
    control = socket.socket(fileno=int(os.environ.pop(CONTROL_FD_VARIABLE)))
    protections.die_with_parent(signal.SIGKILL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the engine's to handle
    network = protections.drop_network()  # before JAX: a user namespace needs a single thread
    import jax

    cache_dir = os.environ.pop("SNIPPETS_CACHE_DIR", None)
    if cache_dir and "JAX_COMPILATION_CACHE_DIR" not in os.environ:
        jax.config.update("jax_compilation_cache_dir", cache_dir)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    _send(control, {"ready": True, "network": network, "orphans_killed": protections.become_subreaper()})
    serve(control, jax)


if __name__ == "__main__":
    main()
