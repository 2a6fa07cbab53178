"""The built site: every page of every language has its <html lang>, a language switcher that keeps
the reader on the same page, and no internal link or anchor that leads nowhere."""
from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote, urlsplit

import pytest
from mkdocs.utils.yaml import yaml_load

from jax_kb.markdown import load_site_config
from site_build import read_html

CONFIG = load_site_config()
LANGS = CONFIG.languages
DEFAULT = CONFIG.default_language
SITE_BASE = urlsplit(yaml_load(open(CONFIG.root / "mkdocs.yml", encoding="utf-8"))["site_url"]).path or "/"


def language_of_page(rel: str) -> str:
    first = rel.split("/", 1)[0]
    return first if first in LANGS[1:] else DEFAULT


def page_path(rel: str) -> str:
    """The language-neutral part of a built page's path: es/glossary/vmap/index.html -> glossary/vmap/index.html."""
    lang = language_of_page(rel)
    return rel if lang == DEFAULT else rel.split("/", 1)[1]


@pytest.fixture(scope="module")
def pages(built_site):
    found = {p.relative_to(built_site).as_posix(): read_html(p) for p in built_site.rglob("*.html")}
    assert len(found) >= 5 * len(LANGS)
    return found


def test_every_page_of_every_language_exists(pages):
    neutral = {page_path(rel) for rel in pages}
    for lang in LANGS:
        prefix = "" if lang == DEFAULT else f"{lang}/"
        missing = sorted(p for p in neutral if f"{prefix}{p}" not in pages)
        assert not missing, f"{lang}: missing {missing}"


def test_html_lang_is_the_pages_language(pages):
    wrong = {rel: page.lang for rel, page in pages.items() if page.lang != language_of_page(rel)}
    assert not wrong


def _resolve(rel: str, href: str) -> tuple[str, str]:
    """The built file an href of page rel points to, and its fragment."""
    parts = urlsplit(href)
    path = unquote(parts.path)
    if path.startswith("/"):  # absolute: relative to the site_url's path
        path = posixpath.relpath(path, SITE_BASE) + ("/" if path.endswith("/") else "")
        target = posixpath.normpath(path)
    else:
        target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), path)) if path else rel
    target = "" if target == "." else target
    if not target.endswith(".html") and (path.endswith("/") or path in ("", ".", "./")):
        target = posixpath.join(target, "index.html")
    return target, parts.fragment


def test_language_switcher_points_to_the_same_page_in_each_language(pages):
    checked = 0
    for rel, page in pages.items():
        if rel.endswith("404.html"):
            continue
        switcher = {a["hreflang"]: href for href, a in page.links if "md-select__link" in a.get("class", "")}
        assert set(switcher) == set(LANGS), (rel, switcher)
        for lang, href in switcher.items():
            target, _ = _resolve(rel, href)
            expected = page_path(rel) if lang == DEFAULT else f"{lang}/{page_path(rel)}"
            assert target == expected, (rel, lang, href)
            assert target in pages
            checked += 1
    assert checked >= 5 * len(LANGS) * len(LANGS)


def test_no_internal_link_or_anchor_is_broken(pages, built_site):
    broken = []
    for rel, page in pages.items():
        for href, _ in page.links:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:")):
                continue
            target, fragment = _resolve(rel, href)
            if target.endswith(".html"):
                if target not in pages:
                    broken.append((rel, href, "no such page"))
                elif fragment and fragment not in pages[target].ids:
                    broken.append((rel, href, "no such anchor"))
            elif not (built_site / target).exists():
                broken.append((rel, href, "no such file"))
    assert not broken, broken[:20]


def test_every_heading_has_a_fixed_id_the_same_in_every_language(pages):
    """Ids made from a heading's text would differ between languages (a Russian heading's is "_1"): links and the
    switcher's anchors would break. The term index's letters are the one exception: each language has its own."""
    ids = {}
    for rel, page in pages.items():
        if rel.endswith("404.html"):
            continue
        assert page.headings, rel
        assert None not in page.headings, f"{rel}: a heading without an id"
        ids.setdefault(page_path(rel), {})[language_of_page(rel)] = [
            heading_id for heading_id in page.headings if not heading_id.startswith("letter-")]
    for path, by_lang in ids.items():
        for lang, found in by_lang.items():
            assert found == by_lang[DEFAULT], (path, lang, found, by_lang[DEFAULT])
            assert not [heading_id for heading_id in found if heading_id.startswith("_")], (path, lang)


CODE_BLOCK = re.compile(r'<div class="language-python highlight">.*?</div>', re.S)
MARKER = re.compile(r'<span class="c1"># \((\d+)\)!</span>')
NOTES = re.compile(r"\s*<ol>(.*?)</ol>", re.S)


def test_every_code_annotation_marker_has_its_note_right_after_its_block(built_site):
    """Material turns `# (1)!` into a marker only when an ordered list follows the block at once; otherwise
    the reader sees the comment. Each block's markers are 1..n, and its list has n notes."""
    annotated = 0
    for path in built_site.rglob("*.html"):
        html = path.read_text(encoding="utf-8")
        for block in CODE_BLOCK.finditer(html):
            markers = MARKER.findall(block[0])
            if not markers:
                continue
            annotated += 1
            notes = NOTES.match(html, block.end())
            where = f"{path.relative_to(built_site)}: block with markers {markers}"
            assert notes, f"{where} is not followed by its list of notes"
            assert markers == [str(n) for n in range(1, len(markers) + 1)], where
            assert notes[1].count("<li>") == len(markers), where
    assert annotated >= 4 * len(LANGS)


def test_edit_link_names_the_markdown_source_of_the_language_read(pages):
    edits = {href for href, a in pages["es/glossary/vmap/index.html"].links if "edit" in a.get("title", "").lower()
             or "/edit/" in href}
    assert any(href.endswith("docs/glossary/vmap.es.md") for href in edits), edits
