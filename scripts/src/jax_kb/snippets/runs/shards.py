"""--shard I/N: a deterministic split of the engine's page groups over N shards.

A group is the set of pages whose blocks are the same, comments aside (identical
translations), so it never straddles two shards. Every shard process computes the same
partition from the same inputs and keeps its own part: the groups are weighed (seconds
from a previous report when one is given, else their block count; nothing when --reuse will
reuse them), sorted heaviest first with the group id as tie-break, and each goes to the
lightest shard so far (LPT).
All shards of one run must be given the same durations report, or none.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from jax_kb.snippets.grouping import group_pages, group_signature
from jax_kb.snippets.results import Group, LoadedPage

SPEC = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


@dataclass(frozen=True)
class ShardSpec:
    index: int  # 1-based
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse_spec(text: str) -> ShardSpec:
    """'2/4' -> ShardSpec(2, 4); anything else is a ValueError that says what is expected."""
    match = SPEC.match(text)
    if not match or not 1 <= int(match[1]) <= int(match[2]):
        raise ValueError(f"--shard {text!r}: expected I/N with 1 <= I <= N, e.g. 2/4")
    return ShardSpec(int(match[1]), int(match[2]))


def group_id(group: Group) -> str:
    """What a group is: its settings and the signatures of its blocks in page order (code with includes,
    fence options)."""
    signature = repr(group_signature(group.pages[0]))
    return hashlib.sha256(signature.encode("utf-8")).hexdigest()[:16]


def corpus_of(ids: set[str]) -> dict:
    """How many groups the whole corpus has, and a digest of their ids: merge checks shards against it."""
    return {"groups": len(ids), "digest": hashlib.sha256("\n".join(sorted(ids)).encode()).hexdigest()[:16]}


def durations_by_group(groups: list[Group], report: dict) -> dict[str, float]:
    """Seconds each group took in a previous report, found by group id or else by one of its files."""
    by_group: dict[str, float] = {}
    by_file: dict[str, float] = {}
    for block in report.get("blocks", []):
        seconds = float(block.get("duration_s") or 0.0)
        by_file[block.get("file", "")] = by_file.get(block.get("file", ""), 0.0) + seconds
        if block.get("group") and block.get("executed"):
            by_group[block["group"]] = by_group.get(block["group"], 0.0) + seconds
    out = {}
    for group in groups:
        gid = group_id(group)
        if gid in by_group:
            out[gid] = by_group[gid]
            continue
        known = [by_file[p.page.path] for p in group.pages if p.page.path in by_file]
        if known:
            out[gid] = max(known)  # the copies repeat the executed page's durations
    return out


def weights(groups: list[Group], durations: dict[str, float] | None = None) -> dict[str, float]:
    """Each group's expected cost: its seconds in a previous report, else its block count.

    With a previous report, a group it does not know (a new page) weighs what an average
    block weighed there, times its blocks."""
    blocks = {group_id(g): len(g.pages[0].blocks) for g in groups}
    if not durations:
        return dict(blocks)
    timed = [gid for gid in blocks if gid in durations]
    per_block = sum(durations[gid] for gid in timed) / max(1, sum(blocks[gid] for gid in timed))
    return {gid: durations.get(gid, per_block * n) for gid, n in blocks.items()}


def heaviest_first(loaded: list[LoadedPage], default_language: str, report: dict | None = None) -> list[LoadedPage]:
    """The pages in the order the engine should start them: the groups expected to take longest
    first (weighed as for the shards), so that no core waits at the end on one long page."""
    groups = group_pages(loaded, default_language)
    cost = weights(groups, durations_by_group(groups, report) if report else None)
    order = {p.page.path: (-cost[group_id(g)], group_id(g)) for g in groups for p in g.pages}
    return sorted(loaded, key=lambda p: order.get(p.page.path, (0.0, "")))


def partition(cost: dict[str, float], count: int) -> list[list[str]]:
    """The group ids split into `count` shards of about equal weight; the same inputs give the same
    split. Groups that weigh nothing (reused ones) come last and go to the shard with the fewest
    groups, so that they spread too."""
    shards: list[list[str]] = [[] for _ in range(count)]
    loads = [0.0] * count
    for gid in sorted(cost, key=lambda g: (-cost[g], g)):
        lightest = min(range(count), key=lambda i: (loads[i] if cost[gid] else 0.0, len(shards[i]), i))
        shards[lightest].append(gid)
        loads[lightest] += cost[gid]
    return shards


def group_ids(loaded: list[LoadedPage], default_language: str) -> dict[str, str]:
    """The group id of every page that has blocks, by page path: the report records it per block."""
    return {p.page.path: group_id(g) for g in group_pages(loaded, default_language) for p in g.pages}


def select(loaded: list[LoadedPage], spec: ShardSpec, default_language: str,
           durations_report: dict | None = None, free: set[str] = frozenset(),
           unread: set[str] = frozenset()) -> tuple[list[LoadedPage], dict, list[str]]:
    """The pages of this shard, the corpus it belongs to, and the ids of its groups.

    With --reuse, `free` are the groups whose results will be reused and `unread` those known only
    from the earlier report (files not read again): they weigh nothing, so the groups that do run
    are what the shards are balanced by."""
    groups = group_pages(loaded, default_language)
    durations = durations_by_group(groups, durations_report) if durations_report else None
    cost = {**weights(groups, durations), **{gid: 0.0 for gid in set(free) | set(unread)}}
    mine = set(partition(cost, spec.count)[spec.index - 1])
    return [p for g in groups if group_id(g) in mine for p in g.pages], corpus_of(set(cost)), sorted(mine)
