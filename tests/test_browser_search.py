"""Search as a reader of each language meets it, in Chromium, on the real site served as GitHub
Pages serves it: the index fetched only once search is opened, accents folded alike in the
index, the query and the landing page's highlight, typos forgiven below exact matches, the
typed words in "Missing", a term's names ranked first, search on every input event, and
Material's own keys still working (overrides/assets/javascripts/workers/kb-search.js,
overrides/assets/javascripts/kb-search.js)."""
from __future__ import annotations

import re
import unicodedata
from urllib.parse import parse_qs, urlsplit

import pytest

from test_browser_reader import LANGS, SITE_PATH, base_url, folder, page, tab  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

RESULTS = ".md-search-result__item > a"


def fold(text: str) -> str:
    return unicodedata.normalize("NFC", "".join(c for c in unicodedata.normalize("NFD", text)
                                                if not unicodedata.combining(c))).lower()


def results(page) -> list[dict]:
    page.wait_for_function("() => /\\d/.test(document.querySelector('.md-search-result__meta').textContent)")
    page.wait_for_timeout(200)  # the rest of the list, rendered in chunks
    return page.eval_on_selector_all(RESULTS, """links => links.map(a => ({
        href: a.href, title: a.querySelector('h1, h2').textContent.trim(),
        missing: [...a.querySelectorAll('.md-search-result__terms del')].map(d => d.textContent)}))""")


def search(page, query: str) -> list[dict]:
    """Types the query as a keyboard would (Material listens to keyup) and returns the results."""
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(query)
    box.press("End")
    return results(page)


def path_of(href: str) -> str:
    return urlsplit(href).path


def page_path(lang: str, rel: str) -> str:
    return SITE_PATH + folder(lang) + rel


# The index is fetched once search is opened, and the first query still gets its results


@pytest.mark.parametrize("lang", LANGS)
def test_the_index_is_fetched_only_once_search_is_opened(page, base_url, lang):
    fetched = []
    page.context.on("request", lambda r: fetched.append(urlsplit(r.url).path))
    page.goto(base_url + folder(lang) + "glossary/vmap/")
    page.wait_for_load_state("load")
    page.wait_for_timeout(1000)
    documents = page_path(lang, "search/search_documents.json")
    assert documents not in fetched
    # what a page load fetches for search is the configuration only
    assert page_path(lang, "search/search_index.json") in fetched
    with page.expect_request(lambda r: urlsplit(r.url).path == documents):
        page.locator("input.md-search__input").focus()


@pytest.mark.parametrize("lang", LANGS)
def test_a_query_typed_before_the_index_arrives_gets_its_results(page, base_url, lang):
    page.route("**/search_documents.json", lambda route: (page.wait_for_timeout(800), route.continue_()))
    page.goto(base_url + folder(lang) + "glossary/jit/")
    found = search(page, "vmap")
    assert path_of(found[0]["href"]) == page_path(lang, "glossary/vmap/"), found


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_link_that_opens_search_with_a_query_gets_its_results(page, base_url, lang):
    page.goto(base_url + folder(lang) + "glossary/jit/?q=vmap")  # Material opens search, focused
    found = results(page)
    assert path_of(found[0]["href"]) == page_path(lang, "glossary/vmap/"), found[:3]


def test_a_page_load_fetches_a_few_hundred_bytes_for_search(page, base_url):
    sizes = {}
    page.on("response", lambda r: "/search/" in r.url and sizes.setdefault(r.url, len(r.body())))
    page.goto(base_url + "ru/glossary/vmap/")
    page.wait_for_load_state("load")
    page.wait_for_timeout(1000)
    assert sizes and sum(sizes.values()) < 1000, sizes


# Accents and letter variants fold alike in the index and the query


FOLDED = {
    "en": [("VMAP", "glossary/vmap/")],
    "es": [("compilacion", "glossary/jit/"), ("vectorizacion", "guides/vmap-batch-processing/")],
    "ro": [("functie", "glossary/pure-functions/"), ("funcţie", "glossary/pure-functions/")],
    "sk": [("derivacia", "glossary/grad/"), ("vektorizacia", "guides/composing-transformations/")],
    "ru": [("счетчик", None), ("счётчик", None)],
}


@pytest.mark.parametrize("lang, query, expected", [(lang, q, e) for lang, pairs in FOLDED.items() for q, e in pairs])
def test_a_word_typed_without_its_accents_finds_the_pages_that_have_them(page, base_url, lang, query, expected):
    page.goto(base_url + folder(lang) + "glossary/")
    found = search(page, query)
    assert found and all(not r["missing"] for r in found[:10]), (query, found[:3])
    if expected:
        assert page_path(lang, expected) in [path_of(r["href"]) for r in found[:10]], [r["href"] for r in found[:10]]


# The landing page marks every occurrence of what was typed, folded as the index folds it


TYPED = [("en", "vmap"), ("es", "compilación"), ("es", "compilacion"), ("ro", "funcție"), ("sk", "derivácia"),
         ("ru", "компиляция"), ("ru", "счетчик")]


@pytest.mark.parametrize("lang, query", TYPED)
def test_the_landing_page_marks_every_occurrence_of_the_word_typed(page, base_url, lang, query):
    page.goto(base_url + folder(lang) + "glossary/")
    found = search(page, query)
    link = next(r["href"] for r in found if "#" not in r["href"])
    forms = {fold(w) for w in parse_qs(urlsplit(link).query)["h"][0].split()}
    # the page's words the index took for the word typed: its inflections, in any case and accent
    assert fold(query) in forms or any(form.startswith(fold(query)[:5]) for form in forms), forms
    page.goto(link)
    words = page.evaluate("""() => { const out = [];
        const walker = document.createTreeWalker(document.querySelector('.md-content article'), NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          if (n.parentElement.closest('script, style, .headerlink')) continue;
          for (const m of n.nodeValue.matchAll(/[\\p{L}\\p{N}\\p{M}_]+/gu))
            out.push([m[0], n.parentElement.tagName === 'MARK']); }
        return out; }""")
    # every occurrence, as the page writes it (accents, capitals), is marked
    wanted = [(word, marked) for word, marked in words if fold(word) in forms | {fold(query)}]
    assert wanted and all(marked for _, marked in wanted), (query, [w for w, marked in wanted if not marked])
    # and nothing else is
    marked = {fold(word) for word, is_marked in words if is_marked}
    assert marked <= forms | {fold(query)}, marked - forms


# Typos: a word one or two edits away is found, below every exact match


TYPOS = [("en", "vmpa", "glossary/vmap/"), ("en", "gradeint", "glossary/grad/"),
         ("es", "compilacoin", "glossary/jit/"), ("es", "vectorizasion", "guides/vmap-batch-processing/"),
         ("ro", "compilre", "glossary/jit/"), ("ro", "vectorizrae", "glossary/vmap/"),
         ("sk", "kompilcia", "glossary/jit/"), ("sk", "vektorizacai", "guides/composing-transformations/"),
         ("ru", "компилятция", "glossary/jit/"),
         ("ru", "векторизаця", "guides/composing-transformations/")]


@pytest.mark.parametrize("lang, query, expected", TYPOS)
def test_a_word_one_or_two_edits_away_is_found(page, base_url, lang, query, expected):
    page.goto(base_url + folder(lang) + "glossary/")
    found = search(page, query)
    assert page_path(lang, expected) in [path_of(r["href"]) for r in found], [r["href"] for r in found[:10]]
    assert all(not r["missing"] for r in found if page_path(lang, expected) == path_of(r["href"]))


@pytest.mark.parametrize("lang", LANGS)
def test_an_exact_match_ranks_above_a_word_one_edit_away(page, base_url, lang):
    # "pmap" is a term of its own, one edit from "vmap", whose page has the most boosted names
    page.goto(base_url + folder(lang) + "glossary/")
    found = search(page, "pmap")
    assert path_of(found[0]["href"]) == page_path(lang, "glossary/pmap/"), [r["href"] for r in found[:5]]


# "Missing" shows the words the reader typed


MISSING = {"en": "random compile", "es": "aleatorio compilación", "ro": "aleatoare compilare",
           "sk": "náhodný kompilácia", "ru": "случайный ошибка"}


@pytest.mark.parametrize("lang", LANGS)
def test_missing_words_are_the_words_typed(page, base_url, lang):
    page.goto(base_url + folder(lang) + "glossary/")
    typed = MISSING[lang].split()
    found = search(page, MISSING[lang])
    missing = [word for r in found for word in r["missing"]]
    assert missing, found[:3]
    assert set(missing) <= set(typed), set(missing) - set(typed)


# A term page whose title or alias matches comes first


RANKED = [("en", "vmap", "glossary/vmap/"), ("en", "jax.jit", "glossary/jit/"),
          ("es", "trazadores", "glossary/tracer/"), ("ro", "tracere", "glossary/tracer/"),
          ("sk", "tracery", "glossary/tracer/"), ("ru", "трейсеры", "glossary/tracer/"),
          ("ru", "перекомпиляция", "glossary/recompilation/"),
          ("ru", "якобиан", "glossary/jacfwd-jacrev/"),  # before jvp-vjp's "произведение якобиана на вектор"
          # the issue's: recompilation's alias "повторная трассировка" holds the word too
          ("ru", "трассировка", "glossary/tracer/"), ("ru", "трассировщик", "glossary/tracer/"),
          ("ru", "векторизация", "glossary/vmap/"), ("es", "vectorización", "glossary/vmap/"),
          ("sk", "vektorizácia", "glossary/vmap/"), ("ro", "vectorizare", "glossary/vmap/")]


@pytest.mark.parametrize("lang, query, expected", RANKED)
def test_the_term_page_whose_title_or_alias_matches_comes_first(page, base_url, lang, query, expected):
    page.goto(base_url + folder(lang) + "glossary/jit/")
    found = search(page, query)
    assert path_of(found[0]["href"]) == page_path(lang, expected), [r["href"] for r in found[:5]]


# Every input event searches: pasted from a menu, dictated


@pytest.mark.parametrize("lang", LANGS)
def test_text_put_in_without_a_key_press_is_searched(page, base_url, lang):
    page.goto(base_url + folder(lang) + "glossary/jit/")
    page.locator("input.md-search__input").focus()
    page.evaluate("""() => { const box = document.querySelector('input.md-search__input');
        box.value = 'vmap';
        box.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertFromPaste'})); }""")
    found = results(page)
    assert path_of(found[0]["href"]) == page_path(lang, "glossary/vmap/")


# Material's keys still work


def test_enter_opens_the_best_result_and_escape_closes_search(page, base_url):
    page.goto(base_url + "es/glossary/jit/")
    search(page, "vectorizacion")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("() => document.activeElement.closest('.md-search-result') !== null")
    page.keyboard.press("Escape")
    assert not page.is_checked("#__search")
    search(page, "vmap")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/es/glossary/vmap/\?h=vmap"))
