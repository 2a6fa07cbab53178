"""The built site shows as Python exactly the blocks the snippet engine runs and reports: for
every page of docs/, in every language (an untranslated page shows the English one), the same
blocks, in the same order, with the same code."""
from __future__ import annotations

from pathlib import Path

from jax_kb.catalog import load_catalog
from jax_kb.snippets.engine import load_page
from shown_code import shown_python


def built_file(page_id: str, lang: str, default: str) -> str:
    """Where the site writes a page: directory URLs, each language but the default in its folder."""
    folder = "" if lang == default else f"{lang}/"
    if page_id == "index" or page_id.endswith("/index"):
        return f"{folder}{page_id}.html"
    return f"{folder}{page_id}/index.html"


def differences(site: Path) -> list[str]:
    catalog = load_catalog()
    config = catalog.config
    found = []
    for page_id in sorted(catalog.pages):
        for lang in config.languages:
            source = catalog.page(page_id, lang)
            run = [block.fence.code.strip("\n") for block in load_page(source.source, config).blocks]
            html = (site / built_file(page_id, lang, config.default_language)).read_text(encoding="utf-8")
            shown = [code.strip("\n") for code in shown_python(html)]
            if shown != run:
                first = next((i for i, (a, b) in enumerate(zip(shown, run)) if a != b), min(len(shown), len(run)))
                found.append(f"{built_file(page_id, lang, config.default_language)} (from {source.path}): "
                             f"{len(shown)} blocks shown, {len(run)} run; they part at block {first + 1}")
    return found


def test_every_page_in_every_language_shows_as_python_exactly_the_blocks_the_engine_runs(built_site):
    assert differences(built_site) == []


def test_labels_of_a_blockquoted_raises_and_output_block_keep_it_in_its_blockquote():
    from jax_kb.site.code_labels import labelled

    page = "# X\n\n> ```{.python raises=\"ValueError\"}\n> int('x')\n> ```\n>\n> ```{.text .output}\n> ValueError: x\n> ```\n"
    lines = labelled(page, "en").split("\n")
    assert lines[2].startswith("> ```{.python .kb-raises ") and 'data-raises="ValueError"' in lines[2]
    assert lines[6].startswith("> ```{.text .output .kb-output ")
    assert lines[3:6] == ["> int('x')", "> ```", ">"]
