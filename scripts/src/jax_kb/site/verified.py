"""The "verified" badge below a page's title: on which date, JAX version and devices its examples last passed.

Read from every report of the snippet engine in reports/ (DESIGN.md, "The JSON report"):
reports/cpu.json and the GPU runs' reports/gpu-<kind>.json. A page gets the badge only when
every Python block it has now passed, with the same code digest, in a report (a .no-run
block: compiled, reported not_run), and no report shows one of them failing; every other
page with Python blocks says that its examples are not verified yet. The badge names each
device kind, linked to its report (copied into the site, reports/), and the date in the
reader's locale.
"""
from __future__ import annotations

import functools
import html
import json
import shutil
from dataclasses import dataclass, field
from datetime import date as Date
from pathlib import Path

from babel.dates import format_date

from jax_kb.catalog import ui_string
from jax_kb.markdown import InputError, Page
from jax_kb.snippets.blocks import is_python, page_blocks

REPORTS = "reports"
BLOCK_FIELDS = {"file": str, "index": int, "digest": str, "status": str}


@dataclass(frozen=True, eq=False)
class Run:
    """One report: where the examples ran, and each block's report entry by (file, index)."""

    jax: str
    device: str
    date: str
    entries: dict  # each block's entry (digest, status, stdout, ...) by (file, index)
    report: str = ""  # the report's path, relative to the project root (reports/cpu.json)
    facts: dict = field(default_factory=dict)  # what else the verification page tells: jaxlib, python, commit


def _device(report: dict) -> str:
    device, kind = str(report.get("device", "")), str(report.get("device_kind", ""))
    return f"{device.upper()} ({kind})" if kind and kind.lower() != device.lower() else device.upper()


def report_files(root: Path, reports_dir: str = REPORTS) -> list[Path]:
    """Every report in reports/ (the plugin's reports_dir), the CPU one first."""
    return sorted((root / reports_dir).glob("*.json"), key=lambda p: (p.name != "cpu.json", p.name))


def _entries(report, name: str) -> dict:
    """Each block's entry by (file, index); InputError for a report of another shape."""
    if not isinstance(report, dict) or not isinstance(report.get("blocks", []), list):
        raise InputError(name, 1, 'not a report of the snippet engine: expected an object with a list "blocks"')
    entries = {}
    for number, block in enumerate(report.get("blocks", [])):
        wrong = [key for key, kind in BLOCK_FIELDS.items()
                 if not isinstance(block, dict) or not isinstance(block.get(key), kind)]
        if wrong:
            raise InputError(name, 1, f"not a report of the snippet engine: blocks[{number}] lacks "
                                      + ", ".join(f'"{key}" ({BLOCK_FIELDS[key].__name__})' for key in wrong))
        entries[(block["file"], block["index"])] = block
    return entries


# What the verification page tells of a run beside the JAX version, the device and the date.
FACTS = ("jaxlib", "python", "created", "commit")


def load_runs(root: Path, reports_dir: str = REPORTS) -> list[Run]:
    runs = []
    for path in report_files(root, reports_dir):
        name = path.relative_to(root).as_posix()
        try:
            report = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise InputError(name, exc.lineno, f"not a JSON report of the snippet engine: {exc.msg}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(name, None, f"cannot be read: {exc}") from None
        entries = _entries(report, name)
        facts = {key: str(report[key]) for key in FACTS if isinstance(report.get(key), (str, int, float))}
        runs.append(Run(str(report.get("jax", "")), _device(report), str(report.get("created", ""))[:10], entries,
                        name, facts))
    return runs


def copy_reports(runs: list[Run], root: Path, site_dir: Path) -> None:
    """The reports the badges link to, beside the site's pages."""
    for run in runs:
        target = site_dir / run.report
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / run.report, target)


def backing_runs(page: Page, runs: list[Run]) -> list[Run] | None:
    """The runs in which the page's blocks, as they are now, passed; None when that cannot be claimed."""
    try:
        blocks = page_blocks(page)
    except InputError:
        return None  # the engine refuses such a page, so nothing ran
    backing: list[Run] = []
    for block in blocks:
        digest = block.digest
        same_code = [(run, entry["status"]) for run in runs
                     if (entry := run.entries.get((page.path, block.index))) and entry["digest"] == digest]
        if any(status == "failed" for _, status in same_code):
            return None
        good = [run for run, status in same_code if status == ("passed" if block.run else "not_run")]
        if not good:
            return None
        backing.extend(run for run in good if run not in backing)
    return backing


@functools.lru_cache(maxsize=256)  # every page of a language shows the same few dates; babel is slow to format
def local_date(iso: str, lang: str) -> str:
    """2026-12-02 as the reader's language writes it ("2. decembra 2026"); as given when it is no date."""
    try:
        return format_date(Date.fromisoformat(iso), format="long", locale=lang)
    except ValueError:
        return iso


def _badge(kind: str, lang: str, label: str, title: str, details: str) -> str:
    # lang: on an English fallback page the badge still speaks the reader's language.
    return (f'<div class="kb-badge kb-badge--{kind}" data-kb-notice="{kind}" data-search-exclude lang="{lang}" '
            f'title="{html.escape(title)}">'
            f'<span class="kb-badge__label">{html.escape(label)}</span>{details}</div>\n')


def sentence(backing: list[Run], lang: str) -> str:
    """What the badge says in full (its title): each run that backs the page, with JAX, device and date."""
    return " ".join(ui_string(lang, "verified").format(jax=run.jax, device=run.device, date=local_date(run.date, lang))
                    for run in backing).replace("..", ".")  # a date that ends in "г." ends the sentence


def _items(*items: str) -> str:
    """The badge's details, each one unbreakable with the separator that follows it: on a narrow
    screen the badge wraps between items, and no line starts with a separator."""
    last = len(items) - 1
    return "".join(f'<span class="kb-badge__item">{item}{" ·" if n < last else ""}</span>'
                   for n, item in enumerate(items))


def verified_badge(page: Page, backing: list[Run] | None, lang: str, verification_link: str,
                   downloads: str = "") -> str:
    """The badge's HTML, placed below the title; empty for a page without Python blocks.

    backing is the page's backing_runs(); verification_link is the relative URL of the page's
    entry on the verification page (jax_kb/site/verification_page.py), which the devices link
    to; downloads is the "Run this page" item (jax_kb/site/notebooks.py), offered on a verified
    page only.
    """
    if not any(is_python(fence) for fence in page.fences):
        return ""
    if not backing:
        return _badge("not-verified", lang, ui_string(lang, "not_verified_title"), ui_string(lang, "not_verified"),
                      " " + _items(f'<a href="{html.escape(verification_link)}">'
                                   f'{html.escape(ui_string(lang, "verification_link"))}</a>'))
    latest = max(run.date for run in backing)
    devices = html.escape(", ".join(run.device for run in backing))
    details = _items(f'<time datetime="{html.escape(latest)}">{html.escape(local_date(latest, lang))}</time>',
                     f"JAX {html.escape(backing[0].jax)}",
                     f'<a href="{html.escape(verification_link)}">{devices}</a>',
                     *([downloads] if downloads else []))
    return _badge("verified", lang, ui_string(lang, "verified_title"), sentence(backing, lang), " " + details)
