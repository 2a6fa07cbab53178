"""Images without alt text: a reader who cannot see the image gets nothing."""
from __future__ import annotations

import re

from jax_kb.markdown import InputError, Page
from jax_kb.markdown.pages import LINK
from jax_kb.lint.prose import Prose

IMG = re.compile(r"<img\b[^<>]*>", re.I)
ALT = re.compile(r"\salt\s*=\s*(?:\"[^\"]*\S[^\"]*\"|'[^']*\S[^']*'|[^\s\"'>]+)", re.I)


def image_problems(page: Page, text: Prose) -> list[InputError]:
    problems = []
    for m in LINK.finditer(text.text):
        if m[0].startswith("!") and not m[0][2:m[0].index("](")].strip():
            problems.append(InputError(page.path, text.line_at(m.start()), f"image {m['target']!r} has no alt "
                                       f"text: say what it shows, as in ![a plot of the loss]({m['target']})"))
    for m in IMG.finditer(text.text):
        if not ALT.search(m[0]):
            problems.append(InputError(page.path, text.line_at(m.start()), "<img> without alt text: add "
                                       "alt=\"what it shows\""))
    return problems
