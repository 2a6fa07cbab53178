"""The JSON report of DESIGN.md, and the plain-text summary of a run."""
from __future__ import annotations

import datetime
import json
import platform
import subprocess
from collections import Counter
from pathlib import Path

from jax_kb.atomic_write import write_atomic
from jax_kb.markdown import InputError
from jax_kb.snippets.results import BlockResult, Status
from jax_kb.snippets.runs.identity import engine_version, package_version

STATUSES = tuple(Status)


def summary(results: list[BlockResult]) -> dict:
    """Blocks by status; "executed" counts the blocks that ran here (not skipped, not .no-run, not reused)."""
    counts = Counter(r.status for r in results)
    return {**{str(s): counts.get(s, 0) for s in STATUSES},
            "executed": sum(ran(r.executed, r.status) for r in results)}


def ran(executed: bool, status: str) -> bool:
    """Whether a block ran in this run: executed here (not reused) and neither skipped nor .no-run."""
    return bool(executed) and status in ("passed", "failed")


def block_entry(r: BlockResult, group: str = "", reused_from: dict | None = None) -> dict:
    """One block's line of the report; `group` is its page group's id (scripts/src/jax_kb/snippets/runs/shards.py),
    `reused_from` the report its result was taken from (scripts/src/jax_kb/snippets/runs/reuse.py)."""
    return {"file": r.page.path, "line": r.block.line, "lang": r.page.lang, "page": r.page.page_id,
            "index": r.block.index, "digest": r.block.digest, "status": str(r.status), "reason": r.reason,
            "skip": str(r.skip) if r.skip else None, "executed": r.executed, "duration_s": round(r.duration_s, 4),
            "error": r.error.to_json() if r.error else None, "stdout": r.stdout,
            "group": group, **({"reused_from": reused_from} if reused_from else {})}


def entry_summary(entries: list[dict]) -> dict:
    """The report's summary, counted from its block entries."""
    counts = Counter(e["status"] for e in entries)
    return {**{str(s): counts.get(s, 0) for s in STATUSES},
            "executed": sum(ran(e.get("executed"), e["status"]) for e in entries),
            "reused": sum("reused_from" in e for e in entries)}


def input_error_entry(error: InputError) -> dict:
    return {"file": error.path, "line": error.line, "message": error.message}


def build_report(results: list[BlockResult], device: str, info: dict, groups: dict[str, str] | None = None,
                 reused: dict[str, dict] | None = None, extra: dict | None = None,
                 input_errors: list[InputError] = (), copied: list[dict] | None = None) -> dict:
    """`groups` and `reused` are by page path; `extra` adds top-level fields (the shard, the corpus);
    pages that could not be used are listed in input_errors, not left out; `copied` are entries
    taken as they are from an earlier report (scripts/src/jax_kb/snippets/runs/reuse.py)."""
    groups, reused = groups or {}, reused or {}
    entries = sorted([block_entry(r, groups.get(r.page.path, ""), reused.get(r.page.path)) for r in results]
                     + (copied or []), key=lambda e: (e["file"], e["line"]))
    return {
        "jax": info.get("jax") or package_version("jax"),
        "jaxlib": info.get("jaxlib") or package_version("jaxlib"),
        "python": info.get("python") or platform.python_version(),
        "device": device,
        "device_kind": info.get("device_kind", ""),
        "engine": engine_version(),
        "created": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": info["commit"] if "commit" in info else source_commit(),
        "protections": info.get("protections", {}),
        **(extra or {}),
        "summary": entry_summary(entries),
        "blocks": entries,
        "input_errors": [input_error_entry(e) for e in sorted(input_errors, key=lambda e: (e.path, e.line or 0))],
    }


def source_commit(folder: str | Path = ".") -> str:
    """The git commit the pages were read at, with "+" when the work tree had changes (what the site's
    verification page shows); empty outside a git work tree."""
    def git(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=60)

    try:
        head, status = git("rev-parse", "HEAD"), git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return ""
    if head.returncode != 0:
        return ""
    return head.stdout.strip() + ("+" if status.returncode == 0 and status.stdout.strip() else "")


def write_report(path: str | Path, report: dict) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, render_report(report))


def render_report(report: dict) -> str:
    """The report as JSON with one line per element of each top-level list or mapping (each block,
    each source file): a change to one block is a one-line diff, and json's C encoder writes it
    (indent= would use the slow Python one)."""
    def dump(value) -> str:
        return json.dumps(value, ensure_ascii=False)

    fields = []
    for key, value in report.items():
        if isinstance(value, list) and value:
            fields.append(f" {dump(key)}: [\n" + ",\n".join(f"  {dump(item)}" for item in value) + "\n ]")
        elif isinstance(value, dict) and value:
            fields.append(f" {dump(key)}: {{\n" + ",\n".join(f"  {dump(k)}: {dump(v)}" for k, v in value.items())
                          + "\n }")
        else:
            fields.append(f" {dump(key)}: {dump(value)}")
    return "{\n" + ",\n".join(fields) + "\n}\n"


def describe_failure(r: BlockResult) -> str:
    """What a reader of the failure needs: where, the block, and what went wrong."""
    parts = [f"{r.page.path}:{r.block.line}: block failed", _indent(r.block.fence.code.rstrip())]  # as shown
    if r.error:
        mismatch = r.error.type == "OutputMismatch"
        if r.stdout and (not mismatch or r.block.session):  # a block's mismatch message shows both outputs
            parts += ["printed (last lines):" if mismatch else "printed before the error (last lines):",
                      _indent(_tail(r.stdout.rstrip()))]
        # A session statement's mismatch is told at its own line.
        parts.append(f"at line {r.error.line}: {r.error.message}" if mismatch and r.block.session else r.error.message)
    return "\n".join(parts)


def totals_line(totals: dict) -> str:
    """The counts of a run, as every front end prints them."""
    return (f"{totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped, "
            f"{totals['not_run']} not run")


def _tail(text: str, lines: int = 10, width: int = 200) -> str:
    return "\n".join(line[:width] + ("..." if len(line) > width else "") for line in text.splitlines()[-lines:])


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())
