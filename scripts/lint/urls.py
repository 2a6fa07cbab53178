"""Link and image addresses that run code (javascript:), hide content in the page (data:) or are
fetched without TLS (http://)."""
from __future__ import annotations

import re

from ..markdown import InputError, Page
from ..markdown.pages import LINK
from .prose import Prose

REFERENCE = re.compile(r"^[ ]{0,3}\[[^\]]+\]:[ \t]*<?(?P<target>[^\s>]+)", re.M)
AUTOLINK = re.compile(r"<(?P<target>[A-Za-z][\w+.-]*:[^\s<>]*)>")
HTML_URL = re.compile(r"<[A-Za-z][^<>]*?\s(?:href|src)\s*=\s*(?:\"(?P<dq>[^\"]*)\"|'(?P<sq>[^']*)'|(?P<bare>[^\s>]+))",
                      re.I)
# Browsers ignore control characters and spaces in a scheme: "java\tscript:" is javascript:.
IGNORED_IN_SCHEME = re.compile(r"[\x00-\x20]")


def _targets(text: Prose) -> list[tuple[str, int]]:
    found = [(m["target"], m.start()) for pattern in (LINK, REFERENCE, AUTOLINK) for m in pattern.finditer(text.text)]
    found += [(m["dq"] if m["dq"] is not None else m["sq"] if m["sq"] is not None else m["bare"], m.start())
              for m in HTML_URL.finditer(text.text)]
    return [(target, text.line_at(offset)) for target, offset in found]


def url_problems(page: Page, text: Prose) -> list[InputError]:
    problems = []
    for target, line in _targets(text):
        url = IGNORED_IN_SCHEME.sub("", target).lower()
        if url.startswith("javascript:"):
            problems.append(InputError(page.path, line, f"javascript: URL {target!r}: links may not run code"))
        elif url.startswith("data:"):
            problems.append(InputError(page.path, line, f"data: URL {target[:40]!r}: put the file in docs/ "
                                       "and link to it by its path"))
        elif url.startswith("http://"):
            problems.append(InputError(page.path, line, f"plain http:// link {target!r}: use https://"))
    return problems
