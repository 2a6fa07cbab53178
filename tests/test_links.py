"""Every link the site writes works wherever the site is mounted: each internal link of each page
(a, link, script, img, source), followed on the built site served under site_url's path
(/jax-kb/, as GitHub Pages serves it) and under another root, reaches a file.

The 404 pages are the exception under another root: a host serves them at any missing path, so
their links start at site_url's path; under /jax-kb/ they are crawled like every page.
"""
from __future__ import annotations

import functools
import http.server
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest
from mkdocs.utils.yaml import yaml_load

from site_build import ROOT, served

with open(ROOT / "mkdocs.yml", encoding="utf-8") as _config:
    SITE_PATH = urlsplit(yaml_load(_config)["site_url"]).path
LINKING = {"a": "href", "link": "href", "script": "src", "img": "src", "source": "src", "iframe": "src"}


class _Links(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        value = dict(attrs).get(LINKING.get(tag, ""))
        if value:
            self.found.append(value)


def links_of(path: Path) -> list[str]:
    reader = _Links()
    reader.feed(path.read_text(encoding="utf-8"))
    return reader.found


def _static_host(site_dir: Path, base: str):
    class Handler(http.server.SimpleHTTPRequestHandler):
        """site_dir under base, nothing outside it."""

        def translate_path(self, path):
            path = urlsplit(path).path
            return super().translate_path("/" + path[len(base):] if path.startswith(base) else "/__outside__")

        def log_message(self, *args):
            pass

    return functools.partial(Handler, directory=str(site_dir))


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


def crawl(site_dir: Path, base: str, with_404: bool) -> tuple[int, list[str]]:
    """(links followed, broken ones as 'page -> link (status)')."""
    with served(_static_host(site_dir, base), base) as root:
        origin = root[:-len(base)]
        targets: dict[str, list[str]] = {}
        for page in sorted(site_dir.rglob("*.html")):
            if page.name == "404.html" and not with_404:
                continue
            rel = page.relative_to(site_dir).as_posix()
            page_url = root + (rel[:-len("index.html")] if rel.endswith("index.html") else rel)
            for link in links_of(page):
                url = urldefrag(urljoin(page_url, link)).url
                if url.startswith(origin + "/"):  # internal; other hosts (the canonical address, GitHub) are not ours
                    targets.setdefault(url, []).append(f"{rel} -> {link}")
        with ThreadPoolExecutor(8) as pool:
            statuses = dict(zip(targets, pool.map(_status, targets)))
    broken = [f"{where[0]} ({status}; {len(where)} pages)" for url, where in targets.items()
              if (status := statuses[url]) != 200]
    return sum(len(where) for where in targets.values()), broken


@pytest.mark.parametrize("base", [SITE_PATH, "/elsewhere/x/"])
def test_every_internal_link_of_every_page_reaches_a_file_wherever_the_site_is_mounted(built_site, base):
    followed, broken = crawl(built_site, base, with_404=base == SITE_PATH)
    assert followed > 10_000
    assert not broken, "\n".join(broken[:40])


def test_a_link_that_leaves_the_mount_point_is_found(tmp_path):
    (tmp_path / "index.html").write_text('<a href="/jax-kb/other/">x</a><a href="page/">y</a>', encoding="utf-8")
    (tmp_path / "page").mkdir()
    (tmp_path / "page" / "index.html").write_text('<a href="../">back</a>', encoding="utf-8")
    assert crawl(tmp_path, "/elsewhere/x/", with_404=False) == (3, ["index.html -> /jax-kb/other/ (404; 1 pages)"])
