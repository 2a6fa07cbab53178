"""--reuse REPORT: take the passed results of unchanged page groups from an earlier report.

Two levels. A page file whose bytes are those the earlier report recorded (its "sources"),
which includes nothing, and whose blocks all passed there is not even read again: its entries
are copied (unchanged_files). Every other page is read, and a group's result is reused when the earlier report ran on the same JAX, jaxlib, Python,
device kind and engine version (scripts/src/jax_kb/snippets/runs/identity.py) and holds the same group id
(the blocks' code with its includes and fence options, shards.group_id) with no block that
failed or was skipped after a failure. Every page of the group then gets the earlier
results, marked executed=false with `reused_from` naming the report they came from.
Everything else runs.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from jax_kb.markdown import InputError, SiteConfig
from jax_kb.markdown.pages import display_paths
from jax_kb.snippets.runs import identity
from jax_kb.snippets.grouping import group_pages
from jax_kb.snippets.results import STABLE_SKIPS, BlockResult, LoadedPage, Skip, Status
from jax_kb.snippets.runs.shards import group_id

REUSABLE = {"passed", "not_run"}
INCLUDE_MARKER = b"--8<--"  # a page that includes files is always read: what it includes may have changed


@dataclass
class UnchangedFiles:
    remaining: list[Path]  # the files to read
    entries: list[dict] = field(default_factory=list)  # the copied report entries, marked reused
    note: str = ""


@dataclass
class ReusePlan:
    remaining: list[LoadedPage]  # the pages to run
    results: list[BlockResult] = field(default_factory=list)
    reused: dict[str, dict] = field(default_factory=dict)  # page path -> where its results came from
    note: str = ""  # why nothing could be reused, when that is so

    def only(self, paths: set[str]) -> ReusePlan:
        """The plan for these pages alone (a shard's)."""
        return ReusePlan([p for p in self.remaining if p.page.path in paths],
                         [r for r in self.results if r.page.path in paths],
                         {k: v for k, v in self.reused.items() if k in paths}, self.note)


def read_report(path: str | Path) -> dict:
    """A JSON report of the engine, or an InputError that names the file and what is wrong with it."""
    try:
        report = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(path, None, f"cannot read the report: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(path, None, "not a JSON report of the snippet engine: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise InputError(path, exc.lineno, f"not a JSON report of the snippet engine: {exc.msg}") from None
    if not isinstance(report, dict) or not isinstance(report.get("blocks"), list) or \
            not all(isinstance(b, dict) for b in report["blocks"]):
        raise InputError(path, None, "not a JSON report of the snippet engine: no list of blocks")
    return report


def _reusable(block: dict) -> bool:
    return block.get("status") in REUSABLE or (block.get("status") == "skipped" and block.get("skip") in STABLE_SKIPS)


def _earlier_results(report: dict) -> dict[str, list[dict]]:
    """Per group id, the block entries of one page of that group, by index, when all are reusable."""
    by_file: dict[str, list[dict]] = {}
    for block in report["blocks"]:
        if block.get("group"):
            by_file.setdefault(block.get("file", ""), []).append(block)
    out: dict[str, list[dict]] = {}
    for entries in by_file.values():
        entries.sort(key=lambda b: b.get("index", -1))
        if all(_reusable(b) for b in entries):
            out.setdefault(entries[0]["group"], entries)
    return out


def plan(loaded: list[LoadedPage], report: dict, source: str, current: dict, default_language: str) -> ReusePlan:
    """Which pages run and which take their results from `report` (read from `source`)."""
    mismatch = identity.differences(identity.of_report(report), current)
    if mismatch:
        return ReusePlan(loaded, note=f"{source}: nothing reused, it was made by another setup ({'; '.join(mismatch)})")
    earlier = _earlier_results(report)
    origin = {"report": source, "created": str(report.get("created", ""))}
    out = ReusePlan([])
    for group in group_pages(loaded, default_language):
        entries = earlier.get(group_id(group))
        if entries is None or [b.get("index") for b in entries] != [b.index for b in group.pages[0].blocks]:
            out.remaining.extend(group.pages)
            continue
        for item in group.pages:
            # A result the earlier report itself reused still names the run that produced it.
            out.reused[item.page.path] = entries[0].get("reused_from") or origin
            out.results.extend(BlockResult(item.page, block, Status(e["status"]), reason=str(e.get("reason", "")),
                                           executed=False, duration_s=float(e.get("duration_s") or 0.0),
                                           stdout=str(e.get("stdout", "")),
                                           skip=Skip(e["skip"]) if e.get("skip") else None)
                               for block, e in zip(item.blocks, entries))
    return out


def text_digest(text: str) -> str:
    return _digest(text.encode("utf-8"))


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def sources(pages: list[LoadedPage]) -> dict[str, str]:
    """What the report records of each page file it covers, for unchanged_files to compare against."""
    return {item.page.path: text_digest(item.page.text) for item in pages}


def unchanged_files(files: list[Path], report: dict, source: str, current: dict,
                    config: SiteConfig) -> UnchangedFiles:
    """The files that need reading, and the copied entries of those that do not."""
    mismatch = identity.differences(identity.of_report(report), current)
    recorded = report.get("sources") if isinstance(report.get("sources"), dict) else {}
    if mismatch or not recorded:
        return UnchangedFiles(list(files))
    by_file: dict[str, list[dict]] = {}
    for block in report["blocks"]:
        by_file.setdefault(block.get("file", ""), []).append(block)
    origin = {"report": source, "created": str(report.get("created", ""))}
    out = UnchangedFiles([])
    for path, shown in zip(files, display_paths(files, config)):
        entries = by_file.get(shown, [])
        try:
            with open(path, "rb") as f:
                data = f.read()
            data.decode("utf-8")
        except (OSError, UnicodeDecodeError):
            data = None  # reading it again reports the problem
        if (data is None or recorded.get(shown) != _digest(data) or INCLUDE_MARKER in data
                or not all(_reusable(b) and b.get("group") for b in entries)):
            out.remaining.append(path)
            continue
        out.entries.extend({**b, "executed": False, "reused_from": b.get("reused_from") or origin} for b in entries)
    out.note = (f"{source}: {len(files) - len(out.remaining)} page files unchanged since it, not read again")
    return out
