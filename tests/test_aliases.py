"""The glossary's aliases: the names readers type for a term, in each language, are that term's
(search ranks a term whose alias matches first, and the first mention gets its tooltip), and no
name belongs to two terms, which would give one of them the other's tooltip."""
from __future__ import annotations

import pytest

from jax_kb.catalog import load_catalog
from jax_kb.markdown import load_site_config

CATALOG = load_catalog(load_site_config())
# Names that two pages teach alike: the tooltip goes to the first, search finds both.
SHARED = {"jax.eval_shape": {"glossary/debugging", "glossary/shape-polymorphism"}}
# What readers type, from issue 23's searches and CONTENT.md's terms of each language.
EVERYDAY = [
    ("ru", "glossary/tracer", "трассировщик"), ("ru", "glossary/tracer", "трассировка"),
    ("ru", "glossary/vmap", "векторизация"), ("es", "glossary/vmap", "vectorización"),
    ("ro", "glossary/vmap", "vectorizare"), ("sk", "glossary/vmap", "vektorizácia"),
    ("en", "glossary/vmap", "vectorization"), ("es", "glossary/tracer", "trazado"),
    ("sk", "glossary/tracer", "trasovanie"), ("en", "glossary/grad", "gradient"),
    ("ru", "glossary/grad", "градиент"), ("ru", "glossary/bucketing", "бакетинг"),
]


def names(page) -> list[str]:
    return [page.meta["title"], *(page.meta.get("aliases") or [])]


@pytest.mark.parametrize("lang, page_id, name", EVERYDAY)
def test_everyday_names_are_aliases_of_their_term(lang, page_id, name):
    assert name in CATALOG.pages[page_id][lang].meta["aliases"]


@pytest.mark.parametrize("lang", CATALOG.config.languages)
def test_no_name_belongs_to_two_terms(lang):
    owners: dict[str, set[str]] = {}
    for page_id, by_lang in CATALOG.pages.items():
        page = by_lang.get(lang)
        if page is not None and page.meta.get("kind") == "term":
            for name in names(page):
                owners.setdefault(name, set()).add(page_id)
    shared = {name: pages for name, pages in owners.items() if len(pages) > 1}
    assert shared == {name: pages for name, pages in SHARED.items() if name in shared}
    assert set(shared) == set(SHARED)
