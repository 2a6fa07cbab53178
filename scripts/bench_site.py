"""The site's build time: one language against all of them.

python -m scripts.bench_site [--runs N] [--locale en]

Each build is a fresh `mkdocs build --strict` process into a temporary folder, as `make site`
runs it; the one-language build is mkdocs-static-i18n's build_only_locale, set through
KB_BUILD_ONLY_LOCALE (mkdocs.yml). Prints the best of N runs of each, as the process's wall
time and as the time mkdocs reports (without interpreter start-up), and their ratio.
The goal: every language in at most GOAL times the time of one.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

from .markdown import load_site_config

GOAL = 3.0
BUILT_IN = re.compile(r"Documentation built in ([\d.]+) seconds")


def build_seconds(only_locale: str | None) -> tuple[float, float]:
    """(wall seconds of the process, seconds mkdocs reports) of one build."""
    config = load_site_config()
    env = {k: v for k, v in os.environ.items() if k != "KB_BUILD_ONLY_LOCALE"}
    env.update(NO_MKDOCS_2_WARNING="1", PYTHONDONTWRITEBYTECODE="1", **({"KB_BUILD_ONLY_LOCALE": only_locale}
                                                                         if only_locale else {}))
    with tempfile.TemporaryDirectory(prefix="kb-bench-site-") as target:
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", target],
                              cwd=config.root, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - start
    if done.returncode:
        sys.exit(f"mkdocs build failed:\n{done.stderr[-4000:]}")
    reported = BUILT_IN.search(done.stderr)
    return wall, float(reported[1]) if reported else wall


def main(argv: list[str] | None = None) -> int:
    config = load_site_config()
    parser = argparse.ArgumentParser(prog="python -m scripts.bench_site", description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="builds of each kind; the best one counts")
    parser.add_argument("--locale", default=config.default_language, help="the language of the one-language build")
    args = parser.parse_args(argv)
    one = min(build_seconds(args.locale) for _ in range(args.runs))
    every = min(build_seconds(None) for _ in range(args.runs))
    count = len(config.languages)
    print(f"one language ({args.locale}):  {one[0]:.2f} s wall, {one[1]:.2f} s mkdocs")
    print(f"all {count} languages:     {every[0]:.2f} s wall, {every[1]:.2f} s mkdocs")
    ratio_wall, ratio_mkdocs = every[0] / one[0], every[1] / one[1]
    verdict = "met" if ratio_wall <= GOAL else "missed"
    print(f"ratio: {ratio_wall:.2f} wall, {ratio_mkdocs:.2f} mkdocs (goal: at most {GOAL:g}, {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
