"""The status records as a table a person reads: pages down, languages across."""
from __future__ import annotations

from jax_kb.i18n.status import MISSING, STALE, UP_TO_DATE, TranslationRecord


def status_table(records: list[TranslationRecord]) -> str:
    langs = list(dict.fromkeys(r.lang for r in records))
    cells: dict[str, dict[str, str]] = {}
    for r in records:
        cells.setdefault(r.page_id, {})[r.lang] = r.state
    header = ["page", *langs]
    rows = [[page_id, *(by_lang.get(lang, "") for lang in langs)] for page_id, by_lang in cells.items()]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in [header, *rows]]
    stale = [r for r in records if r.state == STALE]
    if stale:
        lines += ["", "stale (the English page changed after the translation was made):"]
        for r in stale:
            lines.append(f"  {r.path}: " + (_since(r) if r.translation_of else
                         "no translation_of: once it follows the English page, run python -m scripts.i18n mark"))
    counts = {state: sum(r.state == state for r in records) for state in (UP_TO_DATE, STALE, MISSING)}
    lines += ["", ", ".join(f"{n} {state}" for state, n in counts.items())]
    return "\n".join(lines)


def _since(record: TranslationRecord) -> str:
    change = record.english_change
    changed = (f"English page changed in {change.commit} ({change.date})" if change and change.commit
               else "English page has uncommitted changes" if change else "English page changed (not in git)")
    return f"{changed}; the translation follows {record.translation_of}, English is now {record.digest}"
