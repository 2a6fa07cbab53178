"""The suffix structure: vmap.md is English, vmap.es.md its Spanish translation, side by side."""
from __future__ import annotations

from pathlib import Path, PurePosixPath

from jax_kb.markdown import InputError, SiteConfig
from jax_kb.markdown.pages import display_path, language_of


def translation_path(english_path: str, lang: str) -> str:
    """glossary/vmap.md in Spanish is glossary/vmap.es.md (the suffix structure)."""
    path = PurePosixPath(english_path)
    return str(path.with_name(f"{path.stem}.{lang}{path.suffix}"))


def english_source(path: Path, config: SiteConfig) -> Path:
    """The English page beside a translation: vmap.es.md follows vmap.md."""
    lang, _ = language_of(path, config)
    if lang == config.default_language:
        raise InputError(display_path(path, config), None, "this is an English page: mark its translations "
                         "(such as " + path.name[:-3] + ".es.md), not the page itself")
    english = path.with_name(path.name[: -len(f".{lang}.md")] + ".md")
    if not english.is_file():
        raise InputError(display_path(path, config), 1, f"no English page {display_path(english, config)} "
                         "beside this translation: a translation has the English file name plus the language")
    return english
