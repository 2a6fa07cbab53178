"""Files under docs/ other than pages: MkDocs publishes each as it is, at the site's own address,
where a script, an HTML page, an SVG image (which carries scripts of its own) or a style sheet would
act with the site's authority and outside its Content-Security-Policy. Only the kinds on this
allowlist may be there; the build (jax_kb/site/published_files.py) leaves out any other."""
from __future__ import annotations

from pathlib import Path, PurePosixPath

from jax_kb.markdown import InputError, SiteConfig
from jax_kb.markdown.pages import display_path

ALLOWED_SUFFIXES = (".md", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif")
ALLOWED_NAMES = ("CNAME",)  # GitHub Pages' custom domain, which MkDocs' gh-deploy publishes from docs/


def file_problem(path: str) -> str | None:
    """What is wrong with publishing this file of docs/; None for a page or an allowed image. MkDocs
    publishes no file or folder whose name starts with a dot."""
    name = PurePosixPath(path)
    if (any(part.startswith(".") for part in name.parts) or name.suffix.lower() in ALLOWED_SUFFIXES
            or path in ALLOWED_NAMES):
        return None
    kind = f"a {name.suffix} file" if name.suffix else "a file without an extension"
    return (f"{kind} in docs/ would be published as it is, to run or be shown with the site's authority: docs/ "
            f"holds only pages and images ({', '.join(ALLOWED_SUFFIXES[1:])})")


def docs_file_problems(paths: list[Path], config: SiteConfig) -> list[InputError]:
    """Every file under the folders given that may not be published."""
    problems = []
    docs = config.docs_dir.resolve()
    for folder in (p for p in paths if p.is_dir()):
        for path in sorted(folder.rglob("*")):
            real = path.resolve()
            where = real.relative_to(docs) if real.is_relative_to(docs) else path.relative_to(folder)
            if path.is_file() and (problem := file_problem(where.as_posix())):
                problems.append(InputError(display_path(path, config), None, problem))
    return problems
