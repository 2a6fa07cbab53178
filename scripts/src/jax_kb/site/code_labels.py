"""Labels on code blocks, so that a failing example never looks like a passing one.

Each label is a fence option that pymdownx.highlight and attr_list render: a `title`
(the block's caption), a class for the colours (overrides/assets/stylesheets/kb.css)
and, on an expected-error block, `data-raises`. The page's own fences are read with the
project's fence reader (scripts/src/jax_kb/markdown/fences.py), so the engine and the site agree on
what a block is:

- a `raises=` block: "Raises TypeError" in the reader's language;
- an `.output` block: "Output";
- in a "common mistake" section (`{ #common-mistake }`), the `raises=` block is the wrong
  way and the next executed Python block of the section the right way.
"""
from __future__ import annotations

import html
import re

from jax_kb.catalog import ui_string
from jax_kb.markdown import InputError
from jax_kb.markdown.fences import Fence, find_fences
from jax_kb.markdown.includes import SourceLine

COMMON_MISTAKE = "common-mistake"
HEADING = re.compile(r"^(?P<level>#{1,6})\s.*?(?:\{[^}]*#(?P<id>[\w-]+)[^}]*\})?\s*$")


def _quoted(value: str) -> str:
    return '"' + html.escape(value, quote=True) + '"'


def _header(opener: str, fence: Fence, extra_class: str, title: str, data: dict[str, str]) -> str:
    """The fence's opening line with the label added; its own id, classes and options kept."""
    marker = re.match(r"[ \t>]*(`{3,}|~{3,})", opener)[1]
    parts = [f".{fence.lang}"] + [f".{c}" for c in fence.classes] + [f".{extra_class}"]
    if fence.attrs.get("title"):
        title = f"{title} · {fence.attrs['title']}"
    attrs = {**fence.attrs, **data, "title": title}
    parts += [f"{key}={_quoted(value)}" for key, value in attrs.items()]
    return f"{fence.prefix}{marker}{{{' '.join(parts)}}}"


def _sections(lines: list[str], fences: list[Fence]) -> list[str | None]:
    """The id of the level-2 section each line is in (None before the first); code is no heading."""
    code = {number for fence in fences for number in range(fence.line, fence.end_line + 1)}
    current, out = None, []
    for number, text in enumerate(lines):
        heading = HEADING.match(text) if number not in code else None
        if heading and len(heading["level"]) <= 2:
            current = heading["id"]
        out.append(current)
    return out


def _is_python(fence: Fence) -> bool:
    return fence.lang in ("python", "py")


def labelled(markdown: str, lang: str) -> str:
    """The page's Markdown with its expected-error, output and wrong/right blocks labelled."""
    lines = markdown.split("\n")
    try:
        fences = find_fences([SourceLine(text, number) for number, text in enumerate(lines)], "")
    except InputError:
        return markdown  # the catalog reports the page; the build shows it as written
    section = _sections(lines, fences)
    wrong_seen: set[str] = set()
    for fence in fences:
        if fence.dropped or fence.hidden:
            continue  # the site shows it as text: a label would change that text
        opener = lines[fence.line]
        where = section[fence.line]
        raises = fence.attrs.get("raises") if _is_python(fence) and fence.braced else None
        if raises:
            title = ui_string(lang, "code_raises").format(exception=raises)
            kind = "kb-raises"
            if where == COMMON_MISTAKE:
                title, kind = f"{ui_string(lang, 'code_wrong')} · {title}", "kb-wrong"
                wrong_seen.add(where)
            lines[fence.line] = _header(opener, fence, kind, title, {"data-raises": raises})
        elif fence.lang == "text" and "output" in fence.classes:
            lines[fence.line] = _header(opener, fence, "kb-output", ui_string(lang, "code_output"), {})
        elif _is_python(fence) and "no-run" not in fence.classes and where in wrong_seen:
            wrong_seen.discard(where)
            lines[fence.line] = _header(opener, fence, "kb-right", ui_string(lang, "code_right"), {})
    return "\n".join(lines)
