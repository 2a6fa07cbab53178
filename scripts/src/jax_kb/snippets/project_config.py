"""The project's settings for the engine: `[tool.jax-kb]` in pyproject.toml, or `extra: jax-kb:` in
mkdocs.yml, with `overrides` for folders and pages. Every key is documented in ARCHITECTURE.md.

Settings change what a page's blocks do without editing the page: setup code run first, fences
and files to skip, going on after a failure, which fence languages and classes are Python, one
namespace per page or per block, and the doctest flags of interpreter sessions.
"""
from __future__ import annotations

import fnmatch
import functools
import os
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

from jax_kb.markdown import InputError, SiteConfig
from jax_kb.markdown.site_config import _read_yaml
from jax_kb.snippets.doctest_flags import parse_flags

TOOL = "jax-kb"
PYTHON_LANGUAGES = ("python", "py", "python3", "py3")
# Classes Material for MkDocs gives code blocks (annotations, the copy and select buttons): they
# change how a block is shown, never what it does.
MATERIAL_CLASSES = ("annotate", "no-copy", "select", "no-select")
AFTER_FAILURE = ("stop", "continue")
NAMESPACES = ("page", "block")
# Keys that may differ per folder or page; `exclude` is the project's only.
PAGE_KEYS = {"setup", "skip_fences", "after_failure", "namespace", "languages", "display_classes",
             "doctest_flags", "timeout"}
KEYS = PAGE_KEYS | {"exclude", "overrides"}


@dataclass(frozen=True)
class Setup:
    code: str
    file: str  # where it is written, for tracebacks
    line: int  # the line of its first code line there


@dataclass(frozen=True)
class PageSettings:
    """The settings one page runs with, overrides applied."""

    setup: Setup | None = None
    skip_fences: tuple[str, ...] = ()  # selectors: .class, word, key, key="value"
    after_failure: str = "stop"
    namespace: str = "page"
    languages: tuple[str, ...] = PYTHON_LANGUAGES
    display_classes: tuple[str, ...] = MATERIAL_CLASSES
    doctest_flags: frozenset[str] = frozenset()
    timeout: float | None = None  # the default time limit of a block; None: the engine's

    def signature(self) -> tuple:
        """What decides results: pages with equal blocks and equal signatures run alike."""
        return (self.setup.code if self.setup else None, self.skip_fences, self.after_failure, self.namespace,
                self.languages, self.display_classes, tuple(sorted(self.doctest_flags)), self.timeout)


@dataclass(frozen=True)
class Override:
    paths: tuple[str, ...]
    values: dict = field(hash=False)


@dataclass(frozen=True)
class ProjectConfig:
    root: Path  # globs are relative to it
    source: str = ""  # the file the settings came from, "" when there are none
    exclude: tuple[str, ...] = ()
    defaults: PageSettings = PageSettings()
    overrides: tuple[Override, ...] = ()

    def excluded(self, path: Path) -> bool:
        return _matches(self._relative(path), self.exclude)

    def for_page(self, path: Path) -> PageSettings:
        settings = self.defaults
        relative = self._relative(path)
        for override in self.overrides:
            if _matches(relative, override.paths):
                settings = replace(settings, **override.values)
        return settings

    def _relative(self, path: Path) -> str:
        resolved, root = _real_path(os.fspath(path)), os.fspath(self.root)
        return os.path.relpath(resolved, root) if resolved.startswith(root + os.sep) else resolved


# Thousands of pages share a few folders: each folder is resolved once, a file only when it is a link.
_real_folder = functools.lru_cache(maxsize=None)(os.path.realpath)


def _real_path(path: str) -> str:
    folder, name = os.path.split(os.path.abspath(path))
    real = os.path.join(_real_folder(folder), name)
    return os.path.realpath(real) if os.path.islink(real) else real


def _matches(relative: str, patterns: tuple[str, ...]) -> bool:
    """fnmatch globs (`*` also crosses folders); a pattern naming a folder matches everything in it."""
    return any(fnmatch.fnmatchcase(relative, p) or relative.startswith(p.rstrip("/") + "/") for p in patterns)


def load_project_config(site: SiteConfig) -> ProjectConfig:
    """The settings of the project whose site `site` is; none is a ProjectConfig of defaults."""
    pyproject = site.root / "pyproject.toml"
    from_toml = _from_pyproject(pyproject) if pyproject.is_file() else None
    from_yaml = None
    if site.config_file is not None:
        extra = _read_yaml(site.config_file).get("extra")
        from_yaml = extra.get(TOOL) if isinstance(extra, dict) else None
    if from_toml is not None and from_yaml is not None:
        raise InputError(site.config_file, _line_of(site.config_file, rf"^\s*{TOOL}\s*:"),
                         f"the engine is configured here and in {pyproject.name} [tool.{TOOL}]: keep one")
    if from_toml is not None:
        return _parse(from_toml, pyproject, site.root, f"[tool.{TOOL}]")
    if from_yaml is not None:
        return _parse(from_yaml, site.config_file, site.root, f"extra: {TOOL}:")
    return ProjectConfig(site.root)


def _from_pyproject(path: Path) -> dict | None:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(path, None, f"cannot be read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise InputError(path, None, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        where = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        raise InputError(path, int(where[1]) if where else None,
                         f"not valid TOML: {str(exc)[:where.start()].strip() if where else exc}") from None
    tool = data.get("tool")
    return tool.get(TOOL) if isinstance(tool, dict) else None


def _line_of(path: Path, pattern: str) -> int | None:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    match = re.search(pattern, text, re.MULTILINE)
    return text.count("\n", 0, match.start()) + 1 if match else None


class _Reader:
    """Checks one table of settings, naming the file and the line of the key at fault."""

    def __init__(self, path: Path, where: str):
        self.path, self.where = path, where

    def error(self, key: str, message: str) -> InputError:
        return InputError(self.path, _line_of(self.path, rf"^\s*[\"']?{re.escape(key)}[\"']?\s*[=:]"),
                          f"{self.where} {key}: {message}")

    def strings(self, table: dict, key: str) -> tuple[str, ...]:
        value = table[key]
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self.error(key, "must be a list of strings, such as [\"docs/drafts/*\"]")
        return tuple(value)

    def choice(self, table: dict, key: str, choices: tuple[str, ...]) -> str:
        if table[key] not in choices:
            raise self.error(key, f"is {table[key]!r}; it must be one of {', '.join(map(repr, choices))}")
        return table[key]

    def page_values(self, table: dict) -> dict:
        values: dict = {}
        for key in table:
            if key == "setup":
                if not isinstance(table[key], str):
                    raise self.error(key, "must be a string of Python code")
                values["setup"] = self._setup(table[key])
            elif key == "after_failure":
                values[key] = self.choice(table, key, AFTER_FAILURE)
            elif key == "namespace":
                values[key] = self.choice(table, key, NAMESPACES)
            elif key in ("skip_fences", "display_classes"):
                values[key] = tuple(v.lower() for v in self.strings(table, key)) if key == "display_classes" \
                    else self.strings(table, key)
            elif key == "languages":
                values[key] = tuple(v.lower() for v in self.strings(table, key))
            elif key == "doctest_flags":
                try:
                    values[key] = parse_flags(self.strings(table, key), frozenset())
                except ValueError as exc:
                    raise self.error(key, str(exc)) from None
            elif key == "timeout":
                if isinstance(table[key], bool) or not isinstance(table[key], (int, float)) or table[key] <= 0:
                    raise self.error(key, "must be a positive number of seconds")
                values[key] = float(table[key])
        return values

    def _setup(self, code: str) -> Setup:
        try:
            compile(code, "<setup>", "exec", dont_inherit=True)
        except SyntaxError as exc:
            raise self.error("setup", f"line {exc.lineno} of the code: {exc.msg}") from None
        line = _line_of(self.path, r"^\s*[\"']?setup[\"']?\s*[=:]") or 1
        # A multi-line string starts on the line after the key (TOML's ''' and YAML's |).
        first = line + 1 if "\n" in code.rstrip("\n") or code.endswith("\n") else line
        return Setup(code, str(self.path), first)


def _parse(table, path: Path, root: Path, where: str) -> ProjectConfig:
    reader = _Reader(path, where)
    if not isinstance(table, dict):
        raise InputError(path, None, f"{where} must be a table of settings")
    for key in table:
        if key not in KEYS:
            raise reader.error(key, f"is not a setting; the settings are {', '.join(sorted(KEYS))}")
    exclude = reader.strings(table, "exclude") if "exclude" in table else ()
    defaults = replace(PageSettings(), **reader.page_values({k: v for k, v in table.items() if k in PAGE_KEYS}))
    overrides = []
    entries = table.get("overrides", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise reader.error("overrides", "must be a list of tables, each with paths = [...]")
    for number, entry in enumerate(entries, start=1):
        inner = _Reader(path, f"{where} overrides #{number}")
        if "paths" not in entry:
            raise reader.error("overrides", f"#{number} has no paths = [...] to say where it applies")
        for key in entry:
            if key not in PAGE_KEYS | {"paths"}:
                raise inner.error(key, f"cannot differ per folder; the keys of an override are "
                                       f"paths, {', '.join(sorted(PAGE_KEYS))}")
        overrides.append(Override(inner.strings(entry, "paths"),
                                  inner.page_values({k: v for k, v in entry.items() if k != "paths"})))
    return ProjectConfig(root.resolve(), str(path), exclude, defaults, tuple(overrides))
