"""Front matter is plain text: the site shows it in the nav, the title bar, tooltips, the indexes,
the search results and the meta description, always as text, so markup there is a mistake (or
an attack) that the reader would see as stray characters."""
from __future__ import annotations

import re

from jax_kb.markdown import InputError, Page

MARKUP = re.compile(
    r"<[A-Za-z/!?]"  # a tag, a comment or a declaration
    r"|&(?:#\d+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);?(?=\W|$)"  # a character reference
    r"|\]\(|!\["  # a Markdown link or image
    r"|\{\s*[:#.]"  # an attribute list
    r"|`"  # a code span
)
# Keys that make the theme render the page differently: template: redirect.html, with a
# location, turns a page into a redirect to any address.
THEME_KEYS = {"template": "it picks the theme template the page is rendered with"}


def _strings(value: object):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


def front_matter_problems(page: Page) -> list[InputError]:
    problems = []
    for key, value in page.meta.items():
        line = page.meta_lines.get(key, 1)
        if key in THEME_KEYS:
            problems.append(InputError(page.path, line, f"front matter key {key!r}: {THEME_KEYS[key]}; pages "
                                       "use the site's own"))
        for text in _strings(value):
            if m := MARKUP.search(text):
                problems.append(InputError(page.path, line, f"front matter {key!r} has markup "
                                           f"({text[max(m.start() - 10, 0):m.end() + 10]!r}): the site shows it "
                                           "as text, so write plain text"))
                break
    return problems
