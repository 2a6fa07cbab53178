"""Which pages a run executes: its shard of the corpus (--shard), less what it reuses (--reuse).

Decided before the engine starts; the report then records the shard, the corpus it
was cut from, each block's group and where reused results came from.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from jax_kb.snippets.runs import identity, reuse, shards
from jax_kb.snippets.results import BlockResult, LoadedPage


@dataclass
class Selection:
    to_run: list[LoadedPage]
    reused_results: list[BlockResult] = field(default_factory=list)
    reused: dict[str, dict] = field(default_factory=dict)  # page path -> source report
    groups: dict[str, str] = field(default_factory=dict)  # page path -> group id
    report_fields: dict = field(default_factory=dict)  # "corpus", "shard", "sources"
    copied: list[dict] = field(default_factory=list)  # entries of files not read again, of this shard
    notes: list[str] = field(default_factory=list)


def select(loaded: list[LoadedPage], default_language: str, device: str, shard: shards.ShardSpec | None = None,
           durations_report: dict | None = None, reuse_report: dict | None = None,
           reuse_source: str = "", copied: list[dict] | None = None) -> Selection:
    """`copied`: entries of the files --reuse did not read again (reuse.unchanged_files); they
    count in the corpus and keep their recorded sources."""
    copied = copied or []
    groups = shards.group_ids(loaded, default_language)
    plan = None
    if reuse_report is not None:
        plan = reuse.plan(loaded, reuse_report, reuse_source, identity.current(device), default_language)
    if shard:
        free = {groups[path] for path in plan.reused} if plan else set()
        pages, corpus, mine = shards.select(loaded, shard, default_language, durations_report, free,
                                            {e["group"] for e in copied})
        fields = {"corpus": corpus, "shard": {"index": shard.index, "count": shard.count, "groups": mine}}
        copied = [e for e in copied if e["group"] in set(mine)]
        plan = plan.only({p.page.path for p in pages}) if plan else None
    else:
        pages = loaded
        fields = {"corpus": shards.corpus_of(set(groups.values()) | {e["group"] for e in copied})}
    recorded = (reuse_report or {}).get("sources") or {}
    fields["sources"] = {**{e["file"]: recorded[e["file"]] for e in copied if e["file"] in recorded},
                         **reuse.sources(pages)}
    out = Selection(pages, groups=groups, report_fields=fields, copied=copied)
    if plan is not None:
        out.to_run, out.reused_results, out.reused = plan.remaining, plan.results, plan.reused
        out.notes.append(plan.note or f"{reuse_source}: reused the results of {len(plan.reused)} more pages, "
                                      f"{len(plan.remaining)} pages to run")
    out.to_run = shards.heaviest_first(out.to_run, default_language, durations_report or reuse_report)
    return out
