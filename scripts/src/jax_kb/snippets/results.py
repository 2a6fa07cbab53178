"""The engine's types past the reader: what a block's run came to, and the pages it ran in."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jax_kb.markdown import Page
    from jax_kb.snippets.blocks import Block
    from jax_kb.snippets.project_config import PageSettings


class Status(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"  # meant to run, and did not: `skip` says why
    NOT_RUN = "not_run"  # shown only, by the page's own choice (.no-run, a display fence of a notebook)


class Skip(StrEnum):
    """Why a block was skipped: what --reuse and compare decide on (never the reason's wording)."""

    DEVICE = "device"  # marked .gpu or .cpu, and this run is on the other kind
    AFTER_FAILURE = "after_failure"  # an earlier block of its namespace failed
    PAGE_STOPPED = "page_stopped"  # the page's process ended before this block
    MARKER = "marker"  # a skip marker on the page (<!-- skip: next -->, notest, a skip-execution tag)
    CONFIG = "config"  # the project's configuration skips it
    UNSUPPORTED = "unsupported"  # the engine cannot run it (a notebook's shell command), and says so


# The skips that follow from the page and the project alone: a result with one of them may be reused.
STABLE_SKIPS = frozenset({Skip.DEVICE, Skip.MARKER, Skip.CONFIG, Skip.UNSUPPORTED})


@dataclass(frozen=True)
class BlockError:
    type: str  # the exception's class, or the engine's name for the failure (OutputMismatch, Timeout, ...)
    message: str  # a traceback told in the page's lines
    line: int  # the Markdown line to look at

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class BlockResult:
    page: Page
    block: Block
    status: Status
    reason: str = ""
    executed: bool = True  # False where the result was taken from an identical page or an earlier report
    duration_s: float = 0.0
    error: BlockError | None = None
    stdout: str = ""
    skip: Skip | None = None  # set exactly when status is SKIPPED
    output: str | None = None  # what the block shows (verdict.shown_output); None when not run in this run


@dataclass(frozen=True)
class LoadedPage:
    page: Page
    blocks: tuple[Block, ...]
    settings: PageSettings


@dataclass
class Group:
    """Pages whose blocks and settings are the same, comments aside: run once, reported for each."""

    pages: list[LoadedPage] = field(default_factory=list)

    @property
    def key(self) -> str:
        return self.pages[0].page.path
