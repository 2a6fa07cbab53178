"""What the build publishes of docs/: pages and the files the lint's allowlist lets through
(jax_kb/lint/docs_files.py). Any other file (a script, an HTML page, an SVG) is reported and left
out, so that it is never served from the site's address, linted or not."""
from __future__ import annotations

import os

from mkdocs.structure.files import Files

from jax_kb.lint.docs_files import file_problem


def refused(files: Files, config) -> list[tuple[str, str]]:
    """(path, problem) of each file of docs/ that may not be published; each is taken out of `files`,
    and a theme file it hid (docs/assets/javascripts/bundle.js) is put back."""
    found = []
    docs = os.path.realpath(config.docs_dir)
    for file in list(files):
        if file.abs_src_path is None or os.path.commonpath([os.path.realpath(file.abs_src_path), docs]) != docs:
            continue  # the theme's, or generated
        if problem := file_problem(file.src_uri):
            files.remove(file)
            found.append((file.src_uri, problem))
    if found:
        files.add_files_from_theme(config.theme.get_env(), config)
    return found
