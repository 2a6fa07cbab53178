"""The head names no alternate languages: a page load fetches no sitemap.

Material reads every `<link rel="alternate">` of the head as the root of another language
and fetches the sitemap.xml beside it on every page load (five sitemaps of the whole site,
about half the bytes of a page view), only to find the page in the other language when the
reader picks one in the switcher. The switcher's links already are the page's translations
(mkdocs-static-i18n writes them; assets/javascripts/kb.js follows them as written), so the
sitemaps would tell the browser nothing. Search engines get each page's hreflang alternates
from the site's one sitemap.xml, where mkdocs-static-i18n lists them.
"""
from __future__ import annotations

import re

ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[\w-]+">')


def without_head_alternates(output: str) -> str:
    head, end, body = output.partition("</head>")
    return ALTERNATE.sub("", head) + end + body if end else output
