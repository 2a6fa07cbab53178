"""snippets merge A.json B.json ... --json OUT: shard reports into one report.

Refused, with the reason, are reports made by different setups (JAX, jaxlib, Python,
device kind, engine), cut from different corpora or into different shard counts, a shard
given twice, a page group in two reports, and a corpus whose groups are not all present.
Each shard report records its corpus (the count and a digest of all group ids) and the
ids of its own groups, which is how a missing group is known.
"""
from __future__ import annotations

import argparse
import datetime
import hashlib
import sys

from jax_kb.markdown import InputError
from jax_kb.snippets.runs import identity
from jax_kb.snippets.runs.report import entry_summary, write_report
from jax_kb.snippets.runs.reuse import read_report


class MergeRefused(Exception):
    """The reports cannot make one report; the message says why."""


def _shard(name: str, report: dict) -> dict:
    shard = report.get("shard") or {"index": 1, "count": 1, "groups": sorted({b["group"] for b in report["blocks"]})}
    corpus = report.get("corpus")
    if not (isinstance(corpus, dict) and isinstance(corpus.get("groups"), int) and all(b.get("group") for b in
                                                                                      report["blocks"])):
        raise MergeRefused(f"{name}: no corpus or group ids; it was not written by this engine's --json")
    if not (isinstance(shard, dict) and isinstance(shard.get("index"), int) and isinstance(shard.get("count"), int)
            and isinstance(shard.get("groups"), list)):
        raise MergeRefused(f"{name}: its shard field is not {{index, count, groups}}")
    return shard


def _check_setups(reports: list[tuple[str, dict]]) -> None:
    first_name, first = reports[0]
    for name, report in reports[1:]:
        mismatch = identity.differences(identity.of_report(first), identity.of_report(report))
        if mismatch:
            raise MergeRefused(f"{first_name} and {name} come from different setups: {'; '.join(mismatch)}")
        if report["corpus"] != first["corpus"]:
            raise MergeRefused(f"{first_name} and {name} were cut from different corpora "
                               f"({first['corpus']} vs {report['corpus']})")


def _check_shards(reports: list[tuple[str, dict]], shards: list[dict]) -> None:
    counts = {s["count"] for s in shards}
    if len(counts) > 1:
        raise MergeRefused(f"the reports are shards of different splits: {sorted(counts)} shards")
    seen: dict[int, str] = {}
    for (name, _), shard in zip(reports, shards):
        if shard["index"] in seen:
            raise MergeRefused(f"shard {shard['index']}/{shard['count']} is given twice: {seen[shard['index']]} "
                               f"and {name}")
        seen[shard["index"]] = name
    owner: dict[str, str] = {}
    for (name, report), shard in zip(reports, shards):
        for group in shard["groups"]:
            if group in owner:
                page = next((b["file"] for b in report["blocks"] if b["group"] == group), group)
                raise MergeRefused(f"the page group of {page} is in both {owner[group]} and {name}")
            owner[group] = name
    corpus = reports[0][1]["corpus"]
    digest = hashlib.sha256("\n".join(sorted(owner)).encode()).hexdigest()[:16]
    if len(owner) != corpus["groups"] or digest != corpus["digest"]:
        count = shards[0]["count"]
        absent = [f"{i}/{count}" for i in range(1, count + 1) if i not in seen]
        raise MergeRefused(f"groups are missing: the corpus has {corpus['groups']}, the reports hold {len(owner)}"
                           + (f" (shards {', '.join(absent)} not given)" if absent else ""))


def merge(reports: list[tuple[str, dict]]) -> dict:
    """One report of the whole corpus from its shard reports, as (name, report) pairs."""
    if not reports:
        raise MergeRefused("no reports to merge")
    shards = [_shard(name, report) for name, report in reports]
    _check_setups(reports)
    _check_shards(reports, shards)
    blocks = sorted((b for _, r in reports for b in r["blocks"]), key=lambda b: (b["file"], b["line"]))
    first = reports[0][1]
    fields = {k: v for k, v in first.items() if k not in ("shard", "summary", "blocks", "created", "sources")}
    sources = {path: digest for _, r in reports for path, digest in (r.get("sources") or {}).items()}
    return {**fields, "created": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "merged_from": [{"report": name, "shard": f"{s['index']}/{s['count']}", "created": r.get("created", "")}
                            for (name, r), s in zip(reports, shards)],
            "sources": sources, "summary": entry_summary(blocks), "blocks": blocks}


def main(argv: list[str], prog: str = "snippets merge") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+", help="the shard reports, e.g. reports/shard-*.json")
    parser.add_argument("--json", metavar="OUT", required=True, help="where the merged report goes")
    args = parser.parse_args(argv)
    try:
        reports = [(path, read_report(path)) for path in args.reports]
        merged = merge(reports)
        write_report(args.json, merged)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except MergeRefused as exc:
        print(f"error: cannot merge: {exc}", file=sys.stderr)
        return 2
    totals = merged["summary"]
    print(f"merged {len(reports)} reports into {args.json}: {totals['passed']} passed, {totals['failed']} failed, "
          f"{totals['skipped']} skipped, {totals['not_run']} not run")
    return 0
