"""snippets [PATH ...] [--json FILE] [--device cpu|gpu] [--update-outputs] [-j N]
         [--shard I/N [--shard-durations REPORT]] [--reuse REPORT]
snippets merge A.json B.json ... --json OUT

(`python -m scripts.snippets` in this repository.) Exit 0: every block passed; 1: a block failed;
2: input the engine cannot use; 5: no Python block was found; 130: interrupted."""
from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

from jax_kb.atomic_write import write_atomic
from jax_kb.markdown import InputError
from jax_kb.snippets.run_options import DEFAULT_OUTPUT_LIMIT, RunOptions
from jax_kb.snippets.run_pages import run_pages
from jax_kb.snippets.runs import merge
from jax_kb.snippets.runs.identity import package_version
from jax_kb.snippets.runs.report import describe_failure, summary, totals_line, write_report
from jax_kb.snippets.runs.shards import parse_spec
from jax_kb.snippets.runs.update_outputs import update_outputs
from jax_kb.snippets.sandbox.pool import EngineError
from jax_kb.snippets.sandbox.protections import default_jobs, parse_size

NO_BLOCKS = 5  # as pytest exits when it collects nothing: a mistyped docs folder must not pass


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
    parser.add_argument("--output-limit", type=int, default=DEFAULT_OUTPUT_LIMIT,
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


def options_of(args: argparse.Namespace) -> RunOptions:
    return RunOptions(device=args.device, jobs=args.jobs, output_limit=args.output_limit,
                      memory_limit=args.memory_limit, check_outputs=not args.update_outputs, shard=args.shard,
                      shard_durations=Path(args.shard_durations) if args.shard_durations else None,
                      reuse=Path(args.reuse) if args.reuse else None, require_isolation=args.require_isolation)


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    prog = prog or Path(sys.argv[0]).name
    if argv[:1] == ["merge"]:
        return merge.main(argv[1:], prog=f"{prog} merge")
    args = parse_args(argv, prog)
    options = options_of(args)
    problems = options.problems()
    if args.json and Path(args.json).is_dir():
        problems.append(f"--json {args.json}: is a folder; name the report's file, such as {args.json}/cpu.json")
    if problems:
        for problem in problems:
            print(f"error: {problem}", file=sys.stderr)
        return 2
    try:
        run = run_pages(args.paths, options)
    except InputError as exc:  # mkdocs.yml or the project's settings
        print(f"error: {exc}", file=sys.stderr)
        return 2
    input_errors = run.input_errors
    for error in input_errors:
        print(f"error: {error}", file=sys.stderr)
    if run.refused:
        return 2
    for note in run.notes:
        print(note)
    interrupted = False
    try:
        for page in run:
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
        pages = len({r.page.path for r in run.results})
        where = f"; the report of the {pages} finished pages is in {args.json}" if args.json else ""
        print(f"interrupted: stopped after {pages} pages{where}", file=sys.stderr)
    report_started = time.perf_counter()
    if args.json:
        try:
            write_report(args.json, run.report())
        except InputError as exc:
            input_errors.append(exc)
            print(f"error: {exc}", file=sys.stderr)
    if args.timings:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        write_atomic(args.timings, json.dumps({
            **(run.engine.timings if run.engine else {}), "report_s": round(time.perf_counter() - report_started, 6),
            "engine_peak_rss": usage.ru_maxrss * 1024, "engine_cpu_s": round(usage.ru_utime + usage.ru_stime, 6),
        }, indent=1) + "\n")
    if interrupted:
        return 130
    if args.update_outputs:
        changed, unwritten = update_outputs(run.results)
        for path in changed:
            print(f"updated the outputs of {path}")
        for exc in unwritten:
            input_errors.append(exc)
            print(f"error: {exc}", file=sys.stderr)
    missing = [f"{name} ({value})" for name, value in run.info.get("protections", {}).items()
               if str(value).startswith("off")]
    if missing:
        print("note: this run's pages were not fully isolated from each other: " + "; ".join(missing), file=sys.stderr)
    totals = run.totals()
    reused = f", {len(run.selection.reused_results) + len(run.selection.copied)} from {args.reuse}" if args.reuse else ""
    print(f"{totals_line(totals)} ({totals['executed']} blocks executed here{reused})"
          + (f"; {len(input_errors)} input errors" if input_errors else ""))
    if input_errors:
        return 2
    if not run.blocks_found:
        where = ", ".join(args.paths) or str(run.site.docs_dir)
        print(f"no Python block found in {where}: nothing was checked (is the path right?)", file=sys.stderr)
        return NO_BLOCKS
    return 1 if totals["failed"] else 0


def run_cli(prog: str | None = None) -> int:
    """The console script: main() with Ctrl-C outside the run told in a sentence (exit 130)."""
    try:
        return main(prog=prog)
    except KeyboardInterrupt:  # before or after the run; during it, main() writes the partial report
        print("interrupted", file=sys.stderr)
        return 130
