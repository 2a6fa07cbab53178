"""Pages whose blocks and settings are the same, comments aside (translations that keep the code):
run once, reported for each."""
from __future__ import annotations

from jax_kb.snippets.results import Group, LoadedPage


def group_pages(loaded: list[LoadedPage], default_language: str) -> list[Group]:
    """The groups, each led by its page in the default language where it has one."""
    groups: dict[tuple, Group] = {}
    for item in loaded:
        if item.blocks:
            groups.setdefault(group_signature(item), Group()).pages.append(item)
    for group in groups.values():
        group.pages.sort(key=lambda p: p.page.lang != default_language)
    return list(groups.values())


def group_signature(item: LoadedPage) -> tuple:
    return item.settings.signature(), tuple(b.signature() for b in item.blocks)
