"""The catalog a folder's pages belong to, and which of the reported files lie in that folder."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from jax_kb.catalog import Catalog, load_catalog
from jax_kb.markdown import SiteConfig


def load_scope(target: Path | None, config: SiteConfig) -> tuple[Catalog, Callable[[str], bool]]:
    """A folder or file inside docs/ is read with the whole of docs/, so that related slugs and
    English pages outside it still count; anything else (fixtures) is a docs folder of its own."""
    docs = config.docs_dir.resolve()
    target = (target or docs).resolve()
    if target.is_relative_to(docs):
        catalog = load_catalog(config)
    else:
        own_docs = target if target.is_dir() else target.parent
        catalog = load_catalog(dataclasses.replace(config, docs_dir=own_docs))

    def in_scope(path: str) -> bool:
        return (config.root / path).resolve().is_relative_to(target)

    return catalog, in_scope
