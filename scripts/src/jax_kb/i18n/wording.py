"""A translation's prose against its language's term list: every avoided rendering, at file:line.

Prose is the title, the summary and the body outside code fences, with inline code, link and
image targets, URLs, attribute lists and HTML tags blanked out (blanked, not removed, so that
columns and lines stay where they were)."""
from __future__ import annotations

import bisect
import re

from jax_kb.markdown import InputError, Page
from jax_kb.i18n.terminology import Terminology

PROSE_KEYS = ("title", "summary")
NOT_PROSE = re.compile(
    r"(?P<code>(`+).+?(?<!`)\2(?!`))"          # inline code
    r"|(?<=\])\([^)\s]*(?:\s+\"[^\"]*\")?\)"   # a link's or image's target and title
    r"|<[^>\n]*>"                              # autolinks and HTML tags
    r"|https?://\S+"                           # bare URLs
    r"|\{[^}\n]*\}"                            # attribute lists such as { #plain-words }
)


def _blank(text: str) -> str:
    return NOT_PROSE.sub(lambda m: " " * len(m.group(0)), text)


def _prose(page: Page) -> tuple[str, list[int], list[int]]:
    """The page's prose as one text, with the offset where each line starts and its page line.
    Lines that are not adjacent on the page are kept apart by a blank line, so a phrase never spans
    a code block."""
    lines: list[tuple[int, str]] = []
    raw = page.text.splitlines()
    for key in PROSE_KEYS:
        number = page.meta_lines.get(key)
        if number and number <= len(raw):
            lines.append((number, " " * (len(key) + 1) + raw[number - 1][len(key) + 1:]))
    lines += [(line.page_line, line.text) for line in page.prose_lines() if not line.include]
    text, starts, numbers, previous = "", [], [], None
    for number, line in lines:
        if previous is not None and number != previous + 1:
            text += "\n"
        starts.append(len(text))
        numbers.append(number)
        text += _blank(line) + "\n"
        previous = number
    return text, starts, numbers


def wording_problems(page: Page, terminology: Terminology) -> list[InputError]:
    """Each avoided rendering in the page's prose, at the line where it starts."""
    text, starts, numbers = _prose(page)
    problems = []
    for term in terminology.terms:
        for avoided in term.avoid:
            for match in avoided.pattern.finditer(text):
                line = numbers[bisect.bisect_right(starts, match.start()) - 1]
                found = " ".join(match.group(0).split())
                problems.append(InputError(page.path, line, f"«{found}» is a rendering of \"{term.en}\" that "
                                           f"{terminology.path}:{avoided.line} avoids: write {term.use}"))
    return sorted(problems, key=lambda p: p.line or 0)
