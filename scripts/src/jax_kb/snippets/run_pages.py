"""run_pages(): the one way into the engine, for the command line, the pytest plugin, check_page
and library callers alike.

    run = run_pages(["docs"], RunOptions(jobs=4))
    for page in run:            # each page's results, as soon as its group has run
        ...
    run.report()                # the JSON report (ARCHITECTURE.md)

Everything that can be known before JAX starts (the files, the settings, bad pages, the shard, what
--reuse takes from an earlier report) is known when run_pages() returns; iterating runs the rest.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from jax_kb.markdown import InputError, SiteConfig, load_site_config, markdown_files
from jax_kb.snippets.engine import Engine, load
from jax_kb.snippets.project_config import ProjectConfig, load_project_config
from jax_kb.snippets.results import BlockResult, LoadedPage
from jax_kb.snippets.run_options import RunOptions
from jax_kb.snippets.sandbox.pool import EarlyZygote
from jax_kb.snippets.runs import identity
from jax_kb.snippets.runs.report import build_report, entry_summary, summary
from jax_kb.snippets.runs.reuse import read_report, unchanged_files
from jax_kb.snippets.runs.selection import Selection, select


@dataclass
class Run:
    options: RunOptions
    site: SiteConfig
    project: ProjectConfig
    selection: Selection
    input_errors: list[InputError] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what the run decided before it ran: reuse, shards
    results: list[BlockResult] = field(default_factory=list)  # every result so far, reused ones first
    refused: bool = False  # input that makes the run meaningless (a shard without its durations)
    blocks_found: int = 0  # Python blocks in the pages read, and in the entries --reuse copied
    engine: Engine | None = None
    early: EarlyZygote | None = None  # started while the pages were read; the engine's pool takes it

    def __iter__(self) -> Iterator[list[BlockResult]]:
        try:
            if self.refused:
                return
            self.engine = Engine(self.options, self.site, self.early)
            for page in self.engine.run(self.selection.to_run, self.site.default_language):
                self.results.extend(page)
                yield page
        finally:
            if self.early is not None:
                self.early.close()  # nothing ran, or the pool took it and this does nothing

    @property
    def info(self) -> dict:
        """The setup the pages ran on; a run that executed nothing learns it without JAX."""
        return (self.engine.info if self.engine else {}) or identity.current(self.options.device)

    def totals(self) -> dict:
        totals = summary(self.results)
        for status, count in entry_summary(self.selection.copied).items():
            if status in totals:
                totals[status] += count
        return totals

    def report(self) -> dict:
        selection = self.selection
        return build_report(self.results, self.options.device, self.info, selection.groups, selection.reused,
                            selection.report_fields, self.input_errors, selection.copied)


def _paths(named: list[Path], site: SiteConfig) -> tuple[list[Path], list[InputError], SiteConfig]:
    """The paths that exist, an error for each that does not, and the site to read them with:
    without mkdocs.yml, a folder given is the docs folder."""
    named = named or [site.docs_dir]
    missing = [InputError(p, None, "no such file or folder") for p in named if not p.exists()]
    present = [p for p in named if p.exists()]
    if site.config_file is None and len(present) == 1 and present[0].is_dir():
        site = dataclasses.replace(site, docs_dir=present[0].resolve())
    return present, missing, site


def files_to_read(paths: list[Path], project: ProjectConfig) -> list[Path]:
    """The Markdown files of the paths: what the project excludes is left out of a folder, unless the
    path given is itself excluded (asked for by name)."""
    files = []
    for path in paths:
        found = markdown_files([path])
        files.extend(found if project.excluded(path) else [f for f in found if not project.excluded(f)])
    return files


def run_pages(pages: Iterable[str | Path | LoadedPage] = (), options: RunOptions | None = None,
              site: SiteConfig | None = None) -> Run:
    """Prepares a run of these pages (files, folders, or pages already loaded; none: the docs folder).
    An unusable mkdocs.yml or project configuration is an InputError; bad pages are in input_errors."""
    options = options or RunOptions()
    site = site or load_site_config()
    pages = list(pages)
    loaded = [p for p in pages if isinstance(p, LoadedPage)]
    named = [Path(p) for p in pages if not isinstance(p, LoadedPage)]
    input_errors: list[InputError] = []
    if named or not loaded:
        present, input_errors, site = _paths(named, site)
    project = load_project_config(site)
    earlier = {}
    for name, path in (("durations", options.shard_durations), ("reuse", options.reuse)):
        try:
            if path:
                earlier[name] = read_report(path)
        except InputError as exc:
            input_errors.append(exc)
    unchanged = None
    # Cut without the durations its sibling shards use, this shard would overlap them.
    refused = bool(options.shard_durations) and "durations" not in earlier
    files: list[Path] = []
    if named or not loaded:
        files = files_to_read(present, project)
        if "reuse" in earlier:
            unchanged = unchanged_files(files, earlier["reuse"], str(options.reuse),
                                        identity.current(options.device), site)
            files = unchanged.remaining
    # JAX's import in the zygote takes as long as reading the pages: both at once.
    early = EarlyZygote(options.device) if (files or loaded) and not refused else None
    if files:
        read, unreadable = load(files, site, project)
        loaded += read
        input_errors += unreadable
    selection = select(loaded, site.default_language, options.device, options.shard, earlier.get("durations"),
                       earlier.get("reuse"), str(options.reuse or ""), unchanged.entries if unchanged else None)
    notes = ([unchanged.note] if unchanged and unchanged.note else []) + selection.notes
    found = sum(len(p.blocks) for p in loaded) + len(unchanged.entries if unchanged else [])
    return Run(options, site, project, selection, input_errors, notes, list(selection.reused_results),
               refused, found, early=early)
