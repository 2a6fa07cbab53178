"""Which pages a run executes: its shard of the corpus (--shard), less what it reuses (--reuse).

Decided before the engine starts; the report then records the shard, the corpus it
was cut from, each block's group and where reused results came from.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import identity, reuse, shards
from .engine import BlockResult, LoadedPage, group_pages


@dataclass
class Selection:
    to_run: list[LoadedPage]
    reused_results: list[BlockResult] = field(default_factory=list)
    reused: dict[str, dict] = field(default_factory=dict)  # page path -> source report
    groups: dict[str, str] = field(default_factory=dict)  # page path -> group id
    report_fields: dict = field(default_factory=dict)  # "corpus", "shard"
    notes: list[str] = field(default_factory=list)


def select(loaded: list[LoadedPage], default_language: str, device: str, shard: shards.ShardSpec | None = None,
           durations_report: dict | None = None, reuse_report: dict | None = None,
           reuse_source: str = "") -> Selection:
    groups = shards.group_ids(loaded, default_language)
    if shard:
        pages, corpus, mine = shards.select(loaded, shard, default_language, durations_report)
        fields = {"corpus": corpus, "shard": {"index": shard.index, "count": shard.count, "groups": mine}}
    else:
        pages, fields = loaded, {"corpus": shards.corpus_of(group_pages(loaded, default_language))}
    out = Selection(pages, groups=groups, report_fields=fields)
    if reuse_report is not None:
        plan = reuse.plan(pages, reuse_report, reuse_source, identity.current(device), default_language)
        out.to_run, out.reused_results, out.reused = plan.remaining, plan.results, plan.reused
        out.notes.append(plan.note or f"{reuse_source}: reused the results of {len(plan.reused)} pages, "
                                      f"{len(plan.remaining)} pages to run")
    return out
