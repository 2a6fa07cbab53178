"""Fenced code blocks as pymdownx.superfences sees them, nested ones included.

The info string is read with superfences' own pattern, so ```python {.no-run}, ```{.python}
and ```py title="x.py" mean here what they mean on the site. A fence the site does not show as
code (inside an HTML comment, or indented so far that Markdown makes it a literal code block)
is still found, so that its lines are not read as prose, but carries why it is hidden.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from markdown.extensions.attr_list import get_attrs_and_remainder
from pymdownx.superfences import RE_NESTED_FENCE_START, RE_OPTIONS

from jax_kb.markdown.errors import InputError
from jax_kb.markdown.includes import SourceLine

OPENER = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`]*?)[ \t]*$")
# Lines whose indented continuation belongs to them: admonitions, details, content tabs, list items,
# definitions (def_list) and footnotes.
CONTAINER = re.compile(r"^(?:(?:!!!|\?\?\?\+?|===\+?)[ \t]|[-*+][ \t]+\S|\d{1,9}[.)][ \t]+\S|:[ \t]+\S|\[\^[^\]]+\]:)")
TAB_LENGTH = 4  # Python-Markdown's: the indent of nested content and of indented code blocks

HIDDEN_IN_COMMENT = "inside an HTML comment, so the site does not show it"
HIDDEN_AS_INDENTED_CODE = ("indented as a literal code block, so the site shows the fence markers as text and "
                           "does not highlight it; indent it like the text around it")


@dataclass
class Fence:
    line: int  # page line of the opening fence
    end_line: int  # page line of the closing fence
    indent: str
    info: str  # the text after the fence characters, as written
    lang: str | None
    classes: tuple[str, ...]  # without the language
    attrs: dict[str, str]  # "?" holds text superfences cannot read as options
    braced: bool  # options were written inside { }
    body: list[SourceLine] = field(default_factory=list)
    repeated: tuple[str, ...] = ()  # options written more than once
    hidden: str | None = None  # why the site does not show this fence as code; None when it does

    @property
    def code(self) -> str:
        return "\n".join(line.text for line in self.body) + ("\n" if self.body else "")

    @property
    def from_include(self) -> bool:
        return any(line.include for line in self.body)


@dataclass(frozen=True)
class Info:
    lang: str | None
    classes: tuple[str, ...]
    attrs: dict[str, str]
    braced: bool
    repeated: tuple[str, ...]


def _repeated(names: list[str]) -> tuple[str, ...]:
    return tuple(sorted({n for n in names if names.count(n) > 1}))


def parse_info(info: str, path: str, line: int) -> Info:
    """Language, classes, attributes, whether braces were used, and options given twice."""
    text = info.strip()
    match = RE_NESTED_FENCE_START.match("```" + (" " + text if text else ""))
    if match is None or match["unrecognized"]:
        # Superfences drops such a fence; the first word still says whose it is (```{code-cell}).
        first = text.split()[0].lstrip("{.").rstrip("}") if text else ""
        return Info(first or None, (), {"?": text}, text.startswith("{"), ())
    if match["attrs"] is not None:
        pairs, rest = get_attrs_and_remainder(match["attrs"])
        if rest.strip():
            raise InputError(path, line, f"fence options {text!r} could not be read near {rest.strip()!r}")
        classes = [v for k, v in pairs if k == "."]
        names = [f".{v}" for v in classes] + [k for k, _ in pairs if k != "."]
        lang = match["lang"] or (classes.pop(0) if classes else None)
        attrs = {k: v or "" for k, v in pairs if k not in (".", "#")}
        return Info(lang, tuple(classes), attrs, True, _repeated(names))
    pairs = [(m["key"], m["value"] if m["value"] is not None else m["key"])
             for m in RE_OPTIONS.finditer(match["options"] or "")]
    return Info(match["lang"], (), dict(pairs), False, _repeated([k for k, _ in pairs]))


def _width(indent: str) -> int:
    return len(indent.expandtabs(TAB_LENGTH))


class Layout:
    """Where Markdown puts each line: the indent its container's content starts at, whether it
    opens an indented code block, whether it lies in an HTML comment. Only what decides if a
    fence is shown is modelled."""

    def __init__(self):
        self.content_indents = [0]
        self.blank_before = True
        self.in_indented_code = False
        self.in_comment = False

    def hidden(self, text: str) -> str | None:
        """Why a fence opening on this line is not shown as code, or None."""
        if self.in_comment:
            return HIDDEN_IN_COMMENT
        if self._opens_indented_code(text):
            return HIDDEN_AS_INDENTED_CODE
        return None

    def _opens_indented_code(self, text: str) -> bool:
        width = _width(text[:len(text) - len(text.lstrip())])
        while len(self.content_indents) > 1 and width < self.content_indents[-1]:
            self.content_indents.pop()
        # An indented code block cannot interrupt a paragraph: it needs a blank line (or code) before.
        return width >= self.content_indents[-1] + TAB_LENGTH and (self.blank_before or self.in_indented_code)

    def advance(self, text: str, fence: bool = False) -> None:
        """Takes in one line (or, with fence=True, a whole fence whose opener is this line)."""
        stripped = text.strip()
        if not stripped:
            self.blank_before = True
            return
        coded = self._opens_indented_code(text)
        self.in_indented_code = coded
        if not coded and not fence:
            if not self.in_comment and CONTAINER.match(stripped):
                # Python-Markdown nests by whole tab stops: "  - sub" is an item of the same list.
                self.content_indents.append(self.content_indents[-1] + TAB_LENGTH)
            self._track_comment(stripped)
        self.blank_before = False

    def _track_comment(self, text: str) -> None:
        while text:
            if self.in_comment:
                end = text.find("-->")
                if end < 0:
                    return
                self.in_comment, text = False, text[end + 3:]
            else:
                start = text.find("<!--")
                if start < 0:
                    return
                self.in_comment, text = True, text[start + 4:]


def find_fences(lines: list[SourceLine], path: str) -> list[Fence]:
    """All fences of a page body, in order; fences inside fences are code, not fences."""
    fences: list[Fence] = []
    layout = Layout()
    i = 0
    while i < len(lines):
        match = OPENER.match(lines[i].text)
        if not match:
            layout.advance(lines[i].text)
            i += 1
            continue
        indent, marker = match["indent"], match["fence"]
        opener = lines[i]
        hidden = layout.hidden(opener.text)
        closer = re.compile(rf"^[ \t]*{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$")
        end = next((j for j in range(i + 1, len(lines)) if closer.match(lines[j].text)), None)
        if end is None:
            if hidden:  # shown as text, not as code: its lines are prose
                layout.advance(opener.text)
                i += 1
                continue
            raise InputError(path, opener.page_line, f"code fence {marker} opened here is never closed")
        info = parse_info(match["info"], path, opener.page_line)
        body = [SourceLine(l.text[len(indent):] if l.text.startswith(indent) else l.text.lstrip(), l.page_line, l.include)
                for l in lines[i + 1:end]]
        fences.append(Fence(opener.page_line, lines[end].page_line, indent, match["info"], info.lang,
                            info.classes, info.attrs, info.braced, body, info.repeated, hidden))
        layout.advance(opener.text, fence=True)
        i = end + 1
    return fences
