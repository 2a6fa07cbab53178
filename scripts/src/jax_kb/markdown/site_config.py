"""What the tools need from mkdocs.yml: docs folder, languages, the snippets settings.

The file is found the way mkdocs finds it, in the current folder (or, here, a folder above it), so
the tools work in any project; without one a project is a docs folder of one language, no includes.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from jax_kb.markdown.config_yaml import load_config_yaml
from jax_kb.markdown.errors import InputError

CONFIG_NAMES = ("mkdocs.yml", "mkdocs.yaml")
DEFAULT_LANGUAGE = "en"


@dataclass(frozen=True)
class SiteConfig:
    root: Path  # resolved: the folder of mkdocs.yml, or the working folder without one
    docs_dir: Path
    languages: tuple[str, ...]  # the default language first
    language_names: dict
    snippets: dict | None  # pymdownx.snippets options, as the site uses them; None: includes are off
    config_file: Path | None = None
    # superfences' custom fences by name: "markdown-exec" where markdown-exec runs them at build time
    # (its plugin, or its validator named in custom_fences), else the dotted name of their formatter
    custom_fences: dict[str, str] = field(default_factory=dict)

    @property
    def default_language(self) -> str:
        return self.languages[0]

    @property
    def jax_cache_dir(self) -> Path:
        """The engine's JAX compilation cache: .cache/jax in the project's folder."""
        return self.root / ".cache" / "jax"


def _extension_options(extensions: list, name: str) -> dict | None:
    for entry in extensions:
        if entry == name:
            return {}
        if isinstance(entry, dict) and name in entry:
            return dict(entry[name] or {})
    return None


MARKDOWN_EXEC = "markdown-exec"
# The languages markdown-exec's MkDocs plugin adds a custom fence for (its `languages` option's default).
MARKDOWN_EXEC_LANGUAGES = ("bash", "console", "md", "markdown", "py", "python", "pycon", "pyodide", "sh", "tree")


def _custom_fences(raw: dict, extensions: list) -> dict[str, str]:
    fences: dict[str, str] = {}
    plugins = raw.get("plugins") or []
    for plugin in plugins if isinstance(plugins, list) else []:
        options = plugin.get(MARKDOWN_EXEC) if isinstance(plugin, dict) else {} if plugin == MARKDOWN_EXEC else None
        if options is not None:
            languages = (options or {}).get("languages") if isinstance(options, dict) else None
            fences.update({str(lang): MARKDOWN_EXEC for lang in languages or MARKDOWN_EXEC_LANGUAGES})
    superfences = _extension_options(extensions, "pymdownx.superfences") or {}
    for entry in superfences.get("custom_fences") or []:
        if isinstance(entry, dict) and isinstance(entry.get("name"), str):
            names = f"{entry.get('validator', '')} {entry.get('format', '')}"
            fences[entry["name"]] = MARKDOWN_EXEC if "markdown_exec" in names else str(entry.get("format", ""))
    return fences


def find_config_file(start: Path | None = None) -> Path | None:
    """mkdocs.yml in this folder or the nearest folder above it."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        for name in CONFIG_NAMES:
            if (folder / name).is_file():
                return folder / name
    return None


def load_site_config(config_file: Path | None = None) -> SiteConfig:
    """The project's configuration; mkdocs.yml that the tools cannot use is an InputError."""
    config_file = config_file or find_config_file()
    if config_file is None:
        root = Path.cwd().resolve()
        return SiteConfig(root, root / "docs", (DEFAULT_LANGUAGE,), {DEFAULT_LANGUAGE: "English"}, None)
    return _load(Path(config_file).resolve())


def _read_yaml(config_file: Path) -> dict:
    try:
        with open(config_file, encoding="utf-8") as f:
            raw = load_config_yaml(f)
    except OSError as exc:
        raise InputError(config_file, None, f"cannot be read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise InputError(config_file, None, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InputError(config_file, mark.line + 1 if mark else None, f"not usable YAML: {problem}") from None
    except RecursionError:
        raise InputError(config_file, None, "nested too deeply to read") from None
    if not isinstance(raw, dict):
        raise InputError(config_file, 1, "must be a mapping of settings")
    return raw


def _line_of(config_file: Path, pattern: str) -> int | None:
    """The line a setting is written on (the parsed YAML keeps no lines)."""
    text = config_file.read_text(encoding="utf-8")
    match = re.search(pattern, text, re.MULTILINE)
    return text.count("\n", 0, match.start()) + 1 if match else None


def _languages(raw: dict, config_file: Path) -> tuple[tuple[str, ...], dict]:
    plugins = raw.get("plugins") or []
    i18n = next((p["i18n"] for p in plugins if isinstance(p, dict) and "i18n" in p), None)
    if i18n is None:  # one language: the theme's, as Material shows it
        theme = raw.get("theme") if isinstance(raw.get("theme"), dict) else {}
        lang = str(theme.get("language") or DEFAULT_LANGUAGE)
        return (lang,), {lang: lang}
    entries = (i18n or {}).get("languages") if isinstance(i18n, dict) else None
    if not isinstance(entries, list) or not entries:
        raise InputError(config_file, _line_of(config_file, r"^[ \t-]*i18n:"), "the i18n plugin lists no languages")
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("locale"), str):
            raise InputError(config_file, None, f"i18n language {number} has no locale:")
        if not isinstance(entry.get("name"), str):
            line = _line_of(config_file, rf"^[ \t-]*locale:[ \t]*['\"]?{re.escape(entry['locale'])}\b")
            raise InputError(config_file, line, f"i18n language {entry['locale']!r} has no name: (the i18n "
                             "plugin needs one, such as name: Deutsch)")
    entries = sorted(entries, key=lambda lang: not lang.get("default", False))
    return tuple(lang["locale"] for lang in entries), {lang["locale"]: lang["name"] for lang in entries}


@functools.cache
def _load(config_file: Path) -> SiteConfig:
    raw = _read_yaml(config_file)
    root = config_file.parent
    languages, names = _languages(raw, config_file)
    extensions = raw.get("markdown_extensions") or []
    snippets = _extension_options(extensions if isinstance(extensions, list) else [], "pymdownx.snippets")
    if snippets is not None:
        base = snippets.get("base_path", ["."])
        base = [base] if isinstance(base, str) else base
        snippets["base_path"] = [str(root / b) for b in base]
    return SiteConfig(root=root, docs_dir=root / str(raw.get("docs_dir") or "docs"), languages=languages,
                      language_names=names, snippets=snippets, config_file=config_file,
                      custom_fences=_custom_fences(raw, extensions if isinstance(extensions, list) else []))
