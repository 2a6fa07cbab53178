"""`--8<--` includes, expanded by pymdownx.snippets itself with the site's settings.

Each line is expanded on its own so that every resulting line keeps where it
came from: the page line of the marker and, for included text, the snippets/
file and its line.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

import markdown
from pymdownx.snippets import SnippetMissingError

from jax_kb.markdown.errors import InputError
from jax_kb.markdown.site_config import SiteConfig


@dataclass(frozen=True)
class SourceLine:
    text: str
    page_line: int
    include: tuple[str, int] | None = None  # (snippets file, its line) for included text

    def where(self, page_path: str) -> str:
        if self.include is None:
            return f"{page_path}:{self.page_line}"
        return f"{self.include[0]}:{self.include[1]} (included at {page_path}:{self.page_line})"


class IncludeProblem(Exception):
    """An include that exists but cannot be used; the page line is added by the caller."""


def _within(real: str, bases: list[str]) -> bool:
    for base in map(os.path.realpath, bases):
        if real == base or (os.path.isdir(base) and real.startswith(base.rstrip(os.sep) + os.sep)):
            return True
    return False


def _preprocessor(config: SiteConfig):
    """pymdownx.snippets' preprocessor, made strict where it is lenient: it checks the base path
    before resolving symlinks, skips include loops without a word, and lets a folder or a
    non-UTF-8 file end the run with a traceback."""
    md = markdown.Markdown(extensions=["pymdownx.snippets"],
                           extension_configs={"pymdownx.snippets": config.snippets})
    pp = md.preprocessors["snippet"]
    find, read = pp.get_snippet_path, pp.read_lines

    def get_snippet_path(path):
        found = find(path)
        if found is None:
            return None
        bases = ", ".join(os.path.relpath(b, config.root) + "/" for b in pp.base_path)
        if os.path.isdir(found):
            raise IncludeProblem(f"include {path!r} is a folder, not a file")
        if not _within(os.path.realpath(found), pp.base_path):
            raise IncludeProblem(f"include {path!r} resolves to {os.path.realpath(found)}, outside {bases}: "
                                 "only files inside it are published")
        if found in pp.seen:
            raise IncludeProblem(f"include loop: {path!r} is already being included")
        return found

    def read_lines(path):
        try:
            return read(path)
        except UnicodeDecodeError as exc:
            raise IncludeProblem(f"include {os.path.relpath(path, config.root)} is not "
                                 f"{pp.encoding} text ({exc.reason} at byte {exc.start})") from None
        except OSError as exc:
            raise IncludeProblem(f"include {os.path.relpath(path, config.root)} cannot be read: "
                                 f"{exc.strerror}") from None

    pp.get_snippet_path, pp.read_lines = get_snippet_path, read_lines
    return pp


class Includes:
    """Expands the includes of one page, reusing pymdownx.snippets' own parser."""

    def __init__(self, config: SiteConfig):
        self.config = config
        self.pp = _preprocessor(config) if config.snippets is not None else None

    def _source_file(self, marker: str) -> str | None:
        match = self.pp.RE_ALL_SNIPPETS.match(marker)
        if not match or not match.group("snippet"):
            return None
        target = self.pp.parse_snippet_target(match.group("snippet")[1:-1].strip())
        return self.pp.get_snippet_path(target["path"]) if target else None

    def _origins(self, marker: str, expanded: list[str], page_line: int) -> list[SourceLine]:
        """Maps each expanded line back to its line in the included file."""
        source = self._source_file(marker)
        if source is None:
            return [SourceLine(text, page_line) for text in expanded]
        with open(source, encoding=self.config.snippets.get("encoding", "utf-8")) as f:
            file_lines = f.read().splitlines()
        rel = os.path.relpath(source, self.config.root)
        indent = len(marker) - len(marker.lstrip())
        out, cursor = [], 0
        for text in expanded:
            body = text[indent:]
            hit = next((i for i in range(cursor, len(file_lines)) if file_lines[i].strip() == body.strip()), None)
            if hit is None:
                out.append(SourceLine(text, page_line, (rel, cursor + 1)))
            else:
                out.append(SourceLine(text, page_line, (rel, hit + 1)))
                cursor = hit + 1
        return out

    def expand(self, lines: list[str], first_line: int, path: str) -> list[SourceLine]:
        if self.pp is None:  # the site has no pymdownx.snippets: a --8<-- line is text
            return [SourceLine(line, first_line + i) for i, line in enumerate(lines)]
        out: list[SourceLine] = []
        i = 0
        while i < len(lines):
            line, number = lines[i], first_line + i
            if "8<" not in line:
                out.append(SourceLine(line, number))
                i += 1
                continue
            match = self.pp.RE_ALL_SNIPPETS.match(line)
            chunk = [line]
            if match and match.group("block_marker") and not match.group("escape"):
                end = next((j for j in range(i + 1, len(lines)) if self.pp.RE_ALL_SNIPPETS.match(lines[j])
                            and self.pp.RE_ALL_SNIPPETS.match(lines[j]).group("block_marker")), None)
                if end is None:
                    raise InputError(path, number, "a '--8<--' block of includes is never closed")
                chunk = lines[i:end + 1]
            self.pp.seen = set()
            try:
                expanded = self.pp.parse_snippets(chunk)
            except SnippetMissingError as exc:
                bases = ", ".join(os.path.relpath(b, self.config.root) + "/" for b in self.pp.base_path)
                raise InputError(path, number, f"missing include: {exc} (looked in {bases})") from None
            except IncludeProblem as exc:
                raise InputError(path, number, str(exc)) from None
            if len(chunk) == 1 and match and match.group("inline_marker") and not match.group("escape"):
                out.extend(self._origins(line, expanded, number))
            else:
                out.extend(SourceLine(text, number) for text in expanded)
            i += len(chunk)
        return out
