"""A page's blocks as its project runs them: read in the project's dialect (or as a MyST notebook),
then the settings and other tools' markers applied: skips, namespaces, time limits, doctest flags."""
from __future__ import annotations

from dataclasses import replace

from jax_kb.markdown import InputError, Page, SiteConfig
from jax_kb.snippets.blocks import Block, page_blocks
from jax_kb.snippets.dialect import Dialect, metadata
from jax_kb.snippets.markers import refused_word, sybil_skips
from jax_kb.snippets.ipython_syntax import plain_python
from jax_kb.snippets.myst import is_markdown_notebook, kernel_language, notebook_blocks
from jax_kb.snippets.project_config import PageSettings
from jax_kb.snippets.results import Skip
from jax_kb.snippets.sessions import read_session


def dialect_of(site: SiteConfig, settings: PageSettings) -> Dialect:
    """The fences of the project's pages; the classes and attributes its skip_fences name are accepted."""
    classes = {s[1:] for s in settings.skip_fences if s.startswith(".")}
    attrs = {s.split("=", 1)[0] for s in settings.skip_fences if "=" in s}
    return Dialect(languages=frozenset(settings.languages), display_classes=frozenset(settings.display_classes) | classes,
                   extra_attrs=frozenset(attrs), site=site.config_file is not None,
                   custom_fences=tuple(site.custom_fences.items()))


def selector_matches(selector: str, block: Block, words: dict) -> bool:
    """A skip_fences selector: `.class`, `key="value"` (or key=value), or a bare word naming the
    language, a class, an attribute or a metadata word of the fence."""
    fence = block.fence
    if selector.startswith("."):
        return selector[1:] in fence.classes
    if "=" in selector:
        key, value = selector.split("=", 1)
        value = value.strip("\"'")
        return fence.attrs.get(key) == value or str(words.get(key, "")) == value
    return selector in ((fence.lang or "").lower(), *fence.classes, *fence.attrs, *words)


def _namespace(block: Block, words: dict, settings: PageSettings, dialect: Dialect, previous: str) -> str:
    if dialect.executes(block.fence):  # markdown-exec: a block alone, or in its session="..."
        session = block.fence.attrs.get("session", "")
        return f"exec-session:{session}" if session else f"exec:{block.index}"
    if settings.namespace == "page":
        return ""
    if "continuation" in words or "continuation" in block.fence.classes:  # pytest-markdown-docs' word
        return previous
    return f"block:{block.index}"


def read_blocks(page: Page, site: SiteConfig, settings: PageSettings) -> tuple[Block, ...]:
    """The page's blocks; what the page or the settings ask that cannot be done is an InputError."""
    dialect = dialect_of(site, settings)
    kernel = kernel_language(page)
    blocks = notebook_blocks(page, dialect, kernel) if kernel else page_blocks(page, dialect)
    sybil = sybil_skips(page, blocks)
    cells = is_markdown_notebook(page)
    out: list[Block] = []
    previous = ""
    for block in blocks:
        words = metadata(block.fence) if not dialect.options_are_ours(block.fence) else {}
        if why := refused_word(words):
            raise InputError(page.path, block.line, why)
        changes: dict = {"namespace": _namespace(block, words, settings, dialect, previous)}
        previous = changes["namespace"]
        if settings.timeout is not None and "timeout" not in block.fence.attrs:
            changes["timeout"] = settings.timeout
        tags = words.get("tags") if isinstance(words.get("tags"), list) else []
        if block.session:
            try:
                read_session(block.fence.code, settings.doctest_flags)
            except ValueError as exc:
                raise InputError(page.path, block.line, str(exc)) from None
            changes["doctest_flags"] = settings.doctest_flags
        if "raises-exception" in tags:
            changes["allow_error"] = True
        if cells and not block.session:  # a code cell: the kernel reads IPython's syntax
            lines, unsupported = plain_python(block.fence.body)
            changes["fence"] = replace(block.fence, body=lines)
            if unsupported:
                changes.update(skip=Skip.UNSUPPORTED, skip_reason=unsupported)
        if block.skip is None and not block.shown_only and "skip" not in changes:
            if block.index in sybil:
                changes.update(skip=Skip.MARKER, skip_reason=sybil[block.index])
            elif "notest" in words or "notest" in block.fence.classes:
                changes.update(skip=Skip.MARKER, skip_reason="marked notest (pytest-markdown-docs' marker)")
            elif "skip-execution" in tags:
                changes.update(skip=Skip.MARKER, skip_reason="tagged skip-execution: a notebook does not run it")
            elif matched := next((s for s in settings.skip_fences if selector_matches(s, block, words)), None):
                changes.update(skip=Skip.CONFIG, skip_reason=f"skipped by the configuration's skip_fences {matched!r}")
        out.append(replace(block, **changes))
    return tuple(out)
