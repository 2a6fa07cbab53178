"""What a page's process runs: units cut from its blocks, one job per namespace.

A block is one unit, an interpreter session one unit per `>>>` statement (so that each statement's
output is compared with what the page shows under it), and the project's setup code a unit before
the first block of each namespace. A unit's code keeps its block's lines, so the page process's
line numbers are the block's. Only the unit's index, code, time limit and whether the page goes on
after its exception cross to the page's process (sandbox/page_process.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from jax_kb.snippets.blocks import Block
from jax_kb.snippets.project_config import PageSettings, Setup
from jax_kb.snippets.sessions import Statement, read_session


@dataclass(frozen=True)
class Unit:
    index: int  # in its job
    block: Block | None  # None: the project's setup code
    code: str
    go_on: bool  # the page goes on after this unit's exception
    timeout: float
    statement: Statement | None = None  # of a session


@dataclass(frozen=True)
class JobPlan:
    namespace: str
    units: tuple[Unit, ...]
    setup: Setup | None

    def sandbox_blocks(self) -> list[dict]:
        """The job as the page's process reads it (page.json): "raises" there means "go on after it"."""
        return [{"index": u.index, "code": u.code, "raises": u.go_on, "timeout": u.timeout} for u in self.units]


def _block_units(block: Block, start: int, keep_going: bool) -> list[Unit]:
    if not block.session:
        return [Unit(start, block, block.code, keep_going or bool(block.raises) or block.allow_error, block.timeout)]
    statements = read_session(block.fence.code, block.doctest_flags).statements
    return [Unit(start + n, block, s.code, keep_going or bool(s.raises) or block.allow_error, block.timeout, s)
            for n, s in enumerate(statements)]


def job_plans(blocks: list[Block], settings: PageSettings) -> list[JobPlan]:
    """One job per namespace, its blocks in page order, the setup code first."""
    keep_going = settings.after_failure == "continue"
    by_namespace: dict[str, list[Block]] = {}
    for block in blocks:
        by_namespace.setdefault(block.namespace, []).append(block)
    plans = []
    for namespace, members in by_namespace.items():
        units: list[Unit] = []
        if settings.setup is not None:
            units.append(Unit(0, None, settings.setup.code, keep_going, max(b.timeout for b in members)))
        for block in members:
            units.extend(_block_units(block, len(units), keep_going))
        plans.append(JobPlan(namespace, tuple(units), settings.setup))
    return plans
