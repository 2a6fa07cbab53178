"""The "verified" note: on which JAX version, devices and date a page's examples last passed.

Read from the snippet engine's JSON reports (DESIGN.md, "The JSON report"). A page gets
the note only when every Python block it has now passed, with the same code digest, in a
report (a .no-run block: compiled, reported not_run), and no report shows one of them failing;
every other page with Python blocks says that its examples are not verified yet.
"""
from __future__ import annotations

import html
import json
from dataclasses import dataclass
from pathlib import Path

from scripts.catalog import ui_string
from scripts.markdown import InputError, Page
from scripts.snippets.options import is_python, page_blocks

from .notices import admonition

REPORTS = ("reports/cpu.json", "reports/gpu.json")


@dataclass(frozen=True, eq=False)
class Run:
    """One report: where the examples ran, and each block's (digest, status) by (file, index)."""

    jax: str
    device: str
    date: str
    blocks: dict


def _device(report: dict) -> str:
    device, kind = str(report.get("device", "")), str(report.get("device_kind", ""))
    return f"{device.upper()} ({kind})" if kind and kind.lower() != device.lower() else device.upper()


def load_runs(root: Path) -> list[Run]:
    runs = []
    for name in REPORTS:
        path = root / name
        if not path.is_file():
            continue
        try:
            report = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise InputError(name, exc.lineno, f"not a JSON report of the snippet engine: {exc.msg}") from None
        blocks = {(b["file"], b["index"]): (b["digest"], b["status"]) for b in report.get("blocks", [])}
        runs.append(Run(str(report.get("jax", "")), _device(report), str(report.get("created", ""))[:10], blocks))
    return runs


def backing_runs(page: Page, runs: list[Run]) -> list[Run] | None:
    """The runs in which the page's blocks, as they are now, passed; None when that cannot be claimed."""
    try:
        blocks = page_blocks(page)
    except InputError:
        return None  # the engine refuses such a page, so nothing ran
    backing: list[Run] = []
    for block in blocks:
        digest = block.digest
        same_code = [(run, entry[1]) for run in runs
                     if (entry := run.blocks.get((page.path, block.index))) and entry[0] == digest]
        if any(status == "failed" for _, status in same_code):
            return None
        good = [run for run, status in same_code if status == ("passed" if block.run else "not_run")]
        if not good:
            return None
        backing.extend(run for run in good if run not in backing)
    return backing


def verified_note(page: Page, runs: list[Run], lang: str) -> str:
    """The note's HTML; empty for a page without Python blocks."""
    if not any(is_python(fence) for fence in page.fences):
        return ""
    backing = backing_runs(page, runs)
    if not backing:
        return admonition("note", "not-verified", ui_string(lang, "not_verified_title"),
                          html.escape(ui_string(lang, "not_verified")))
    lines = "<br>".join(html.escape(ui_string(lang, "verified").format(jax=run.jax, device=run.device, date=run.date))
                        for run in backing)
    return admonition("success", "verified", ui_string(lang, "verified_title"), lines)
