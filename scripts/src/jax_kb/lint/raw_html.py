"""Raw HTML in a page's prose, read by html.parser and held to scripts/src/jax_kb/lint/allowlist.py: tags,
attributes and link addresses (after character references are decoded), each problem at the
line where it is written."""
from __future__ import annotations

import html.parser
import re

from markdown.inlinepatterns import AUTOLINK_RE, AUTOMAIL_RE

from jax_kb.markdown import InputError, Page
from jax_kb.lint.allowlist import attribute_problem, tag_problem
from jax_kb.lint.prose import Prose

# Markdown autolinks look like tags to an HTML parser; scripts/src/jax_kb/lint/urls.py checks them.
AUTOLINK = re.compile(f"{AUTOLINK_RE}|{AUTOMAIL_RE}")
# How html.parser itself finds the attributes of a start tag: used to find the line of each.
ATTRIBUTE = html.parser.attrfind_tolerant
TAG_NAME = re.compile(r"</?[^\s/>]+")


class _Reader(html.parser.HTMLParser):
    """Collects (line in the prose text, problem) for every tag, comment and declaration."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems: list[tuple[int, str]] = []

    def handle_starttag(self, tag, attrs):
        line = self.getpos()[0]
        raw = self.get_starttag_text()
        if "<" in tag or any("<" in name for name, _ in attrs):
            # <img src=x <!-- --> onerror=...>, <scr<!-- -->ipt>: each reader ends such a tag elsewhere.
            self.problems.append((line, f"tag split by a comment or a '<' ({raw[:30]!r}): write the tag whole"))
            return
        if problem := tag_problem(tag):
            self.problems.append((line, problem))
            return
        spans = ATTRIBUTE.finditer(raw, TAG_NAME.match(raw).end())
        for (name, value), span in zip(attrs, spans):
            if problem := attribute_problem(tag, name, value, span[1]):
                self.problems.append((line + raw.count("\n", 0, span.start(1)), problem))

    handle_startendtag = handle_starttag

    def handle_comment(self, data):
        # Browsers end "<!-->" and "<!--->" at once, and a comment at "--!>"; html.parser reads on to
        # "-->", so whatever lies between would be live on the page and unchecked here.
        if data.startswith((">", "->")) or "--!>" in data:
            self.problems.append((self.getpos()[0], "comment that browsers end early (<!-->, <!--->, --!>): "
                                                    "write <!-- text -->"))

    def handle_decl(self, decl):
        self.problems.append((self.getpos()[0], f"raw <!{decl.split()[0]}> declaration: pages may not have one"))

    def unknown_decl(self, data):
        self.problems.append((self.getpos()[0], "raw <![...]> section: pages may not have one"))

    def handle_pi(self, data):
        self.problems.append((self.getpos()[0], "raw <?...> instruction: pages may not have one"))


def raw_html_problems(page: Page, text: Prose) -> list[InputError]:
    reader = _Reader()
    reader.feed(AUTOLINK.sub(lambda m: " " * len(m[0]), text.text))
    reader.close()
    return [InputError(page.path, text.lines[line - 1], problem) for line, problem in reader.problems]
