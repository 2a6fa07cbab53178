"""make bench: the snippet engine against a floor and its peers, on a corpus of real pages in five languages.

Figures, from one run, each in seconds (wall and CPU, the latter of the whole process tree) and
as a ratio to the floor:
- floor: one plain Python process running each distinct page once, no checks, no persistent cache;
- engine cold: python -m scripts.snippets with an empty compilation cache, every protection on;
- engine warm: the same again, with the cache the cold run filled;
- one page changed: the warm run's report reused (--reuse), the changed page run again;
- the peers a user would pick instead, on the same corpus: pytest-markdown-docs and Sybil;
- where the engine's time went, cold and warm (snippets --timings), and its memory.
The goals (GOALS) are judged on wall time, as a contributor waits for it; both are printed.
The floor and the engine's runs are each the best of --repeat tries (a cold try starts from an
empty cache every time), so that a moment of other work on the machine does not decide a ratio;
the peers run once. A timing is never a test: run this on an idle machine.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from jax_kb.markdown import load_site_config, read_page
from jax_kb.snippets.blocks import page_blocks

ROOT = Path(__file__).resolve().parents[1]
GOALS = {"engine cold": 0.5, "engine warm": 0.2, "one page changed": 0.1}

FLOOR = """
import sys, contextlib, io
pages = {pages!r}
for blocks in pages:
    namespace = {{"__name__": "__main__"}}
    for code in blocks:
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                exec(compile(code, "<block>", "exec"), namespace)
            except Exception:
                pass
"""

SYBIL_CONFTEST = """
from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser

pytest_collect_file = Sybil(parsers=[PythonCodeBlockParser()], patterns=["*.md"]).pytest()
"""

# Where a run's time went: (label, the phases of snippets --timings it sums over the pages).
PHASES = [
    ("a page's box and process", ("box",)),
    ("starting JAX's backend", ("backend",)),
    ("tracing", ("trace",)),
    ("lowering to StableHLO", ("lower",)),
    ("compiling (XLA), and the cache's keys", ("compile",)),
    ("reading the compilation cache", ("cache_read",)),
    ("writing the compilation cache", ("cache_write",)),
    ("the page's process ending", ("exit",)),
]


@dataclass
class Timed:
    seconds: float
    cpu: float
    code: int
    peak_rss_mib: float  # of the largest process of the run's tree

    def __str__(self) -> str:
        return f"{self.seconds:8.2f} s wall {self.cpu:8.2f} s CPU"


def timed(command: list[str], env: dict) -> Timed:
    start = time.perf_counter()
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # wait4 reports the CPU time of the process and the descendants it waited for, and the
    # largest peak RSS among them.
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        print(f"  {' '.join(command[2:5])}... exited {proc.returncode}: {proc.stderr.read()[-2000:]}")
    proc.stderr.close()
    return Timed(seconds, usage.ru_utime + usage.ru_stime, proc.returncode, usage.ru_maxrss / 1024)


def build_corpus(target: Path, pages: int) -> list[Path]:
    """Copies the `pages` English pages with the most blocks, with all their translations."""
    config = load_site_config()
    english = [p for p in sorted(config.docs_dir.rglob("*.md"))
               if read_page(p, config).lang == config.default_language]
    ranked = sorted(english, key=lambda p: -len(page_blocks(read_page(p, config))))[:pages]
    copied = []
    for source in ranked:
        for version in sorted(source.parent.glob(source.stem + "*.md")):
            if version.stem == source.stem or version.stem.split(".")[-1] in config.languages:
                dest = target / version.relative_to(config.docs_dir)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(version, dest)
                copied.append(dest)
    return copied


def distinct_pages(files: list[Path]) -> list[list[str]]:
    seen, out = set(), []
    for path in files:
        blocks = [b for b in page_blocks(read_page(path)) if b.run and b.device in (None, "cpu")]
        key = tuple(b.signature() for b in blocks)
        if blocks and key not in seen:
            seen.add(key)
            out.append([b.code for b in blocks])
    return out


def change_one_page(files: list[Path]) -> Path:
    """A new block at the end of the first English page: the change a contributor makes."""
    page = next(f for f in files if f.name.count(".") == 1)
    page.write_text(page.read_text(encoding="utf-8") + "\n```python\nprint('changed')\n```\n", encoding="utf-8")
    return page


def breakdown(timings: dict) -> list[tuple[str, float]]:
    """Seconds of each phase, summed over the run's pages; what is left of their time is the pages' code."""
    pages = timings.get("pages", {}).values()
    rows = [("starting Python and JAX (the zygote)", timings.get("zygote_start_s", 0.0))]
    accounted = 0.0
    for label, keys in PHASES:
        seconds = sum(page.get(key, 0.0) for page in pages for key in keys)
        if keys == ("compile",):  # JAX's compile event spans reading and writing the cache too
            seconds -= sum(page.get("cache_read", 0.0) + page.get("cache_write", 0.0) for page in pages)
        accounted += seconds
        rows.append((label, seconds))
    rows.append(("the pages' own code (the rest of their time)", sum(p.get("wall", 0.0) for p in pages) - accounted))
    rows.append(("the engine's own work (reading, judging, the report)", timings.get("engine_cpu_s", 0.0)))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.bench")
    parser.add_argument("--pages", type=int, default=10, help="English pages in the corpus, each in every language")
    parser.add_argument("--repeat", type=int, default=3, help="tries of the floor and of each engine run; the best counts")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="kb-bench-"))
    try:
        corpus = work / "corpus"
        files = build_corpus(corpus, args.pages)
        blocks = sum(len(page_blocks(read_page(f))) for f in files)
        pages = distinct_pages(files)
        print(f"corpus: {len(files)} pages ({args.pages} x {len(load_site_config().languages)} languages), "
              f"{blocks} blocks, {len(pages)} distinct pages")
        env = dict(os.environ, JAX_PLATFORMS="cpu")
        (work / "floor.py").write_text(FLOOR.format(pages=pages))
        no_cache = dict(env, JAX_ENABLE_COMPILATION_CACHE="false")
        cache = dict(env, JAX_COMPILATION_CACHE_DIR=str(work / "jax-cache"))
        engine = [sys.executable, "-m", "scripts.snippets", str(corpus)]
        pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "--rootdir",
                  str(corpus)]
        def empty_cache():
            shutil.rmtree(work / "jax-cache", ignore_errors=True)

        runs = [  # (name, command, environment, before its first try, before each try)
            ("floor", [sys.executable, str(work / "floor.py")], no_cache, None),
            ("engine cold", [*engine, "--timings", str(work / "cold.json"), "--json", str(work / "cold-report.json")],
             cache, None, empty_cache),
            ("engine warm", [*engine, "--timings", str(work / "warm.json"), "--json", str(work / "warm-report.json")],
             cache, None),
            ("one page changed", [*engine, "--reuse", str(work / "warm-report.json"), "--json",
                                  str(work / "changed.json")], cache, lambda: change_one_page(files)),
            ("pytest-markdown-docs", [*pytest, "--markdown-docs", str(corpus)], no_cache, None),
            # Sybil is set up by a conftest.py, as its users do; written only now, so no other run sees it.
            ("sybil", [*pytest, "-p", "no:pytest_markdown_docs", str(corpus)], no_cache,
             lambda: (corpus / "conftest.py").write_text(SYBIL_CONFTEST)),
        ]
        floor: Timed | None = None
        results: dict[str, Timed] = {}
        print(f"{'run':<22}{'wall s':>9}{'x floor':>9}{'CPU s':>9}{'x floor':>9}  exit  goal   "
              f"(floor and engine: best of {args.repeat})")
        for name, command, run_env, before, *each in runs:
            if before:
                before()
            tries = []
            for _ in range(args.repeat if name == "floor" or name in GOALS else 1):
                for step in each:
                    step()
                tries.append(timed(command, run_env))
            result = min(tries, key=lambda t: t.seconds)
            results[name] = result
            floor = floor or result
            ratio = result.seconds / floor.seconds
            goal = GOALS.get(name)
            verdict = f"<= {goal:g} {'met' if ratio <= goal else 'MISSED'}" if goal else ""
            print(f"{name:<22}{result.seconds:>9.2f}{ratio:>9.3f}{result.cpu:>9.2f}{result.cpu / floor.cpu:>9.3f}"
                  f"  {result.code:>4}  {verdict}")
        for name in ("cold", "warm"):
            timings = json.loads((work / f"{name}.json").read_text())
            print(f"\nwhere the engine's {name} run went (its last try; seconds summed over its pages, which run "
                  "in parallel):")
            for label, seconds in breakdown(timings):
                print(f"  {label:<56}{seconds:>8.2f}")
            largest = max(timings["pages"].values(), key=lambda p: p.get("peak_memory", p.get("peak_rss", 0)))
            print(f"  memory: the engine {timings['engine_peak_rss'] / 2**20:.0f} MiB peak; the largest page "
                  f"{largest.get('peak_memory', largest.get('peak_rss', 0)) / 2**20:.0f} MiB peak")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
