"""python -m scripts.i18n status [DIR] [--json] | mark FILE... | check [DIR] [--terminology DIR]"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from jax_kb.markdown import InputError, load_site_config
from jax_kb.i18n.check import check_problems
from jax_kb.i18n.mark import mark
from jax_kb.i18n.scope import load_scope
from jax_kb.i18n.status import translation_status
from jax_kb.i18n.table import status_table


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m scripts.i18n", description="Translation tools.")
    commands = parser.add_subparsers(dest="command", required=True)
    status = commands.add_parser("status", help="every page by language: up to date, stale or missing")
    status.add_argument("dir", nargs="?", type=Path, help="folder or page (default: docs/)")
    status.add_argument("--json", action="store_true", help="the records as JSON on standard output")
    marking = commands.add_parser("mark", help="record in each translation the English page it now follows")
    marking.add_argument("files", nargs="+", type=Path, metavar="FILE", help="translations, such as vmap.es.md")
    check = commands.add_parser("check", help="exit 1 unless every translation is in parity with English")
    check.add_argument("dir", nargs="?", type=Path, help="folder or page (default: docs/)")
    check.add_argument("--terminology", type=Path, metavar="DIR",
                       help="folder of the term lists <lang>.yml (default: terminology/)")
    return parser.parse_args(argv)


def _missing(target: Path | None) -> bool:
    if target is not None and not target.exists():
        print(f"error: {target}: no such file or folder", file=sys.stderr)
        return True
    return False


def run_status(target: Path | None, as_json: bool) -> int:
    if _missing(target):
        return 2
    catalog, in_scope = load_scope(target, load_site_config())
    readable = {page.path for page in catalog.all_pages()}
    for error in catalog.errors:
        if in_scope(error.path) and error.path not in readable:  # the others are link problems
            print(f"warning: {error} (left out of the status)", file=sys.stderr)
    records = [r for r in translation_status(catalog) if in_scope(r.english_path) or in_scope(r.path)]
    print(json.dumps([r.as_dict() for r in records], ensure_ascii=False, indent=1) if as_json
          else status_table(records))
    return 0


def run_mark(files: list[Path]) -> int:
    config = load_site_config()
    failed = False
    for path in files:
        if not path.is_file():
            print(f"error: {path}: no such file", file=sys.stderr)
            failed = True
            continue
        try:
            print(f"{path}: {'marked' if mark(path, config) else 'already marked'}")
        except InputError as exc:
            print(f"error: {exc}", file=sys.stderr)
            failed = True
    return 1 if failed else 0


def run_check(target: Path | None, terminology: Path | None) -> int:
    if _missing(target) or _missing(terminology):
        return 2
    catalog, in_scope = load_scope(target, load_site_config())
    problems = check_problems(catalog, in_scope, terminology)
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    files = len({p.path for p in problems})
    print(f"translations: {len(problems)} problems in {files} files" if problems
          else "translations: every translation is in parity with its English page and keeps to its term list")
    readable = {page.path for page in catalog.all_pages()}
    if any(p.path not in readable for p in problems):
        return 2  # a page that cannot be read at all, as for the other tools
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        load_site_config()
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.command == "status":
        return run_status(args.dir, args.json)
    if args.command == "mark":
        return run_mark(args.files)
    return run_check(args.dir, args.terminology)


if __name__ == "__main__":
    sys.exit(main())
