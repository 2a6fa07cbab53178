"""python -m scripts.snippets [PATH ...] [--json FILE] [--device cpu|gpu] [--update-outputs] [-j N]"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from pathlib import Path

from ..markdown import InputError, SiteConfig, load_site_config
from .engine import Engine, load
from .pool import EngineError
from .report import build_report, describe_failure, summary, write_report
from .update_outputs import update_outputs


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m scripts.snippets",
                                     description="Run every Python block of the Markdown pages and check it.")
    parser.add_argument("paths", nargs="*", help="Markdown files or folders (default: docs/)")
    parser.add_argument("--json", metavar="FILE", help="write the JSON report there")
    parser.add_argument("--device", choices=("cpu", "gpu"), default="cpu",
                        help="the device kind to run on; gpu never falls back to the CPU")
    parser.add_argument("--update-outputs", action="store_true",
                        help="rewrite the .output blocks from this run (outputs are then not compared), "
                             "changing nothing else in the files")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--output-limit", type=int, default=1_000_000,
                        help="characters a block may print before it fails")
    return parser.parse_args(argv)


def _argument_errors(args: argparse.Namespace) -> list[str]:
    """What makes the command unusable before anything runs."""
    problems = []
    if args.jobs < 1:
        problems.append(f"-j {args.jobs}: give at least one worker")
    if args.output_limit < 1:
        problems.append(f"--output-limit {args.output_limit}: give a positive number of characters")
    if args.json and Path(args.json).is_dir():
        problems.append(f"--json {args.json}: is a folder; name the report's file, such as {args.json}/cpu.json")
    return problems


def _paths(args: argparse.Namespace, config: SiteConfig) -> tuple[list[Path], list[InputError], SiteConfig]:
    """The paths that exist, an error for each that does not, and the configuration to read them with:
    without mkdocs.yml, a folder given is the docs folder."""
    named = [Path(p) for p in args.paths] or [config.docs_dir]
    missing = [InputError(p, None, "no such file or folder") for p in named if not p.exists()]
    present = [p for p in named if p.exists()]
    if config.config_file is None and len(present) == 1 and present[0].is_dir():
        config = dataclasses.replace(config, docs_dir=present[0].resolve())
    return present, missing, config


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if problems := _argument_errors(args):
        for problem in problems:
            print(f"error: {problem}", file=sys.stderr)
        return 2
    try:
        config = load_site_config()
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    paths, input_errors, config = _paths(args, config)
    loaded, unreadable = load(paths, config) if paths else ([], [])
    input_errors += unreadable
    for error in input_errors:
        print(f"error: {error}", file=sys.stderr)
    engine = Engine(device=args.device, jobs=args.jobs, output_limit=args.output_limit,
                    check_outputs=not args.update_outputs)
    results = []
    try:
        for page in engine.run(loaded, config.default_language):
            results.extend(page)
            counts = summary(page)
            print(f"{page[0].page.path}: " + ", ".join(f"{n} {s}" for s, n in counts.items() if n and s != "executed"))
            for r in page:
                if r.status == "failed":
                    print(describe_failure(r) + "\n", file=sys.stderr)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        try:
            write_report(args.json, build_report(results, args.device, engine.info, input_errors))
        except InputError as exc:
            input_errors.append(exc)
            print(f"error: {exc}", file=sys.stderr)
    if args.update_outputs:
        changed, unwritten = update_outputs(results)
        for path in changed:
            print(f"updated the outputs of {path}")
        for exc in unwritten:
            input_errors.append(exc)
            print(f"error: {exc}", file=sys.stderr)
    totals = summary(results)
    print(f"{totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped, "
          f"{totals['not_run']} not run ({totals['executed']} blocks executed here)"
          + (f"; {len(input_errors)} input errors" if input_errors else ""))
    if input_errors:
        return 2
    return 1 if totals["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
