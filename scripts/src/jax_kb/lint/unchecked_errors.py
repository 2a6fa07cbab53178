"""Error messages shown in plain text blocks: nothing checks them, and JAX rewords its messages
between releases. The checked way is an `.output` block right after the `raises=` block."""
from __future__ import annotations

import re

from jax_kb.markdown import Fence, InputError, Page
from jax_kb.snippets.blocks import is_output, is_python

PLAIN_TEXT = ("text", "output", "console", "shell", "pytb")  # the fences that show a terminal's text
TRACEBACK = "Traceback (most recent call last):"
ERROR_LINE = re.compile(r"^\s*(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)(?::\s|$)")
HOW = ("make it an .output block (```{.text .output}) right after the raises= block, holding what the block "
       "printed and the exception's last traceback line, with ... where a part varies")


def _looks_like_an_error(fence: Fence) -> bool:
    return any(line.text.strip() == TRACEBACK or ERROR_LINE.match(line.text) for line in fence.body)


def unchecked_error_problems(page: Page) -> list[InputError]:
    problems = []
    for previous, fence in zip([None, *page.fences], page.fences):
        if fence.hidden or is_python(fence) or is_output(fence) or (fence.lang or "").lower() not in PLAIN_TEXT:
            continue
        after_raises = previous is not None and is_python(previous) and "raises" in previous.attrs
        if after_raises:
            problems.append(InputError(page.path, fence.line, "this text block shows the error of the raises= "
                                       f"block before it, and nothing checks it: {HOW}"))
        elif _looks_like_an_error(fence):
            problems.append(InputError(page.path, fence.line, "this text block shows a traceback or an error "
                                       f"line that nothing checks: run the code that raises it and {HOW}"))
    return problems
