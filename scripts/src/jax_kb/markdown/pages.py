"""One reading of a Markdown page, shared by the snippet engine, the i18n tools and the site hooks."""
from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from jax_kb.markdown.errors import InputError
from jax_kb.markdown.fences import Fence, find_fences
from jax_kb.markdown.frontmatter import split_front_matter
from jax_kb.markdown.includes import Includes, SourceLine
from jax_kb.markdown.site_config import SiteConfig, load_site_config

NEWLINE = re.compile(r"\r\n|\r|\n")
LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?$")
HEADING_ID = re.compile(r"^#{1,6}[ \t].*?\{[^}]*#(?P<id>[\w-]+)[^}]*\}[ \t]*$")
LINK = re.compile(r"!?\[[^\]]*\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")


@dataclass
class Page:
    path: str  # relative to the project root, with forward slashes
    lang: str
    page_id: str  # the language-neutral name, e.g. glossary/vmap
    text: str
    source: Path  # the file, absolute
    meta: dict
    meta_lines: dict[str, int]
    body: list[SourceLine] = field(default_factory=list)
    fences: list[Fence] = field(default_factory=list)

    @property
    def slug(self) -> str:
        return self.page_id.rsplit("/", 1)[-1]

    @property
    def digest(self) -> str:
        """What a translation's `translation_of` records of its English page."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()[:12]

    def prose_lines(self) -> list[SourceLine]:
        """Body lines outside code fences (fence lines included)."""
        code = {n for fence in self.fences for n in range(fence.line, fence.end_line + 1)}
        return [line for line in self.body if line.page_line not in code]

    def heading_ids(self) -> list[tuple[str, int]]:
        return [(m["id"], l.page_line) for l in self.prose_lines() if (m := HEADING_ID.match(l.text))]

    def links(self) -> list[tuple[str, int]]:
        """(target, line of the link's start); link text may wrap onto the next lines of its paragraph."""
        found = []
        for paragraph in _runs(self.prose_lines()):
            starts = [0]
            for line in paragraph:
                starts.append(starts[-1] + len(line.text) + 1)
            text = "\n".join(line.text for line in paragraph)
            for m in LINK.finditer(text):
                row = next(i for i, start in enumerate(starts) if start > m.start()) - 1
                found.append((m["target"], paragraph[row].page_line))
        return found


def _runs(lines: list[SourceLine]) -> list[list[SourceLine]]:
    """Consecutive page lines, split where a fence was left out or a blank line ends a paragraph."""
    runs: list[list[SourceLine]] = []
    for line in lines:
        if runs and runs[-1] and runs[-1][-1].page_line + 1 == line.page_line and line.text.strip():
            runs[-1].append(line)
        elif line.text.strip():
            runs.append([line])
    return runs


def split_lines(text: str) -> list[str]:
    """Lines as editors number them (str.splitlines also splits on form feeds and U+2028)."""
    lines = NEWLINE.split(text)
    return lines[:-1] if lines and lines[-1] == "" else lines


def language_of(path: Path, config: SiteConfig) -> tuple[str, str]:
    """(language, page id) from the suffix structure: vmap.es.md is Spanish vmap."""
    rel = path.resolve().relative_to(config.docs_dir.resolve()).as_posix() if path.resolve().is_relative_to(
        config.docs_dir.resolve()) else path.name
    stem = rel[:-3] if rel.endswith(".md") else rel
    base, _, suffix = stem.rpartition(".")
    if base and suffix in config.languages[1:]:
        return suffix, base
    return config.default_language, stem


def unknown_language(path: Path, config: SiteConfig) -> str | None:
    """The suffix of vmap.de.md when it reads as a language code that mkdocs.yml does not list:
    the site would build it as an English page named vmap.de."""
    base, _, suffix = path.name[:-3].rpartition(".") if path.name.endswith(".md") else ("", "", "")
    if len(config.languages) > 1 and base and LANGUAGE_CODE.match(suffix) and suffix not in config.languages:
        return suffix
    return None


def display_path(path: Path, config: SiteConfig) -> str:
    """The path as reports show it: relative to the site's root where it lies under it, symlinks resolved."""
    return _shown(os.path.realpath(path), config)


def display_paths(paths: list[Path], config: SiteConfig) -> list[str]:
    """display_path of many files: each folder is resolved once, a file itself only when it is a link
    (a --reuse run shows thousands of paths in few folders)."""
    folders: dict[str, str] = {}
    out = []
    for path in paths:
        folder, name = os.path.split(os.path.abspath(path))
        if os.path.islink(path) or not name:
            out.append(display_path(path, config))
            continue
        if folder not in folders:
            folders[folder] = os.path.realpath(folder)
        out.append(_shown(os.path.join(folders[folder], name), config))
    return out


def _shown(resolved: str, config: SiteConfig) -> str:
    root = os.path.join(config.root, "")
    return Path(resolved[len(root):]).as_posix() if resolved.startswith(root) else resolved


def read_page(path: str | Path, config: SiteConfig | None = None, text: str | None = None) -> Page:
    """Reads a page; input it cannot use is an InputError with file and line."""
    config = config or load_site_config()
    path = Path(path)
    shown = display_path(path, config)
    if text is None:
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(shown, None, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        except OSError as exc:
            raise InputError(shown, None, f"cannot be read: {exc.strerror or exc}") from None
    if suffix := unknown_language(path, config):
        raise InputError(shown, None, f"the language suffix .{suffix} is not one of mkdocs.yml's languages "
                         f"({', '.join(config.languages)}): add the language first (make new-lang), or rename the file")
    meta, body_start, meta_lines = split_front_matter(text, shown)
    lang, page_id = language_of(path, config)
    raw_lines = split_lines(text)[body_start - 1:]
    body = Includes(config).expand(raw_lines, body_start, shown)
    return Page(shown, lang, page_id, text, path.resolve(), meta, meta_lines, body, find_fences(body, shown))


def markdown_files(paths: list[str | Path]) -> list[Path]:
    """The Markdown files named, folders searched recursively, in a stable order."""
    found: list[Path] = []
    for p in map(Path, paths):
        found.extend(sorted(p.rglob("*.md")) if p.is_dir() else [p])
    return found
