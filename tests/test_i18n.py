"""python -m scripts.i18n: status, mark and check, on the fixtures of tests/fixtures/i18n/."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from jax_kb.catalog import load_catalog
from jax_kb.i18n import translation_status
from jax_kb.i18n.__main__ import main
from jax_kb.i18n.check import check_problems
from jax_kb.i18n.history import Change
from jax_kb.i18n.mark import with_translation_of
from jax_kb.i18n.scope import load_scope
from jax_kb.i18n.terminology import avoid_pattern, load_terminologies
from jax_kb.markdown import InputError, load_site_config

FIXTURES = Path(__file__).parent / "fixtures" / "i18n"
CONFIG = load_site_config()


def digest_of(path: Path) -> str:
    """The contract of translation_of, computed independently of the reader."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def problems(folder: str) -> dict[str, list[tuple[int, str]]]:
    """The check's problems by file name, with the fixture folder left out of paths and messages."""
    catalog, in_scope = load_scope(FIXTURES / folder, CONFIG)
    prefix = f"tests/fixtures/i18n/{folder}/"
    found: dict[str, list[tuple[int, str]]] = {}
    for p in check_problems(catalog, in_scope):
        found.setdefault(p.path.removeprefix(prefix), []).append((p.line, p.message.replace(prefix, "")))
    return found


@pytest.fixture(scope="module")
def parity():
    return problems("parity")


# check: parity of each translation with its English page

def test_code_that_differs_is_reported_at_each_block(parity):
    assert parity["code.es.md"] == [
        (17, "code differs from the block at code.md:16 (first difference: '3' here, '2' in English): translate "
             "only prose and comments; copy the code from the English page"),
        (26, "code differs from the block at code.md:25 (first difference: '\"nada.txt\"' here, '\"nothing.txt\"' "
             "in English): translate only prose and comments; copy the code from the English page"),
    ]


def test_translated_comments_and_prose_are_no_problem(parity):
    assert "good.es.md" not in parity


def test_output_that_differs(parity):
    assert parity["output.es.md"] == [
        (22, ".output block differs from output.md:21: expected output is never translated; copy it")]


def test_fence_options_that_differ(parity):
    assert parity["options.es.md"] == [
        (22, 'fence options {.text .output rtol="1e-3"} differ from {.text .output} at options.md:21: fence '
             "options stay as in English"),
        (26, "fence options python differ from {.python .no-run} at options.md:25: fence options stay as in English"),
    ]


def test_a_block_left_out_and_one_added(parity):
    assert parity["blocks.es.md"] == [
        (13, "this section lacks the Python block at blocks.md:25: copy it, code unchanged, from the English page"),
        (36, "this Python block is not on the English page blocks.md: a translation adds no code; remove it, or "
             "add it to the English page first"),
    ]


def test_heading_ids_that_differ(parity):
    assert parity["headings.es.md"] == [
        (35, "no heading with the id #faq-why after this line (headings.md:36 has it): give the matching heading "
             "{ #faq-why }"),
        (37, "heading id #faq-por-que is not on the English page headings.md: ids stay as in English, so that "
             "links and anchors survive; use the English page's id"),
    ]


def test_links_and_images_that_differ(parity):
    assert parity["links.es.md"] == [
        (13, "this section lacks the link or image 'good.md#example' of links.md:14: links and images stay as "
             "in English"),
        (13, "this section lacks the link or image 'img/plot.png' of links.md:14: links and images stay as in "
             "English"),
        (15, "link or image 'good.es.md#example' is not on the English page links.md: link to the same pages, "
             "anchors and images as the English page"),
    ]


def test_front_matter_keys_that_are_not_translated(parity):
    assert parity["front-matter.es.md"] == [
        (1, "front matter lacks 'related', which front-matter.md:6 has: every key but title, summary and aliases "
            "stays as in English"),
        (5, "tags is ['accesorio'] here but ['fixture'] at front-matter.md:5: only title, summary and aliases "
            "are translated"),
        (6, "front matter key 'author' is not on the English page front-matter.md: remove it, or add it to the "
            "English page first"),
        (6, "unknown front matter key 'author': pages may set only title, summary, kind, tags, related, aliases, "
            "translation_of"),
    ]


def test_translation_of_absent_or_malformed(parity):
    assert parity["unmarked.es.md"] == [
        (1, "front matter lacks translation_of: after translating, run python -m scripts.i18n mark "
            "unmarked.es.md")]
    assert parity["unmarked.ro.md"] == [
        (8, "translation_of '3f2a' is not a page digest (12 hex digits): run python -m scripts.i18n mark "
            "unmarked.ro.md")]


def test_translation_without_english_page(parity):
    assert parity["orphan.es.md"] == [
        (1, "no English page orphan.md beside this translation: a translation has the English file name plus "
            "the language")]


def test_only_translations_have_problems(parity):
    assert sorted(parity) == ["blocks.es.md", "code.es.md", "front-matter.es.md", "headings.es.md", "links.es.md",
                              "options.es.md", "orphan.es.md", "output.es.md", "unmarked.es.md", "unmarked.ro.md"]


def test_broken_front_matter_is_named_and_hides_no_other_page():
    assert problems("front-matter") == {
        # The English page cannot be read: its error is reported, its translation is not called an orphan.
        "english.md": [(3, "front matter is not valid YAML: found unexpected end of stream")],
        "kind.md": [(4, "unknown kind 'recipe': use one of term, guide")],
        "related.md": [(6, "related names 'nowhere', which is no page's slug")],
        "required.es.md": [(1, "front matter lacks the required key 'summary'")],
        "still.es.md": [(10, "code differs from the block at still.md:9 (first difference: '\"todavía\"' here, "
                             "'\"still\"' in English): translate only prose and comments; copy the code from "
                             "the English page")],
        "yaml.es.md": [(3, "front matter is not valid YAML: expected ',' or ']', but got ':'")],
    }


def test_check_exit_status_and_output(capsys):
    assert main(["check", str(FIXTURES / "parity")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 19
    assert err[2].startswith("error: tests/fixtures/i18n/parity/code.es.md:17: code differs from the block at ")
    # A stale translation in parity passes: staleness is for status and the site, not a failure.
    assert main(["check", str(FIXTURES / "parity" / "good.es.md")]) == 0
    assert main(["check", str(FIXTURES / "front-matter")]) == 2  # yaml.es.md cannot be read at all
    assert main(["check", str(FIXTURES / "nowhere")]) == 2
    assert "nowhere: no such file or folder" in capsys.readouterr().err


# status

def test_status_records():
    catalog, _ = load_scope(FIXTURES / "status", CONFIG)
    records = {r.lang: r for r in translation_status(catalog)}
    english = FIXTURES / "status" / "page.md"
    assert [(r.lang, r.state) for r in records.values()] == [
        ("es", "up to date"), ("ro", "stale"), ("sk", "missing"), ("ru", "missing")]
    assert {r.digest for r in records.values()} == {digest_of(english)}
    assert records["ro"].translation_of == "0123456789ab"
    assert records["sk"].path == "tests/fixtures/i18n/status/page.sk.md"
    assert records["sk"].translation_of is None
    assert records["es"].english_change is None  # only a stale one says when English changed


def test_status_cli_table_and_json(capsys):
    assert main(["status", str(FIXTURES / "status")]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[:2] == ["page  es          ro     sk       ru", "page  up to date  stale  missing  missing"]
    assert table[4].startswith("  tests/fixtures/i18n/status/page.ro.md: English page ")
    assert table[-1] == "1 up to date, 1 stale, 2 missing"
    assert main(["status", str(FIXTURES / "status"), "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [(r["lang"], r["state"]) for r in records] == [
        ("es", "up to date"), ("ro", "stale"), ("sk", "missing"), ("ru", "missing")]
    assert set(records[1]) == {"page_id", "lang", "state", "path", "english_path", "digest", "translation_of",
                               "english_change"}


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                          check=True, capture_output=True, text=True).stdout.strip()


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_status_names_the_commit_that_changed_the_english_page(tmp_path):
    docs = tmp_path / "docs"
    shutil.copytree(FIXTURES / "status", docs)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "English and translations")
    config = dataclasses.replace(CONFIG, docs_dir=docs)
    stale = next(r for r in translation_status(load_catalog(config)) if r.state == "stale")
    assert stale.english_change == Change(_git(tmp_path, "rev-parse", "--short", "HEAD"),
                                          _git(tmp_path, "log", "-1", "--format=%cs"), "English and translations")
    with open(docs / "page.md", "a", encoding="utf-8") as f:
        f.write("\nA new paragraph.\n")
    records = translation_status(load_catalog(config))
    assert [r.state for r in records] == ["stale", "stale", "missing", "missing"]
    assert [str(r.english_change) for r in records[:2]] == ["uncommitted changes"] * 2


# mark

@pytest.fixture
def marking(tmp_path):
    shutil.copytree(FIXTURES / "mark", tmp_path, dirs_exist_ok=True)
    return tmp_path


def test_mark_adds_the_key_byte_for_byte_with_crlf_tabs_and_non_ascii(marking, capsys):
    page = marking / "crlf.es.md"
    before = page.read_bytes()
    assert b"\r\n" in before and b"\t" in before and "ñ".encode() in before
    assert main(["mark", str(page)]) == 0
    lines = before.split(b"\r\n")
    lines.insert(lines.index(b"---", 1), b"translation_of: " + digest_of(marking / "crlf.md").encode())
    assert page.read_bytes() == b"\r\n".join(lines)
    assert main(["mark", str(page)]) == 0  # a second run changes nothing
    assert page.read_bytes() == b"\r\n".join(lines)
    assert capsys.readouterr().out.splitlines() == [f"{page}: marked", f"{page}: already marked"]
    record = next(r for r in translation_status(load_scope(marking, CONFIG)[0]) if r.path.endswith("crlf.es.md"))
    assert record.state == "up to date"


def test_mark_replaces_a_value_and_keeps_its_comment(marking):
    page = marking / "marked.es.md"
    before = page.read_text(encoding="utf-8").splitlines(keepends=True)
    assert main(["mark", str(page)]) == 0
    after = page.read_text(encoding="utf-8").splitlines(keepends=True)
    assert after[3] == f"translation_of: {digest_of(marking / 'marked.md')}   # the first draft\n"
    assert after[:3] + after[4:] == before[:3] + before[4:]


def test_mark_quotes_a_digest_that_yaml_would_read_as_a_number():
    text = with_translation_of("---\ntitle: T\n---\n", "123456789012", "t.es.md")
    assert text == '---\ntitle: T\ntranslation_of: "123456789012"\n---\n'
    assert yaml.safe_load(text.split("---")[1])["translation_of"] == "123456789012"


def test_mark_refuses_what_it_cannot_mark_and_goes_on(marking, capsys):
    (marking / "orphan.es.md").write_text("---\ntitle: Huérfana\n---\n", encoding="utf-8")
    assert main(["mark", str(marking / "crlf.md"), str(marking / "orphan.es.md"), str(marking / "absent.es.md"),
                 str(marking / "marked.es.md")]) == 1
    out = capsys.readouterr()
    assert out.err.splitlines() == [
        f"error: {marking / 'crlf.md'}: this is an English page: mark its translations (such as crlf.es.md), "
        "not the page itself",
        f"error: {marking / 'orphan.es.md'}:1: no English page {marking / 'orphan.md'} beside this translation: "
        "a translation has the English file name plus the language",
        f"error: {marking / 'absent.es.md'}: no such file",
    ]
    assert out.out == f"{marking / 'marked.es.md'}: marked\n"


def test_mark_needs_front_matter():
    with pytest.raises(InputError) as exc:
        with_translation_of("# No front matter\n", "0123456789ab", "t.es.md")
    assert str(exc.value) == ("t.es.md:1: no front matter: a translation starts with the English page's front "
                              "matter, between two '---' lines")


# check: the term list of each language (terminology/<lang>.yml)

TERMS = FIXTURES / "terminology"


def wording(lists: str) -> dict[str, list[tuple[int, str]]]:
    """The check's problems on the terminology fixture pages with the term lists of folder `lists`."""
    catalog, in_scope = load_scope(TERMS / "pages", CONFIG)
    found: dict[str, list[tuple[int, str]]] = {}
    for p in check_problems(catalog, in_scope, TERMS / lists):
        found.setdefault(p.path.removeprefix("tests/fixtures/i18n/terminology/"), []).append(
            (p.line, p.message.replace("tests/fixtures/i18n/terminology/", "")))
    return found


def test_avoided_renderings_are_reported_at_their_line_in_prose_only():
    # Inline code, the code block's comment, a link's target and a bare URL also hold «котангенс»: none counts.
    assert wording("lists") == {"pages/page.ru.md": [
        (2, "«Отображение» is a rendering of \"map\" that lists/ru.yml:6 avoids: write векторизовать по оси"),
        (3, "«отображает» is a rendering of \"map\" that lists/ru.yml:6 avoids: write векторизовать по оси"),
        (11, "«отображается» is a rendering of \"map\" that lists/ru.yml:6 avoids: write векторизовать по оси"),
        (12, "«Управление потоком» is a rendering of \"control flow\" that lists/ru.yml:12 avoids: write поток "
             "управления"),
    ]}


@pytest.mark.parametrize(("entry", "text", "found"), [
    ("управлени* поток*", "с управлением потоком", ["управлением потоком"]),
    ("управлени* поток*", "Управления\n   потоком", ["Управления\n   потоком"]),
    ("управлени* поток*", "управления\n\nпотоком", []),          # a paragraph break ends the phrase
    ("mapead*", "mapeado, mapeadas y remapeado", ["mapeado", "mapeadas"]),
    ("*vectorizat*", "nevectorizată", ["nevectorizată"]),
    ("control de flujo", "el flujo de control", []),
    ("hodnos*", "Hodnosť a náhodnosť", ["Hodnosť"]),
])
def test_avoid_entries_match_whole_words_and_inflections(entry, text, found):
    assert [m.group(0) for m in avoid_pattern(entry).finditer(text)] == found


def test_a_broken_term_list_is_named_at_its_line_and_the_others_still_count():
    found = wording("broken")
    assert {path: lines for path, lines in found.items() if path.startswith("broken/")} == {
        "broken/es.yml": [(3, "not valid YAML: expected ',' or ']', but got ':'")],
        "broken/ro.yml": [(6, "avoid must be a list, such as [word, other words]")],
        "broken/ru.yml": [(6, "avoid entry 'управлени*(поток)': 'управлени*(поток)' is not a word (letters, inner "
                              "hyphens, a * at either end for any letters)")],
        "broken/sk.yml": [(1, "language is 'es' but the file is named for 'sk'")],
    }
    assert "pages/page.ru.md" not in found  # its list is broken: reported, not half-applied


def test_an_unknown_key_in_a_term_is_named(tmp_path):
    (tmp_path / "ru.yml").write_text("language: ru\nkeep_english: []\nterms:\n  - en: cotangent\n"
                                     "    usage: кокасательный вектор\n", encoding="utf-8")
    lists, errors = load_terminologies(tmp_path, CONFIG)
    assert lists == {}
    assert [(e.line, e.message) for e in errors] == [
        (5, "unknown key 'usage' in a term: use avoid, en, note, use")]


def test_check_cli_takes_the_term_lists_and_exits_1_on_a_rendering(capsys):
    assert main(["check", str(TERMS / "pages"), "--terminology", str(TERMS / "lists")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == ("error: tests/fixtures/i18n/terminology/pages/page.ru.md:2: «Отображение» is a rendering of "
                      "\"map\" that tests/fixtures/i18n/terminology/lists/ru.yml:6 avoids: write векторизовать по оси")
    assert main(["check", str(TERMS / "pages" / "page.es.md"), "--terminology", str(TERMS / "lists")]) == 0
    assert main(["check", str(TERMS / "pages"), "--terminology", str(TERMS / "nowhere")]) == 2


def test_the_projects_term_lists_are_readable_and_cover_every_translated_language():
    lists, errors = load_terminologies(CONFIG.root / "terminology", CONFIG)
    assert errors == []
    assert sorted(lists) == sorted(CONFIG.languages[1:])
    for terminology in lists.values():
        concepts = [term.en for term in terminology.terms]
        assert len(concepts) == len(set(concepts)), f"{terminology.path} lists a concept twice"


def test_hostile_front_matter_and_duplicate_slugs_are_named_without_a_crash(tmp_path, capsys):
    """Nesting that overflows the stack and an alias bomb are refused at read time (exit 2, named at
    their line); two content pages with one slug are named too, since related: [slug] would pick one."""
    page = "---\ntitle: {title}\nsummary: A page.\nkind: {kind}\n---\n# Page\n"
    bomb = "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(10))
    for folder in ("glossary", "guides"):
        (tmp_path / folder).mkdir()
    (tmp_path / "glossary" / "deep.md").write_text(page.format(title="[" * 600 + "]" * 600, kind="term"))
    (tmp_path / "glossary" / "bomb.md").write_text(page.format(title="Bomb", kind="term").replace(
        "---\n# Page", bomb + "---\n# Page"))
    (tmp_path / "glossary" / "jit.md").write_text(page.format(title="jit", kind="term"))
    (tmp_path / "guides" / "jit.md").write_text(page.format(title="jit", kind="guide"))
    assert main(["check", str(tmp_path)]) == 2
    errors = capsys.readouterr().err
    assert f"{tmp_path}/glossary/deep.md:2: front matter is nested more than 20 levels deep" in errors
    assert f"{tmp_path}/glossary/bomb.md:8: front matter uses more than 20 aliases" in errors
    assert f"{tmp_path}/guides/jit.md:1: the slug 'jit' is also the slug of glossary/jit" in errors
    assert "Traceback" not in errors


def test_a_link_whose_text_wraps_is_read_at_the_line_it_starts(tmp_path):
    from jax_kb.markdown import read_page

    page = tmp_path / "wrapped.md"
    page.write_text("# Wrapped\n\nBoth run ([lax.cond and\n   lax.switch](../glossary/cond-switch.md)).\n\n"
                    "```python\nx = [1](2)\n```\n\n[one](a.md) and [two\n\nparagraphs](b.md)\n", encoding="utf-8")
    assert read_page(page).links() == [("../glossary/cond-switch.md", 3), ("a.md", 10)]
