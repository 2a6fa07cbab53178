"""python -m scripts.scaffold on a copy of the project in a temporary folder."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from jax_kb.catalog import front_matter_problems, load_catalog
from jax_kb.lint import lint_page
from jax_kb.markdown import load_site_config, read_page
from jax_kb.scaffold import UI_STRINGS, main
from jax_kb.snippets import RunOptions, run_pages
from jax_kb.snippets.blocks import page_blocks
from site_build import ROOT, build_site

TERM_IDS = ["definition", "plain-words", "example", "common-mistake", "faq", "faq-first-question"]
GUIDE_IDS = ["when", "steps", "example", "check", "pitfalls", "limits"]
EXISTING = """---
title: vmap
summary: An existing term.
kind: term
---
# vmap
"""


@pytest.fixture
def project(tmp_path):
    """The project's mkdocs.yml and UI strings, with a home page and one existing term."""
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    (tmp_path / UI_STRINGS).parent.mkdir(parents=True)
    shutil.copy(ROOT / UI_STRINGS, tmp_path / UI_STRINGS)
    (tmp_path / "snippets").mkdir()
    (tmp_path / "docs" / "glossary").mkdir(parents=True)
    (tmp_path / "docs" / "index.md").write_text("---\ntitle: Home\nsummary: The home page.\n---\n# Home\n")
    (tmp_path / "docs" / "glossary" / "vmap.md").write_text(EXISTING)
    return tmp_path


def scaffolded(project: Path, kind: str, name: str):
    assert main([kind, name], root=project) == 0
    config = load_site_config(project / "mkdocs.yml")
    page = read_page(project / "docs" / {"term": "glossary", "guide": "guides"}[kind] / f"{name}.md", config)
    return page, config


@pytest.mark.parametrize("kind, ids", [("term", TERM_IDS), ("guide", GUIDE_IDS)])
def test_new_page_has_complete_front_matter_and_the_section_skeleton(project, kind, ids, capsys):
    page, config = scaffolded(project, kind, "scan")
    assert list(page.meta) == ["title", "summary", "kind", "tags", "related", "aliases"]
    assert page.meta["kind"] == kind
    assert [heading_id for heading_id, _ in page.heading_ids()] == ["scan", *ids]  # the title's id is the slug
    assert front_matter_problems(page, load_catalog(config)) == []
    assert lint_page(page, config) == []
    blocks = page_blocks(page)
    assert blocks[0].output is not None
    assert [b.raises for b in blocks if b.raises] == ["TypeError"]
    path = f"docs/{'glossary' if kind == 'term' else 'guides'}/scan.md"
    assert capsys.readouterr().out.startswith(f"wrote {path}: ")


def test_new_pages_examples_pass(project):
    pages = [scaffolded(project, "term", "scan")[0], scaffolded(project, "guide", "batch-scan")[0]]
    results = [r for page in run_pages([page.source for page in pages], RunOptions(jobs=2),
                                                  load_site_config(project / "mkdocs.yml"))
               for r in page]
    # Two workers: the pages finish in either order.
    assert sorted((r.page.page_id, r.status) for r in results) == [("glossary/scan", "passed")] * 2 + [
        ("guides/batch-scan", "passed")] * 3


@pytest.mark.parametrize("kind", ["term", "guide"])
def test_new_page_refuses_an_existing_slug(project, kind, capsys):
    before = (project / "docs" / "glossary" / "vmap.md").read_bytes()
    assert main([kind, "vmap"], root=project) == 2
    assert capsys.readouterr().err == ("error: docs/glossary/vmap.md already exists: choose another name (slugs are "
                                       "unique across the glossary and the guides), or edit that page\n")
    assert (project / "docs" / "glossary" / "vmap.md").read_bytes() == before
    assert not (project / "docs" / "guides" / "vmap.md").exists()


def test_new_page_refuses_a_name_that_is_not_a_slug(project, capsys):
    assert main(["term", "Custom_VJP"], root=project) == 2
    assert capsys.readouterr().err == ("error: 'Custom_VJP' is not a slug: use lower-case letters, digits and "
                                       "hyphens, such as custom-vjp\n")


def test_new_language_edits_mkdocs_yml_minimally(project):
    before = (project / "mkdocs.yml").read_text(encoding="utf-8").splitlines(keepends=True)
    assert main(["lang", "de", "--name", "Deutsch"], root=project) == 0
    after = (project / "mkdocs.yml").read_text(encoding="utf-8").splitlines(keepends=True)
    end = before.index("        - locale: ru\n") + 1  # the last language
    while before[end].startswith("          "):  # its keys
        end += 1
    assert after == before[:end] + ["        - locale: de\n", "          name: Deutsch\n",
                                    "          build: true\n"] + before[end:]
    assert sum("!!python/name:" in line for line in after) == sum("!!python/name:" in line for line in before) > 0
    config = load_site_config(project / "mkdocs.yml")
    assert config.languages == ("en", "es", "ro", "sk", "ru", "de")
    assert config.language_names["de"] == "Deutsch"


def test_new_language_gets_a_copy_of_the_english_strings(project):
    before = (project / UI_STRINGS).read_text(encoding="utf-8")
    assert main(["lang", "de"], root=project) == 0
    after = (project / UI_STRINGS).read_text(encoding="utf-8")
    assert after.startswith(before)  # comments and every other language kept
    strings = yaml.safe_load(after)
    assert strings["de"] == strings["en"]


def test_new_language_refuses_a_known_or_unsupported_code(project, capsys):
    assert main(["lang", "es"], root=project) == 2
    assert capsys.readouterr().err == "error: mkdocs.yml already has the language 'es'\n"
    assert main(["lang", "xx"], root=project) == 2
    assert capsys.readouterr().err.startswith("error: Material for MkDocs has no interface strings for 'xx', so the "
                                              "site could not be built with it: use one of its language codes: af, ")
    assert (project / "mkdocs.yml").read_bytes() == (ROOT / "mkdocs.yml").read_bytes()


def test_site_builds_at_once_with_a_new_language_and_a_new_term(project, tmp_path_factory):
    shutil.rmtree(project / "scripts")
    shutil.copytree(ROOT / "scripts", project / "scripts", ignore=shutil.ignore_patterns("__pycache__"))
    if (ROOT / "overrides").exists():
        shutil.copytree(ROOT / "overrides", project / "overrides")
    assert main(["lang", "de", "--name", "Deutsch"], root=project) == 0
    assert main(["term", "scan"], root=project) == 0
    site = tmp_path_factory.mktemp("site")
    done = build_site(site, project / "mkdocs.yml")
    assert done.returncode == 0, done.stderr[-4000:]
    german = (site / "de" / "glossary" / "scan" / "index.html").read_text(encoding="utf-8")
    assert '<h2 id="definition">' in german  # the English page, as the German fallback
