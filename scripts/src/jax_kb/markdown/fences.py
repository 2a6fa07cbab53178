"""Fenced code blocks as pymdownx.superfences sees them, nested ones included.

Fence boundaries follow SuperFences' own line rules (`search_nested`): a fence may sit behind a
container's prefix (indentation and blockquote markers `>`), every line of it carries that prefix,
and it ends at a line that is exactly its marker behind exactly that prefix. A fence that breaks
those rules is shown by the site as text: one cut off by a line that lacks the prefix, or never
closed, is an InputError at its opening line. One whose options SuperFences refuses is still read
to its closing line, as its author meant it, and says why it is `dropped`: one bad opening line is
one error, not a page read askew from there on. The info string is read with superfences' own
pattern, so ```python {.no-run}, ```{.python} and ```py title="x.py" mean here what they mean on
the site. A fence the site does not show as code (inside an HTML comment, or indented so far that
Markdown makes it a literal code block) is still found, so that its lines are not read as prose,
but carries why it is hidden.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from markdown.extensions.attr_list import get_attrs_and_remainder
from pymdownx.superfences import RE_HL_LINES, RE_LINENUMS, RE_NESTED_FENCE_START, RE_OPTIONS

from jax_kb.markdown.errors import InputError
from jax_kb.markdown.includes import SourceLine

PREFIX_CHARS = " \t>"  # superfences' PREFIX_CHARS: what may stand before a fence marker
OPENER = re.compile(r"(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`]*?)[ \t]*$")  # matched after the prefix
# Lines whose indented continuation belongs to them, as Python-Markdown and its extensions test
# them: admonitions, details and content tabs at the container's own column; list items,
# definitions (def_list) and footnotes up to three spaces in.
CONTAINER_AT_COLUMN = re.compile(r"^(?:!!!|\?\?\?\+?|===[+!]{0,2})[ \t]")
CONTAINER_INDENTED = re.compile(r"^ {0,3}(?:[-*+][ \t]+\S|\d{1,9}\.[ \t]+\S|:[ \t]+\S|\[\^[^\]]+\]:)")
CONTAINER_STARTS, ITEM_STARTS = frozenset("!?=-*+:[0123456789"), frozenset("-*+0123456789")
LIST_ITEM = re.compile(r"^ {0,3}(?:[-*+]|\d{1,9}\.)[ \t]")  # unlike the others, it cannot interrupt a paragraph
QUOTE_MARKER = re.compile(r"^ {0,3}> ?")  # Python-Markdown's BlockQuoteProcessor: what a quoted line loses
TAB_LENGTH = 4  # Python-Markdown's: the indent of nested content and of indented code blocks
# Options that SuperFences' highlight validator takes without braces, and the values it accepts.
BARE_OPTIONS = {"hl_lines": RE_HL_LINES, "linenums": RE_LINENUMS, "title": None, "title_mode": None}

HIDDEN_IN_COMMENT = "inside an HTML comment, so the site does not show it"
HIDDEN_AS_INDENTED_CODE = ("indented as a literal code block, so the site shows the fence markers as text and "
                           "does not highlight it; indent it like the text around it")


@dataclass
class Fence:
    line: int  # page line of the opening fence
    end_line: int  # page line of the closing fence
    prefix: str  # what stands before the opening marker, as written: indentation and blockquote markers
    info: str  # the text after the fence characters, as written
    lang: str | None
    classes: tuple[str, ...]  # without the language
    attrs: dict[str, str]  # "?" holds text superfences cannot read as options
    braced: bool  # options were written inside { }
    body: list[SourceLine] = field(default_factory=list)  # the code, the container's prefix removed
    repeated: tuple[str, ...] = ()  # options written more than once
    hidden: str | None = None  # why the site does not show this fence as code; None when it does
    dropped: str | None = None  # why SuperFences refuses its options (the site then shows it as text), or None

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


def dropped_because(info: Info, text: str) -> str | None:
    """Why SuperFences refuses fence options (then the site shows the block as text), or None."""
    if "?" in info.attrs:
        return (f"fence options {text!r} cannot be read, so the site drops the block: write them inside "
                "braces, as in ```{.python .no-run}")
    if info.braced:
        return None
    for key, value in info.attrs.items():
        if key not in BARE_OPTIONS:
            return (f"fence options {text!r} must go inside braces, as in ```{{.python raises=\"ValueError\"}}: "
                    "without them the site drops the block")
        if BARE_OPTIONS[key] is not None and not BARE_OPTIONS[key].match(value):
            return f"fence option {key}={value!r} is not valid, so the site drops the block: see pymdownx.highlight"
    return None


def _normalized(text: str) -> str:
    """A line as SuperFences reads it, after Python-Markdown's NormalizeWhitespace: tabs expanded,
    a line of spaces emptied."""
    if "\t" in text:
        text = text.expandtabs(TAB_LENGTH)
    return text if text.strip(" ") else ""


def _prefix_length(text: str) -> int:
    return len(text) - len(text.lstrip(PREFIX_CHARS))


def _quoted(text: str) -> str | None:
    """The text inside the blockquote marker of a quoted line, or None for another line."""
    marker = QUOTE_MARKER.match(text)
    return text[marker.end():] if marker else None


ITEM, DEFINITION, BLOCK = "item", "definition", "block"  # kinds of container


class Layout:
    """Where Markdown puts each line: the containers it is in (and the column their content starts
    at), whether it opens an indented code block, whether it lies in an HTML comment; inside a
    blockquote, the same again for the quoted text. Only what decides if a fence is shown is
    modelled."""

    def __init__(self, outermost: bool = True):
        self.containers = [(0, BLOCK)]  # (content column, kind), innermost last
        self.blank_before = True
        self.in_indented_code = False
        self.in_item_paragraph = False  # since the last blank line, the lines are a list item's
        self.in_comment = False
        self.outermost = outermost  # comments are followed on whole lines, by the outermost layout only
        self.quote: Layout | None = None  # the layout inside the blockquote the last lines were in

    def advance(self, text: str, fence: bool = False) -> str | None:
        """Takes in one line, or with fence=True a whole fence whose opening line this is; returns
        why the site does not show a fence opening on this line as code (None: it does)."""
        stripped = text.strip()
        if not stripped:
            self.blank_before, self.in_item_paragraph = True, False
            if self.quote is not None:  # a blank line may part two blocks of one blockquote
                self.quote.advance(text)
            return None
        width = len(text) - len(text.lstrip())  # tabs are expanded already
        # A list item cannot interrupt a paragraph. It can start a block: after a blank line, after
        # an item of its own list, or on a line that leaves an admonition's, a tab's or a details'
        # content (Markdown parses the rest anew).
        sibling_item = stripped[0] in ITEM_STARTS and any(
            kind == ITEM and column - TAB_LENGTH <= width < column for column, kind in self.containers)
        starts_block = self._leave(text, width) or self.blank_before or sibling_item
        hidden = HIDDEN_IN_COMMENT if self.in_comment else None
        coded = width >= self.containers[-1][0] + TAB_LENGTH and (self.blank_before or self.in_indented_code)
        self.in_indented_code = coded
        if coded:
            hidden = hidden or HIDDEN_AS_INDENTED_CODE
            self.quote = None
        elif stripped[0] == ">" and (inner := _quoted(text[min(width, self.containers[-1][0]):])) is not None:
            self.quote = self.quote or Layout(outermost=False)
            inside = self.quote.advance(inner, fence)
            hidden = hidden or inside
        else:
            if self.quote is not None and not self.blank_before:
                self.quote.advance(text, fence)  # a lazy line: Markdown continues the quoted paragraph
            else:
                self.quote = None
            if not fence and stripped[0] in CONTAINER_STARTS:
                self._open_container(text[min(width, self.containers[-1][0]):], starts_block)
        if self.outermost and not fence and (self.in_comment or "<!--" in stripped):
            self._track_comment(stripped)
        self.blank_before = False
        return hidden

    def _leave(self, text: str, width: int) -> bool:
        """Closes the containers this line lies outside of; True when that starts a new block."""
        new_block = False
        while len(self.containers) > 1 and width < self.containers[-1][0]:
            kind = self.containers[-1][1]
            if kind != BLOCK and not self.blank_before and not LIST_ITEM.match(text.lstrip()):
                break  # a lazy line: Markdown keeps it in the list item or definition
            self.containers.pop()
            self.quote = None  # a blockquote inside the container ends with it
            new_block = new_block or kind == BLOCK
        return new_block

    def _open_container(self, own: str, starts_block: bool) -> None:
        """Opens the container that this line (its text within its container) starts, if any."""
        if self.in_comment:
            return
        item = LIST_ITEM.match(own) is not None
        if CONTAINER_AT_COLUMN.match(own) or (CONTAINER_INDENTED.match(own) and (
                not item or starts_block or self.in_item_paragraph)):
            # Python-Markdown nests by whole tab stops: "  - sub" is an item of the same list.
            kind = ITEM if item else DEFINITION if own.lstrip().startswith(":") else BLOCK
            self.containers.append((self.containers[-1][0] + TAB_LENGTH, kind))
            self.in_item_paragraph = item

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


@dataclass
class _Open:
    """A fence SuperFences has opened and not yet closed: its prefix and marker."""

    width: int  # the prefix's length, tabs expanded
    quotes: int  # blockquote markers in the prefix
    closer: re.Pattern
    empty_lines: int = 0

    def read(self, text: str) -> str:
        """"code", "close" or "cut" for the next line, as SuperFences' eval_fence and eval_quoted say."""
        n = 0
        while n < self.width and n < len(text) and text[n] in PREFIX_CHARS:
            n += 1
        prefix, content = text[:n], text[n:]
        quotes = prefix.count(">")
        if not self.quotes:
            if quotes:
                return "cut"
            if not text.strip():
                return "code"
            if len(prefix) != self.width:
                return "cut"
            return "close" if self.closer.match(content) else "code"
        if quotes > self.quotes:
            return "cut"
        if content == "":
            self.empty_lines += 1
            return "code"
        if len(prefix) < self.width or (self.empty_lines and quotes < self.quotes):
            return "cut"
        if self.closer.match(content):
            return "close"
        self.empty_lines = 0
        return "code"


def _cut_message(marker: str, prefix: str, line: int | None) -> str:
    if line is None:
        return f"code fence {marker} opened here is never closed"
    return (f"code fence {marker} opened here is cut off at line {line}, which does not start with the fence's prefix "
            f"{prefix!r}, so the site shows it as text: start every line of the block, and its closing {marker}, "
            f"with {prefix!r}")


def find_fences(lines: list[SourceLine], path: str) -> list[Fence]:
    """All fences of a page body, in order; fences inside fences are code, not fences."""
    fences: list[Fence] = []
    layout = Layout()
    texts = [_normalized(line.text) for line in lines]
    i = 0
    while i < len(lines):
        text = texts[i]
        width = _prefix_length(text) if "``" in text or "~~" in text else -1  # most lines have no marker
        match = OPENER.match(text, width) if width >= 0 else None
        if not match:
            layout.advance(text)
            i += 1
            continue
        opener, marker = lines[i], match["fence"]
        raw_prefix = opener.text[:_prefix_length(opener.text)]
        info = parse_info(match["info"], path, opener.page_line)
        hidden = layout.advance(text, fence=True)
        state = _Open(width, text[:width].count(">"), re.compile(re.escape(marker) + r"[ \t]*$"))
        end, outcome = i + 1, "cut"
        while end < len(lines):
            outcome = state.read(texts[end])
            if outcome != "code":
                break
            end += 1
        if outcome != "close" and not hidden:
            cut_at = lines[end].page_line if end < len(lines) else None
            raise InputError(path, opener.page_line, _cut_message(marker, text[:width], cut_at))
        if outcome != "close":
            if end == len(lines):
                break  # SuperFences waits for the closing line to the end: no fence follows on the site
            for j in range(i + 1, end + 1):  # shown as text; SuperFences goes on after the line that cut it
                layout.advance(texts[j])
            i = end + 1
            continue
        body = [SourceLine(texts[j][width:], lines[j].page_line, lines[j].include) for j in range(i + 1, end)]
        fences.append(Fence(opener.page_line, lines[end].page_line, raw_prefix, match["info"], info.lang,
                            info.classes, info.attrs, info.braced, body, info.repeated, hidden,
                            dropped_because(info, match["info"].strip())))
        i = end + 1
    return fences
