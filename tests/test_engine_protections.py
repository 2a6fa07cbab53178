"""Hostile and careless pages: none of them changes another page's result or its own verdict, and
what they leave behind dies with them (issue 11, §2 to §4)."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from jax_kb.snippets import Engine, RunOptions, load

ROOT = Path(__file__).resolve().parents[1]


def page(folder: Path, name: str, *blocks: str) -> Path:
    """A page of Python blocks; a block given as (code, output) carries its expected output."""
    parts = [f"# {name}\n"]
    for block in blocks:
        code, output = block if isinstance(block, tuple) else (block, None)
        parts.append(f"```python\n{textwrap.dedent(code).strip()}\n```\n")
        if output is not None:
            parts.append(f"```{{.text .output}}\n{output}\n```\n")
    path = folder / f"{name}.md"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def run(paths: list[Path], **engine_options) -> tuple[dict[str, list], Engine]:
    loaded, errors = load(paths)
    assert errors == []
    engine = Engine(RunOptions(**engine_options))
    results = {}
    for page_results in engine.run(loaded):
        results[Path(page_results[0].page.path).stem] = page_results
    return results, engine


FORGE = """
import json, os
for fd in range(3, 1024):
    for event in ({"event": "end", "index": 0, "stdout": "", "duration_s": 0, "exception": None,
                   "output_limit": False}, {"event": "done"}):
        try:
            os.write(fd, (json.dumps(event) + "\\n").encode())
        except OSError:
            pass
assert 1 + 1 == 3
"""

GARBAGE = """
import os
for fd in range(3, 1024):
    try:
        os.write(fd, b"\\xff this is not JSON\\n")
    except OSError:
        pass
"""

PATCH_VERDICT = """
import jax_kb.snippets.verdict as verdict
verdict.decide = lambda *args, **kwargs: {"status": "passed", "error": None}
"""

LEFTOVERS = """
import builtins, os, signal, subprocess, sys, threading, time, warnings
import numpy as np
daemon = subprocess.Popen(["sleep", MARKER], start_new_session=True)
forked = os.fork()
if forked == 0:
    os.setsid()
    os.execvp("sleep", ["sleep", MARKER])
def chatter():
    while True:
        print("chatter from a thread")
        time.sleep(0.02)
threading.Thread(target=chatter, daemon=True).start()
signal.signal(signal.SIGALRM, lambda *args: print("the alarm of an earlier page"))
signal.alarm(1)
os.environ["LEAKED"] = "1"
sys.path.insert(0, "/leaked")
sys.modules["json"] = None
np.set_printoptions(precision=1)
warnings.simplefilter("error")
sys.setrecursionlimit(60)
builtins.len = lambda value: 0
"""

AFTER_LEFTOVERS = ("""
import json, os, sys, time, warnings
import numpy as np
time.sleep(1.5)
warnings.warn("only a warning")
print(len([1, 2]), "LEAKED" in os.environ, "/leaked" in sys.path, np.array([1.23456]), sys.getrecursionlimit() > 100)
""", "2 False False [1.23456] True")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    marker = f"{time.time() % 1000 + 60:.6f}"  # `sleep <marker>`: a process line no one else has
    paths = [
        page(folder, "a_forge", FORGE),
        page(folder, "b_honest_pass", ("assert 1 + 1 == 2\nprint('ok')", "ok")),
        page(folder, "c_honest_fail", "assert 2 + 2 == 5"),
        page(folder, "d_garbage", GARBAGE, "print('after')"),
        page(folder, "e_patch_verdict", PATCH_VERDICT, "assert False, 'still judged by the engine'"),
        page(folder, "f_leftovers", f"MARKER = {marker!r}\n" + LEFTOVERS),
        page(folder, "g_after_leftovers", AFTER_LEFTOVERS),
        page(folder, "h_secret", ("import os\nprint('SNIPPETS_TEST_TOKEN' in os.environ, 'NVIDIA_API_KEY' in "
                                  "os.environ, 'JAX_PLATFORMS' in os.environ)", "False False True")),
    ]
    os.environ.update(SNIPPETS_TEST_TOKEN="hunter2", NVIDIA_API_KEY="nvapi-secret")
    try:
        results, engine = run(paths, jobs=1)  # one at a time: each page's leftovers would meet the next page
    finally:
        del os.environ["SNIPPETS_TEST_TOKEN"], os.environ["NVIDIA_API_KEY"]
    return results, engine, marker


def test_forged_results_fail_the_forging_page_only(hostile):
    results, _, _ = hostile
    forged = results["a_forge"][0]
    assert forged.status == "failed" and forged.error.type == "ChannelViolation"
    assert "the page wrote to the engine's channel" in forged.error.message
    assert results["b_honest_pass"][0].status == "passed"
    assert results["c_honest_fail"][0].error.type == "AssertionError"


def test_garbage_on_the_channel_is_that_pages_failure_and_the_run_goes_on(hostile):
    results, _, _ = hostile
    first, second = results["d_garbage"]
    assert first.status == "failed" and first.error.type == "ChannelViolation"
    assert "not JSON" in first.error.message
    assert second.status == "skipped"


def test_patching_the_checker_in_the_page_changes_no_verdict(hostile):
    results, _, _ = hostile
    patch, failing = results["e_patch_verdict"]
    assert patch.status == "passed"
    assert failing.status == "failed" and "still judged by the engine" in failing.error.message


def test_leftovers_of_a_page_never_reach_the_next(hostile):
    results, _, _ = hostile
    assert results["f_leftovers"][0].status == "passed", results["f_leftovers"][0].error
    after = results["g_after_leftovers"][0]
    assert after.status == "passed", (after.error, after.stdout)


def processes_with(marker: str) -> list[int]:
    """The live processes (zombies aside) whose command line holds the marker."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if marker in (entry / "cmdline").read_bytes().decode("utf-8", "replace") and \
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                found.append(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


def test_processes_a_page_started_are_gone_when_the_run_ends(hostile):
    _, _, marker = hostile
    assert processes_with(marker) == []


def test_pages_see_a_scrubbed_environment_and_the_report_says_so(hostile):
    results, engine, _ = hostile
    assert results["h_secret"][0].status == "passed", results["h_secret"][0].stdout
    protections = engine.info["protections"]
    assert set(protections) == {"box", "files", "compilation_cache", "network", "capabilities", "environment",
                                "memory_limit", "process_limit", "time_limits"}


def test_pages_have_no_network(tmp_path):
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    try:
        path = page(tmp_path, "net", (f"""
            import socket
            try:
                socket.create_connection(("127.0.0.1", {port}), timeout=2).close()
                print("connected")
            except OSError:
                print("no network")
            """, "no network"))
        results, engine = run([path], jobs=1)
    finally:
        server.close()
    if engine.info["protections"]["network"].startswith("off"):
        pytest.skip(engine.info["protections"]["network"])
    assert results["net"][0].status == "passed", results["net"][0].stdout


def test_memory_over_the_limit_fails_the_block_at_its_line(tmp_path):
    path = page(tmp_path, "memory", "x = 1", "import numpy as np\nbig = np.ones((2 << 30) // 8)")
    results, engine = run([path], jobs=1, memory_limit=1 << 30)
    small, big = results["memory"]
    assert small.status == "passed"
    assert big.status == "failed", big.error
    if "(cgroup)" in engine.info["protections"]["memory_limit"]:  # the kernel stops the page: told at its block
        assert big.error.type == "MemoryLimitExceeded" and big.error.line == big.block.line
        assert "more than its memory limit of 1 GiB" in big.error.message
    else:  # RLIMIT_DATA: the allocation itself fails
        assert big.error.type.endswith("MemoryError") and "1 GiB of memory" in big.error.message
        assert big.error.line == 9


def test_output_written_to_fd_1_counts_against_the_limit(tmp_path):
    path = page(tmp_path, "flood", "import os\nos.write(1, b'x' * 30_000)\nos.write(2, b'y' * 30_000)\nimport time\ntime.sleep(30)")
    results, _ = run([path], jobs=1, output_limit=50_000)
    flood = results["flood"][0]
    assert flood.status == "failed" and flood.error.type == "OutputLimitExceeded"
    assert "fds 1 and 2" in flood.error.message and flood.error.line == 3


def test_blocks_compile_without_the_engines_future_flags(tmp_path):
    path = page(tmp_path, "future", ("""
        from dataclasses import dataclass, fields
        from datetime import time
        @dataclass
        class Slot:
            start: time
        print(fields(Slot)[0].type is time)
        """, "True"))
    results, _ = run([path], jobs=1)
    assert results["future"][0].status == "passed", results["future"][0].error


def test_every_syntax_error_is_reported_and_the_rest_is_skipped(tmp_path):
    path = page(tmp_path, "syntax", "print('runs')", "raise ValueError('at run time')", "def broken(:\n    pass",
                "print('never')", "x = (1,\ny = 2")
    results, _ = run([path], jobs=1)
    statuses = [(r.status, r.error and r.error.type) for r in results["syntax"]]
    assert statuses == [("passed", None), ("failed", "ValueError"), ("failed", "SyntaxError"),
                        ("skipped", None), ("failed", "SyntaxError")]
    assert results["syntax"][3].reason.startswith("skipped: an earlier block failed")
    assert results["syntax"][2].error.line == 12  # the line of `def broken(:`


def test_several_cpu_devices_from_the_first_block(tmp_path):
    path = page(tmp_path, "devices", ("""
        import jax
        jax.config.update("jax_num_cpu_devices", 4)
        print(len(jax.devices()))
        """, "4"))
    other = page(tmp_path, "one_device", ("import jax\nprint(len(jax.devices()))", "1"))
    results, _ = run([path, other], jobs=1)
    assert results["devices"][0].status == "passed" and results["one_device"][0].status == "passed"


def test_temporary_folders_are_removed(tmp_path, monkeypatch):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    path = page(tmp_path, "tmpfiles", "import tempfile\nopen(tempfile.mkstemp()[1], 'w').write('left behind')")
    results, _ = run([path], jobs=1)
    assert results["tmpfiles"][0].status == "passed"
    assert list(scratch.iterdir()) == []


def test_ctrl_c_writes_the_finished_pages_and_exits_130(tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    # Two blocks: the heavier page starts first (pages run longest first), then the hang.
    page(tmp_path, "a_quick", "x = 1", ("print('done')", "done"))
    page(tmp_path, "b_hang", "import time\ntime.sleep(60)")
    report = tmp_path / "report.json"
    proc = subprocess.Popen([sys.executable, "-m", "scripts.snippets", str(tmp_path), "-j", "1", "--json", str(report)],
                            cwd=ROOT, env=dict(os.environ, TMPDIR=str(scratch)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in proc.stdout:
        if "a_quick.md: 2 passed" in line:
            break
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "interrupted: stopped after 1 pages" in stderr
    blocks = json.loads(report.read_text())["blocks"]
    assert [(Path(b["file"]).name, b["status"]) for b in blocks] == [("a_quick.md", "passed")] * 2
    assert list(scratch.iterdir()) == []


def test_a_page_that_closes_its_output_does_not_spin_the_engine(tmp_path, monkeypatch):
    # A pipe at its end is always readable: watched on, the engine's loop would turn thousands of
    # times while the page sleeps; reading it once and letting it go, a handful.
    from jax_kb.snippets.sandbox import pool

    turns = []
    select = pool.selectors.DefaultSelector.select
    monkeypatch.setattr(pool.selectors.DefaultSelector, "select",
                        lambda self, timeout=None: turns.append(timeout) or select(self, timeout))
    path = page(tmp_path, "closes", "import os, time\nos.close(1)\nos.close(2)\ntime.sleep(1)")
    results, _ = run([path], jobs=1)
    assert results["closes"][0].status == "passed", results["closes"][0].error
    assert len(turns) < 50, f"{len(turns)} turns of the engine's loop"


def test_the_zygote_tells_of_a_page_exit_without_waiting_for_its_next_poll(tmp_path):
    # With its poll set to an hour, the exit message can only come from the SIGCHLD wake-up.
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    from jax_kb.snippets.sandbox.box import BoxSpec
    from jax_kb.snippets.sandbox.pool import PACKAGE_PARENT, _job_file

    spec = BoxSpec(tmp_size=1 << 20).to_json()
    env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONPATH=str(PACKAGE_PARENT),
               SNIPPETS_CONTROL_FD=str(theirs.fileno()), SNIPPETS_PROBE_BOX=json.dumps(spec))
    zygote = subprocess.Popen([sys.executable, "-c", "import jax_kb.snippets.sandbox.zygote as z\n"
                               "z.ORPHAN_SCAN_S = 3600\nz.main()"], cwd=tmp_path, env=env,
                              pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL)
    theirs.close()
    try:
        ours.settimeout(120)
        assert json.loads(ours.recv(1 << 16))["ready"]
        facts_r, facts_w = os.pipe()
        output_r, output_w = os.pipe()
        job = _job_file([])
        request = {"job": "1", "boxed": True, "box": spec, "output_limit": 1000, "probe": True}
        socket.send_fds(ours, [json.dumps(request).encode()], [job, facts_w, output_w])
        for fd in (job, facts_w, output_w):
            os.close(fd)
        ours.settimeout(60)
        messages = [json.loads(ours.recv(1 << 16)) for _ in range(2)]
        assert messages[0]["started"] == "1" and messages[1]["exited"] == "1" and messages[1]["code"] == 0
        assert b'"event": "device"' in os.read(facts_r, 1 << 16)
    finally:
        ours.close()
        zygote.wait(timeout=60)
