"""The site's build time: one language against all of them.

python -m scripts.bench_site [--runs N] [--locale en]

Each build is a fresh `mkdocs build --strict` process into a temporary folder, as `make site`
runs it; the one-language build is mkdocs-static-i18n's build_only_locale, set through
KB_BUILD_ONLY_LOCALE (mkdocs.yml). Prints the best of N runs of each, as the process's wall
time, the time mkdocs reports (without interpreter start-up) and the process's CPU time, and
their ratios. The goal: every language in at most GOAL times the time of one, judged on CPU
time, which other work on a shared machine does not inflate as it does wall time.
Highlighting is shared across languages (scripts/src/jax_kb/site/highlight_cache.py).
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

from jax_kb.markdown import load_site_config

GOAL = 3.0
BUILT_IN = re.compile(r"Documentation built in ([\d.]+) seconds")


def build_seconds(only_locale: str | None) -> tuple[float, float, float]:
    """(wall seconds of the process, seconds mkdocs reports, CPU seconds of the process) of one build."""
    config = load_site_config()
    env = {k: v for k, v in os.environ.items() if k != "KB_BUILD_ONLY_LOCALE"}
    env.update(NO_MKDOCS_2_WARNING="1", PYTHONDONTWRITEBYTECODE="1", **({"KB_BUILD_ONLY_LOCALE": only_locale}
                                                                         if only_locale else {}))
    with tempfile.TemporaryDirectory(prefix="kb-bench-site-") as target:
        start = time.perf_counter()
        with tempfile.TemporaryFile("w+") as log:
            proc = subprocess.Popen([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", target],
                                    cwd=config.root, env=env, stdout=subprocess.DEVNULL, stderr=log, text=True)
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - start
            log.seek(0)
            stderr = log.read()
    if os.waitstatus_to_exitcode(status):
        sys.exit(f"mkdocs build failed:\n{stderr[-4000:]}")
    reported = BUILT_IN.search(stderr)
    return wall, float(reported[1]) if reported else wall, usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    config = load_site_config()
    parser = argparse.ArgumentParser(prog="python -m scripts.bench_site", description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="builds of each kind; the best one counts")
    parser.add_argument("--locale", default=config.default_language, help="the language of the one-language build")
    args = parser.parse_args(argv)
    one = [build_seconds(args.locale) for _ in range(args.runs)]
    every = [build_seconds(None) for _ in range(args.runs)]
    best_one, best_every = [min(run[k] for run in one) for k in range(3)], [min(run[k] for run in every) for k in range(3)]
    count = len(config.languages)
    for name, best in ((f"one language ({args.locale}):", best_one), (f"all {count} languages:", best_every)):
        print(f"{name:<22}{best[0]:.2f} s wall, {best[1]:.2f} s mkdocs, {best[2]:.2f} s CPU")
    ratios = [e / o for e, o in zip(best_every, best_one)]
    verdict = "met" if ratios[2] <= GOAL else "missed"
    print(f"site build ratio, {count} languages vs 1: {ratios[2]:.2f} CPU (goal: at most {GOAL:g}, {verdict}); "
          f"{ratios[0]:.2f} wall, {ratios[1]:.2f} mkdocs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
