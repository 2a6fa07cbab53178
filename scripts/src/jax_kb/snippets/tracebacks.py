"""Tracebacks told in the page's Markdown lines instead of the worker's code objects."""
from __future__ import annotations

import sysconfig

from jax_kb.snippets.blocks import Block

_LIBRARY = (sysconfig.get_paths()["purelib"], sysconfig.get_paths()["stdlib"])


def block_line(blocks: list[Block], index: int, line: int):
    """The SourceLine of a line of a block's code (1-based), or None when outside it."""
    body = blocks[index].fence.body
    return body[line - 1] if 1 <= line <= len(body) else None


def error_line(blocks: list[Block], block: Block, error: dict) -> int:
    """The Markdown line to point at: the innermost frame in the failed block, else the fence."""
    if error.get("at_output") and block.output is not None:
        return block.output.line
    for frame in reversed(error.get("frames", [])):
        if frame.get("block") == block.index and (source := block_line(blocks, block.index, frame["line"])):
            return source.page_line
    return block.line


def render(path: str, blocks: list[Block], error: dict) -> str:
    """The error as a traceback whose page frames name the Markdown file and line."""
    frames = error.get("frames", [])
    lines = []
    if frames:
        lines.append("Traceback (most recent call last):")
        for number, frame in enumerate(frames):
            last = number == len(frames) - 1
            if "block" in frame:
                source = block_line(blocks, frame["block"], frame["line"])
                if source is None:
                    continue
                where = f"{path}:{source.page_line}"
                if source.include:
                    where += f" (from {source.include[0]}:{source.include[1]})"
                lines += [f"  {where}, in {frame['name']}", f"    {source.text.strip()}"]
            elif last or not frame["file"].startswith(_LIBRARY):
                lines += [f"  File \"{frame['file']}\", line {frame['line']}, in {frame['name']}"]
                if frame.get("text"):
                    lines.append(f"    {frame['text']}")
    lines.append(f"{error['type']}: {error['message']}" if error.get("message") else error["type"])
    return "\n".join(lines)
