"""From pages to results: read, group identical pages, run each group once, report every page."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from ..markdown import InputError, Page, SiteConfig, load_site_config, markdown_files, read_page
from .options import Block, page_blocks
from .pool import Job, Pool
from .tracebacks import error_line, render


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


def _worker_blocks(blocks: list[Block], device: str, check_outputs: bool) -> list[dict]:
    return [{"index": b.index, "code": b.code, "run": b.run, "raises": b.raises, "timeout": b.timeout,
             "skip": b.device is not None and b.device != device,
             "expected": b.expected if check_outputs else None, "rtol": b.rtol}
            for b in blocks]


def page_results(item: LoadedPage, job: Job, device: str, executed: bool) -> list[BlockResult]:
    """The job's results told in this page's own lines."""
    out: list[BlockResult] = []
    failed: Block | None = None
    for block in item.blocks:
        raw = job.results.get(block.index)
        if raw is None:
            out.append(BlockResult(item.page, block, "skipped", executed=executed,
                                   reason=f"the block at {item.page.path}:{failed.line} failed" if failed else
                                   "not run: the page stopped before this block"))
            continue
        result = BlockResult(item.page, block, raw["status"], executed=executed,
                             duration_s=raw.get("duration_s", 0.0), stdout=raw.get("stdout", ""))
        if result.status == "skipped":
            result.reason = f"runs on {block.device} only; this run is on {device}"
        elif result.status == "not_run":
            result.reason = ".no-run: shown, not executed; it compiles"
        elif result.status == "failed":
            error = raw["error"]
            result.error = {"type": error["type"], "message": render(item.page.path, item.blocks, error),
                            "line": error_line(item.blocks, block, error)}
            result.reason = f"{error['type']} at {item.page.path}:{result.error['line']}"
            failed = block
        out.append(result)
    return out


@dataclass
class Engine:
    device: str = "cpu"
    jobs: int = field(default_factory=lambda: os.cpu_count() or 1)
    output_limit: int = 1_000_000
    cache_dir: Path | None = None
    check_outputs: bool = True  # off when the outputs are being rewritten from this run
    info: dict = field(default_factory=dict)

    def run(self, loaded: list[LoadedPage], default_language: str = "en") -> Iterator[list[BlockResult]]:
        """Yields the results of each page, as soon as its group has run."""
        groups = group_pages(loaded, default_language)
        by_key = {g.key: g for g in groups}
        jobs = [Job(g.key, _worker_blocks(g.pages[0].blocks, self.device, self.check_outputs)) for g in groups]
        pool = Pool(min(self.jobs, len(jobs)) or 1, self.device, self.output_limit, self.cache_dir)
        try:
            for job in pool.run(jobs):
                self.info = pool.info or self.info
                group = by_key[job.key]
                for number, item in enumerate(group.pages):
                    yield page_results(item, job, self.device, executed=number == 0)
        finally:
            pool.close()
