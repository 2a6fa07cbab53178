"""make bench: the snippet engine against a floor, on a corpus of real pages in five languages.

Figures, from one run, each in seconds and as a ratio to the floor:
- floor: one plain Python process running each distinct page once, no checks, no persistent cache;
- engine cold: python -m scripts.snippets with an empty compilation cache;
- engine warm: the same again, with the cache the cold run filled;
- pytest-markdown-docs on the same corpus.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jax_kb.markdown import load_site_config, read_page
from jax_kb.snippets.blocks import page_blocks

ROOT = Path(__file__).resolve().parents[1]

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


def timed(command: list[str], env: dict) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, done.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.bench")
    parser.add_argument("--pages", type=int, default=10, help="English pages in the corpus, each in every language")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="kb-bench-"))
    try:
        files = build_corpus(work / "corpus", args.pages)
        blocks = sum(len(page_blocks(read_page(f))) for f in files)
        pages = distinct_pages(files)
        print(f"corpus: {len(files)} pages ({args.pages} x {len(load_site_config().languages)} languages), "
              f"{blocks} blocks, {len(pages)} distinct pages")
        env = dict(os.environ, JAX_PLATFORMS="cpu")
        floor_script = work / "floor.py"
        floor_script.write_text(FLOOR.format(pages=pages))
        no_cache = dict(env, JAX_ENABLE_COMPILATION_CACHE="false")
        cache = dict(env, JAX_COMPILATION_CACHE_DIR=str(work / "jax-cache"))
        runs = [
            ("floor", [sys.executable, str(floor_script)], no_cache),
            ("engine cold", [sys.executable, "-m", "scripts.snippets", str(work / "corpus")], cache),
            ("engine warm", [sys.executable, "-m", "scripts.snippets", str(work / "corpus")], cache),
            ("pytest-markdown-docs", [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                      "-o", "addopts=", "--markdown-docs", "--rootdir", str(work), str(work / "corpus")],
             no_cache),
        ]
        floor = None
        print(f"{'run':<22}{'seconds':>9}{'x floor':>9}  exit")
        for name, command, run_env in runs:
            seconds, code = timed(command, run_env)
            floor = floor or seconds
            print(f"{name:<22}{seconds:>9.2f}{seconds / floor:>9.2f}  {code}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
