"""Every problem that keeps the translations of a catalog from being in parity with English.

Staleness is not one of them: a stale translation is still correct, only older (see status)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from jax_kb.catalog import Catalog, duplicate_slugs, front_matter_problems
from jax_kb.markdown import InputError
from jax_kb.i18n.paths import english_source
from jax_kb.i18n.parity import parity_problems
from jax_kb.i18n.terminology import load_terminologies
from jax_kb.i18n.wording import wording_problems


def check_problems(catalog: Catalog, in_scope: Callable[[str], bool] = lambda path: True,
                   terminology_dir: Path | None = None) -> list[InputError]:
    """Unreadable pages, front matter problems, parity problems and avoided renderings (by the term
    lists of terminology_dir, default terminology/) of the files in scope, by file and line; each
    page is checked on its own, so one broken page hides nothing of the others. A term list that
    cannot be read is always reported, whatever the scope."""
    config = catalog.config
    terminologies, list_problems = load_terminologies(terminology_dir or config.root / "terminology", config)
    readable = {page.path for page in catalog.all_pages()}
    unreadable = [e for e in catalog.errors if e.path not in readable]  # the rest are link problems
    problems = list(unreadable) + duplicate_slugs(catalog)
    for page in catalog.all_pages():
        problems.extend(front_matter_problems(page, catalog))
    for versions in catalog.pages.values():
        english = versions.get(config.default_language)
        for lang, page in versions.items():
            if lang == config.default_language:
                continue
            if lang in terminologies:
                problems.extend(wording_problems(page, terminologies[lang]))
            if english is not None:
                problems.extend(parity_problems(page, english))
                continue
            try:
                english_source(page.source, config)
            except InputError as exc:
                problems.append(exc)
            # Otherwise the English page exists but cannot be read: its own error says why.
    unique = {(p.path, p.line or 0, p.message): p for p in problems if in_scope(p.path)}
    unique.update({(p.path, p.line or 0, p.message): p for p in list_problems})
    return [unique[key] for key in sorted(unique)]
