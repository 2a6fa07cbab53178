"""What a reader of each language gets, read from the built HTML: tooltips, the generated
indexes, translation notices, the "verified" note, one search index per language, and a
404 page per language.

Most tests read the fixture site (tests/fixtures/site/, see reader_site.py for what each
fixture page is for); the real site's tests check the properties every page must have.
"""
from __future__ import annotations

import functools
import hashlib
import json
import posixpath
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from mkdocs.utils.yaml import yaml_load

from fixtures.site.reader_site import FIXED_DATE, reader_site
from jax_kb.catalog import load_catalog, ui_string
from jax_kb.markdown import load_site_config, read_page
from jax_kb.site import search_index as search_index_module, verified
from jax_kb.site.collation import initial, sort_key

LANGS = load_site_config().languages
DEFAULT = LANGS[0]
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def folder(lang: str) -> str:
    return "" if lang == DEFAULT else f"{lang}/"


@dataclass(eq=False)
class Node:
    tag: str
    attrs: dict
    parent: Node | None = None
    children: list = field(default_factory=list)  # Node or str

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def iter(self, tag: str | None = None, **attrs):
        for child in self.children:
            if isinstance(child, Node):
                if (tag is None or child.tag == tag) and all(child.attrs.get(k.replace("_", "-")) == v
                                                             for k, v in attrs.items()):
                    yield child
                yield from child.iter(tag, **attrs)

    def find(self, tag: str | None = None, **attrs) -> Node | None:
        return next(self.iter(tag, **attrs), None)

    def ancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent


class _TreeBuilder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.current = Node("#document", {})

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v if v is not None else "" for k, v in attrs}, self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, dict(attrs), self.current))

    def handle_endtag(self, tag):
        if any(n.tag == tag for n in [self.current, *self.current.ancestors()]):
            while self.current.tag != tag:
                self.current = self.current.parent
            self.current = self.current.parent

    def handle_data(self, data):
        self.current.children.append(data)


@functools.lru_cache(maxsize=None)
def parse(path: Path) -> Node:
    builder = _TreeBuilder()
    builder.feed(path.read_text(encoding="utf-8"))
    return builder.root


def article(doc: Node) -> Node:
    return doc.find("article")


def heading_text(node: Node) -> str:
    return "".join(c if isinstance(c, str) else c.text() for c in node.children
                   if isinstance(c, str) or "headerlink" not in c.attrs.get("class", "")).strip()


def resolve(rel: str, href: str) -> str:
    """The built file a relative href of page rel points to."""
    target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), href.split("#")[0]))
    return posixpath.join(target, "index.html") if not target.endswith(".html") else target


@pytest.fixture(scope="module")
def fixture_site():
    built = reader_site()
    assert built.build.returncode == 0, f"mkdocs build --strict failed:\n{built.build.stderr[-6000:]}"
    assert "WARNING" not in built.build.stderr
    return built


@pytest.fixture(scope="module")
def site(fixture_site) -> Path:
    return fixture_site.site


@pytest.fixture(scope="module")
def fixture_catalog(fixture_site):
    return load_catalog(load_site_config(fixture_site.project / "mkdocs.yml"))


def summaries(cat, lang: str) -> set[str]:
    return {v[lang].meta["summary"] for v in cat.pages.values() if lang in v and v[lang].meta.get("kind") == "term"}


def pages_of(site: Path, lang: str) -> list[Path]:
    """The built pages of one language (the default language's exclude the other languages' folders)."""
    pages = sorted((site / folder(lang)).rglob("index.html"))
    return [p for p in pages if lang != DEFAULT or p.relative_to(site).parts[0] not in LANGS]


# 1. Tooltips


def test_a_term_gets_its_summary_in_the_language_read(site, fixture_catalog):
    for lang in LANGS:
        doc = parse(site / folder(lang) / "glossary/jit/index.html")
        vmap = [a for a in article(doc).iter("abbr") if a.text() == "vmap"]
        assert vmap, lang
        assert {a.attrs["title"] for a in vmap} == {fixture_catalog.page("glossary/vmap", lang).meta["summary"]}


def _tooltips_speak_the_language_of_their_pages(site: Path, cat):
    for lang in LANGS:
        own = summaries(cat, lang)
        for path in pages_of(site, lang):
            titles = {a.attrs["title"] for a in article(parse(path)).iter("abbr")}
            assert titles <= own, (path, titles - own)


def test_tooltips_speak_only_the_language_of_their_pages(site, fixture_catalog):
    _tooltips_speak_the_language_of_their_pages(site, fixture_catalog)
    # jit has no Spanish translation: its English summary is no Spanish tooltip
    assert not [a for a in article(parse(site / "es/glossary/vmap/index.html")).iter("abbr") if a.text() == "jit"]


def test_no_tooltip_in_code_nor_in_heading_ids_or_link_urls(site):
    for lang in LANGS:
        path = site / folder(lang) / "glossary/vmap/index.html"
        doc, html = parse(path), path.read_text(encoding="utf-8")
        main = article(doc)
        assert main.find("pre") and any("vmap" in pre.text() for pre in main.iter("pre"))
        for abbr in main.iter("abbr"):
            assert not {"pre", "code"} & {a.tag for a in abbr.ancestors()}, (path, abbr.text())
        assert not re.search(r'="[^"]*<abbr', html), path
        assert [h.attrs.get("id") for h in main.iter("h2")][:2] == ["definition", "example"]
        assert main.find("h1").attrs["id"] == "vmap"
        assert any(a.attrs.get("href") == "../jit/#definition" for a in main.iter("a")), path


def test_real_site_tooltips_speak_the_language_of_their_pages(built_site):
    cat = load_catalog()
    _tooltips_speak_the_language_of_their_pages(built_site, cat)
    vmap = cat.pages["glossary/vmap"]["ru"]
    doc = parse(built_site / "ru/glossary/jit/index.html")
    assert vmap.meta["summary"] in {a.attrs["title"] for a in article(doc).iter("abbr") if a.text() == "vmap"}


# 2. The generated indexes


def index_entries(site: Path, lang: str, index: str) -> list[tuple[str, str, str]]:
    """(title, summary, linked page) of each entry of a generated index page, in order."""
    rel = f"{folder(lang)}{index}/index.html"
    entries = []
    for li in article(parse(site / rel)).iter("li"):
        link = li.find("a")
        if link is not None and li.text().startswith(link.text()) and ": " in li.text():
            entries.append((link.text(), li.text()[len(link.text()) + 2:], resolve(rel, link.attrs["href"])))
    return entries


GLOSSARY_ORDER = {
    "en": ["Compilation cache", "Concretization error", "Hessian", "jit", "Pure function", "Tracer", "vmap"],
    "sk": ["Cache kompilácie", "Čistá funkcia", "Hessián", "Chyba konkretizácie", "jit", "Tracer", "vmap"],
    "ru": ["Гессиан", "Кэш компиляции", "Ошибка конкретизации", "Чистая функция", "jit", "Tracer", "vmap"],
}
LETTERS = {"en": ["C", "H", "J", "P", "T", "V"], "sk": ["C", "Č", "H", "Ch", "J", "T", "V"],
           "ru": ["Г", "К", "О", "Ч", ui_string("ru", "latin_letters")]}  # one heading for Latin: "C" looks like "С"


@pytest.mark.parametrize("lang", sorted(GLOSSARY_ORDER))
def test_glossary_index_is_in_the_alphabetical_order_of_its_language(site, lang):
    assert [title for title, _, _ in index_entries(site, lang, "glossary")] == GLOSSARY_ORDER[lang]
    letters = [heading_text(h) for h in article(parse(site / folder(lang) / "glossary/index.html")).iter("h2")]
    assert letters[:len(LETTERS[lang])] == LETTERS[lang]


def _index_lists_every_page_of_its_kind(site: Path, cat, index: str, kind: str):
    for lang in LANGS:
        expected = {f"{folder(lang)}{page_id}/index.html": cat.page(page_id, lang).meta["summary"]
                    for page_id, versions in cat.pages.items() if cat.page(page_id, lang).meta.get("kind") == kind}
        # numbers keep their word on the line (scripts/src/jax_kb/site/numbers.py): "32\u00a0bits"
        listed = {target: summary.replace("\u00a0", " ") for _, summary, target in index_entries(site, lang, index)}
        assert listed == expected, lang
        assert all((site / target).is_file() for target in listed)


def test_indexes_list_every_term_and_guide_with_its_summary(site, fixture_catalog):
    _index_lists_every_page_of_its_kind(site, fixture_catalog, "glossary", "term")
    _index_lists_every_page_of_its_kind(site, fixture_catalog, "guides", "guide")
    assert [t for t, _, _ in index_entries(site, "ru", "guides")] == ["Отладка трейсеров", "Пакетная обработка с vmap"]
    assert [t for t, _, _ in index_entries(site, "sk", "guides")] == ["Dávkovanie s vmap", "Ladenie tracerov"]


def test_real_site_indexes_list_every_term_and_guide(built_site):
    cat = load_catalog()
    _index_lists_every_page_of_its_kind(built_site, cat, "glossary", "term")
    _index_lists_every_page_of_its_kind(built_site, cat, "guides", "guide")


def test_related_list_has_the_titles_of_the_language_read(site):
    main = article(parse(site / "ru/glossary/vmap/index.html"))
    heading = main.find("h2", id="related")
    assert heading_text(heading) == ui_string("ru", "related")
    links = [a for li in main.iter("li") for a in li.iter("a") if a.attrs["href"] == "../jit/"]
    assert [a.text() for a in links] == ["jit"]


def test_sort_key_follows_each_languages_alphabet():
    def ordered(words, lang):
        return sorted(words, key=lambda w: sort_key(w, lang))

    assert ordered(["hora", "chyba", "čas", "cesta", "ihla", "Ábel", "azúr"], "sk") == \
        ["Ábel", "azúr", "cesta", "čas", "hora", "chyba", "ihla"]
    assert ordered(["vmap", "ёж", "яма", "еда", "йод", "игла"], "ru") == ["еда", "ёж", "игла", "йод", "яма", "vmap"]
    assert ordered(["ñu", "oso", "nube"], "es") == ["nube", "ñu", "oso"]
    assert ordered(["ţară", "tată", "ăla", "acum"], "ro") == ["acum", "ăla", "tată", "ţară"]
    assert ordered(["vmap", "Jit", "jit", "Grad"], "en") == ["Grad", "jit", "Jit", "vmap"]
    assert [initial(w, "sk") for w in ("Chyba", "Čas", "ábel")] == ["Ch", "Č", "A"]
    assert [initial(w, "ru") for w in ("Ёж", "3D")] == ["Е", "#"]


# 3. Translation notices


def notice(doc: Node, name: str) -> Node | None:
    return doc.find("div", data_kb_notice=name)


def test_untranslated_page_is_english_marked_en_with_a_notice_in_the_readers_language(site):
    doc = parse(site / "es/glossary/jit/index.html")
    assert doc.find("html").attrs["lang"] == "es"
    assert ui_string("es", "untranslated") in notice(doc, "untranslated").text()
    english = article(doc).find("div", lang="en")
    assert heading_text(english.find("h1")) == "jit" and "traces and compiles" in english.text()
    related = article(doc).find("h2", id="related")
    assert "en" not in [a.attrs.get("lang") for a in related.ancestors()]
    assert notice(doc, "untranslated") not in list(english.iter())


def test_outdated_translation_names_the_date_of_the_english_change_and_links_it(site):
    rel = "ro/glossary/vmap/index.html"
    box = notice(parse(site / rel), "outdated")
    assert ui_string("ro", "outdated_on").format(date=FIXED_DATE) in box.text()
    assert resolve(rel, box.find("a").attrs["href"]) == "glossary/vmap/index.html"


def test_translation_of_an_uncommitted_english_change_says_recently(site):
    box = notice(parse(site / "ru/glossary/jit/index.html"), "outdated")
    assert ui_string("ru", "outdated_recently") in box.text()


def test_current_translations_and_english_pages_have_no_notice(site):
    for rel in ("ru/glossary/vmap/index.html", "sk/glossary/jit/index.html", "es/glossary/vmap/index.html",
                "glossary/jit/index.html", "glossary/vmap/index.html"):
        doc = parse(site / rel)
        assert notice(doc, "outdated") is None and notice(doc, "untranslated") is None, rel


# 4. The "verified" note


def verified_text(lang: str, report: dict) -> str:
    """The badge's full sentence (its title), with the date as the language writes it."""
    date = verified.local_date(report["created"][:10], lang)
    return ui_string(lang, "verified").format(jax=report["jax"], device="CPU", date=date).replace("..", ".")


def test_verified_note_names_jax_device_and_date_where_every_block_passed(fixture_site):
    report = json.loads((fixture_site.project / "reports/cpu.json").read_text(encoding="utf-8"))
    for rel, lang in [(f"{folder(lang)}glossary/vmap/index.html", lang) for lang in LANGS] + [
            ("ru/glossary/jit/index.html", "ru"), ("sk/glossary/jit/index.html", "sk")]:
        box = notice(parse(fixture_site.site / rel), "verified")
        assert box is not None and box.attrs["title"] == verified_text(lang, report), rel
        assert ui_string(lang, "verified_title") in box.text() and "CPU" in box.text(), rel


def test_pages_whose_examples_changed_or_failed_are_not_verified(site):
    for rel, lang in [("glossary/jit/index.html", "en"), ("es/glossary/jit/index.html", "es"),
                      ("glossary/tracer/index.html", "en"), ("ru/glossary/tracer/index.html", "ru")]:
        doc = parse(site / rel)
        assert notice(doc, "verified") is None, rel
        assert ui_string(lang, "not_verified") == notice(doc, "not-verified").attrs["title"], rel


def test_pages_without_python_have_no_verified_note(site):
    for rel in ("glossary/hessian/index.html", "sk/glossary/index.html", "index.html"):
        doc = parse(site / rel)
        assert notice(doc, "verified") is None and notice(doc, "not-verified") is None, rel


def built_path(page_id: str, lang: str) -> str:
    neutral = page_id[:-len("index")] if page_id == "index" or page_id.endswith("/index") else page_id + "/"
    return f"{folder(lang)}{neutral}index.html"


def _every_verified_note_is_backed_by_a_report(site: Path, root: Path):
    """Checked without scripts/src/jax_kb/site/verified.py: each block passed, with the sha256 of its code as it is now."""
    cat = load_catalog(load_site_config(root / "mkdocs.yml"))
    reports = [json.loads(p.read_text(encoding="utf-8")) for p in (root / "reports/cpu.json", root / "reports/gpu.json")
               if p.is_file()]
    # A .no-run block is compiled and reported not_run; every other block must have passed.
    passed = {(b["file"], b["index"], b["digest"], b["status"]) for r in reports for b in r["blocks"]}
    for page_id in cat.pages:
        for lang in LANGS:
            source = cat.page(page_id, lang)
            box = notice(parse(site / built_path(page_id, lang)), "verified")
            if box is None:
                continue
            blocks = [f for f in source.fences if f.lang in ("python", "py")]
            assert blocks, (page_id, lang)
            for index, block in enumerate(blocks):
                digest = hashlib.sha256(block.code.encode("utf-8")).hexdigest()
                status = "not_run" if "no-run" in block.classes else "passed"
                assert (source.path, index, digest, status) in passed, (page_id, lang, index)
            assert any(f"JAX {r['jax']}" in box.text() for r in reports)


def test_every_verified_note_is_backed_by_a_report(fixture_site, built_site):
    _every_verified_note_is_backed_by_a_report(fixture_site.site, fixture_site.project)
    _every_verified_note_is_backed_by_a_report(built_site, load_site_config().root)


def _runs(tmp_path: Path, reports: dict[str, list[dict]]) -> list[verified.Run]:
    for name, blocks in reports.items():
        path = tmp_path / "reports" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"jax": "0.12.0.1", "device": name[:3], "device_kind": "NVIDIA H200" if
                                    name.startswith("gpu") else "cpu", "created": "2026-12-02T10:00:00Z",
                                    "blocks": blocks}), encoding="utf-8")
    return verified.load_runs(tmp_path)


def test_only_a_report_of_the_current_code_backs_the_note(tmp_path, fixture_site):
    project = fixture_site.project
    page = read_page(project / "docs/glossary/vmap.md", load_site_config(project / "mkdocs.yml"))
    code = next(f.code for f in page.fences if f.lang == "python")
    entry = {"file": page.path, "index": 0, "digest": hashlib.sha256(code.encode("utf-8")).hexdigest(), "status": "passed"}
    cpu = _runs(tmp_path / "a", {"cpu.json": [entry]})
    assert verified.backing_runs(page, cpu) == cpu
    both = _runs(tmp_path / "b", {"cpu.json": [entry], "gpu.json": [entry]})
    assert [run.device for run in verified.backing_runs(page, both)] == ["CPU", "GPU (NVIDIA H200)"]
    assert verified.backing_runs(page, _runs(tmp_path / "c", {"cpu.json": [{**entry, "digest": "0" * 64}]})) is None
    assert verified.backing_runs(page, _runs(tmp_path / "d", {"cpu.json": [{**entry, "index": 1}]})) is None
    assert verified.backing_runs(page, _runs(tmp_path / "e", {"cpu.json": [entry],
                                                              "gpu.json": [{**entry, "status": "failed"}]})) is None
    assert verified.backing_runs(page, _runs(tmp_path / "f", {"cpu.json": [{**entry, "status": "skipped"}]})) is None
    assert verified.backing_runs(page, []) is None


# 5. One search index per language


def search_index(site: Path, lang: str) -> dict:
    """The language's full index: what the search worker fetches once search is opened."""
    stub = json.loads((site / folder(lang) / "search/search_index.json").read_text(encoding="utf-8"))
    assert stub["docs"] == [] and stub["config"]["kb"]["documents"] == f"{folder(lang)}search/search_documents.json"
    return json.loads((site / stub["config"]["kb"]["documents"]).read_text(encoding="utf-8"))


def _each_language_searches_its_own_pages(site: Path):
    for lang in LANGS:
        index = search_index(site, lang)
        assert index["docs"], lang
        english = f"({ui_string(lang, 'search_english')})"
        for doc in index["docs"]:
            rel = resolve(f"{folder(lang)}index.html", doc["location"] or "./")
            assert (site / rel).is_file(), (lang, doc["location"])
            assert rel.split("/")[0] not in LANGS[1:] or lang != DEFAULT, (lang, doc["location"])
            # A page shown in English is found in its language's search, marked as English.
            fallback = notice(parse(site / rel), "untranslated") is not None
            assert doc["title"].endswith(english) == fallback, (lang, doc["location"], doc["title"])
        if lang == DEFAULT:
            assert index["config"]["lang"] == [DEFAULT]
        else:
            assert lang in index["config"]["lang"] and "stemmer" in index["config"]["pipeline"], lang


def _pages_load_their_languages_index(site: Path):
    for lang in LANGS:
        for path in pages_of(site, lang)[:5]:
            config = json.loads(re.search(r'<script id="__config" type="application/json">(.*?)</script>',
                                          path.read_text(encoding="utf-8"), re.S)[1])
            rel = path.relative_to(site).as_posix()
            index = posixpath.normpath(posixpath.join(posixpath.dirname(rel), config["base"],
                                                      "search/search_index.json"))
            assert index == f"{folder(lang)}search/search_index.json", rel


def test_each_language_has_its_own_search_index_of_its_own_pages(site):
    _each_language_searches_its_own_pages(site)
    _pages_load_their_languages_index(site)
    titles = {doc["location"]: doc["title"] for doc in search_index(site, "es")["docs"]}
    assert "glossary/vmap/" in titles
    assert titles["glossary/jit/"].endswith("(en inglés)")  # jit is an English fallback in es


def test_slovak_search_and_the_sites_search_worker_ship_with_the_site(site):
    assert "lunr.sk =" in (site / "assets/javascripts/lunr/min/lunr.sk.min.js").read_text(encoding="utf-8")
    assert "sk" in search_index(site, "sk")["config"]["lang"]
    worker = site / "assets/javascripts/workers"
    assert (worker / "kb-search.js").is_file() and (worker / search_index_module.material_worker()).is_file()
    page = (site / "sk/glossary/vmap/index.html").read_text(encoding="utf-8")
    assert f"workers/kb-search.js?material={search_index_module.material_worker()}" in page


def test_split_index_leaves_the_configuration_where_material_fetches_it_and_marks_fallbacks(tmp_path):
    config = {"lang": ["en"], "separator": "[\\s\\-]+", "pipeline": ["stopWordFilter"], "fields": {}}
    docs = [{"location": "glossary/vmap/", "title": "vmap", "text": ""},
            {"location": "es/glossary/vmap/", "title": "vmap", "text": "lote"},
            {"location": "es/glossary/jit/", "title": "jit", "text": ""},
            {"location": "es/glossary/jit/#definition", "title": "Definition", "text": ""}]
    (tmp_path / "search").mkdir()
    (tmp_path / "search/search_index.json").write_text(json.dumps({"config": config, "docs": docs}), encoding="utf-8")
    search_index_module.split_index(tmp_path, ["en", "es"], "en", {"es": {"glossary/jit/"}},
                                    {"en": "in English", "es": "en inglés"}, {"es": {"glossary/jit/": ["jit"]}})
    stub = json.loads((tmp_path / "es/search/search_index.json").read_text(encoding="utf-8"))
    assert stub == {"config": {**config, "lang": ["es"], "pipeline": search_index_module.STEMMING,
                               "fields": {"names": search_index_module.NAMES_FIELD},
                               "kb": {"documents": "es/search/search_documents.json"}}, "docs": []}
    full = json.loads((tmp_path / "es/search/search_documents.json").read_text(encoding="utf-8"))
    assert [(d["location"], d["title"]) for d in full["docs"]] == [
        ("glossary/vmap/", "vmap"), ("glossary/jit/", "jit (en inglés)"),
        ("glossary/jit/#definition", "Definition (en inglés)")]
    assert [d.get("names") for d in full["docs"]] == [None, ["jit"], None]
    english = json.loads((tmp_path / "search/search_documents.json").read_text(encoding="utf-8"))
    assert [d["location"] for d in english["docs"]] == ["glossary/vmap/"]
    assert json.loads((tmp_path / "search/search_index.json").read_text(encoding="utf-8"))["docs"] == []


def test_the_site_s_worker_imports_the_worker_material_ships():
    import material
    name = search_index_module.material_worker()
    assert re.fullmatch(r"search\.\w+\.min\.js", name)
    assert (Path(material.__file__).parent / "templates/assets/javascripts/workers" / name).is_file()


def test_real_site_search_indexes_are_each_smaller_than_the_others_together(built_site):
    _each_language_searches_its_own_pages(built_site)
    _pages_load_their_languages_index(built_site)
    # Each index is a share of the whole, not a fixed fifth of it.
    sizes = {lang: (built_site / folder(lang) / "search/search_documents.json").stat().st_size for lang in LANGS}
    assert all(size < 0.5 * sum(sizes.values()) for size in sizes.values()), sizes


# 6. A 404 page per language


def _each_language_has_its_404(site: Path, base_path: str):
    for lang in LANGS:
        doc = parse(site / folder(lang) / "404.html")
        assert doc.find("html").attrs["lang"] == lang
        assert heading_text(article(doc).find("h1")) == ui_string(lang, "not_found_title")
        links = [(a.attrs["href"], a.text()) for a in article(doc).iter("a")]
        base = base_path + folder(lang)
        assert links == [(base, ui_string(lang, "home")), (base + "glossary/", ui_string(lang, "glossary"))]
        switcher = {a.attrs["hreflang"]: a.attrs["href"] for a in doc.iter("a") if "md-select__link" in
                    a.attrs.get("class", "")}
        assert switcher == {other: base_path + folder(other) for other in LANGS}


def site_path() -> str:
    with open(load_site_config().root / "mkdocs.yml", encoding="utf-8") as f:
        return urlsplit(yaml_load(f)["site_url"]).path


def test_each_language_has_a_404_page_in_its_language(site):
    _each_language_has_its_404(site, site_path())


def test_real_site_has_a_404_page_per_language(built_site):
    _each_language_has_its_404(built_site, site_path())


def test_a_report_of_the_wrong_shape_is_an_input_error_naming_the_file(tmp_path):
    reports = tmp_path / "reports"
    reports.mkdir()
    for text, detail in [('[1, 2]', 'expected an object with a list "blocks"'),
                         ('{"blocks": [{"file": "docs/a.md"}]}', 'blocks[0] lacks "index" (int)'),
                         ('{"blocks": {"a": 1}}', 'expected an object')]:
        (reports / "cpu.json").write_text(text, encoding="utf-8")
        with pytest.raises(verified.InputError) as raised:
            verified.load_runs(tmp_path)
        assert str(raised.value).startswith("reports/cpu.json:1: not a report of the snippet engine")
        assert detail in str(raised.value)


def test_the_badge_names_every_device_kind_of_reports_dir_linked_to_the_verification_page(tmp_path, fixture_site):
    project = fixture_site.project
    page = read_page(project / "docs/glossary/vmap.md", load_site_config(project / "mkdocs.yml"))
    code = next(f.code for f in page.fences if f.lang == "python")
    entry = {"file": page.path, "index": 0, "digest": hashlib.sha256(code.encode("utf-8")).hexdigest(), "status": "passed"}
    runs = _runs(tmp_path, {"cpu.json": [entry], "gpu-h200.json": [entry]})
    badge = parse_fragment(verified.verified_badge(page, verified.backing_runs(page, runs), "sk",
                                                   "../../verification/#page-glossary-vmap"))
    links = [(a.attrs["href"], a.text()) for a in badge.iter("a")]
    assert links == [("../../verification/#page-glossary-vmap", "CPU, GPU (NVIDIA H200)")]
    assert badge.find("time").text() == "2. decembra 2026"
    # each item unbreakable with the separator after it: a wrapped line never starts with one
    items = [span.text() for span in badge.iter("span") if span.attrs.get("class") == "kb-badge__item"]
    assert items == ["2. decembra 2026 ·", "JAX 0.12.0.1 ·", "CPU, GPU (NVIDIA H200)"]


def test_the_verification_page_escapes_what_reports_and_pages_say(tmp_path, fixture_site):
    from jax_kb.site import verification_page

    project = fixture_site.project
    cat = load_catalog(load_site_config(project / "mkdocs.yml"))
    page = cat.page("glossary/vmap", "en")
    hostile = '<img src=x onerror=alert(1)>'
    entry = {"file": page.path, "index": 0, "digest": "0" * 64, "status": hostile}
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "cpu.json").write_text(json.dumps({"jax": hostile, "device": "cpu", "device_kind": hostile,
                                                  "created": hostile, "commit": hostile, "jaxlib": hostile,
                                                  "python": hostile, "blocks": [entry]}), encoding="utf-8")
    runs = verified.load_runs(tmp_path)
    backing = functools.partial(verified.backing_runs, runs=runs)
    html = verification_page.tables(cat, runs, backing, "en", "")
    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    doc = parse_fragment(html)
    assert doc.find("tbody", id="page-glossary-vmap") is not None
    assert ("../glossary/vmap/", "vmap") in [(a.attrs["href"], a.text()) for a in doc.iter("a")]
    assert ("../reports/cpu.json", "cpu.json") in [(a.attrs["href"], a.text()) for a in doc.iter("a")]
    # a block whose code changed since the run says so; one the run did not see too, in the reader's language
    assert ui_string("en", "verification_changed") in html
    sk = verification_page.tables(cat, runs, backing, "sk", "sk/")
    assert ui_string("sk", "verification_missing") in sk and 'href="../../reports/cpu.json"' in sk


def parse_fragment(html: str) -> Node:
    builder = _TreeBuilder()
    builder.feed(html)
    return builder.root


def test_numbers_keep_their_groups_and_word_but_names_and_code_stay_as_written():
    from jax_kb.site.numbers import keep_numbers_together

    html = ('<p>unos 10 000 millones, 2,5 GB y 3 ms; x64 and float32 arrays</p>'
            '<pre><code>n = 10 000 items</code></pre><abbr title="1 000 x">1 000 veces</abbr>')
    assert keep_numbers_together(html) == (
        '<p>unos 10\u00a0000\u00a0millones, 2,5\u00a0GB y 3\u00a0ms; x64 and float32 arrays</p>'
        '<pre><code>n = 10 000 items</code></pre><abbr title="1 000 x">1\u00a0000\u00a0veces</abbr>')


def test_code_labels_keep_a_fences_own_options_and_mark_the_wrong_and_right_way():
    from jax_kb.site.code_labels import labelled

    page = ('## Common mistake { #common-mistake }\n\n```{.python #first raises="ValueError" title="bad.py"}\nf()\n```\n\n'
            '```text\nValueError: x\n```\n\n```python\ng()\n```\n\n```{.text .output}\n1\n```\n\n## FAQ { #faq }\n\n'
            '```python\nh()\n```\n')
    lines = labelled(page, "es").split("\n")
    assert lines[2] == ('```{.python .kb-wrong id="first" raises="ValueError" title="Incorrecto · Lanza ValueError · bad.py"'
                        ' data-raises="ValueError"}')
    assert lines[10] == '```{.python .kb-right title="Correcto"}'
    assert lines[14] == '```{.text .output .kb-output title="Salida"}'
    assert lines[20] == "```python"  # outside the section, no right way to mark
