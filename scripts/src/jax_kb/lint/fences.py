"""Fences whose language or options the site does not know: a typo there silently changes
what is shown or run."""
from __future__ import annotations

import dataclasses

from jax_kb.markdown import Fence, InputError, Page
from jax_kb.snippets.blocks import HIGHLIGHT_ATTRS, is_output, is_python, page_blocks

KNOWN_LANGUAGES = ("text", "bash", "console", "shell", "yaml", "toml", "json", "markdown", "md", "ini", "diff",
                   "output", "python", "py", "pycon", "html", "css", "js", "javascript")


def _unknown_options(fence: Fence) -> list[str]:
    return [f".{c}" for c in fence.classes] + [fence.attrs[k] if k == "?" else k
                                              for k in sorted(set(fence.attrs) - HIGHLIGHT_ATTRS)]


def _engine_problem(page: Page, i: int) -> InputError | None:
    """What the snippet engine says of a Python or .output fence. page_blocks stops at a page's
    first bad fence: fed one fence at a time (an .output block with the Python block it follows)
    it reports every one."""
    fence, previous = page.fences[i], page.fences[i - 1] if i else None
    context = [previous, fence] if is_output(fence) and previous and is_python(previous) else [fence]
    try:
        page_blocks(dataclasses.replace(page, fences=context))
    except InputError as exc:
        return exc
    return None


def _other_problem(path: str, fence: Fence) -> InputError | None:
    if fence.lang is None:
        return InputError(path, fence.line, "code fence without a language: name one, such as ```text "
                          "(Python blocks: ```python)")
    if fence.lang not in KNOWN_LANGUAGES:
        return InputError(path, fence.line, f"unknown fence language {fence.lang!r}: use one of "
                          f"{', '.join(KNOWN_LANGUAGES)}")
    if unknown := _unknown_options(fence):
        return InputError(path, fence.line, f"unknown fence option {unknown[0]!r} on a {fence.lang} block: it "
                          "takes only title=, linenums=, hl_lines=")
    return None


def _hidden_problem(path: str, fence: Fence) -> InputError:
    """The engine does not run what readers cannot see; a fence hidden from them is a mistake or a trick."""
    return InputError(path, fence.line, f"code fence ```{fence.info.strip()} is {fence.hidden}; the snippet "
                      "engine does not run it")


def fence_problems(page: Page) -> list[InputError]:
    problems: list[InputError] = []
    for i, fence in enumerate(page.fences):
        if fence.hidden:
            problem = _hidden_problem(page.path, fence)
        elif is_python(fence) or is_output(fence):
            problem = _engine_problem(page, i)
        else:
            problem = _other_problem(page.path, fence)
        # An .output block checked with a bad Python block repeats that block's problem.
        if problem and str(problem) not in map(str, problems):
            problems.append(problem)
    return problems
