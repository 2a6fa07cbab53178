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

from .errors import InputError
from .site_config import SiteConfig


@dataclass(frozen=True)
class SourceLine:
    text: str
    page_line: int
    include: tuple[str, int] | None = None  # (snippets file, its line) for included text

    def where(self, page_path: str) -> str:
        if self.include is None:
            return f"{page_path}:{self.page_line}"
        return f"{self.include[0]}:{self.include[1]} (included at {page_path}:{self.page_line})"


def _preprocessor(config: SiteConfig):
    md = markdown.Markdown(extensions=["pymdownx.snippets"],
                           extension_configs={"pymdownx.snippets": config.snippets})
    return md.preprocessors["snippet"]


class Includes:
    """Expands the includes of one page, reusing pymdownx.snippets' own parser."""

    def __init__(self, config: SiteConfig):
        self.config = config
        self.pp = _preprocessor(config)

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
            if len(chunk) == 1 and match and match.group("inline_marker") and not match.group("escape"):
                out.extend(self._origins(line, expanded, number))
            else:
                out.extend(SourceLine(text, number) for text in expanded)
            i += len(chunk)
        return out
