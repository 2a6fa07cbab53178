"""Translation notices: an untranslated page shown in English, a translation older than its English page.

A fallback page keeps its English text, marked lang="en"; the notice and the sections the
hooks generate below GENERATED (in the reader's language) stay outside that mark.
"""
from __future__ import annotations

import functools
import html
from pathlib import Path

from jax_kb.catalog import Catalog, ui_string
from jax_kb.markdown import Page

from jax_kb.i18n.history import Change, last_change
from jax_kb.i18n.status import follows

GENERATED = "<!-- generated sections -->"  # appended to the Markdown before what the hooks generate


def admonition(kind: str, name: str, title: str, body: str) -> str:
    """A Material admonition, left out of the search index; body is HTML."""
    return (f'<div class="admonition {kind}" data-kb-notice="{name}" data-search-exclude>'
            f'<p class="admonition-title">{html.escape(title)}</p><p>{body}</p></div>\n')


@functools.lru_cache(maxsize=None)
def _english_change(path: Path, mtime_ns: int) -> Change | None:
    # mtime_ns is part of the cache key: an edit during `make serve` asks git again.
    return last_change(path)


def _outdated(english: Page, lang: str, english_link: str) -> str:
    change = _english_change(english.source, english.source.stat().st_mtime_ns)
    date = change.date if change and change.commit else None
    text = ui_string(lang, "outdated_on").format(date=date) if date else ui_string(lang, "outdated_recently")
    link = (f'<a href="{html.escape(english_link)}" hreflang="{english.lang}">'
            f'{html.escape(ui_string(lang, "english_page"))}</a>')
    return admonition("warning", "outdated", ui_string(lang, "outdated_title"), f"{html.escape(text)} {link}")


def with_notices(content: str, source: Page, lang: str, cat: Catalog, english_link: str) -> str:
    """The page's HTML with the notice its translation state calls for."""
    own, _, generated = content.partition(GENERATED)
    default = cat.config.default_language
    if source.lang != lang:
        notice = admonition("warning", "untranslated", ui_string(lang, "untranslated_title"),
                            html.escape(ui_string(lang, "untranslated")))
        return f'{notice}<div lang="{source.lang}">\n{own}</div>\n{generated}'
    english = cat.pages.get(source.page_id, {}).get(default)
    if lang == default or english is None or follows(source, english):
        return own + generated
    return _outdated(english, lang, english_link) + own + generated
