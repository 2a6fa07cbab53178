"""Rewrites the `.output` blocks that a real run no longer matches; every other byte of the file stays as it was."""
from __future__ import annotations

import re

from jax_kb.atomic_write import write_atomic
from jax_kb.markdown import InputError
from jax_kb.snippets.output_check import outputs_match
from jax_kb.snippets.results import BlockResult, Status

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_PRINTED_BREAK = re.compile(r"\r\n|\r|\n")  # a printed "\r" (a progress line) is a line break too
_MARKER = re.compile(r"^[ \t>]*(`{3,}|~{3,})")


def _fence_lines(opening: str, closing: str, printed: str) -> tuple[str, str]:
    """The fence's own lines, lengthened past any run of its character in the printed text, so that
    output never closes the block early or opens a new one."""
    marker = _MARKER.match(opening)[1]
    runs = re.findall(re.escape(marker[0]) + "{3,}", printed)
    needed = max([len(marker)] + [len(run) + 1 for run in runs])
    if needed == len(marker):
        return opening, closing
    longer = marker[0] * needed
    return opening.replace(marker, longer, 1), closing.replace(marker, longer, 1)


def _newline(line: str) -> str:
    return line[len(line.rstrip("\r\n")):] or "\n"


def _shown(r: BlockResult) -> str | None:
    """What the block showed in this run; a result reused from a report keeps its stdout, but not
    the exception that a raises= block shows after it."""
    if r.output is not None:
        return r.output
    return None if r.block.raises else r.stdout


def rewrite(text: str, results: list[BlockResult]) -> str:
    """The page text with each ran block's `.output` body replaced by what it showed: what it printed
    and, for a raises= block, the exception's last traceback line. An output that still matches is
    left as written, with its `...` and its rounding."""
    lines = _LINE.findall(text)
    edits = []
    for r in results:
        fence, shown = r.block.output, _shown(r)
        if fence is None or r.status != Status.PASSED or shown is None:
            continue
        if outputs_match(r.block.expected, shown, r.block.rtol):
            continue
        if fence.from_include:
            raise InputError(r.page.path, fence.line, "this .output block comes from an include: edit it there")
        newline = _newline(lines[fence.line - 1])
        printed = _PRINTED_BREAK.split(shown.rstrip("\r\n"))
        # An empty line keeps the container's blockquote markers: a bare one would end the blockquote.
        body = [fence.prefix + line + newline if line else fence.prefix.rstrip() + newline for line in printed]
        opening, closing = _fence_lines(lines[fence.line - 1], lines[fence.end_line - 1], shown)
        edits.append((fence.line - 1, fence.end_line, [opening, *(body if shown.strip() else []), closing]))
    for start, end, body in sorted(edits, reverse=True):
        lines[start:end] = body
    return "".join(lines)


def update_outputs(results: list[BlockResult]) -> tuple[list[str], list[InputError]]:
    """Writes every page whose outputs changed; returns their paths, and the pages that could not be written."""
    by_page: dict[str, list[BlockResult]] = {}
    for r in results:
        by_page.setdefault(r.page.path, []).append(r)
    changed, errors = [], []
    for path, page_results in by_page.items():
        page = page_results[0].page
        try:
            new = rewrite(page.text, page_results)
            if new != page.text:
                write_atomic(page.source, new)
                changed.append(path)
        except InputError as exc:
            errors.append(exc)
    return changed, errors
