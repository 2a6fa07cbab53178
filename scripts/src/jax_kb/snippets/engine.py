"""From pages to results: read, group identical pages, run each group once, report every page."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from jax_kb.markdown import InputError, SiteConfig, load_site_config, markdown_files, read_page
from jax_kb.snippets.blocks import DEFAULT_RTOL, Block
from jax_kb.snippets.grouping import group_pages
from jax_kb.snippets.output_check import ELLIPSIS, first_difference, outputs_match
from jax_kb.snippets.project_config import ProjectConfig, load_project_config
from jax_kb.snippets.reading import read_blocks
from jax_kb.snippets.results import BlockError, BlockResult, Group, LoadedPage, Skip, Status
from jax_kb.snippets.run_options import RunOptions
from jax_kb.snippets.sandbox.page_process import BLOCK_FILE
from jax_kb.snippets.sandbox.pool import EarlyZygote, Job, Pool
from jax_kb.snippets.sandbox.protections import default_memory_limit, format_size
from jax_kb.snippets.tracebacks import error_line, render
from jax_kb.snippets.units import JobPlan, Unit, job_plans
from jax_kb.snippets.verdict import decide, shown_output

NO_RUN = ".no-run: shown, not executed; it compiles"


def load_page(path: str | Path, site: SiteConfig | None = None, project: ProjectConfig | None = None) -> LoadedPage:
    site = site or load_site_config()
    project = project or load_project_config(site)
    page = read_page(path, site)
    settings = project.for_page(Path(path))
    return LoadedPage(page, read_blocks(page, site, settings), settings)


def load(paths: list[str | Path], site: SiteConfig | None = None,
         project: ProjectConfig | None = None) -> tuple[list[LoadedPage], list[InputError]]:
    """Every readable page of the paths; each unreadable one becomes an error and the rest go on."""
    site = site or load_site_config()
    project = project or load_project_config(site)
    loaded, errors = [], []
    for path in markdown_files(paths):
        try:
            loaded.append(load_page(path, site, project))
        except InputError as exc:
            errors.append(exc)
    return loaded, errors


@dataclass(frozen=True)
class Outcome:
    """A block's result before it is told in one page's lines (identical pages share it)."""

    status: Status
    skip: Skip | None = None
    reason: str = ""
    error: dict | None = None  # {"type", "message", "frames"[, "at_output"]}; frames name blocks
    statement: int | None = None  # the session statement (its 0-based line) a mismatch is told at
    stdout: str = ""
    duration_s: float = 0.0
    output: str | None = None  # what the block shows (verdict.shown_output), for --update-outputs


@dataclass
class Plan:
    """What the engine does with each block of a page before any of it runs."""

    decided: dict[int, Outcome] = field(default_factory=dict)
    jobs: list[JobPlan] = field(default_factory=list)


def _syntax_error(block: Block) -> dict | None:
    try:  # no future flags of ours: a block compiles as it would on its own
        compile(block.code, BLOCK_FILE.format(block.index), "exec", flags=0, dont_inherit=True)
    except SyntaxError as exc:
        return {"type": "SyntaxError", "message": exc.msg, "frames": [
            {"block": block.index, "line": exc.lineno or 1, "name": "<module>"}]}
    except ValueError as exc:  # null bytes in the source
        return {"type": "SyntaxError", "message": str(exc), "frames": []}
    except (RecursionError, MemoryError) as exc:
        return {"type": type(exc).__name__, "frames": [{"block": block.index, "line": 1, "name": "<module>"}],
                "message": "Python cannot compile this block: it is nested too deeply or too large"}
    return None


def plan_page(item: LoadedPage, device: str) -> Plan:
    plan = Plan()
    runnable: list[Block] = []
    broken: set[str] = set()  # namespaces stopped by a syntax error, when the page stops at failures
    stop = item.settings.after_failure == "stop"
    for block in item.blocks:
        if block.shown_only:
            plan.decided[block.index] = Outcome(Status.NOT_RUN, reason=block.shown_only)
        elif block.skip is not None:
            plan.decided[block.index] = Outcome(Status.SKIPPED, block.skip, block.skip_reason)
        elif block.device is not None and block.device != device:
            plan.decided[block.index] = Outcome(Status.SKIPPED, Skip.DEVICE,
                                                f"runs on {block.device} only; this run is on {device}")
        elif (error := _syntax_error(block)) is not None:
            plan.decided[block.index] = Outcome(Status.FAILED, error=error)
            if stop:
                broken.add(block.namespace)
        elif not block.run:
            plan.decided[block.index] = Outcome(Status.NOT_RUN, reason=NO_RUN)
        elif block.namespace in broken:
            plan.decided[block.index] = Outcome(Status.SKIPPED, Skip.AFTER_FAILURE)
        else:
            runnable.append(block)
    plan.jobs = [job for job in job_plans(runnable, item.settings) if job.units]
    covered = {u.block.index for job in plan.jobs for u in job.units if u.block is not None}
    for block in runnable:
        if block.index not in covered:  # a session whose every statement is marked +SKIP
            plan.decided[block.index] = Outcome(Status.PASSED)
    return plan


def _mismatch(message: str) -> dict:
    return {"type": "OutputMismatch", "message": message, "frames": []}


def _session_match(expected: str, actual: str, flags: frozenset[str] | set[str]) -> bool:
    """doctest's comparison: `...` stands for any text only under ELLIPSIS; numbers within the default tolerance."""
    if "ELLIPSIS" not in flags and ELLIPSIS in expected:
        return " ".join(expected.split()) == " ".join(actual.split())
    return outputs_match(expected, actual, DEFAULT_RTOL)


def _statement_error(unit: Unit, fact: dict, check_outputs: bool, memory_note: str) -> dict | None:
    """A session statement judged as doctest would: its exception, then its output under its flags."""
    statement = unit.statement
    error = decide({"raises": statement.raises, "rtol": DEFAULT_RTOL, "expected": None}, fact, memory_note)["error"]
    if error is not None or not check_outputs:
        return error
    flags = statement.flags
    if statement.exception is not None:
        shown = statement.exception.split(":", 1)[1].strip() if ":" in statement.exception else ""
        actual = fact["exception"]["message"]
        if "IGNORE_EXCEPTION_DETAIL" in flags or not shown:
            return None
        if not _session_match(shown, actual, flags):
            return _mismatch(f"the exception's message differs: expected {shown!r}, got {actual!r}")
        return None
    printed = fact["stdout"]
    if _session_match(statement.expected, printed, flags):
        return None
    if not statement.expected.strip():
        return _mismatch(f"the session shows no output here, but it printed {printed.strip()[:200]!r}")
    return _mismatch(first_difference(statement.expected, printed, DEFAULT_RTOL))


def _unit_error(unit: Unit, fact: dict, check_outputs: bool, memory_note: str) -> dict | None:
    if unit.statement is not None:
        return _statement_error(unit, fact, check_outputs, memory_note)
    block = unit.block
    if block is None:  # the setup code: it must not raise
        return decide({"raises": None, "rtol": DEFAULT_RTOL, "expected": None}, fact, memory_note)["error"]
    exc = fact["exception"]
    if block.allow_error and exc is not None and not fact["output_limit"] and \
            "builtins.SystemExit" not in exc["qualnames"]:
        return None
    expectation = {"raises": block.raises, "rtol": block.rtol, "expected": block.expected if check_outputs else None}
    return decide(expectation, fact, memory_note)["error"]


def _frames(error: dict, plan: JobPlan) -> dict:
    """Frames named by unit told by block, those of the setup code by the file it is written in."""
    frames = []
    for frame in error.get("frames", []):
        if "block" not in frame:
            frames.append(frame)
            continue
        unit = plan.units[frame["block"]]
        if unit.block is not None:
            frames.append({**frame, "block": unit.block.index})
        elif plan.setup is not None:
            lines = plan.setup.code.splitlines()
            text = lines[frame["line"] - 1] if 1 <= frame["line"] <= len(lines) else None
            frames.append({"file": plan.setup.file, "line": plan.setup.line + frame["line"] - 1,
                           "name": frame["name"], "text": text})
    return {**error, "frames": frames}


def judge_job(plan: JobPlan, job: Job, stop: bool, check_outputs: bool, memory_note: str) -> dict[int, Outcome]:
    """The outcome of every block the job ran, from its facts and how its process ended."""
    failure_at = None
    if job.failure is not None:
        unfinished = [u.index for u in plan.units if u.index not in job.facts]
        failure_at = job.failure["index"] if job.failure["index"] is not None else \
            (unfinished[0] if unfinished else plan.units[-1].index)
    first_block = next(u.block for u in plan.units if u.block is not None)
    stdout: dict[int, str] = {}
    seconds: dict[int, float] = {}
    shown: dict[int, str] = {}  # what each block (not a session) shows: printed output, then a raised error's line
    errors: dict[int, tuple[dict, int | None]] = {}
    reached: set[int] = set()
    failed_at: Block | None = None
    for unit in plan.units:
        block = unit.block or first_block
        fact = job.facts.get(unit.index)
        if fact is not None:
            stdout[block.index] = stdout.get(block.index, "") + fact["stdout"]
            seconds[block.index] = seconds.get(block.index, 0.0) + fact["duration_s"]
            reached.add(block.index)
            if unit.block is not None and unit.statement is None:
                shown[block.index] = shown_output(fact, block.raises)
        if stop and failed_at is not None or block.index in errors:
            continue
        error = None
        if unit.index == failure_at:
            error = {**job.failure, "frames": []}
            reached.add(block.index)
        elif fact is not None:
            error = _unit_error(unit, fact, check_outputs, memory_note)
        if error is not None and unit.block is None:
            error = {**error, "message": f"the project's setup code failed: {error['message']}"}
        if error is not None and job.limits_hit:  # what the box stopped the page at, beside what the page saw
            error = {**error, "message": "; ".join([error["message"], *job.limits_hit])}
        if error is not None:
            errors[block.index] = (_frames(error, plan), unit.statement.first if unit.statement and
                                   error["type"] == "OutputMismatch" else None)
            failed_at = failed_at or block
    outcomes: dict[int, Outcome] = {}
    members = {(u.block or first_block).index: u.block or first_block for u in plan.units}
    for block in members.values():
        if block.index in errors:
            error, statement = errors[block.index]
            outcomes[block.index] = Outcome(Status.FAILED, error=error, statement=statement,
                                            stdout=stdout.get(block.index, ""), duration_s=seconds.get(block.index, 0.0),
                                            output=shown.get(block.index))
        elif stop and failed_at is not None and block.index > failed_at.index:
            outcomes[block.index] = Outcome(Status.SKIPPED, Skip.AFTER_FAILURE)
        elif block.index in reached:
            outcomes[block.index] = Outcome(Status.PASSED, stdout=stdout.get(block.index, ""),
                                            duration_s=seconds.get(block.index, 0.0), output=shown.get(block.index))
        else:
            outcomes[block.index] = Outcome(Status.SKIPPED, Skip.PAGE_STOPPED,
                                            "not run: the page stopped before this block")
    return outcomes


def page_results(item: LoadedPage, outcomes: dict[int, Outcome], executed: bool) -> list[BlockResult]:
    """The outcomes told in this page's own lines."""
    results = []
    for block in item.blocks:
        outcome = outcomes[block.index]
        reason, error = outcome.reason, None
        if outcome.skip == Skip.AFTER_FAILURE:  # told at the failed block's line of this page
            failed = next(b for b in item.blocks if outcomes[b.index].status == Status.FAILED
                          and b.namespace == block.namespace and b.index < block.index)
            reason = f"skipped: an earlier block failed ({item.page.path}:{failed.line})"
        if outcome.error is not None:
            line = error_line(list(item.blocks), block, outcome.error)
            if outcome.statement is not None:
                line = block.fence.body[outcome.statement].page_line
            error = BlockError(outcome.error["type"], render(item.page.path, list(item.blocks), outcome.error), line)
            reason = f"{error.type} at {item.page.path}:{line}"
        results.append(BlockResult(item.page, block, outcome.status, reason, executed, outcome.duration_s, error,
                                   outcome.stdout, outcome.skip, outcome.output))
    return results


class Engine:
    """Runs pages in fresh processes and judges their blocks; see RunOptions for what it takes."""

    def __init__(self, options: RunOptions | None = None, site: SiteConfig | None = None,
                 early: EarlyZygote | None = None):
        self.options = options or RunOptions()
        self.site = site
        self.early = early  # a zygote already starting, for the pool to take
        self.info: dict = {}  # the setup the pages ran on, once one has run
        self.timings: dict = {}  # where the run's time went: the zygote's start-up, each job (sandbox/timings.py)

    def run(self, loaded: list[LoadedPage], default_language: str = "en") -> Iterator[list[BlockResult]]:
        """Yields the results of each page, as soon as its group has run."""
        options = self.options
        groups = {g.key: g for g in group_pages(loaded, default_language)}
        plans = {key: plan_page(g.pages[0], options.device) for key, g in groups.items()}
        jobs: dict[str, tuple[str, JobPlan, Job]] = {}
        for key, plan in plans.items():
            for number, job_plan in enumerate(plan.jobs):
                job_key = f"{key}#{number}"
                jobs[job_key] = (key, job_plan, Job(job_key, job_plan.sandbox_blocks(), len(job_plan.units)))
        for key, plan in plans.items():  # pages with nothing to run are done before anything starts
            if not plan.jobs:
                yield from self._group_results(groups[key], plan.decided)
        if not jobs:
            return
        size = min(options.jobs, len(jobs)) or 1
        memory_limit = options.memory_limit or default_memory_limit(size)
        note = (f"(each page may use {format_size(memory_limit)} of memory in this run: "
                "--memory-limit changes it)")
        site = self.site or load_site_config()
        cache_dir = options.cache_dir or site.jax_cache_dir
        pool = Pool(size, options.device, options.output_limit, cache_dir, memory_limit,
                    require_isolation=options.require_isolation, visible=(str(site.root),), early=self.early)
        waiting = {key: len(plan.jobs) for key, plan in plans.items() if plan.jobs}
        outcomes: dict[str, dict[int, Outcome]] = {key: dict(plan.decided) for key, plan in plans.items()}
        self.info = pool.info  # filled as the pool learns it: the page boxes at start, the device from its probe
        try:
            for job in pool.run([job for _, _, job in jobs.values()]):
                self.timings.setdefault("pages", {})[job.key] = job.timings
                key, job_plan, _ = jobs[job.key]
                stop = groups[key].pages[0].settings.after_failure == "stop"
                outcomes[key].update(judge_job(job_plan, job, stop, options.check_outputs,
                                               note if pool.memory_limit else ""))
                waiting[key] -= 1
                if not waiting[key]:
                    yield from self._group_results(groups[key], outcomes[key])
        finally:
            self.timings["zygote_start_s"] = round(pool.zygote_start_s, 6)
            pool.close()

    @staticmethod
    def _group_results(group: Group, outcomes: dict[int, Outcome]) -> Iterator[list[BlockResult]]:
        for number, item in enumerate(group.pages):
            yield page_results(item, outcomes, number == 0)

