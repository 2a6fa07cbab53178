"""How a project writes its fences, which decides what an info string may say beside our options.

On a site (an mkdocs.yml), superfences renders the pages: options outside braces drop a fence,
except the highlight ones and those a custom fence's validator reads (markdown-exec's `exec="on"`).
Without a site there is no renderer to drop anything, and words after the language are a
notebook's or another tool's metadata (jupytext's `tags=[...]`, Colab's `id="..."`).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

from jax_kb.markdown import Fence
from jax_kb.markdown.site_config import MARKDOWN_EXEC
from jax_kb.snippets.project_config import MATERIAL_CLASSES, PYTHON_LANGUAGES

# markdown-exec's options (its validator, markdown_exec/_internal/main.py), `title` among them.
EXEC_OPTIONS = {"exec", "id", "idprefix", "html", "source", "result", "returncode", "session", "updatetoc",
                "tabs", "workdir", "width", "cache", "title"}
FALSE = {"", "no", "off", "false", "0"}  # markdown-exec's reading of a boolean option
METADATA = re.compile(r"(?<![\w:.-])(?P<key>[A-Za-z_][\w:.-]*)(?:=|\s|$)")


@dataclass(frozen=True)
class Dialect:
    languages: frozenset[str] = frozenset(PYTHON_LANGUAGES)  # run as Python code (sessions aside)
    display_classes: frozenset[str] = frozenset(MATERIAL_CLASSES)  # accepted, and change nothing
    extra_attrs: frozenset[str] = frozenset()  # accepted too: named by the settings' skip_fences
    site: bool = True  # superfences renders the pages
    custom_fences: tuple[tuple[str, str], ...] = ()  # (name, "markdown-exec" or its formatter)

    def custom(self, fence: Fence) -> str | None:
        lang = (fence.lang or "").lower()
        return next((kind for name, kind in self.custom_fences if name.lower() == lang), None)

    def executes(self, fence: Fence) -> bool:
        """markdown-exec runs this fence at build time (exec="on"): its output is what readers see."""
        return self.custom(fence) == MARKDOWN_EXEC and fence.attrs.get("exec", "no").lower() not in FALSE

    def options_are_ours(self, fence: Fence) -> bool:
        """Whether the engine judges the options outside braces: only on a site, where superfences'
        own validator reads them. A custom fence's validator reads them otherwise."""
        kind = self.custom(fence)
        return self.site and not self.executes(fence) and (kind is None or kind == MARKDOWN_EXEC)

    def bare_attrs(self, fence: Fence) -> set[str]:
        """Attributes beside the highlight ones that the site reads outside braces."""
        if self.executes(fence):
            return set(EXEC_OPTIONS)
        if not self.options_are_ours(fence):
            return set(fence.attrs)  # the renderer's or the notebook's: not ours to judge
        return set()

    def accepted_attrs(self, fence: Fence) -> set[str]:
        """Attributes beside ours that a fence may carry (in braces, or outside where bare_attrs allows)."""
        return self.bare_attrs(fence) | self.extra_attrs


def metadata(fence: Fence) -> dict[str, object]:
    """A notebook cell's metadata written after the language (jupytext, Colab): key=JSON value pairs
    and bare words; what cannot be read is left out."""
    text = fence.info.strip()
    text = text[len(fence.lang or ""):] if text.lower().startswith((fence.lang or "").lower()) else text
    found: dict[str, object] = {}
    decoder = json.JSONDecoder()
    position = 0
    while (match := METADATA.search(text, position)) is not None:
        key, position = match["key"], match.end()
        if not match.group(0).endswith("="):
            found[key] = True
            continue
        try:
            found[key], position = decoder.raw_decode(text, position)
        except json.JSONDecodeError:
            value = re.match(r"\S*", text[position:])[0]
            found[key], position = value.strip("\"'"), position + len(value)
    return found
