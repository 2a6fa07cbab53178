"""The per-language term lists of terminology/<lang>.yml: the approved rendering of each recurring
concept and the renderings to avoid, read safely; a broken list is an InputError at file:line."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from jax_kb.markdown import InputError, SiteConfig
from jax_kb.markdown.pages import display_path

TOP_KEYS = {"language", "keep_english", "terms"}
TERM_KEYS = {"en", "use", "avoid", "note"}
# One word of an avoid entry: letters (hyphens and apostrophes inside), a * at either end for any letters.
WORD = re.compile(r"^\*?[^\W\d_]+(?:[-'’][^\W\d_]+)*\*?$")
# Words of a phrase may be split by spaces or by one line break (with the next line's indent or quote marker).
BETWEEN_WORDS = r"(?:[^\S\n]+|[^\S\n]*\n[^\S\n]*(?:>[^\S\n]*)*)"


@dataclass(frozen=True)
class Avoided:
    """A rendering not to use, and the regular expression that finds it in prose."""
    text: str
    pattern: re.Pattern
    line: int


@dataclass(frozen=True)
class Term:
    en: str
    use: str
    avoid: tuple[Avoided, ...]
    line: int


@dataclass(frozen=True)
class Terminology:
    lang: str
    path: str  # as shown in messages, e.g. terminology/es.yml
    terms: tuple[Term, ...]


def avoid_pattern(entry: str) -> re.Pattern:
    """`управлени* поток*` as a case-insensitive whole-word pattern that allows any inflection at the stars."""
    words = []
    for word in entry.split():
        core = re.escape(word.strip("*"))
        words.append((r"\w*" if word.startswith("*") else "") + core + (r"\w*" if word.endswith("*") else ""))
    return re.compile(r"(?<!\w)" + BETWEEN_WORDS.join(words) + r"(?!\w)", re.IGNORECASE)


class _Reader:
    """Turns the composed YAML nodes into a Terminology, naming the file and line of anything wrong."""

    def __init__(self, path: str, lang: str):
        self.path, self.lang = path, lang

    def fail(self, node: yaml.Node, message: str) -> InputError:
        return InputError(self.path, node.start_mark.line + 1, message)

    def mapping(self, node: yaml.Node, allowed: set[str], required: set[str], what: str) -> dict[str, yaml.Node]:
        if not isinstance(node, yaml.MappingNode):
            raise self.fail(node, f"{what} must be a mapping with the keys {', '.join(sorted(required))}")
        found: dict[str, yaml.Node] = {}
        for key, value in node.value:
            name = key.value if isinstance(key, yaml.ScalarNode) else None
            if name not in allowed:
                raise self.fail(key, f"unknown key {name!r} in {what}: use {', '.join(sorted(allowed))}")
            if name in found:
                raise self.fail(key, f"key {name!r} appears twice in {what}")
            found[name] = value
        missing = sorted(required - found.keys())
        if missing:
            raise self.fail(node, f"{what} lacks {', '.join(map(repr, missing))}")
        return found

    def text(self, node: yaml.Node, what: str) -> str:
        if not isinstance(node, yaml.ScalarNode) or not str(node.value).strip():
            raise self.fail(node, f"{what} must be a non-empty text")
        return str(node.value).strip()

    def texts(self, node: yaml.Node, what: str) -> list[tuple[str, yaml.Node]]:
        if not isinstance(node, yaml.SequenceNode):
            raise self.fail(node, f"{what} must be a list, such as [word, other words]")
        return [(self.text(item, f"each entry of {what}"), item) for item in node.value]

    def avoided(self, node: yaml.Node) -> Avoided:
        entry = self.text(node, "each entry of avoid")
        for word in entry.split():
            if not WORD.match(word):
                raise self.fail(node, f"avoid entry {entry!r}: {word!r} is not a word (letters, inner hyphens, "
                                      "a * at either end for any letters)")
        return Avoided(entry, avoid_pattern(entry), node.start_mark.line + 1)

    def term(self, node: yaml.Node) -> Term:
        keys = self.mapping(node, TERM_KEYS, {"en", "use"}, "a term")
        for key in ("en", "use", "note"):
            if key in keys:
                self.text(keys[key], key)
        avoid = tuple(self.avoided(item) for _, item in self.texts(keys["avoid"], "avoid")) if "avoid" in keys else ()
        return Term(self.text(keys["en"], "en"), self.text(keys["use"], "use"), avoid, node.start_mark.line + 1)

    def terminology(self, root: yaml.Node | None) -> Terminology:
        if root is None:
            raise InputError(self.path, 1, "the term list is empty: it needs language, keep_english and terms")
        keys = self.mapping(root, TOP_KEYS, TOP_KEYS, "the term list")
        if self.text(keys["language"], "language") != self.lang:
            raise self.fail(keys["language"], f"language is {keys['language'].value!r} but the file is named for "
                                              f"{self.lang!r}")
        self.texts(keys["keep_english"], "keep_english")
        if not isinstance(keys["terms"], yaml.SequenceNode):
            raise self.fail(keys["terms"], "terms must be a list of terms (- en: ..., use: ...)")
        return Terminology(self.lang, self.path, tuple(self.term(item) for item in keys["terms"].value))


def read_terminology(file: Path, lang: str, config: SiteConfig) -> Terminology:
    shown = display_path(file, config)
    try:
        root = yaml.compose(file.read_bytes().decode("utf-8"), Loader=yaml.SafeLoader)
    except UnicodeDecodeError as exc:
        raise InputError(shown, None, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise InputError(shown, mark.line + 1 if mark else None, f"not valid YAML: {problem}") from None
    return _Reader(shown, lang).terminology(root)


def load_terminologies(folder: Path, config: SiteConfig) -> tuple[dict[str, Terminology], list[InputError]]:
    """The term list of each translated language that has one in folder, and the problems of those
    that cannot be used (each file on its own: one broken list leaves the others checked)."""
    found: dict[str, Terminology] = {}
    problems: list[InputError] = []
    for lang in config.languages[1:]:
        file = folder / f"{lang}.yml"
        if not file.is_file():
            continue
        try:
            found[lang] = read_terminology(file, lang, config)
        except InputError as exc:
            problems.append(exc)
    return found, problems
