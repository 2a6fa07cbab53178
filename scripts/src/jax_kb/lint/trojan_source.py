"""Trojan Source (CVE-2021-42574): text that shows readers something other than what runs.

- Bidirectional control characters (Unicode's Bidi_Control set) reorder what is displayed: a
  comment can look like code and code like a comment. Refused anywhere in a page, front matter,
  prose and code alike, as GitHub warns and rustc refuses them.
- In code (fences and inline code), an identifier that mixes scripts (a Cyrillic "с" in
  "сheck") looks like another that it is not, and an invisible format character (a zero-width
  space) hides inside one or inside a string. Scripts are mixed as Unicode's mixed-script
  detection (UTS #39) defines it, per part between underscores, so `x_вход` or `σ_x` pass:
  prose and comments in any language are left alone, since only names are tokenized (with the
  lexer the site highlights the fence with).
"""
from __future__ import annotations

import bisect
import re
import unicodedata

from fontTools import unicodedata as scripts
from pygments.lexers import get_lexer_by_name
from pygments.token import Name
from pygments.util import ClassNotFound

from jax_kb.markdown import Fence, InputError, Page, SourceLine
from jax_kb.markdown.pages import split_lines
from jax_kb.lint.prose import INLINE_CODE

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
WORD = re.compile(r"\w+")
ANY_SCRIPT = frozenset({"Zyyy", "Zinh"})  # Common and Inherited go with every script
# UTS #39's augmented script sets: the scripts that Japanese, Korean and Chinese writing mix.
AUGMENTED = {"Hani": {"Hanb", "Jpan", "Kore"}, "Hira": {"Jpan"}, "Kana": {"Jpan"}, "Hang": {"Kore"},
             "Bopo": {"Hanb"}}


def _name(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed')}"


def _scripts(char: str) -> set[str] | None:
    """The scripts a character may be written in; None for every script."""
    found = set(scripts.script_extension(char))
    if found <= ANY_SCRIPT:
        return None
    return found.union(*(AUGMENTED.get(s, ()) for s in found))


def mixed_scripts(identifier: str) -> list[str] | None:
    """The scripts of the first part (between underscores) that mixes them, else None."""
    for part in identifier.split("_"):
        common: set[str] | None = None
        for char in part:
            if (own := _scripts(char)) is not None:
                common = own if common is None else common & own
                if not common:
                    return sorted({scripts.script_name(scripts.script(c)) for c in part
                                   if _scripts(c) is not None})
    return None


def _bidi_problems(page: Page) -> list[InputError]:
    problems = []
    lines = split_lines(page.text)
    for number, text in enumerate(lines, start=1):
        if found := [c for c in text if c in BIDI_CONTROLS]:
            problems.append(InputError(page.path, number, f"bidirectional control character {_name(found[0])}: it "
                                       "makes the text show in another order than it is read (Trojan Source); "
                                       "remove it"))
    for line in page.body:
        if line.include and (found := [c for c in line.text if c in BIDI_CONTROLS]):
            problems.append(InputError(page.path, line.page_line, f"bidirectional control character {_name(found[0])} "
                                       f"in {line.where(page.path)}: it makes the text show in another order than "
                                       "it is read (Trojan Source); remove it"))
    return problems


def _identifier_problem(identifier: str) -> str | None:
    if found := mixed_scripts(identifier):
        return (f"identifier {identifier!r} mixes scripts ({', '.join(found)}): it looks like a name it is not; "
                "write it in one script")
    return None


def _invisible_problem(text: str) -> str | None:
    for char in text:
        if unicodedata.category(char) == "Cf" and char not in BIDI_CONTROLS:
            return f"invisible character {_name(char)} in code: it hides in a name or a string; remove it"
    return None


def _fence_names(fence: Fence) -> list[tuple[SourceLine, str]]:
    """Each name in the fence's code, with its line, as the site's highlighter reads them."""
    try:
        lexer = get_lexer_by_name(fence.lang) if fence.lang else None
    except ClassNotFound:
        lexer = None
    if lexer is None or not fence.body:
        return []
    starts, offset = [], 0
    for line in fence.body:
        starts.append(offset)
        offset += len(line.text) + 1
    return [(fence.body[bisect.bisect_right(starts, index) - 1], value)
            for index, token, value in lexer.get_tokens_unprocessed(fence.code) if token in Name]


def _code_problems(page: Page) -> list[InputError]:
    problems: list[InputError] = []

    def add(line: SourceLine, message: str | None) -> None:
        if message:
            where = "" if line.include is None else f" (in {line.where(page.path)})"
            problems.append(InputError(page.path, line.page_line, message + where))

    for fence in page.fences:
        for line in fence.body:
            add(line, _invisible_problem(line.text))
        for line, name in _fence_names(fence):
            add(line, _identifier_problem(name))
    for line in page.prose_lines():
        for code in INLINE_CODE.finditer(line.text):
            add(line, _invisible_problem(code[0]))
            for word in WORD.findall(code[0]):
                add(line, _identifier_problem(word))
    return problems


def trojan_source_problems(page: Page) -> list[InputError]:
    problems, seen = [], set()
    for problem in _bidi_problems(page) + _code_problems(page):
        if str(problem) not in seen:  # a name used many times on one line is named once
            seen.add(str(problem))
            problems.append(problem)
    return problems
