"""One search index per language, each under its own folder (/ru/search/...).

mkdocs-static-i18n stacks every language's entries into the one index Material's search
writes; once every language is built, this splits that index by language folder, and gives
each part the lunr languages and pipeline of its language. overrides/main.html points each
page's search at its language's folder.

Material fetches search/search_index.json on every page load; the site's search worker
(overrides/assets/javascripts/workers/kb-search.js) needs the documents only once the reader
opens search. So search_index.json holds the configuration only, with `kb.documents` naming
the full index (search/search_documents.json, relative to the site's root) that the worker
fetches then. A page that falls back to English is in its language's index, its titles
marked as English.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import material
from mkdocs.exceptions import PluginError

from jax_kb.atomic_write import write_atomic

# lunr languages of each index. Russian keeps "en" beside it, since lunr.ru trims away Latin
# letters (vmap, jit); lunr has no Slovak, overrides/ ships lunr.sk. English stays Material's
# default: no stemming. The worker folds accents and stems the words typed (kb-search.js).
LUNR = {"es": ["es"], "ro": ["ro"], "ru": ["en", "ru"], "sk": ["sk"]}
STEMMING = ["stemmer", "stopWordFilter", "trimmer"]
# Material's per-page search boost: a term page that matches comes before a guide that mentions
# the word, and the indexes, which list every term's summary, come last.
BOOSTS = {"term": 10.0, "guide": 1.0}
INDEX_BOOST = 0.05


def search_tags(page) -> list[str]:
    """What Material indexes as a page's tags, its most boosted field: a term's title and aliases.

    A term page whose name or alias is typed then ranks first; the front matter's tags (English
    topic words) would instead put every page tagged "vmap" above the vmap page. Results do not
    show them (overrides/assets/stylesheets/kb.css).
    """
    if page.meta.get("kind") != "term":
        return []
    aliases = page.meta.get("aliases") or []
    names = [page.meta.get("title"), *(aliases if isinstance(aliases, list) else [])]
    return [str(name) for name in names if isinstance(name, (str, int, float)) and str(name).strip()]


# The field of a term's one-word names (title or alias), as much as its tags: a word typed that is
# a term's whole name puts it above a term that has the word in a longer name ("якобиан": the
# Jacobian's page, before "произведение якобиана на вектор").
NAMES_FIELD = {"boost": 1000000.0}
ONE_WORD = re.compile(r"[^\s\-]+")


def one_word_names(page) -> list[str]:
    return [name for name in search_tags(page) if ONE_WORD.fullmatch(name)]


def boost(page) -> float:
    if page.page_id == "index" or page.page_id.endswith("/index"):
        return INDEX_BOOST
    return BOOSTS.get(page.meta.get("kind"), 1.0)


def material_worker() -> str:
    """The file name of Material's search worker, which the site's worker imports."""
    workers = sorted((Path(material.__file__).parent / "templates/assets/javascripts/workers").glob("search.*.min.js"))
    if len(workers) != 1:
        raise PluginError(f"Material's search worker: expected one search.*.min.js, found {[w.name for w in workers]}")
    return workers[0].name


def folder(lang: str, default: str) -> str:
    """A language's folder in the site ("ru/"), its pages' and its index's; empty for the default language, at the root."""
    return "" if lang == default else f"{lang}/"


def index_path(site_dir: Path, lang: str, default: str) -> Path:
    """What Material fetches on every page: the configuration, naming the documents."""
    return site_dir / folder(lang, default) / "search" / "search_index.json"


def documents_path(lang: str, default: str) -> str:
    """The full index, fetched by the worker once search is opened; relative to the site's root."""
    return f"{folder(lang, default)}search/search_documents.json"


def _marked(doc: dict, label: str) -> dict:
    return {**doc, "title": f"{doc['title']} ({label})"}


def split_index(site_dir: Path, languages: list[str], default: str, fallbacks: dict[str, set[str]],
                english_labels: dict[str, str], names: dict[str, dict[str, list[str]]]) -> None:
    """Rewrites the combined index of site_dir into one index per language.

    fallbacks: per language, the URLs (relative to its folder) of its pages shown in English;
    their entries are titled with english_labels[lang]. names: per language and URL, a term's
    one-word names, the `names` field of its page's entry.
    """
    combined = json.loads(index_path(site_dir, default, default).read_text(encoding="utf-8"))
    docs: dict[str, list] = {lang: [] for lang in languages}
    for doc in combined["docs"]:
        first = doc["location"].split("/", 1)[0]
        lang = first if first in docs and first != default else default
        location = doc["location"][len(lang) + 1:] if lang != default else doc["location"]
        entry = {**doc, "location": location}
        if location.split("#", 1)[0] in fallbacks.get(lang, ()):
            entry = _marked(entry, english_labels[lang])
        if "#" not in location and names.get(lang, {}).get(location):
            entry["names"] = names[lang][location]
        docs[lang].append(entry)
    for lang, entries in docs.items():
        config = {**combined["config"], "fields": {**combined["config"]["fields"], "names": NAMES_FIELD}}
        if lang in LUNR:
            config.update(lang=LUNR[lang], pipeline=STEMMING)
        else:
            config.update(lang=[lang])
        documents = documents_path(lang, default)
        _write(site_dir / documents, {"config": config, "docs": entries})
        _write(index_path(site_dir, lang, default), {"config": {**config, "kb": {"documents": documents}}, "docs": []})


def _write(path: Path, index: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(index, ensure_ascii=False, separators=(",", ":")))
