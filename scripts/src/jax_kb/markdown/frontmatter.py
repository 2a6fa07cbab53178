"""Front matter: the YAML block between the first two `---` lines of a page, and its schema.

The schema is the one contract for what a page may say there, applied by the lint and by the
site build alike: each key has one type, and a key it does not list is refused. YAML can spell
far more than text (mappings, sets, `!!binary`, dates, numbers); none of that may reach the
templates, which print front matter as HTML.
"""
from __future__ import annotations

import datetime
import re
from collections.abc import Callable

import yaml

from jax_kb.markdown.errors import InputError

REQUIRED_KEYS = ("title", "summary", "kind")
KINDS = ("term", "guide")
HEX = re.compile(r"[0-9a-f]+")
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
    loader = BoundedLoader(source)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except TooComplex as exc:
        raise InputError(path, exc.line + 2, exc.message) from None
    except yaml.YAMLError as exc:
        # The context mark is where the broken construct starts; the problem mark is where YAML gave up.
        mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        problem = getattr(exc, "problem", None) or str(exc)
        raise InputError(path, line, f"front matter is not valid YAML: {problem}") from None
    finally:
        loader.dispose()
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise InputError(path, 2, "front matter must be a mapping of keys to values")
    # Where each key is written, as YAML read it (quoted keys and flow mappings too); keyed by the
    # key as written, so a key YAML reads as a number is found by str(key).
    key_lines = {key.value: key.start_mark.line + 2 for key, _ in reversed(node.value)
                 if isinstance(key, yaml.ScalarNode)} if isinstance(node, yaml.MappingNode) else {}
    return data, end + 2, key_lines


def _what(value: object) -> str:
    """What YAML made of a value, in the words of a message."""
    for kind, name in ((str, "a single text"), (bool, "true or false"), ((int, float), "a number"), (bytes, "binary data (!!binary)"),
                       ((set, frozenset), "a set"), (dict, "a mapping"), ((list, tuple), "a list"),
                       (datetime.date, "a date"), (type(None), "empty")):
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _text(key: str, value: object) -> str | None:
    if not isinstance(value, str):
        return f"front matter {key!r} must be text, not {_what(value)}: write it in quotes"
    return f"front matter {key!r} must not be empty" if not value.strip() else None


def _line(key: str, value: object) -> str | None:
    if problem := _text(key, value):
        return problem
    return f"{key} must be one plain sentence on one line" if "\n" in value.strip() else None


def _kind(key: str, value: object) -> str | None:
    return None if isinstance(value, str) and value in KINDS else f"unknown kind {value!r}: use one of {', '.join(KINDS)}"


def _texts(key: str, value: object) -> str | None:
    if not isinstance(value, list):
        return f"front matter {key!r} must be a list of text items, such as [a, b], not {_what(value)}"
    for number, item in enumerate(value, start=1):
        if problem := _text(f"{key}[{number}]", item):
            return problem
    return None


def _digest(key: str, value: object) -> str | None:
    if isinstance(value, str) and HEX.fullmatch(value):
        return None
    written = repr(value) if isinstance(value, str) else _what(value)
    return f"front matter {key!r} must be the hex digest that `python -m scripts.i18n mark` writes, not {written}"


# Every key a page may set, each with its check; Material's and MkDocs' own page keys (template,
# hide, icon, status, subtitle, description, search, ...) are not among them: the site sets what
# it needs from these.
SCHEMA: dict[str, Callable[[str, object], str | None]] = {
    "title": _text, "summary": _line, "kind": _kind, "tags": _texts, "related": _texts, "aliases": _texts,
    "translation_of": _digest,
}


def schema_problems(meta: dict, key_lines: dict[str, int], path: str) -> list[InputError]:
    """Each key of the front matter that the schema does not list, or whose value is not of its type."""
    problems = []
    for key, value in meta.items():
        line = key_lines.get(str(key), 2)
        check = SCHEMA.get(key) if isinstance(key, str) else None
        if check is None:
            problems.append(InputError(path, line, f"unknown front matter key {str(key)[:60]!r}: pages may set "
                                       f"only {', '.join(SCHEMA)}"))
        elif problem := check(key, value):
            problems.append(InputError(path, line, problem))
    return problems


def schema_values(meta: dict) -> dict:
    """The front matter as the schema lets it through: the listed keys whose values have their type."""
    return {key: value for key, value in meta.items()
            if isinstance(key, str) and key in SCHEMA and SCHEMA[key](key, value) is None}
