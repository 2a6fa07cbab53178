"""A page's prose as the lint checks read it: outside code fences, with inline code blanked out
(`<script>` in backticks is shown, not run), as one text that maps offsets back to page lines."""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from jax_kb.markdown import Page

INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)")


@dataclass
class Prose:
    text: str
    starts: list[int]  # offset in text where each line starts
    lines: list[int]  # the page line of each

    def line_at(self, offset: int) -> int:
        return self.lines[bisect.bisect_right(self.starts, offset) - 1]


def prose(page: Page) -> Prose:
    texts, starts, lines, offset = [], [], [], 0
    for line in page.prose_lines():
        text = INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line.text)
        texts.append(text)
        starts.append(offset)
        lines.append(line.page_line)
        offset += len(text) + 1
    return Prose("\n".join(texts), starts, lines)
