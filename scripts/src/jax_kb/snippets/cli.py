"""python -m scripts.snippets [PATH ...] [--json FILE] [--device cpu|gpu] [--update-outputs] [-j N]
                             [--shard I/N [--shard-durations REPORT]] [--reuse REPORT]
python -m scripts.snippets merge A.json B.json ... --json OUT"""
from __future__ import annotations

import argparse
import dataclasses
import json
import resource
import sys
import time
from pathlib import Path

from jax_kb.atomic_write import write_atomic
from jax_kb.markdown import InputError, SiteConfig, load_site_config, markdown_files
from jax_kb.snippets.runs import identity, merge
from jax_kb.snippets.runs.identity import package_version
from jax_kb.snippets.engine import Engine, load
from jax_kb.snippets.sandbox.pool import EngineError
from jax_kb.snippets.sandbox.protections import default_jobs, parse_size
from jax_kb.snippets.runs.report import build_report, describe_failure, entry_summary, summary, write_report
from jax_kb.snippets.runs.reuse import read_report, unchanged_files
from jax_kb.snippets.runs.selection import select
from jax_kb.snippets.runs.shards import parse_spec
from jax_kb.snippets.runs.update_outputs import update_outputs


def parse_args(argv: list[str], prog: str | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=prog, description="Run every Python block of the Markdown pages and check it.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version('jax-kb') or 'unknown'}")
    parser.add_argument("paths", nargs="*", help="Markdown files or folders (default: docs/)")
    parser.add_argument("--json", metavar="FILE", help="write the JSON report there")
    parser.add_argument("--device", choices=("cpu", "gpu"), default="cpu",
                        help="the device kind to run on; gpu never falls back to the CPU")
    parser.add_argument("--update-outputs", action="store_true",
                        help="rewrite the .output blocks from this run (outputs are then not compared), "
                             "changing nothing else in the files")
    parser.add_argument("-j", "--jobs", type=int, default=default_jobs(),
                        help="pages run at once (default and most: the CPU count)")
    parser.add_argument("--oversubscribe", action="store_true", help="allow -j above the CPU count")
    parser.add_argument("--output-limit", type=int, default=1_000_000,
                        help="characters a block may print before it fails")
    parser.add_argument("--shard", metavar="I/N", type=_shard_spec,
                        help="run only the I-th of N parts of the page groups (identical pages stay together)")
    parser.add_argument("--shard-durations", metavar="REPORT",
                        help="balance the shards by the durations in this earlier report (give every shard the same)")
    parser.add_argument("--reuse", metavar="REPORT",
                        help="reuse the passed results of the page groups unchanged since this earlier report")
    parser.add_argument("--timings", metavar="FILE",
                        help="write where the run's time and memory went (start-up, boxes, backend, compiling, "
                             "the compilation cache, each page's code, the report) as JSON; make bench prints it")
    parser.add_argument("--require-isolation", action="store_true",
                        help="refuse to run (exit 2) where a protection of the page boxes is missing "
                             "(the runs that write the site's reports use it)")
    parser.add_argument("--memory-limit", type=_size, metavar="SIZE",
                        help="memory each page may use, such as 4GiB (default: 80%% of the machine's memory "
                             "shared among the jobs); not applied on GPU runs")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("-j must be at least 1")
    if args.jobs > default_jobs() and not args.oversubscribe:
        print(f"note: -j {args.jobs} capped at the {default_jobs()} CPUs this process may use "
              "(--oversubscribe to allow more)", file=sys.stderr)
        args.jobs = default_jobs()
    return args


def _size(text: str) -> int:
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _shard_spec(text: str):
    try:
        return parse_spec(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _argument_errors(args: argparse.Namespace) -> list[str]:
    """What makes the command unusable before anything runs."""
    problems = []
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


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    prog = prog or Path(sys.argv[0]).name
    if argv[:1] == ["merge"]:
        return merge.main(argv[1:], prog=f"{prog} merge")
    args = parse_args(argv, prog)
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
    earlier = {}
    for name, path in (("durations", args.shard_durations), ("reuse", args.reuse)):
        try:
            if path:
                earlier[name] = read_report(path)
        except InputError as exc:
            input_errors.append(exc)
    files, unchanged = markdown_files(paths), None
    if "reuse" in earlier:
        unchanged = unchanged_files(files, earlier["reuse"], args.reuse, identity.current(args.device), config)
        files = unchanged.remaining
    loaded, unreadable = load(files, config) if files else ([], [])
    input_errors += unreadable
    for error in input_errors:
        print(f"error: {error}", file=sys.stderr)
    if args.shard_durations and "durations" not in earlier:
        return 2  # cut without the durations its sibling shards use, this shard would overlap them
    selection = select(loaded, config.default_language, args.device, args.shard, earlier.get("durations"),
                       earlier.get("reuse"), args.reuse or "", unchanged.entries if unchanged else None)
    for note in ([unchanged.note] if unchanged and unchanged.note else []) + selection.notes:
        print(note)
    engine = Engine(device=args.device, jobs=args.jobs, output_limit=args.output_limit,
                    cache_dir=config.jax_cache_dir, check_outputs=not args.update_outputs,
                    memory_limit=args.memory_limit, require_isolation=args.require_isolation)
    results = list(selection.reused_results)
    interrupted = False
    try:
        for page in engine.run(selection.to_run, config.default_language):
            results.extend(page)
            counts = summary(page)
            print(f"{page[0].page.path}: " + ", ".join(f"{n} {s}" for s, n in counts.items() if n and s != "executed"))
            for r in page:
                if r.status == "failed":
                    print(describe_failure(r) + "\n", file=sys.stderr)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        interrupted = True
        pages = len({r.page.path for r in results})
        where = f"; the report of the {pages} finished pages is in {args.json}" if args.json else ""
        print(f"interrupted: stopped after {pages} pages{where}", file=sys.stderr)
    report_started = time.perf_counter()
    if args.json:
        try:
            # A run that executed nothing (all reused, or an empty shard) learns its setup without JAX.
            info = engine.info or identity.current(args.device)
            write_report(args.json, build_report(results, args.device, info, selection.groups, selection.reused,
                                                 selection.report_fields, input_errors, selection.copied))
        except InputError as exc:
            input_errors.append(exc)
            print(f"error: {exc}", file=sys.stderr)
    if args.timings:
        write_atomic(args.timings, json.dumps({
            **engine.timings, "report_s": round(time.perf_counter() - report_started, 6),
            "engine_peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
            "engine_cpu_s": round(sum(resource.getrusage(resource.RUSAGE_SELF)[:2]), 6)}, indent=1) + "\n")
    if interrupted:
        return 130
    if args.update_outputs:
        changed, unwritten = update_outputs(results)
        for path in changed:
            print(f"updated the outputs of {path}")
        for exc in unwritten:
            input_errors.append(exc)
            print(f"error: {exc}", file=sys.stderr)
    missing = [f"{name} ({value})" for name, value in engine.info.get("protections", {}).items()
               if str(value).startswith("off")]
    if missing:
        print("note: this run's pages were not fully isolated from each other: " + "; ".join(missing), file=sys.stderr)
    totals = summary(results)
    for status, count in entry_summary(selection.copied).items():
        totals[status] = totals.get(status, 0) + count
    reused = f", {len(selection.reused_results) + len(selection.copied)} from {args.reuse}" if args.reuse else ""
    print(f"{totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped, "
          f"{totals['not_run']} not run ({totals['executed']} blocks executed here{reused})"
          + (f"; {len(input_errors)} input errors" if input_errors else ""))
    if input_errors:
        return 2
    return 1 if totals["failed"] else 0


def run_cli(prog: str | None = None) -> int:
    """The console script: main() with Ctrl-C outside the run told in a sentence (exit 130)."""
    try:
        return main(prog=prog)
    except KeyboardInterrupt:  # before or after the run; during it, main() writes the partial report
        print("interrupted", file=sys.stderr)
        return 130
