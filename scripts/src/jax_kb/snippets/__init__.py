"""The snippet engine: reads the Python blocks of pages, runs them, checks and reports them.

    from jax_kb.snippets import RunOptions, run_pages

    run = run_pages(["docs"], RunOptions(jobs=2))
    for page in run:
        for result in page:
            print(result.page.path, result.block.line, result.status)
"""
from jax_kb.snippets.engine import Engine, load, load_page
from jax_kb.snippets.project_config import PageSettings, ProjectConfig, load_project_config
from jax_kb.snippets.results import BlockError, BlockResult, LoadedPage, Skip, Status
from jax_kb.snippets.run_options import RunOptions
from jax_kb.snippets.run_pages import Run, run_pages
from jax_kb.snippets.sandbox.pool import EngineError

__all__ = ["BlockError", "BlockResult", "Engine", "EngineError", "LoadedPage", "PageSettings", "ProjectConfig",
           "Run", "RunOptions", "Skip", "Status", "load", "load_page", "load_project_config", "run_pages"]
