"""Front matter: the YAML block between the first two `---` lines of a page."""
from __future__ import annotations

import re

import yaml

from .errors import InputError

REQUIRED_KEYS = ("title", "summary", "kind")
KINDS = ("term", "guide")


def split_front_matter(text: str, path: str) -> tuple[dict, int, dict[str, int]]:
    """Returns (front matter, line where the body starts, line of each key).

    A page without front matter gets an empty dict; broken YAML is an
    InputError naming the page line.
    """
    lines = re.split(r"(?<=\n)|(?<=\r)(?!\n)", text)
    if not lines or lines[0].rstrip("\r\n") != "---":
        return {}, 1, {}
    for end in range(1, len(lines)):
        if lines[end].rstrip("\r\n") in ("---", "..."):
            break
    else:
        raise InputError(path, 1, "front matter opened with '---' is never closed")
    source = "".join(lines[1:end])
    try:
        data = yaml.safe_load(source)
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
