"""Highlighting of fenced code, once per distinct block for the whole build.

Translations carry the same code as the English page, so the site highlights the same blocks
five times. This is SuperFences' own extension point, a custom fence (mkdocs.yml, name "*"):
each block still goes through SuperFences' highlighter, and the HTML is kept by everything it
depends on: the code, its language, its options and attributes, and the block's position on
its page (line spans and anchors are numbered by it, and that number is kept in step). The
block's title is not: the site's own labels ("Output", "Raises X") are in the reader's language,
so a block is highlighted under a placeholder title that is then replaced by its own, escaped as
Pygments escapes a title. Nor are the words of Python comments, which translators translate: a
Python block is highlighted with each comment replaced by a placeholder (Pygments' Python lexer
makes a comment one token whatever it says), and its own comments are put back, escaped as Pygments escapes a token.
"""
from __future__ import annotations

import html as html_text
import io
import tokenize

from pygments.util import html_escape

MAX_ENTRIES = 20_000  # bounds a long `make serve` session; a build of this site holds a few thousand

_cache: dict[tuple, str] = {}
TITLE_PLACEHOLDER = "KbHighlightCacheTitle"  # letters only: Pygments' escaping leaves it as it is
COMMENT_PLACEHOLDER = "#KbHighlightCacheComment{}x"  # the x ends it: ...Comment1x is no part of ...Comment10x
PYTHON = {"python", "py", "python3", "py3"}


def format_fence(src, language, class_name, options, md, **kwargs) -> str:
    fenced = md.preprocessors["fenced_code_block"]
    counter = fenced.highlight_ext  # SuperFences numbers the blocks of a page on the Highlight extension
    attrs = kwargs.get("attrs") or {}
    options = dict(options)
    title = options.pop("title", None)
    if title is not None:
        options["title"] = TITLE_PLACEHOLDER
    code, comments = _without_comments(src) if language in PYTHON else (src, [])
    key = (code, language, tuple(sorted(options.items())), tuple(kwargs.get("classes") or ()),
           kwargs.get("id_value"), tuple(sorted(attrs.items())), counter.pygments_code_block)
    html = _cache.get(key)
    if html is None:
        if len(_cache) >= MAX_ENTRIES:
            _cache.clear()
        html = _cache[key] = fenced.highlight(code, language, options, md, **kwargs)
    else:
        counter.pygments_code_block += 1  # as the highlighter would have done
    for number, comment in enumerate(comments):
        # escaped as the formatter escapes a token's text
        html = html.replace(COMMENT_PLACEHOLDER.format(number), html_text.escape(comment, quote=False), 1)
    if title is None:
        return html
    return html.replace(TITLE_PLACEHOLDER, html_escape(title.strip()), 1)


def _without_comments(src: str) -> tuple[str, list[str]]:
    """The code with its n-th comment replaced by COMMENT_PLACEHOLDER.format(n), and the comments;
    the code as it is where that could change its highlighting (it does not tokenize, has a
    shebang, carries the placeholder's text, or has line breaks other than \\n)."""
    if "#" not in src or "KbHighlightCache" in src or "\r" in src:
        return src, []
    try:
        found = [(t.start, t.end[1]) for t in tokenize.generate_tokens(io.StringIO(src).readline)
                 if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, SyntaxError):
        return src, []
    lines = src.split("\n")
    comments = []
    for (row, start), end in reversed(found):
        line = lines[row - 1]
        if line[start:start + 2] == "#!" or line[start:start + 1] != "#":
            return src, []
        comments.append(line[start:end])
        lines[row - 1] = line[:start] + COMMENT_PLACEHOLDER.format(len(found) - len(comments)) + line[end:]
    return "\n".join(lines), comments[::-1]
