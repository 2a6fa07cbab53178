"""One search index per language, each under its own folder (/ru/search/search_index.json).

mkdocs-static-i18n stacks every language's entries into the one index Material's search
writes; once every language is built, this splits that index by language folder, and gives
each part the lunr languages and pipeline of its language. overrides/main.html points each
page's search at its language's index. Fallback pages are not indexed in the language
they fall back from (page meta `search: exclude`, set by the hooks).
"""
from __future__ import annotations

import json
from pathlib import Path

# lunr languages of each index. "prefix" is no language: it stems the words Material's search
# sends with a trailing "*", which lunr would not stem (overrides/assets/javascripts/lunr/min/).
# Russian keeps "en" beside it, since lunr.ru trims away Latin letters (vmap, jit); lunr has no
# Slovak, overrides/ ships lunr.sk. English stays Material's default: no stemming.
LUNR = {"es": ["es", "prefix"], "ro": ["ro", "prefix"], "ru": ["en", "ru", "prefix"], "sk": ["sk", "prefix"]}
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


def boost(page) -> float:
    if page.page_id == "index" or page.page_id.endswith("/index"):
        return INDEX_BOOST
    return BOOSTS.get(page.meta.get("kind"), 1.0)


def index_path(site_dir: Path, lang: str, default: str) -> Path:
    return site_dir / ("" if lang == default else lang) / "search" / "search_index.json"


def split_index(site_dir: Path, languages: list[str], default: str) -> None:
    """Rewrites the combined index of site_dir into one index per language."""
    combined = json.loads(index_path(site_dir, default, default).read_text(encoding="utf-8"))
    docs: dict[str, list] = {lang: [] for lang in languages}
    for doc in combined["docs"]:
        first = doc["location"].split("/", 1)[0]
        lang = first if first in docs and first != default else default
        location = doc["location"][len(lang) + 1:] if lang != default else doc["location"]
        docs[lang].append({**doc, "location": location})
    for lang, entries in docs.items():
        config = dict(combined["config"])
        if lang in LUNR:
            config.update(lang=LUNR[lang], pipeline=STEMMING)
        else:
            config.update(lang=[lang])
        path = index_path(site_dir, lang, default)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"config": config, "docs": entries}, ensure_ascii=False, separators=(",", ":")),
                        encoding="utf-8")
