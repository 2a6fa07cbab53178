"""Names for the landmarks and dialogs Material leaves unnamed, so that axe-core finds nothing.

- the search dialog (role="dialog") gets the name of its field;
- a navigation section's toggle label, which names the section's <nav> (aria-labelledby),
  holds only an icon: it gets the section's title, so each section's landmark has its own name.
"""
from __future__ import annotations

import html
import re

SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
SECTION = re.compile(r'(<div class="md-nav__link md-nav__container">\s*<a [^>]*>(?P<title>.*?)</a>\s*'
                     r'<label class="md-nav__link[^"]*" for="[^"]+" id="[^"]+")', re.S)
TAG = re.compile(r"<[^>]+>")


def named_landmarks(output: str, search_name: str) -> str:
    output = output.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + f' aria-label="{html.escape(search_name)}">', 1)

    def name_section(match: re.Match) -> str:
        title = " ".join(html.unescape(TAG.sub("", match["title"])).split())
        return f'{match[1]} aria-label="{html.escape(title)}"'

    return SECTION.sub(name_section, output)
