"""Front matter: the YAML block between the first two `---` lines of a page."""
from __future__ import annotations

import re

import yaml

from jax_kb.markdown.errors import InputError

REQUIRED_KEYS = ("title", "summary", "kind")
KINDS = ("term", "guide")
# Front matter is a few plain keys; these bound what a hostile page can make every tool do.
MAX_SIZE = 64 * 1024
MAX_DEPTH = 20
MAX_ALIASES = 20
BOM = "\ufeff"


class TooComplex(Exception):
    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line, self.message = line, message


class BoundedLoader(yaml.SafeLoader):
    """yaml.SafeLoader with limits on nesting (else RecursionError) and on aliases (else a few
    lines expand into billions of nodes for whoever walks them)."""

    def __init__(self, stream):
        super().__init__(stream)
        self.depth, self.aliases = 0, 0

    def compose_node(self, parent, index):
        line = self.peek_event().start_mark.line
        if self.check_event(yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise TooComplex(line, f"front matter uses more than {MAX_ALIASES} aliases (*name)")
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise TooComplex(line, f"front matter is nested more than {MAX_DEPTH} levels deep")
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def split_front_matter(text: str, path: str) -> tuple[dict, int, dict[str, int]]:
    """Returns (front matter, line where the body starts, line of each key).

    A page without front matter gets an empty dict; broken YAML is an
    InputError naming the page line.
    """
    if text.startswith(BOM):  # editors on Windows write one; Markdown and YAML ignore it
        text = text[1:]
    lines = re.split(r"(?<=\n)|(?<=\r)(?!\n)", text)
    if not lines or lines[0].rstrip("\r\n") != "---":
        return {}, 1, {}
    for end in range(1, len(lines)):
        if lines[end].rstrip("\r\n") in ("---", "..."):
            break
    else:
        raise InputError(path, 1, "front matter opened with '---' is never closed")
    source = "".join(lines[1:end])
    if len(source) > MAX_SIZE:
        raise InputError(path, 2, f"front matter is longer than {MAX_SIZE // 1024} KiB")
    try:
        data = yaml.load(source, Loader=BoundedLoader)
    except TooComplex as exc:
        raise InputError(path, exc.line + 2, exc.message) from None
    except yaml.YAMLError as exc:
        # The context mark is where the broken construct starts; the problem mark is where YAML gave up.
        mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        problem = getattr(exc, "problem", None) or str(exc)
        raise InputError(path, line, f"front matter is not valid YAML: {problem}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise InputError(path, 2, "front matter must be a mapping of keys to values")
    key_lines = {}
    for number, line in enumerate(lines[1:end], start=2):
        key = line.split(":", 1)[0]
        if key and not key[0].isspace() and ":" in line and key in data:
            key_lines.setdefault(key, number)
    return data, end + 2, key_lines
