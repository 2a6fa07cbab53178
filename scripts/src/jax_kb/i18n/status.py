"""Which translation of each page follows the English page as it is now."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from jax_kb.catalog import Catalog
from jax_kb.markdown import Page
from jax_kb.i18n.history import Change, last_change
from jax_kb.i18n.paths import translation_path

UP_TO_DATE, STALE, MISSING = "up to date", "stale", "missing"


@dataclass
class TranslationRecord:
    page_id: str  # glossary/vmap
    lang: str
    state: str  # UP_TO_DATE, STALE or MISSING
    path: str  # the translation's file, or where it would be
    english_path: str
    digest: str  # the English page's current digest
    translation_of: str | None  # what the translation records; None when missing or unmarked
    english_change: Change | None = None  # for a stale one: the English file's newest change, when git knows

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


def recorded_digest(page: Page) -> str | None:
    """The translation's `translation_of`; an all-digit digest without quotes reads as an int, so as written."""
    recorded = page.meta.get("translation_of")
    return None if recorded is None else str(recorded)


def follows(translation: Page, english: Page) -> bool:
    """Whether the translation was made from the English page as it is now."""
    return recorded_digest(translation) == english.digest


def _record(catalog: Catalog, page_id: str, lang: str) -> TranslationRecord:
    english = catalog.pages[page_id][catalog.config.default_language]
    page = catalog.pages[page_id].get(lang)
    if page is None:
        return TranslationRecord(page_id, lang, MISSING, translation_path(english.path, lang), english.path,
                                 english.digest, None)
    state = UP_TO_DATE if follows(page, english) else STALE
    return TranslationRecord(page_id, lang, state, page.path, english.path, english.digest, recorded_digest(page))


def translation_status(catalog: Catalog) -> list[TranslationRecord]:
    """One record per page that has an English page and per other language, by page id then
    language; a stale one says when its English page last changed (one git query per English file)."""
    default = catalog.config.default_language
    records = [_record(catalog, page_id, lang)
               for page_id in sorted(catalog.pages) if default in catalog.pages[page_id]
               for lang in catalog.config.languages if lang != default]
    changes: dict[str, Change | None] = {}
    for record in records:
        if record.state == STALE:
            if record.page_id not in changes:
                changes[record.page_id] = last_change(catalog.pages[record.page_id][default].source)
            record.english_change = changes[record.page_id]
    return records
