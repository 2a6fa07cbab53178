"""python -m scripts.check_page docs/glossary/vmap.md: the fast path for one page.

Its examples in every language it exists in, its front matter, its includes,
and its links and anchors, each problem named by file and line.
"""
from __future__ import annotations

import sys
from pathlib import Path

from jax_kb.catalog import load_catalog
from jax_kb.i18n.paths import translation_path
from jax_kb.markdown import InputError, load_site_config
from jax_kb.markdown.pages import display_path, language_of
from jax_kb.snippets import RunOptions, run_pages
from jax_kb.snippets.runs.report import describe_failure, summary, totals_line


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m scripts.check_page docs/glossary/vmap.md", file=sys.stderr)
        return 2
    try:
        config = load_site_config()
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    _, page_id = language_of(Path(argv[0]), config)
    catalog = load_catalog(config)
    versions = catalog.pages.get(page_id, {})
    english = display_path(config.docs_dir / f"{page_id}.md", config)
    files = {english} | {translation_path(english, lang) for lang in config.languages[1:]}
    problems = [e for e in catalog.errors if e.path in files]  # unreadable files, front matter, links
    if not versions and not problems:
        print(f"error: {argv[0]}: no such page in {config.docs_dir.name}/", file=sys.stderr)
        return 2
    try:
        run = run_pages([page.source for page in versions.values()], RunOptions(), config)
    except InputError as exc:  # the project's settings
        print(f"error: {exc}", file=sys.stderr)
        return 2
    told = {str(e) for e in problems}
    problems += [e for e in run.input_errors if str(e) not in told]  # block options the catalog does not read
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    results = [r for page in run for r in page]
    for r in results:
        if r.status == "failed":
            print(describe_failure(r) + "\n", file=sys.stderr)
    totals = summary(results)
    print(f"{page_id}: {len(versions)} languages ({', '.join(sorted(versions))}); "
          f"{totals_line(totals)}; {len(problems)} other problems")
    return 2 if problems else 1 if totals["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
