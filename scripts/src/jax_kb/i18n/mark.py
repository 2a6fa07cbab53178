"""Records in a translation the digest of the English page it now follows, changing no other byte."""
from __future__ import annotations

import re
from pathlib import Path

import yaml

from jax_kb.atomic_write import write_atomic
from jax_kb.markdown import InputError, SiteConfig, read_page
from jax_kb.markdown.frontmatter import split_front_matter
from jax_kb.markdown.pages import display_path
from jax_kb.i18n.paths import english_source

KEY = "translation_of"
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_VALUE = re.compile(rf"^(?P<key>{KEY}:[ \t]*)(?P<value>.*?)(?P<rest>[ \t]+#.*)?(?P<newline>\r\n|\r|\n)?$")


def _yaml_scalar(digest: str) -> str:
    """The digest as written; quoted where YAML would read it as something else (all digits: an int)."""
    return digest if yaml.safe_load(f"k: {digest}")["k"] == digest else f'"{digest}"'


def with_translation_of(text: str, digest: str, path: str) -> str:
    """The text with the key's value replaced, or the key added as the last front matter line."""
    meta, body_start, key_lines = split_front_matter(text, path)
    if body_start == 1:
        raise InputError(path, 1, "no front matter: a translation starts with the English page's "
                         "front matter, between two '---' lines")
    lines = _LINE.findall(text)
    value = _yaml_scalar(digest)
    if KEY in key_lines:
        number = key_lines[KEY]
        match = _VALUE.match(lines[number - 1])
        if match is None or (not match["value"] and meta[KEY] is not None):
            raise InputError(path, number, f"{KEY} must be written on one line, as '{KEY}: <digest>'")
        lines[number - 1] = match["key"] + value + (match["rest"] or "") + (match["newline"] or "")
    else:
        closing = body_start - 2  # index of the closing '---' line
        newline = lines[0][len(lines[0].rstrip("\r\n")):]
        lines.insert(closing, f"{KEY}: {value}{newline}")
    return "".join(lines)


def mark(path: Path, config: SiteConfig) -> bool:
    """Writes the English page's current digest into the translation; False when already there."""
    digest = read_page(english_source(path, config), config).digest
    shown = display_path(path, config)
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(shown, None, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    new = with_translation_of(text, digest, shown)
    if new == text:
        return False
    write_atomic(path, new)
    return True
