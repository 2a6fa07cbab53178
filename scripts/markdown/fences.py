"""Fenced code blocks as pymdownx.superfences sees them, nested ones included."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from markdown.extensions.attr_list import get_attrs_and_remainder

from .errors import InputError
from .includes import SourceLine

OPENER = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`]*?)[ \t]*$")


@dataclass
class Fence:
    line: int  # page line of the opening fence
    end_line: int  # page line of the closing fence
    indent: str
    info: str  # the text after the fence characters, as written
    lang: str | None
    classes: tuple[str, ...]  # without the language
    attrs: dict[str, str]
    braced: bool  # options were written inside { }
    body: list[SourceLine] = field(default_factory=list)

    @property
    def code(self) -> str:
        return "\n".join(line.text for line in self.body) + ("\n" if self.body else "")

    @property
    def from_include(self) -> bool:
        return any(line.include for line in self.body)


def parse_info(info: str, path: str, line: int) -> tuple[str | None, tuple[str, ...], dict[str, str], bool]:
    """Language, classes, attributes and whether braces were used."""
    text = info.strip()
    if text.startswith("{"):
        if not text.endswith("}"):
            raise InputError(path, line, f"fence options {text!r} open a brace that is never closed")
        pairs, rest = get_attrs_and_remainder(text[1:-1])
        if rest.strip():
            raise InputError(path, line, f"fence options {text!r} could not be read near {rest.strip()!r}")
        classes = [v for k, v in pairs if k == "."]
        attrs = {k: v for k, v in pairs if k not in (".", "#")}
        lang = classes[0] if classes else None
        return lang, tuple(classes[1:]), attrs, True
    if not text:
        return None, (), {}, False
    lang, _, rest = text.partition(" ")
    attrs = {}
    if rest.strip():
        pairs, leftover = get_attrs_and_remainder(rest.strip())
        attrs = {k: v for k, v in pairs if k not in (".", "#")}
        if leftover.strip():
            attrs["?"] = leftover.strip()
    return lang, (), attrs, False


def find_fences(lines: list[SourceLine], path: str) -> list[Fence]:
    """All fences of a page body, in order; fences inside fences are code, not fences."""
    fences: list[Fence] = []
    i = 0
    while i < len(lines):
        match = OPENER.match(lines[i].text)
        if not match:
            i += 1
            continue
        indent, marker = match["indent"], match["fence"]
        opener = lines[i]
        closer = re.compile(rf"^[ \t]*{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$")
        end = next((j for j in range(i + 1, len(lines)) if closer.match(lines[j].text)), None)
        if end is None:
            raise InputError(path, opener.page_line, f"code fence {marker} opened here is never closed")
        lang, classes, attrs, braced = parse_info(match["info"], path, opener.page_line)
        body = [SourceLine(l.text[len(indent):] if l.text.startswith(indent) else l.text.lstrip(), l.page_line, l.include)
                for l in lines[i + 1:end]]
        fences.append(Fence(opener.page_line, lines[end].page_line, indent, match["info"], lang,
                            classes, attrs, braced, body))
        i = end + 1
    return fences
