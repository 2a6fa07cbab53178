"""A translation against its English page: the same code (comments aside), expected output,
fence options, heading ids, links to pages and images, and the same front matter except the
translated keys. Each problem is on the translation's line where it is, or where it belongs."""
from __future__ import annotations

import difflib
import re
from urllib.parse import urlsplit

from jax_kb.markdown import Fence, InputError, Page
from jax_kb.snippets.code_tokens import code_tokens
from jax_kb.snippets.blocks import Block, is_python, page_blocks

TRANSLATED_KEYS = {"title", "summary", "aliases"}
DIGEST = re.compile(r"^[0-9a-f]{12}$")


class _Sections:
    """Maps a line of the English page to the translation's line of the heading it falls under,
    so that something missing is reported in the section where it belongs."""

    def __init__(self, translation: Page, english: Page):
        self.english = english.heading_ids()
        self.ours: dict[str, int] = {}
        for heading_id, line in translation.heading_ids():
            self.ours.setdefault(heading_id, line)
        self.first = translation.body[0].page_line if translation.body else 1

    def line_for(self, english_line: int) -> int:
        line = self.first
        for heading_id, heading_line in self.english:
            if heading_line > english_line:
                break
            line = self.ours.get(heading_id, line)
        return line


def _front_matter(tr: Page, en: Page) -> list[InputError]:
    problems = []
    mark = f"run python -m scripts.i18n mark {tr.path}"
    recorded = tr.meta.get("translation_of")
    if "translation_of" not in tr.meta:
        problems.append(InputError(tr.path, 1, f"front matter lacks translation_of: after translating, {mark}"))
    elif not DIGEST.match(str(recorded)):
        problems.append(InputError(tr.path, tr.meta_lines.get("translation_of", 1),
                                   f"translation_of {recorded!r} is not a page digest (12 hex digits): {mark}"))
    ignored = TRANSLATED_KEYS | {"translation_of"}
    ours = {k: v for k, v in tr.meta.items() if k not in ignored}
    theirs = {k: v for k, v in en.meta.items() if k not in ignored}
    for key, value in theirs.items():
        where = f"{en.path}:{en.meta_lines.get(key, 1)}"
        if key not in ours:
            problems.append(InputError(tr.path, 1, f"front matter lacks {key!r}, which {where} has: "
                                       "every key but title, summary and aliases stays as in English"))
        elif ours[key] != value:
            problems.append(InputError(tr.path, tr.meta_lines.get(key, 1), f"{key} is {ours[key]!r} here but "
                                       f"{value!r} at {where}: only title, summary and aliases are translated"))
    for key in ours.keys() - theirs.keys():
        problems.append(InputError(tr.path, tr.meta_lines.get(key, 1), f"front matter key {key!r} is not on the "
                                   f"English page {en.path}: remove it, or add it to the English page first"))
    return problems


def _options(fence: Fence) -> tuple:
    return ("python" if is_python(fence) else fence.lang, frozenset(fence.classes), sorted(fence.attrs.items()))


def _first_difference(ours: tuple[str, ...], theirs: tuple[str, ...]) -> str:
    for mine, english in zip(ours + ("<end>",) * len(theirs), theirs + ("<end>",) * len(ours)):
        if mine != english:
            return f"{mine!r} here, {english!r} in English"
    return ""


def _same_block(o: Block, e: Block, tr: Page, en: Page) -> list[InputError]:
    problems = []
    ours, theirs = code_tokens(o.code), code_tokens(e.code)
    if ours != theirs:
        problems.append(InputError(tr.path, o.line, f"code differs from the block at {en.path}:{e.line} "
                                   f"(first difference: {_first_difference(ours, theirs)}): translate only prose "
                                   "and comments; copy the code from the English page"))
    if _options(o.fence) != _options(e.fence):
        problems.append(InputError(tr.path, o.line, f"fence options {o.fence.info.strip()} differ from "
                                   f"{e.fence.info.strip()} at {en.path}:{e.line}: fence options stay as in English"))
    if e.output and not o.output:
        problems.append(InputError(tr.path, o.fence.end_line, f"the block at {en.path}:{e.line} is followed by an "
                                   f".output block at line {e.output.line}, this one by none: copy it"))
    elif o.output and not e.output:
        problems.append(InputError(tr.path, o.output.line, f"this .output block is not on the English page "
                                   f"(the block at {en.path}:{e.line} has none): remove it"))
    elif o.output and e.output:
        if o.output.code != e.output.code:
            problems.append(InputError(tr.path, o.output.line, f".output block differs from {en.path}:"
                                       f"{e.output.line}: expected output is never translated; copy it"))
        if _options(o.output) != _options(e.output):
            problems.append(InputError(tr.path, o.output.line, f"fence options {o.output.info.strip()} differ "
                                       f"from {e.output.info.strip()} at {en.path}:{e.output.line}: fence "
                                       "options stay as in English"))
    return problems


def _blocks(tr: Page, en: Page, sections: _Sections) -> list[InputError]:
    try:
        ours, theirs = page_blocks(tr), page_blocks(en)
    except InputError as exc:
        return [exc]
    problems = []
    matcher = difflib.SequenceMatcher(None, [code_tokens(b.code) for b in theirs],
                                      [code_tokens(b.code) for b in ours], autojunk=False)
    # Blocks pair up in order; a block added or left out is reported as such, not as a cascade of differences.
    for _, i1, i2, j1, j2 in matcher.get_opcodes():
        pairs = list(zip(theirs[i1:i2], ours[j1:j2]))
        for e, o in pairs:
            problems.extend(_same_block(o, e, tr, en))
        for e in theirs[i1 + len(pairs):i2]:
            problems.append(InputError(tr.path, sections.line_for(e.line), f"this section lacks the Python block "
                                       f"at {en.path}:{e.line}: copy it, code unchanged, from the English page"))
        for o in ours[j1 + len(pairs):j2]:
            problems.append(InputError(tr.path, o.line, f"this Python block is not on the English page {en.path}: "
                                       "a translation adds no code; remove it, or add it to the English page first"))
    return problems


def _headings(tr: Page, en: Page, sections: _Sections) -> list[InputError]:
    english_ids = {heading_id for heading_id, _ in sections.english}
    problems = [InputError(tr.path, sections.line_for(line - 1), f"no heading with the id #{heading_id} after this "
                           f"line ({en.path}:{line} has it): give the matching heading {{ #{heading_id} }}")
                for heading_id, line in sections.english if heading_id not in sections.ours]
    problems += [InputError(tr.path, line, f"heading id #{heading_id} is not on the English page {en.path}: ids "
                            "stay as in English, so that links and anchors survive; use the English page's id")
                 for heading_id, line in tr.heading_ids() if heading_id not in english_ids]
    return problems


def _internal_links(page: Page) -> dict[str, int]:
    """Links to pages, anchors and images (not to other sites, which may differ by language), first line each."""
    links: dict[str, int] = {}
    for target, line in page.links():
        parts = urlsplit(target)
        if not (parts.scheme or parts.netloc):
            links.setdefault(target, line)
    return links


def _links(tr: Page, en: Page, sections: _Sections) -> list[InputError]:
    ours, theirs = _internal_links(tr), _internal_links(en)
    problems = [InputError(tr.path, sections.line_for(line), f"this section lacks the link or image {target!r} "
                           f"of {en.path}:{line}: links and images stay as in English")
                for target, line in theirs.items() if target not in ours]
    problems += [InputError(tr.path, line, f"link or image {target!r} is not on the English page {en.path}: link "
                            "to the same pages, anchors and images as the English page")
                 for target, line in ours.items() if target not in theirs]
    return problems


def parity_problems(translation: Page, english: Page) -> list[InputError]:
    """Everything in which the translation departs from its English page, by line."""
    sections = _Sections(translation, english)
    problems = (_front_matter(translation, english) + _blocks(translation, english, sections)
                + _headings(translation, english, sections) + _links(translation, english, sections))
    return sorted(problems, key=lambda p: p.line or 0)
