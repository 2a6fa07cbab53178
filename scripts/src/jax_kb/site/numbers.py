"""Numbers in prose never break across lines: "10 000 millones", "3 ms", "2,5 GB" stay on one line.

A space inside a number written with spaces between its digit groups (the separator es, ro,
sk and ru use) and the space between a number and the word after it become non-breaking
spaces. Only prose text changes: code, preformatted blocks, scripts and tag attributes stay
as written.
"""
from __future__ import annotations

import re

NBSP = "\u00a0"
TAG = re.compile(r"(<[^>]*>)")
VERBATIM = {"code", "pre", "script", "style", "kbd", "samp", "textarea"}
GROUP_SPACE = re.compile(r"(?<=\d) (?=\d{3}(?!\d))")  # 10 000, 1 000 000
# 10 000 millones, 3 ms, 2,5 GB; not the digits that end a name (x64 and ..., float32 arrays)
NUMBER_WORD_SPACE = re.compile(r"(?<!\w)(\d+(?:[.,\u00a0]\d+)*) (?=[^\W\d_])")
TAG_NAME = re.compile(r"<\s*(/)?\s*([a-zA-Z][\w-]*)")
# A highlighted block is thousands of tags: skipped whole, it costs nothing to walk.
VERBATIM_BLOCK = re.compile(r"(<(pre|script|style|textarea)\b[^>]*>.*?</\2\s*>)", re.S | re.I)


def keep_numbers_together(html: str) -> str:
    pieces = VERBATIM_BLOCK.split(html)
    # split() yields (text, block, tag name) triples: only the text between the blocks is prose
    for i in range(0, len(pieces), 3):
        pieces[i] = _prose(pieces[i])
    return "".join(piece for i, piece in enumerate(pieces) if i % 3 != 2)


def _prose(html: str) -> str:
    parts = TAG.split(html)
    depth = 0
    for i, part in enumerate(parts):
        if i % 2:  # a tag
            match = TAG_NAME.match(part)
            if match and match[2].lower() in VERBATIM and not part.endswith("/>"):
                depth += -1 if match[1] else 1
                depth = max(depth, 0)
            continue
        if depth == 0 and part:
            parts[i] = NUMBER_WORD_SPACE.sub(r"\1" + NBSP, GROUP_SPACE.sub(NBSP, part))
    return "".join(parts)
