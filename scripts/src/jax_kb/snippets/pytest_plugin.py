"""pytest glue: one item per Python block of the Markdown pages; the engine does all the work.

Installed, the plugin is loaded in every pytest run (entry point pytest11), so it collects nothing
unless a project asks for it: `pytest --snippets`, or `snippets = true` in its pytest settings.
Then it collects the pages of the docs folder, and every Markdown file under a path given on the
command line (`pytest --snippets README.md`), less those the project's settings exclude. Every
option is the plugin's own (`--snippets-...`), so none clashes with a project's conftest.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from jax_kb.markdown import InputError, SiteConfig, load_site_config
from jax_kb.snippets.engine import load_page
from jax_kb.snippets.project_config import ProjectConfig, load_project_config
from jax_kb.snippets.results import BlockResult, LoadedPage, Status
from jax_kb.snippets.run_options import DEFAULT_OUTPUT_LIMIT, RunOptions
from jax_kb.snippets.run_pages import Run, run_pages
from jax_kb.snippets.runs import identity
from jax_kb.snippets.runs.report import build_report, describe_failure, write_report
from jax_kb.snippets.sandbox.pool import EngineError
from jax_kb.snippets.sandbox.protections import default_jobs, parse_size

_SESSION = pytest.StashKey["SnippetSession"]()


def pytest_addoption(parser):
    group = parser.getgroup("snippets", "executed examples of the Markdown pages")
    group.addoption("--snippets", action="store_true", default=None, dest="snippets",
                    help="run the Python blocks of the Markdown pages (the docs folder, and any path given) as tests")
    parser.addini("snippets", "run the Python blocks of the Markdown pages as tests (the --snippets flag)",
                  type="bool", default=False)
    group.addoption("--snippets-device", choices=("cpu", "gpu"), default="cpu", dest="snippets_device",
                    help="device kind the blocks run on")
    group.addoption("--snippets-json", metavar="FILE", dest="snippets_json", help="write the engine's JSON report there")
    group.addoption("--snippets-jobs", type=int, default=default_jobs(), dest="snippets_jobs",
                    help="pages run at once (default: the CPUs this process may use)")
    group.addoption("--snippets-memory-limit", type=parse_size, metavar="SIZE", dest="snippets_memory_limit",
                    help="memory each page may use, such as 4GiB (default: 80%% of the machine's memory shared "
                         "among the jobs)")
    group.addoption("--snippets-output-limit", type=int, default=DEFAULT_OUTPUT_LIMIT, dest="snippets_output_limit",
                    help="characters a block may print before it fails")


class SnippetSession:
    """Runs, on first need, every page that has a selected item, and hands out results."""

    def __init__(self, config, site: SiteConfig, project: ProjectConfig):
        self.site, self.project = site, project
        self.options = RunOptions(device=config.getoption("snippets_device"), jobs=config.getoption("snippets_jobs"),
                                  output_limit=config.getoption("snippets_output_limit"),
                                  memory_limit=config.getoption("snippets_memory_limit"))
        named = config.args if config.args_source == pytest.Config.ArgsSource.ARGS else []
        self.named = [Path(config.invocation_params.dir, arg.split("::")[0]).resolve() for arg in named]
        self.pages: dict[str, LoadedPage] = {}  # the pages of the selected items
        self.results: dict[tuple[str, int], BlockResult] = {}
        self.input_errors: list[InputError] = []
        self.run: Run | None = None
        self.stream = None
        self.error: str | None = None

    def collects(self, path: Path) -> bool:
        """A page of the docs folder or under a path given, less what the project excludes, unless
        the path given is itself excluded (asked for by name)."""
        path = path.resolve()
        named = [p for p in self.named if path.is_relative_to(p)]
        if any(self.project.excluded(p) for p in named):
            return True
        return bool(named or path.is_relative_to(self.site.docs_dir.resolve())) and not self.project.excluded(path)

    def result(self, path: str, index: int) -> BlockResult:
        if self.error:
            pytest.fail(self.error, pytrace=False)
        try:
            if self.stream is None:
                self.run = run_pages(list(self.pages.values()), self.options, self.site)
                self.stream = iter(self.run)
            while (path, index) not in self.results:
                for r in next(self.stream):
                    self.results[(r.page.path, r.block.index)] = r
        except EngineError as exc:
            self.error = f"the snippet engine cannot run: {exc}"
            pytest.fail(self.error, pytrace=False)
        return self.results[(path, index)]

    def close(self):
        if self.stream is not None:
            self.stream.close()


class MarkdownPage(pytest.File):
    def collect(self):
        session = self.config.stash[_SESSION]
        try:
            loaded = load_page(self.path, session.site, session.project)
        except InputError as exc:
            # One failing item, not a collection error: that would stop the whole session.
            session.input_errors.append(exc)
            yield UnreadablePage.from_parent(self, name="page", error=exc)
            return
        for block in loaded.blocks:
            yield BlockItem.from_parent(self, name=f"line{block.line}", loaded=loaded, block=block)


class BlockFailure(Exception):
    pass


class UnreadablePage(pytest.Item):
    """A page the engine cannot use: it fails with the reader's message, the other pages still run."""

    def __init__(self, *, error: InputError, **kwargs):
        super().__init__(**kwargs)
        self.error = error

    def runtest(self):
        raise BlockFailure(f"error: {self.error}")

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, BlockFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, (self.error.line or 1) - 1, self.error.where


class BlockItem(pytest.Item):
    def __init__(self, *, loaded, block, **kwargs):
        super().__init__(**kwargs)
        self.loaded, self.block = loaded, block

    def runtest(self):
        result = self.config.stash[_SESSION].result(self.loaded.page.path, self.block.index)
        if result.status == Status.SKIPPED:
            pytest.skip(result.reason)
        if result.status == Status.FAILED:
            raise BlockFailure(describe_failure(result))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, BlockFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, self.block.line - 1, f"{self.loaded.page.path}:{self.block.line}"


def _enabled(config) -> bool:
    flag = config.getoption("snippets")
    return flag if flag is not None else config.getini("snippets")


def pytest_collect_file(file_path: Path, parent):
    snippet_session = parent.config.stash.get(_SESSION, None)
    if snippet_session is not None and file_path.suffix == ".md" and snippet_session.collects(file_path):
        return MarkdownPage.from_parent(parent, path=file_path)
    return None


def pytest_configure(config):
    if not _enabled(config):
        return
    try:
        site = load_site_config(Path(config.rootpath, "mkdocs.yml") if (config.rootpath / "mkdocs.yml").is_file()
                                else None)
        project = load_project_config(site)
    except InputError as exc:
        raise pytest.UsageError(f"the snippet engine cannot read the project's configuration: {exc}") from None
    config.stash[_SESSION] = SnippetSession(config, site, project)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    snippet_session = config.stash.get(_SESSION, None)
    if snippet_session is None:
        return
    for item in items:
        if isinstance(item, BlockItem):
            snippet_session.pages[item.loaded.page.path] = item.loaded


def pytest_sessionfinish(session):
    snippet_session = session.config.stash.get(_SESSION, None)
    if snippet_session is None:
        return
    snippet_session.close()
    target = session.config.getoption("snippets_json")
    if target and (snippet_session.results or snippet_session.input_errors):
        run, device = snippet_session.run, snippet_session.options.device
        if run is None:  # every page was unreadable
            report = build_report([], device, identity.current(device), input_errors=snippet_session.input_errors)
        else:
            run.input_errors.extend(snippet_session.input_errors)
            report = run.report()
        try:
            write_report(target, report)
        except InputError as exc:
            session.config.get_terminal_writer().line(f"error: {exc}", red=True)
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
