"""Names for the landmarks and dialogs Material leaves unnamed, so that axe-core finds nothing.

- the search dialog (role="dialog") gets the name of its field;
- a navigation section's <nav> is named by its toggle label (aria-labelledby), which holds only
  an icon: the <nav> is named by the section's title instead, so each section's landmark has its
  own name (an aria-label on the <label> itself is not allowed, and axe says so where the label
  shows, on a phone).
"""
from __future__ import annotations

import html
import re

SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
SECTION = re.compile(r'<div class="md-nav__link md-nav__container">\s*<a [^>]*>(?P<title>.*?)</a>\s*'
                     r'<label class="md-nav__link[^"]*" for="[^"]+" id="(?P<label>[^"]+)"', re.S)
LABELLED_NAV = re.compile(r'(<nav class="md-nav" [^>]*?)aria-labelledby="(?P<label>[^"]+)"')
TAG = re.compile(r"<[^>]+>")


def named_landmarks(output: str, search_name: str) -> str:
    output = output.replace(SEARCH_DIALOG, SEARCH_DIALOG[:-1] + f' aria-label="{html.escape(search_name)}">', 1)

    titles = {m["label"]: " ".join(html.unescape(TAG.sub("", m["title"])).split()) for m in SECTION.finditer(output)}

    def name_section(match: re.Match) -> str:
        title = titles.get(match["label"])
        return f'{match[1]}aria-label="{html.escape(title)}"' if title else match[0]

    return LABELLED_NAV.sub(name_section, output)
