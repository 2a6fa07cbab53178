"""python -m scripts.lint [PATH ...]: exit 0 when clean, 1 for problems, 2 when a page cannot be read."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from jax_kb.markdown import InputError, load_site_config
from jax_kb.lint import lint_files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.lint",
                                     description="Lint the Markdown pages: HTML and URLs off the allowlist, markup "
                                                 "in front matter, images without alt text, unknown fence "
                                                 "languages and options.")
    parser.add_argument("paths", nargs="*", type=Path, help="Markdown files or folders (default: docs/)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        config = load_site_config()
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    paths = args.paths or [config.docs_dir]
    for path in paths:
        if not path.exists():
            print(f"error: {path}: no such file or folder", file=sys.stderr)
            return 2
    problems, unreadable = lint_files(paths, config)
    for problem in sorted([*unreadable, *problems], key=lambda p: (p.path, p.line or 0)):
        print(f"error: {problem}", file=sys.stderr)
    print(f"lint: {len(problems)} problems, {len(unreadable)} unreadable pages" if problems or unreadable
          else "lint: no problems")
    return 2 if unreadable else 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
