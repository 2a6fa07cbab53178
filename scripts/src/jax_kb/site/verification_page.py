"""The verification page of each language (verification/, ru/verification/): what ran, and each block's result.

Built by the plugin from the reports in reports/ (jax_kb/site/verified.py): for each run its
device, JAX, jaxlib and Python versions, date, commit and counts, with a link to its JSON report
(copied beside the site for machines); then, for every page with Python blocks, in the
reader's language, each block's status in each run, linked back to the page. The badge of
every page links to that page's entry here.

Everything taken from a report or a page is data: it is escaped, never read as markup. Every
link is relative, so that the page works wherever the site is mounted.
"""
from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable

from mkdocs.utils import get_relative_url

from jax_kb.catalog import Catalog, ui_string
from jax_kb.markdown import InputError, Page
from jax_kb.site.collation import sort_key
from jax_kb.site.escape import markdown_text
from jax_kb.site.verified import Run, local_date
from jax_kb.snippets.blocks import is_python, page_blocks

SRC_URI = "verification.md"  # a generated page, in no language's docs: mkdocs never reads such a file
FOLDER = "verification/"
STATUSES = ("passed", "failed", "skipped", "not_run")
COMMIT = re.compile(r"[0-9a-f]{7,40}(\+)?")
# A page's verified.backing_runs(): the plugin's, computed once per build for the badge and this page alike.
Backing = Callable[[Page], list[Run] | None]


def url(language_folder: str) -> str:
    """The page's URL in a language's build ("ru/verification/")."""
    return language_folder + FOLDER


def anchor(page_id: str) -> str:
    """The id of a page's entry: the badge links to it."""
    return "page-" + page_id.replace("/", "-")


def page_url(page_id: str, language_folder: str) -> str:
    """A docs page's URL in a language's build, as MkDocs writes it with directory URLs."""
    neutral = page_id[:-len("index")] if page_id == "index" or page_id.endswith("/index") else page_id + "/"
    return language_folder + neutral


def markdown(lang: str) -> str:
    """The page's Markdown: its title and introduction; the tables are added as HTML (tables())."""
    title = markdown_text(ui_string(lang, "verification_title"))
    return (f"---\nsearch:\n  exclude: true\n---\n\n# {title} {{ #verification }}\n\n"
            f"{markdown_text(ui_string(lang, 'verification_intro'))}\n")


def _cell(text: str, tag: str = "td") -> str:
    return f"<{tag}>{html.escape(text)}</{tag}>"


def _commit(run: Run) -> str:
    """The commit as code, shortened; a report without one (or with something else there) says so."""
    commit = run.facts.get("commit", "")
    match = COMMIT.fullmatch(commit)
    if not match:
        return "<td>—</td>"
    return f'<td><code title="{html.escape(commit)}">{html.escape(commit[:12])}{match[1] or ""}</code></td>'


def _counts(run: Run, lang: str) -> str:
    counts = Counter(entry.get("status") for entry in run.entries.values())
    return ui_string(lang, "verification_counts").format(**{status: counts.get(status, 0) for status in STATUSES})


def runs_table(runs: list[Run], lang: str, here: str) -> str:
    """One row per report: what ran, where, when, on which commit, and a link to the JSON."""
    heads = "".join(_cell(ui_string(lang, key), "th") for key in (
        "verification_device", "verification_jax", "verification_python", "verification_date",
        "verification_commit", "verification_blocks", "verification_report"))
    rows = []
    for run in runs:
        jax = f"{run.jax} (jaxlib {run.facts['jaxlib']})" if run.facts.get("jaxlib") else run.jax
        report = get_relative_url(run.report, here)
        rows.append(f'<tr id="run-{html.escape(run.report.rsplit("/", 1)[-1].removesuffix(".json"))}">'
                    f"{_cell(run.device, 'th')}{_cell(jax)}{_cell(run.facts.get('python', ''))}"
                    f'<td><time datetime="{html.escape(run.date)}">{html.escape(local_date(run.date, lang))}</time></td>'
                    f"{_commit(run)}{_cell(_counts(run, lang))}"
                    f'<td><a href="{html.escape(report)}" type="application/json">'
                    f"{html.escape(run.report.rsplit('/', 1)[-1])}</a></td></tr>")
    return (f'<table><thead><tr>{heads}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


def block_status(page: Page, index: int, digest: str, run: Run, lang: str) -> str:
    """A block's status in a run, in the reader's language; "changed" when the run saw other code."""
    entry = run.entries.get((page.path, index))
    if entry is None:
        return ui_string(lang, "verification_missing")
    if entry["digest"] != digest:
        return ui_string(lang, "verification_changed")
    if entry["status"] in STATUSES:
        return ui_string(lang, f"verification_{entry['status']}")
    return entry["status"]


def _page_rows(page: Page, title: str, link: str, runs: list[Run], backing: Backing, lang: str) -> str:
    """A tbody per page: its title and state, then one row per block."""
    try:
        blocks = page_blocks(page)
    except InputError as exc:  # the engine refuses the page: nothing of it ran
        blocks, refused = [], str(exc)
    else:
        refused = ""
    state = ui_string(lang, "verified_title" if backing(page) else "not_verified_title")
    heading = (f'<th scope="rowgroup" rowspan="{max(len(blocks), 1)}"><a href="{html.escape(link)}">'
               f"{html.escape(title)}</a><br><small>{html.escape(state)}</small></th>")
    if not blocks:
        return (f'<tbody id="{anchor(page.page_id)}"><tr>{heading}'
                f'<td colspan="{len(runs) + 1}">{html.escape(refused)}</td></tr></tbody>')
    rows = []
    for n, block in enumerate(blocks):
        line = ui_string(lang, "verification_line").format(line=block.line)
        statuses = "".join(_cell(block_status(page, block.index, block.digest, run, lang)) for run in runs)
        rows.append(f"<tr>{heading if n == 0 else ''}{_cell(line)}{statuses}</tr>")
    return f'<tbody id="{anchor(page.page_id)}">{"".join(rows)}</tbody>'


def pages_table(cat: Catalog, runs: list[Run], backing: Backing, lang: str, language_folder: str, here: str) -> str:
    """Every page with Python blocks, in the reader's language (or its English fallback), by title."""
    entries = []
    for page_id in cat.pages:
        page = cat.page(page_id, lang)
        if page is None or not any(is_python(fence) for fence in page.fences):
            continue
        title = str(page.meta.get("title") or page.slug)
        entries.append((sort_key(title, lang), page, title))
    heads = (_cell(ui_string(lang, "verification_page"), "th") + _cell(ui_string(lang, "verification_block"), "th")
             + "".join(_cell(run.device, "th") for run in runs))
    bodies = "".join(_page_rows(page, title, get_relative_url(page_url(page.page_id, language_folder), here),
                                runs, backing, lang)
                     for _, page, title in sorted(entries, key=lambda entry: entry[0]))
    return f'<table><thead><tr>{heads}</tr></thead>{bodies}</table>'


def tables(cat: Catalog, runs: list[Run], backing: Backing, lang: str, language_folder: str) -> str:
    """The page's content after its introduction: the runs, then the pages."""
    here = url(language_folder)
    return (f'<h2 id="runs">{html.escape(ui_string(lang, "verification_runs"))}</h2>\n'
            f"{runs_table(runs, lang, here)}\n"
            f'<h2 id="pages">{html.escape(ui_string(lang, "verification_pages"))}</h2>\n'
            f"{pages_table(cat, runs, backing, lang, language_folder, here)}\n")
