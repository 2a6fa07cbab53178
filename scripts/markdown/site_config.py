"""What the tools need from mkdocs.yml: docs folder, languages, the snippets settings."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from mkdocs.utils.yaml import yaml_load

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class SiteConfig:
    root: Path
    docs_dir: Path
    languages: tuple[str, ...]  # the default language first
    language_names: dict
    snippets: dict  # pymdownx.snippets options, as the site uses them

    @property
    def default_language(self) -> str:
        return self.languages[0]


def _extension_options(extensions: list, name: str) -> dict | None:
    for entry in extensions:
        if entry == name:
            return {}
        if isinstance(entry, dict) and name in entry:
            return dict(entry[name] or {})
    return None


@functools.cache
def load_site_config(config_file: Path = ROOT / "mkdocs.yml") -> SiteConfig:
    with open(config_file, encoding="utf-8") as f:
        raw = yaml_load(f)
    root = config_file.parent
    i18n = next(p["i18n"] for p in raw["plugins"] if isinstance(p, dict) and "i18n" in p)
    langs = sorted(i18n["languages"], key=lambda lang: not lang.get("default", False))
    snippets = _extension_options(raw.get("markdown_extensions", []), "pymdownx.snippets")
    if snippets is None:
        raise RuntimeError(f"{config_file}: pymdownx.snippets is not configured")
    base = snippets.get("base_path", ["."])
    base = [base] if isinstance(base, str) else base
    snippets["base_path"] = [str(root / b) for b in base]
    return SiteConfig(
        root=root,
        docs_dir=root / raw.get("docs_dir", "docs"),
        languages=tuple(lang["locale"] for lang in langs),
        language_names={lang["locale"]: lang["name"] for lang in langs},
        snippets=snippets,
    )
