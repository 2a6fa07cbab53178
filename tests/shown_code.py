"""The code a reader is shown as Python: the highlighted Python and Python-session blocks of an
HTML page, in order, as text; and the HTML that Python-Markdown makes of a page with a site's
own Markdown extensions."""
from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import markdown
from mkdocs.utils.yaml import yaml_load

from jax_kb.markdown import load_site_config
from jax_kb.snippets.blocks import PYTHON_LANGS, SESSION_LANGS

SHOWN_AS_PYTHON = {f"language-{lang}" for lang in PYTHON_LANGS + SESSION_LANGS}


class _ShownPython(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.python = False  # inside a highlighted block of Python
        self.code_depth = 0

    def handle_starttag(self, tag, attrs):
        classes = set((dict(attrs).get("class") or "").lower().split())
        if tag == "div" and "highlight" in classes:
            self.python = bool(SHOWN_AS_PYTHON & classes)
        elif tag == "code" and self.python:
            if not self.code_depth:
                self.blocks.append("")
            self.code_depth += 1

    def handle_endtag(self, tag):
        if tag == "code" and self.code_depth:
            self.code_depth -= 1
            self.python = bool(self.code_depth)

    def handle_data(self, data):
        if self.code_depth:
            self.blocks[-1] += data


def shown_python(html: str) -> list[str]:
    """The text of each block the page shows as Python (comments in the HTML show nothing)."""
    parser = _ShownPython()
    parser.feed(html)
    parser.close()
    return parser.blocks


def rendered(text: str, config_file: Path) -> str:
    """The HTML of a page's Markdown body, with the Markdown extensions of a site's mkdocs.yml."""
    with open(config_file, encoding="utf-8") as f:
        settings = yaml_load(f)
    extensions, configs = [], {}
    for entry in settings.get("markdown_extensions", []):
        name, options = next(iter(entry.items())) if isinstance(entry, dict) else (entry, {})
        extensions.append(name)
        configs[name] = dict(options or {})
    if "pymdownx.snippets" in configs:
        configs["pymdownx.snippets"] = load_site_config(config_file).snippets  # its base path made absolute
    return markdown.markdown(text, extensions=extensions, extension_configs=configs)
