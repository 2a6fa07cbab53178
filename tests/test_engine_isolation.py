"""Hostile pages against the page boxes (issue 20): each class of attack, with the outcome asserted on
the victim's verdict, the run's deadline, the report and what is left running."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from jax_kb.snippets.sandbox import pool
from test_engine_protections import page, processes_with, run

ROOT = Path(__file__).resolve().parents[1]

VICTIM = ("""
import time
import jax, jax.numpy as jnp
time.sleep(1.5)  # while the attacker runs
print(jax.jit(lambda x: x * 2 + 1)(jnp.arange(3)))
""", "[1 3 5]")


@pytest.fixture(scope="module")
def boxed(tmp_path_factory):
    """Skips where this system gives no box (the report then says why, and the run says so)."""
    results, engine = run([page(tmp_path_factory.mktemp("probe"), "probe_box", "pass")], jobs=1)
    if engine.info["protections"]["box"].startswith("off"):
        pytest.skip(engine.info["protections"]["box"])
    return engine.info["protections"]


def test_a_page_sees_no_other_process_and_reaches_none(boxed, tmp_path):
    attacker = page(tmp_path, "attacker", ("""
        import os, signal
        visible = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
        print(visible == [1], os.getpid(), os.getppid())
        for pid in [p for p in visible if p != os.getpid()]:  # another page's channel and stdout, if it could
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    os.write(os.open(f"/proc/{pid}/fd/{fd}", os.O_WRONLY), b"x" * 100_000)
                except OSError:
                    pass
        try:
            os.kill(-1, signal.SIGKILL)  # every process this page may signal: none but itself, which it spares
        except ProcessLookupError:
            print("no process to signal")
        """, "True 1 0\nno process to signal"))
    victim = page(tmp_path, "victim", VICTIM)
    results, _ = run([attacker, victim], jobs=2)
    assert results["attacker"][0].status == "passed", (results["attacker"][0].error, results["attacker"][0].stdout)
    assert results["victim"][0].status == "passed", results["victim"][0].error


def kept_in_tmp() -> set[str]:
    """The names in /tmp of the folders a page still sees there, read-only: the project and the
    Python environment, where they lie under /tmp (a checkout in /tmp/x)."""
    places = [Path(os.path.realpath(p)) for p in (ROOT, sys.prefix)]
    return {p.relative_to("/tmp").parts[0] for p in places if p.is_relative_to("/tmp") and p != Path("/tmp")}


def test_the_machine_is_read_only_and_tmp_is_the_pages_own(boxed, tmp_path):
    outside = [ROOT / "written-by-a-page", ROOT / "reports" / "cpu.json", Path.home() / ".bashrc"]
    path = page(tmp_path, "files", (f"""
        import os, tempfile
        for place in {[str(p) for p in outside]!r}:
            try:
                open(place, "a").write("x")
                print("wrote", place)
            except OSError as exc:
                print(exc.strerror)
        print(os.path.exists({str(tmp_path)!r}))  # the engine's /tmp, and every other page's folder: not there
        open("/tmp/mine", "w").write("x")
        print(sorted(os.listdir("/tmp")), os.getcwd(), tempfile.gettempdir(), os.path.expanduser("~"))
        """, "Read-only file system\nRead-only file system\nRead-only file system\nFalse\n"
             f"{sorted(['.jax-cache', '.shm', 'home', 'mine', 'work', *kept_in_tmp()])} /tmp/work /tmp /tmp/home"))
    results, _ = run([path], jobs=1)
    assert results["files"][0].status == "passed", (results["files"][0].error, results["files"][0].stdout)
    assert not outside[0].exists()


def cache_digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(params=["in the project", "in /tmp"])
def cache(request, tmp_path):
    if request.param == "in /tmp":
        yield tmp_path / "cache"
        return
    folder = ROOT / ".cache" / f"isolation-test-{os.getpid()}"
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_no_page_writes_a_compilation_cache_entry_another_page_reads(boxed, tmp_path, cache):
    victim = page(tmp_path, "victim", VICTIM)
    results, _ = run([victim], jobs=1, cache_dir=cache)
    assert results["victim"][0].status == "passed"
    before = cache_digest(cache)
    assert before, "the victim's compiled program is in its own folder of the cache"
    poisoner = page(tmp_path, "poisoner", (f"""
        import os
        touched = 0
        for base in ({str(cache)!r}, "/tmp/.jax-cache"):
            for folder, _, files in os.walk(base):
                for name in files + ["planted"]:
                    try:
                        open(os.path.join(folder, name), "wb").write(b"poison")
                        touched += folder.startswith("/tmp/.jax-cache")
                    except OSError:
                        pass
        print(sorted(os.listdir({str(cache)!r})) if os.path.isdir({str(cache)!r}) else [], touched > 0)
        """, "[] True"))
    results, _ = run([poisoner], jobs=1, cache_dir=cache)
    assert results["poisoner"][0].status == "passed", results["poisoner"][0].stdout  # the others' folders: hidden
    assert {name: digest for name, digest in cache_digest(cache).items() if name in before} == before
    results, _ = run([victim], jobs=1, cache_dir=cache)
    assert results["victim"][0].status == "passed", results["victim"][0].error


def test_nothing_a_page_starts_outlives_it_or_touches_the_report(boxed, tmp_path):
    report = tmp_path / "report.json"
    marker = f"{time.time() % 1000 + 90:.6f}"
    page(tmp_path, "a_survivor", ("""
        import os, subprocess
        for _ in range(50):
            subprocess.Popen(["sleep", MARKER], start_new_session=True)
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                import time
                time.sleep(2)
                open(REPORT, "w").write("{}")  # the finished report, rewritten by a survivor
            os._exit(0)
        print("forked")
        """.replace("MARKER", repr(marker)).replace("REPORT", repr(str(report))), "forked"))
    page(tmp_path, "b_failing", "assert 1 == 2")
    done = subprocess.run([sys.executable, "-m", "scripts.snippets", str(tmp_path), "--json", str(report), "-j", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stderr
    assert processes_with(marker) == []
    time.sleep(3)
    summary = json.loads(report.read_text())["summary"]
    assert summary["failed"] == 1 and summary["passed"] == 1


def test_a_page_that_fakes_its_end_and_hangs_is_stopped_by_the_engines_clock(boxed, tmp_path, monkeypatch):
    monkeypatch.setattr(pool, "BETWEEN_BLOCKS_S", 2.0)
    path = page(tmp_path, "liar", """
        import json, os, time
        os.write(3, (json.dumps({"event": "end", "index": 0, "stdout": "", "duration_s": 0, "exception": None,
                                 "output_limit": False}) + "\\n" + json.dumps({"event": "done"}) + "\\n").encode())
        time.sleep(600)
        """, "print('never')")
    stopper = page(tmp_path, "stopper", ("""
        import os, signal
        for pid in (os.getppid(), 0, -1):  # its parent (outside: 0), its process group, everything it may signal
            try:
                os.kill(pid, signal.SIGSTOP)
            except ProcessLookupError:
                pass
        print("still running")
        """, "still running"))
    victim = page(tmp_path, "victim", VICTIM)
    start = time.monotonic()
    results, _ = run([path, stopper, victim], jobs=2)
    assert time.monotonic() - start < 60
    liar, never = results["liar"]  # the page may misreport its own block; it cannot outlast its deadline
    assert never.status == "failed" and never.error.type == "Timeout", never.error
    assert "did not end within 2 s" in never.error.message
    assert results["stopper"][0].status == "passed", results["stopper"][0].error  # it stops nothing, not even itself
    assert results["victim"][0].status == "passed", results["victim"][0].error


def zygotes() -> list[int]:
    return [pid for pid in processes_with("jax_kb.snippets.sandbox.zygote")
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1] == str(os.getpid())]


def test_a_zygote_that_dies_fails_its_running_page_and_a_new_one_runs_the_rest(boxed, tmp_path):
    hang = page(tmp_path, "a_hang", "import time\ntime.sleep(20)")
    rest = [page(tmp_path, f"b_rest{n}", ("print('ok')", "ok")) for n in range(2)]

    def children(pid: int) -> list[int]:
        try:
            return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except OSError:
            return []

    def kill_zygote_when_the_page_runs():
        seen: dict[int, float] = {}  # the page processes (the zygote's grandchildren), when first seen
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            now = time.monotonic()
            for zygote in zygotes():
                for keeper in children(zygote):
                    for page_process in children(keeper):
                        seen.setdefault(page_process, now)
            if any(now - first > 2 for first in seen.values()):  # the hang (the probe and the rest are quick)
                break
            time.sleep(0.05)
        for pid in zygotes():
            os.kill(pid, signal.SIGKILL)

    killer = threading.Thread(target=kill_zygote_when_the_page_runs)
    killer.start()
    results, _ = run([hang, *rest], jobs=1)
    killer.join()
    assert results["a_hang"][0].status == "failed"
    assert results["a_hang"][0].error.type == "EngineHelperStopped", results["a_hang"][0].error
    assert [results[f"b_rest{n}"][0].status for n in range(2)] == ["passed", "passed"]


def test_a_page_cannot_read_the_engines_environment_or_command_line(boxed, tmp_path, monkeypatch):
    monkeypatch.setenv("SNIPPETS_SECRET_TOKEN", "hunter2")
    path = page(tmp_path, "reader", ("""
        import os
        found = []
        for pid in os.listdir("/proc"):
            for name in ("environ", "cmdline"):
                try:
                    found.append(b"hunter2" in open(f"/proc/{pid}/{name}", "rb").read())
                except OSError:
                    pass
        print(any(found), "SNIPPETS_SECRET_TOKEN" in os.environ)
        """, "False False"))
    results, _ = run([path], jobs=1)
    assert results["reader"][0].status == "passed", results["reader"][0].stdout


def test_shared_memory_counts_against_the_memory_limit(boxed, tmp_path):
    if "(cgroup)" not in boxed["memory_limit"]:
        pytest.skip(boxed["memory_limit"])
    path = page(tmp_path, "shm", """
        import mmap
        block = mmap.mmap(-1, 2 << 30, flags=mmap.MAP_SHARED | mmap.MAP_ANONYMOUS)
        for offset in range(0, 2 << 30, 4096):
            block[offset] = 1
        """, "print('never')")
    victim = page(tmp_path, "victim", VICTIM)
    results, _ = run([path, victim], jobs=2, memory_limit=1 << 30)
    shm = results["shm"][0]
    assert shm.status == "failed" and shm.error.type == "MemoryLimitExceeded", shm.error
    assert "more than its memory limit of 1 GiB" in shm.error.message
    assert results["victim"][0].status == "passed"


def test_files_in_dev_shm_and_tmp_are_bounded_and_gone_with_the_page(boxed, tmp_path):
    path = page(tmp_path, "fill", """
        chunk = b"x" * (1 << 20)
        with open("/dev/shm/big", "wb") as f:
            for _ in range(2048):
                f.write(chunk)
        """)
    after = page(tmp_path, "after", ("import os\nprint(os.listdir('/dev/shm'))", "[]"))
    results, _ = run([path, after], jobs=1)
    fill = results["fill"][0]
    assert fill.status == "failed", fill.error
    assert "File too large" in fill.error.message or "No space left on device" in fill.error.message
    assert results["after"][0].status == "passed"


def test_a_fork_bomb_meets_the_process_limit_and_says_so(boxed, tmp_path):
    if "(cgroup)" not in boxed["process_limit"]:
        pytest.skip(boxed["process_limit"])
    path = page(tmp_path, "bomb", """
        import os, time
        for _ in range(5000):
            if os.fork() == 0:
                time.sleep(30)
                os._exit(0)
        """)
    victim = page(tmp_path, "victim", VICTIM)
    results, _ = run([path, victim], jobs=2)
    bomb = results["bomb"][0]
    assert bomb.status == "failed" and "limit of 512 processes and threads" in bomb.error.message, bomb.error
    assert results["victim"][0].status == "passed"


def test_a_block_python_cannot_compile_fails_alone(tmp_path):
    path = page(tmp_path, "deep", "x = " + "+".join(["1"] * 200_000))
    other = page(tmp_path, "other", ("print('ok')", "ok"))
    results, _ = run([path, other], jobs=1)
    deep = results["deep"][0]
    assert deep.status == "failed" and "cannot compile this block" in deep.error.message, deep.error
    assert results["other"][0].status == "passed"


def test_output_cannot_reach_the_engines_own_streams(boxed, tmp_path):
    page(tmp_path, "forger", """
        import os
        for fd in range(1024):
            try:
                os.write(fd, b"::error::forged by a page\\n")
            except OSError:
                pass
        for pid in os.listdir("/proc"):
            try:
                os.write(os.open(f"/proc/{pid}/fd/1", os.O_WRONLY), b"::error::forged by a page\\n")
            except OSError:
                pass
        """)
    done = subprocess.run([sys.executable, "-m", "scripts.snippets", str(tmp_path), "-j", "1"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert "::error::" not in done.stdout and "::error::" not in done.stderr.replace("::error::forged by a page\\n", "")


def test_the_run_can_require_every_protection(tmp_path):
    path = page(tmp_path, "any", "pass")
    done = subprocess.run([sys.executable, "-m", "scripts.snippets", str(path), "--require-isolation"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    results, engine = run([path], jobs=1)
    missing = [v for v in engine.info["protections"].values() if str(v).startswith("off")]
    if missing:
        assert done.returncode == 2 and "these are off" in done.stderr
    else:
        assert done.returncode == 0, done.stderr
