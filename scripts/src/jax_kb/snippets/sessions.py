"""Interpreter sessions (```pycon, or ```python whose code starts with >>>) as a block of code and its
expected output, the way the interpreter ran them: each `>>>` statement in turn, the value of an
expression echoed with its repr, everything else on the page being what was printed.

The code keeps one line per page line (output lines become blank), so a traceback still points at
the page line of the statement that failed. Each statement is also told apart (`statements`): the
engine runs them one by one and compares each one's output with what the session shows under it,
as doctest does, under doctest's flags (doctest_flags.py).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from jax_kb.snippets.doctest_flags import directive_flags

PROMPT = re.compile(r"^(?:>>>|\.\.\.)(?: |$)")
TRACEBACK = "Traceback (most recent call last):"
BLANKLINE = "<BLANKLINE>"
EXCEPTION_LINE = re.compile(r"^(?P<name>[A-Za-z_][\w.]*)(?::|$)")
# The interpreter prints the repr of an expression's value unless it is None; the expression goes
# in its own parentheses, so that `a, b` stays one tuple.
ECHO = "(lambda __value: None if __value is None else print(repr(__value)))(("


@dataclass(frozen=True)
class Statement:
    first: int  # 0-based line of its `>>>` line in the block
    code: str  # the block's code with only this statement's lines, so that line numbers stay the block's
    expected: str  # what it shows as printed ("" when nothing)
    raises: str | None  # the exception class its traceback shows
    exception: str | None  # that traceback's last part, "ValueError: message", as shown
    flags: frozenset[str]


@dataclass(frozen=True)
class Session:
    code: str
    expected: str | None  # what the session shows as printed; None when it shows nothing
    raises: str | None  # the exception its last statement shows, from its traceback
    statements: tuple[Statement, ...] = ()


def is_session(code: str) -> bool:
    first = next((line for line in code.splitlines() if line.strip()), "")
    return first.lstrip().startswith(">>>")


def _statements(lines: list[str]) -> list[tuple[list[int], list[str]]]:
    """(code line numbers, output lines) of each `>>>` statement, 0-based. As in doctest, a blank
    line ends a statement's output: what follows it up to the next `>>>` is prose."""
    statements: list[tuple[list[int], list[str]]] = []
    ended = False
    for number, line in enumerate(lines):
        if line.startswith(">>>"):
            statements.append(([number], []))
            ended = False
        elif PROMPT.match(line) and statements and not statements[-1][1] and not ended:
            statements[-1][0].append(number)
        elif not line.strip():
            ended = bool(statements)
        elif statements and not ended:
            statements[-1][1].append(line)
    return statements


def _expressions(tree: ast.AST) -> list[ast.Expr]:
    """The expression statements the interpreter echoes: at the top of the statement or in its
    loops, conditions and with-blocks, never in a function or class body."""
    found = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Expr):
            found.append(node)
        elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.expr)):
            found.extend(_expressions(node))
    return found


def _echoed(code_lines: list[str], numbers: list[int]) -> None:
    """Wraps each expression the interpreter would echo so that its value is printed, on the same
    lines (ast's columns count UTF-8 bytes)."""
    source = "\n".join(code_lines[n] for n in numbers)
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return  # the run reports it at its line
    for node in sorted(_expressions(tree), key=lambda n: (n.lineno, n.col_offset), reverse=True):
        first, last = numbers[node.lineno - 1], numbers[node.end_lineno - 1]
        end = code_lines[last].encode()
        code_lines[last] = (end[:node.end_col_offset] + b"))" + end[node.end_col_offset:]).decode()
        start = code_lines[first].encode()
        code_lines[first] = (start[:node.col_offset] + ECHO.encode() + start[node.col_offset:]).decode()


def _traceback(output: list[str]) -> tuple[str | None, str | None]:
    """(class, "Class: message") of a traceback an output shows, as doctest reads it: the exception
    starts at the first unindented line after the header (the stack lines between are ignored)."""
    if not output or output[0].strip() != TRACEBACK:
        return None, None
    start = next((i for i in range(1, len(output)) if re.match(r"\w", output[i])), None)
    if start is None:
        return None, None
    match = EXCEPTION_LINE.match(output[start])
    return (match["name"] if match else None), "\n".join(output[start:]).strip()


def read_session(code: str, flags: frozenset[str] = frozenset()) -> Session:
    """The session under the project's doctest flags; a statement's own `# doctest:` directive adds
    to them (an unknown flag is a ValueError)."""
    lines = [line.rstrip() for line in code.splitlines()]
    indent = min((len(l) - len(l.lstrip()) for l in lines if l.strip().startswith(">>>")), default=0)
    lines = [l[indent:] if l[:indent].strip() == "" else l.lstrip() for l in lines]
    statements = []
    for numbers, output in _statements(lines):
        own = flags  # a directive may stand on any line of the statement, as in doctest
        for n in numbers:
            own = directive_flags(lines[n], own)
        if "SKIP" not in own:
            statements.append((numbers, output, own))
    code_lines = ["" for _ in lines]
    told = []
    for numbers, output, own in statements:
        mine = ["" for _ in lines]
        for n in numbers:
            mine[n] = PROMPT.sub("", lines[n], count=1)
        _echoed(mine, numbers)
        for n in numbers:
            code_lines[n] = mine[n]
        raises, exception = _traceback(output)
        printed = [] if exception is not None else output
        if "DONT_ACCEPT_BLANKLINE" not in own:
            printed = ["" if line.strip() == BLANKLINE else line for line in printed]
        expected = "\n".join(printed) + "\n" if any(line.strip() for line in printed) else ""
        told.append(Statement(numbers[0], "\n".join(mine) + "\n", expected, raises, exception, own))
    raises = told[-1].raises if told else None
    printed = [s.expected for s in told if s.expected]
    return Session("\n".join(code_lines) + "\n", "".join(printed) or None, raises, tuple(told))
