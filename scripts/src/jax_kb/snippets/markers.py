"""Other tools' marks on a page that say a block is not to run: read where their meaning is plain,
refused with a sentence where it is not, never ignored.

- Sybil: `<!-- skip: next -->`, and `<!-- skip: start -->` ... `<!-- skip: end -->`.
- pytest-markdown-docs: `notest` after the language (or `.notest` in braces), and `continuation`,
  which joins the previous block's namespace where each block runs alone.
"""
from __future__ import annotations

import re

from jax_kb.markdown import InputError, Page
from jax_kb.snippets.blocks import Block

SYBIL = re.compile(r"<!--\s*(?P<what>skip|invisible-code-block|clear-namespace)\b:?\s*(?P<rest>.*?)\s*-->")
REFUSED_WORDS = {"fixture": "pytest-markdown-docs' fixture:NAME asks for a pytest fixture, which blocks here "
                            "do not get: build what the block needs in the configuration's setup code",
                 "retry": "pytest-markdown-docs' retry:N is not read here: a block that needs retries is not "
                          "deterministic; mark it .no-run or make it so"}


def sybil_skips(page: Page, blocks: list[Block]) -> dict[int, str]:
    """The blocks Sybil's skip comments skip, by index, with the comment's line."""
    marks = []
    for line in page.prose_lines():
        for match in SYBIL.finditer(line.text):
            what, rest = match["what"], match["rest"]
            if what != "skip":
                raise InputError(page.path, line.page_line, f"Sybil's {what} is not read here: the engine runs "
                                 "only what readers see; put setup code in the configuration's setup")
            action = rest.split("(", 1)[0].strip()
            if action not in ("next", "start", "end"):
                raise InputError(page.path, line.page_line, f"Sybil's skip: {rest} is not read here (a condition "
                                 "cannot be told apart from the page): use .gpu/.cpu, or skip_fences in the "
                                 "configuration")
            marks.append((line.page_line, action))
    skipped: dict[int, str] = {}
    open_at = None
    pending = None
    marks.sort()
    for block in blocks:
        while marks and marks[0][0] < block.line:
            line, action = marks.pop(0)
            if action == "next":
                pending = line
            elif action == "start":
                open_at = line
            else:
                open_at = None
        at = pending if pending is not None else open_at
        if at is not None:
            skipped[block.index] = f"skipped by Sybil's <!-- skip: ... --> at line {at}"
        pending = None
    return skipped


def refused_word(words: dict) -> str | None:
    """Why a fence's metadata word cannot be honoured, or None."""
    for word in words:
        name = word.split(":", 1)[0]
        if name in REFUSED_WORDS and ":" in word:
            return REFUSED_WORDS[name]
    return None
