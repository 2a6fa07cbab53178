"""Safety and correctness lint of the Markdown pages: raw HTML, attribute lists and abbreviations
outside the allowlist (scripts/src/jax_kb/lint/allowlist.py), unsafe or plain http:// URLs, markup in front
matter, images without alt text, fences with an unknown language or option, ids of the theme's, headings
without an id of their own (on a site in several languages),
Trojan Source, error messages in text blocks that nothing checks, and files in docs/ that are
neither pages nor images."""
from __future__ import annotations

from pathlib import Path

from jax_kb.markdown import InputError, Page, SiteConfig, markdown_files, read_page
from jax_kb.lint.abbreviations import abbreviation_problems
from jax_kb.lint.attr_lists import attr_list_problems
from jax_kb.lint.docs_files import docs_file_problems
from jax_kb.lint.fences import fence_problems
from jax_kb.lint.front_matter import front_matter_problems
from jax_kb.lint.heading_ids import heading_id_problems
from jax_kb.lint.images import image_problems
from jax_kb.lint.prose import prose
from jax_kb.lint.raw_html import raw_html_problems
from jax_kb.lint.trojan_source import trojan_source_problems
from jax_kb.lint.unchecked_errors import unchecked_error_problems
from jax_kb.lint.urls import url_problems


def lint_page(page: Page, config: SiteConfig) -> list[InputError]:
    text = prose(page)
    problems = (raw_html_problems(page, text) + attr_list_problems(page, text) + abbreviation_problems(page, text)
                + url_problems(page, text) + image_problems(page, text) + fence_problems(page)
                + front_matter_problems(page) + heading_id_problems(page, text, len(config.languages) > 1) + trojan_source_problems(page)
                + unchecked_error_problems(page))
    return sorted(problems, key=lambda p: p.line or 0)


def lint_files(paths: list[Path], config: SiteConfig) -> tuple[list[InputError], list[InputError]]:
    """(problems, pages that could not be read), each page on its own; in folders, the other files too."""
    problems, unreadable = docs_file_problems(paths, config), []
    for path in markdown_files(paths):
        try:
            page = read_page(path, config)
        except InputError as exc:
            unreadable.append(exc)
            continue
        problems.extend(lint_page(page, config))
    return problems, unreadable
