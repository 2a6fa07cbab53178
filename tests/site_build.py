"""Builds the site once into a folder and reads its HTML, for the site and browser tests."""
from __future__ import annotations

import contextlib
import http.server
import os
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[1]


def build_site(target: Path, config: Path = ROOT / "mkdocs.yml") -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    package = config.parent / "scripts" / "src"
    if config.parent != ROOT and package.is_dir():  # a copy of the project: its own jax_kb, not the installed one
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(package), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config),
                           "--site-dir", str(target)], cwd=config.parent, capture_output=True, text=True,
                          env=env, timeout=600)


@dataclass
class HtmlPage:
    lang: str | None = None
    ids: set[str] = field(default_factory=set)
    links: list[tuple[str, dict]] = field(default_factory=list)  # (href, attributes of the <a>)
    headings: list[str | None] = field(default_factory=list)  # the id of each <h1>-<h6> of the page's article


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.page = HtmlPage()
        self._articles = 0

    def handle_endtag(self, tag):
        self._articles -= tag == "article"

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self._articles += tag == "article"
        if self._articles and tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.page.headings.append(attributes.get("id"))
        if tag == "html":
            self.page.lang = attributes.get("lang")
        for key in ("id", "name"):
            if attributes.get(key):
                self.page.ids.add(attributes[key])
        if tag == "a" and attributes.get("href") is not None:
            self.page.links.append((attributes["href"], attributes))


def read_html(path: Path) -> HtmlPage:
    reader = _Reader()
    reader.feed(path.read_text(encoding="utf-8"))
    return reader.page


def send_page(handler: http.server.BaseHTTPRequestHandler, code: int, body: bytes) -> None:
    """An HTML response, as a static host sends its 404 page."""
    handler.send_response(code)
    handler.send_header("Content-Type", "text/html; charset=utf-8")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


@contextlib.contextmanager
def served(handler, base: str = "/") -> Iterator[str]:
    """The URL of `base` on a local HTTP server of `handler`, for the browser tests."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}{base}"
    finally:
        server.shutdown()
        server.server_close()
