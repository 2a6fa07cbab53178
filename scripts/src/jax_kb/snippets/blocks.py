"""The fence table of DESIGN.md: what each fence of a page asks the engine to do."""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, replace
from functools import cached_property

from pymdownx.snippets import SnippetPreprocessor

from jax_kb.markdown import Fence, InputError, Page
from jax_kb.snippets.code_tokens import code_tokens
from jax_kb.snippets.dialect import Dialect
from jax_kb.snippets.results import Skip
from jax_kb.snippets.sessions import is_session, read_session

# The spellings that the site highlights with Pygments' Python lexers (its lookup ignores case).
# sage, bazel, starlark and pyi share the lexer but are not Python programs: shown, not run.
PYTHON_LANGS = ("python", "py", "python3", "py3")
SESSION_LANGS = ("pycon", "python-console")
PYTHON_CLASSES = {"no-run", "gpu", "cpu"}
MARKER_CLASSES = {"notest"}  # pytest-markdown-docs' skip marker, read in reading.py
HIGHLIGHT_ATTRS = {"title", "linenums", "hl_lines"}  # pymdownx.highlight's, valid without braces too
PYTHON_ATTRS = {"raises", "timeout"} | HIGHLIGHT_ATTRS
OUTPUT_ATTRS = {"rtol"}
DEFAULT_TIMEOUT = 60.0
MAX_TIMEOUT = 24 * 3600.0  # beyond what the event loop's select() takes; no example needs a day
DEFAULT_RTOL = 1e-5
# Exceptions the engine itself treats as the block's failure before raises= is looked at.
NEVER_EXPECTED = {"SystemExit"}


@dataclass(frozen=True)
class Block:
    """A Python block of a page and what it expects."""

    fence: Fence
    index: int  # position among the page's Python blocks
    run: bool  # False for .no-run: compiled, not executed
    raises: str | None = None
    device: str | None = None  # "cpu" or "gpu" when limited to one kind
    timeout: float = DEFAULT_TIMEOUT
    output: Fence | None = None  # the {.text .output} block right after it
    rtol: float = DEFAULT_RTOL
    session: bool = False  # an interpreter session: >>> prompts, echoed values, printed output inline
    # What the project's settings and other tools' markers make of it (jax_kb/snippets/reading.py):
    skip: Skip | None = None  # not run, for this reason (skip_reason says it in words)
    skip_reason: str = ""
    shown_only: str = ""  # not run nor compiled: another tool's display fence, and why
    namespace: str = ""  # blocks with the same namespace share their globals, in page order
    allow_error: bool = False  # may raise or not (a notebook cell tagged raises-exception)
    doctest_flags: frozenset[str] = frozenset()  # of a session

    @property
    def line(self) -> int:
        return self.fence.line

    @property
    def code(self) -> str:
        return read_session(self.fence.code, self.doctest_flags).code if self.session else self.fence.code

    @property
    def digest(self) -> str:
        """What reports record of the block's code: the site's verified note matches on it."""
        return hashlib.sha256(self.code.encode("utf-8")).hexdigest()

    @property
    def expected(self) -> str | None:
        if self.session:
            return read_session(self.fence.code, self.doctest_flags).expected
        return self.output.code if self.output else None

    def signature(self) -> tuple:
        """What decides the block's result, comments aside: equal signatures run alike."""
        return self._signature

    @cached_property  # grouping, shards and reuse all ask; tokenizing is the costly part of reading a page
    def _signature(self) -> tuple:
        return (self.run, self.raises, self.device, self.timeout, code_tokens(self.code),
                self.expected, self.rtol if self.output else None, self.skip, self.shown_only, self.namespace,
                self.allow_error, tuple(sorted(self.doctest_flags)))


def _positive_number(value: str, name: str, path: str, line: int, limit: float = math.inf) -> float:
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not (number > 0 and math.isfinite(number)):
        raise InputError(path, line, f"{name}={value!r} must be a positive number")
    if number > limit:
        raise InputError(path, line, f"{name}={value!r} is more than {limit:g}")
    return number


def _readable_options(fence: Fence, path: str, dialect: Dialect) -> None:
    """The options as the site reads them: options SuperFences refuses drop the fence there. A custom
    fence's validator, or a notebook's metadata where no site renders the page, are not ours to judge."""
    if dialect.options_are_ours(fence) and fence.dropped:
        raise InputError(path, fence.line, fence.dropped)
    if fence.repeated:
        raise InputError(path, fence.line, f"fence option {fence.repeated[0]!r} is given twice: keep one")


def _unexpanded_include(fence: Fence, path: str) -> None:
    """pymdownx.snippets expands only markers at the start of a line: behind a blockquote's '>'
    the site shows `--8<--` as written, which no run can make sense of."""
    if ">" not in fence.prefix:
        return
    for line in fence.body:
        marker = SnippetPreprocessor.RE_ALL_SNIPPETS.match(line.text)
        if marker and not marker["escape"]:
            raise InputError(path, line.page_line, "an include (--8<--) in a blockquote is not expanded: the site "
                             "shows the marker as written; put the fence outside the blockquote")


def _python_block(fence: Fence, index: int, path: str, dialect: Dialect) -> Block:
    _readable_options(fence, path, dialect)
    _unexpanded_include(fence, path)
    unknown = (sorted(set(fence.classes) - PYTHON_CLASSES - dialect.display_classes - MARKER_CLASSES)
               + sorted(set(fence.attrs) - PYTHON_ATTRS - dialect.accepted_attrs(fence)))
    if unknown:
        raise InputError(path, fence.line, f"unknown fence option {unknown[0]!r}: Python blocks take "
                         ".no-run, .gpu, .cpu, raises=\"Error\", timeout=\"seconds\"")
    if "gpu" in fence.classes and "cpu" in fence.classes:
        raise InputError(path, fence.line, "a block cannot be both .gpu and .cpu")
    raises = fence.attrs.get("raises")
    if raises is not None and not all(part.isidentifier() for part in raises.split(".")):
        raise InputError(path, fence.line, f"raises={raises!r} is not an exception class name or dotted path")
    if raises is not None and raises.rsplit(".", 1)[-1] in NEVER_EXPECTED:
        raise InputError(path, fence.line, f"raises={raises!r} can never pass: a block that exits is a failure "
                         "of the block; show the exit in a .no-run block")
    no_run = "no-run" in fence.classes
    if no_run and (raises or "timeout" in fence.attrs):
        raise InputError(path, fence.line, "a .no-run block is never executed: it takes no raises= or timeout=")
    timeout = fence.attrs.get("timeout")
    session = is_session_fence(fence)
    if session:
        try:
            raises = raises or read_session(fence.code).raises
        except ValueError as exc:  # a `# doctest:` directive with a flag the engine does not know
            raise InputError(path, fence.line, str(exc)) from None
    return Block(
        fence=fence, index=index, run=not no_run, raises=raises,
        device=next((d for d in ("gpu", "cpu") if d in fence.classes), None),
        timeout=(_positive_number(timeout, "timeout", path, fence.line, MAX_TIMEOUT) if timeout is not None
                 else DEFAULT_TIMEOUT),
        session=session,
    )


def _spelling(fence: Fence) -> str:
    return (fence.lang or "").lower()


def is_python(fence: Fence, dialect: Dialect = Dialect()) -> bool:
    """A fence the site shows as Python code or as a Python session: the engine runs it."""
    return fence.hidden is None and (_spelling(fence) in dialect.languages or _spelling(fence) in SESSION_LANGS)


def is_session_fence(fence: Fence) -> bool:
    return _spelling(fence) in SESSION_LANGS or is_session(fence.code)


def is_output(fence: Fence) -> bool:
    """An expected-output block: {.text .output}. A bare ```output (other projects' spelling) is shown only."""
    return fence.hidden is None and "output" in fence.classes


def page_blocks(page: Page, dialect: Dialect = Dialect()) -> list[Block]:
    """The page's Python blocks with their expected output; bad options are an InputError."""
    blocks: list[Block] = []
    previous: Fence | None = None
    for fence in page.fences:
        if is_python(fence, dialect):
            blocks.append(_python_block(fence, len(blocks), page.path, dialect))
        elif is_output(fence):
            owner = blocks[-1] if blocks and previous is blocks[-1].fence else None
            if owner is None:
                raise InputError(page.path, fence.line, "an .output block must come right after the Python block "
                                 "whose output it is")
            if not owner.run:
                raise InputError(page.path, fence.line, "an .output block cannot follow a .no-run block")
            if owner.session:
                raise InputError(page.path, fence.line, "an .output block cannot follow a session: the "
                                 "session shows its output after its >>> lines")
            if fence.repeated:
                raise InputError(page.path, fence.line, f"fence option {fence.repeated[0]!r} is given twice: keep one")
            unknown = sorted(set(fence.classes) - {"output"}) + sorted(set(fence.attrs) - OUTPUT_ATTRS)
            if unknown or not fence.braced:
                bad = unknown[0] if unknown else fence.info.strip()
                raise InputError(page.path, fence.line, f"unknown option {bad!r} on an .output block: it takes "
                                 "only rtol=\"1e-3\", inside braces: ```{.text .output}")
            rtol = _positive_number(fence.attrs["rtol"], "rtol", page.path, fence.line) if "rtol" in fence.attrs \
                else owner.rtol
            blocks[-1] = replace(owner, output=fence, rtol=rtol)
        previous = fence
    return blocks
