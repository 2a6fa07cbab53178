"""From pages to results: read, group identical pages, run each group once, report every page."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from jax_kb.markdown import InputError, Page, SiteConfig, load_site_config, markdown_files, read_page
from jax_kb.snippets.blocks import Block, page_blocks
from jax_kb.snippets.sandbox.page_process import BLOCK_FILE
from jax_kb.snippets.sandbox.pool import Job, Pool
from jax_kb.snippets.sandbox.protections import default_jobs, default_memory_limit, format_size
from jax_kb.snippets.tracebacks import error_line, render
from jax_kb.snippets.verdict import decide


@dataclass
class BlockResult:
    page: Page
    block: Block
    status: str  # passed | failed | skipped | not_run
    reason: str = ""
    executed: bool = True
    duration_s: float = 0.0
    error: dict | None = None  # {"type", "message", "line"}
    stdout: str = ""
    output: str | None = None  # what the block shows (verdict.shown_output); None when not run in this run


@dataclass
class LoadedPage:
    page: Page
    blocks: list[Block]


@dataclass
class Group:
    """Pages whose blocks are the same, comments aside: run once, reported for each."""

    pages: list[LoadedPage] = field(default_factory=list)

    @property
    def key(self) -> str:
        return self.pages[0].page.path


def load_page(path: str | Path, config: SiteConfig | None = None) -> LoadedPage:
    page = read_page(path, config)
    return LoadedPage(page, page_blocks(page))


def load(paths: list[str | Path], config: SiteConfig | None = None) -> tuple[list[LoadedPage], list[InputError]]:
    """Every readable page of the paths; each unreadable one becomes an error and the rest go on."""
    config = config or load_site_config()
    loaded, errors = [], []
    for path in markdown_files(paths):
        try:
            loaded.append(load_page(path, config))
        except InputError as exc:
            errors.append(exc)
    return loaded, errors


def group_pages(loaded: list[LoadedPage], default_language: str) -> list[Group]:
    groups: dict[tuple, Group] = {}
    for item in loaded:
        if item.blocks:
            groups.setdefault(tuple(b.signature() for b in item.blocks), Group()).pages.append(item)
    for group in groups.values():
        group.pages.sort(key=lambda p: p.page.lang != default_language)
    return list(groups.values())


@dataclass
class Plan:
    """What the engine does with each block of a page before any of it runs."""

    skipped: set[int] = field(default_factory=set)  # for another device
    syntax_errors: dict[int, dict] = field(default_factory=dict)  # index -> error
    to_run: list[Block] = field(default_factory=list)  # in order, up to the first syntax error


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


def plan_page(blocks: list[Block], device: str) -> Plan:
    plan = Plan()
    for block in blocks:
        if block.device is not None and block.device != device:
            plan.skipped.add(block.index)
        elif (error := _syntax_error(block)) is not None:
            plan.syntax_errors[block.index] = error
        elif block.run and not plan.syntax_errors:
            plan.to_run.append(block)
    return plan


def make_job(key: str, blocks: list[Block], plan: Plan) -> Job:
    return Job(key, [{"index": b.index, "code": b.code, "raises": bool(b.raises), "timeout": b.timeout}
                     for b in plan.to_run], len(blocks))


def _failure_index(job: Job, plan: Plan) -> int | None:
    """The block a failure of the page's process is told at: its own, else the first without a result."""
    if job.failure is None or not plan.to_run:
        return None
    if job.failure["index"] is not None:
        return job.failure["index"]
    unfinished = [b.index for b in plan.to_run if b.index not in job.facts]
    return unfinished[0] if unfinished else plan.to_run[-1].index


def page_results(item: LoadedPage, job: Job, plan: Plan, device: str, executed: bool,
                 check_outputs: bool = True, memory_note: str = "") -> list[BlockResult]:
    """The job's facts judged, and told in this page's own lines."""
    out: list[BlockResult] = []
    failed: Block | None = None
    failure_at = _failure_index(job, plan)
    for block in item.blocks:
        result = BlockResult(item.page, block, "passed", executed=executed)
        error = None
        if block.index in plan.skipped:
            result.status, result.reason = "skipped", f"runs on {block.device} only; this run is on {device}"
        elif block.index in plan.syntax_errors:
            error = plan.syntax_errors[block.index]
        elif not block.run:
            result.status, result.reason = "not_run", ".no-run: shown, not executed; it compiles"
        elif failed is not None:
            result.status = "skipped"
            result.reason = f"skipped: an earlier block failed ({item.page.path}:{failed.line})"
        elif block.index == failure_at:
            error = {**job.failure, "frames": []}
            if (fact := job.facts.get(block.index)) is not None:
                result.stdout, result.duration_s = fact["stdout"], fact["duration_s"]
        elif (fact := job.facts.get(block.index)) is not None:
            result.stdout, result.duration_s = fact["stdout"], fact["duration_s"]
            expectation = {"raises": block.raises, "rtol": block.rtol,
                           "expected": block.expected if check_outputs else None}
            verdict = decide(expectation, fact, memory_note)
            error, result.output = verdict["error"], verdict["output"]
        else:
            result.status, result.reason = "skipped", "not run: the page stopped before this block"
        if error is not None:
            if job.limits_hit:  # what the box stopped the page at, told beside what the page saw of it
                error = {**error, "message": "; ".join([error["message"], *job.limits_hit])}
            result.status = "failed"
            result.error = {"type": error["type"], "message": render(item.page.path, item.blocks, error),
                            "line": error_line(item.blocks, block, error)}
            result.reason = f"{error['type']} at {item.page.path}:{result.error['line']}"
            failed = failed or block
        out.append(result)
    return out


@dataclass
class Engine:
    device: str = "cpu"
    jobs: int = field(default_factory=default_jobs)
    output_limit: int = 1_000_000
    cache_dir: Path | None = None
    check_outputs: bool = True  # off when the outputs are being rewritten from this run
    memory_limit: int | None = None  # per page process; None: a share of the machine's memory
    require_isolation: bool = False  # refuse to run where a protection of the page boxes is missing
    info: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)  # where the run's time went: zygote start-up, each page

    def run(self, loaded: list[LoadedPage], default_language: str = "en") -> Iterator[list[BlockResult]]:
        """Yields the results of each page, as soon as its group has run."""
        groups = {g.key: g for g in group_pages(loaded, default_language)}
        plans = {key: plan_page(g.pages[0].blocks, self.device) for key, g in groups.items()}
        jobs = [make_job(key, g.pages[0].blocks, plans[key]) for key, g in groups.items()]
        size = min(self.jobs, len(jobs)) or 1
        memory_limit = self.memory_limit or default_memory_limit(size)
        note = (f"(each page may use {format_size(memory_limit)} of memory in this run: "
                "--memory-limit changes it)")
        pool = Pool(size, self.device, self.output_limit, self.cache_dir, memory_limit,
                    require_isolation=self.require_isolation)
        self.info = pool.info  # filled as the pool learns it: the page boxes at start, the device from its probe
        try:
            for job in pool.run(jobs):
                self.timings.setdefault("pages", {})[job.key] = job.timings
                group = groups[job.key]
                for number, item in enumerate(group.pages):
                    yield page_results(item, job, plans[job.key], self.device, number == 0,
                                       self.check_outputs, note if pool.memory_limit else "")
        finally:
            self.timings["zygote_start_s"] = round(pool.zygote_start_s, 6)
            pool.close()
