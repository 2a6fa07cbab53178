"""Front matter is plain text of the schema's types (jax_kb/markdown/frontmatter.py): the site shows
it in the nav, the title bar, tooltips, the indexes, the search results and the meta description,
always as text, so a key outside the schema, a value of another type, or markup is a mistake (or
an attack) that the reader would see as stray characters."""
from __future__ import annotations

import re

from jax_kb.markdown import InputError, Page
from jax_kb.markdown.frontmatter import schema_problems, schema_values

MARKUP = re.compile(
    r"<[A-Za-z/!?]"  # a tag, a comment or a declaration
    r"|&(?:#\d+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);?(?=\W|$)"  # a character reference
    r"|\]\(|!\["  # a Markdown link or image
    r"|\{\s*[:#.]"  # an attribute list
    r"|`"  # a code span
)


def front_matter_problems(page: Page) -> list[InputError]:
    problems = schema_problems(page.meta, page.meta_lines, page.path)
    for key, value in schema_values(page.meta).items():
        for text in value if isinstance(value, list) else [value]:
            if m := MARKUP.search(text):
                problems.append(InputError(page.path, page.meta_lines.get(key, 1), f"front matter {key!r} has markup "
                                           f"({text[max(m.start() - 10, 0):m.end() + 10]!r}): the site shows it "
                                           "as text, so write plain text"))
                break
    return problems
