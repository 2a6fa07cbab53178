"""Interpreter sessions (```pycon, or ```python whose code starts with >>>) as a block of code and its
expected output, the way the interpreter ran them: each `>>>` statement in turn, the value of an
expression echoed with its repr, everything else on the page being what was printed.

The code keeps one line per page line (output lines become blank), so a traceback still points at
the page line of the statement that failed.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass

PROMPT = re.compile(r"^(?:>>>|\.\.\.)(?: |$)")
TRACEBACK = "Traceback (most recent call last):"
SKIP = re.compile(r"#\s*doctest:.*\+SKIP")  # the author's word that a statement is not to be run
EXCEPTION_LINE = re.compile(r"^(?P<name>[A-Za-z_][\w.]*)(?::|$)")
# The interpreter prints the repr of an expression's value unless it is None; the expression goes
# in its own parentheses, so that `a, b` stays one tuple.
ECHO = "(lambda __value: None if __value is None else print(repr(__value)))(("


@dataclass(frozen=True)
class Session:
    code: str
    expected: str | None  # what the session shows as printed; None when it shows nothing
    raises: str | None  # the exception its last statement shows, from its traceback


def is_session(code: str) -> bool:
    first = next((line for line in code.splitlines() if line.strip()), "")
    return first.lstrip().startswith(">>>")


def _statements(lines: list[str]) -> list[tuple[list[int], list[str]]]:
    """(code line numbers, output lines) of each `>>>` statement, 0-based."""
    statements: list[tuple[list[int], list[str]]] = []
    for number, line in enumerate(lines):
        if line.startswith(">>>"):
            statements.append(([number], []))
        elif PROMPT.match(line) and statements and not statements[-1][1]:
            statements[-1][0].append(number)
        elif statements:
            statements[-1][1].append(line)
    return statements


def _echoed(code_lines: list[str], numbers: list[int]) -> None:
    """Wraps a statement that is one expression so that its value is echoed, on the same lines."""
    source = "\n".join(code_lines[n] for n in numbers)
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return  # the run reports it at its line
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        return
    node = tree.body[0]
    first, last = numbers[node.lineno - 1], numbers[node.end_lineno - 1]
    end = code_lines[last]
    code_lines[last] = end[:node.end_col_offset] + "))" + end[node.end_col_offset:]
    start = code_lines[first]
    code_lines[first] = start[:node.col_offset] + ECHO + start[node.col_offset:]


def read_session(code: str) -> Session:
    lines = [line.rstrip() for line in code.splitlines()]
    indent = min((len(l) - len(l.lstrip()) for l in lines if l.strip().startswith(">>>")), default=0)
    lines = [l[indent:] if l[:indent].strip() == "" else l.lstrip() for l in lines]
    statements = [(numbers, output) for numbers, output in _statements(lines)
                  if not any(SKIP.search(lines[n]) for n in numbers)]
    code_lines = ["" for _ in lines]
    for numbers, _ in statements:
        for n in numbers:
            code_lines[n] = PROMPT.sub("", lines[n], count=1)
        _echoed(code_lines, numbers)
    raises = None
    if statements and statements[-1][1] and statements[-1][1][0].strip() == TRACEBACK:
        last_line = next((l for l in reversed(statements[-1][1]) if l.strip()), "")
        if match := EXCEPTION_LINE.match(last_line.strip()):
            raises = match["name"]
            statements[-1] = (statements[-1][0], [])
    printed = [line for _, output in statements for line in output]
    expected = "\n".join(printed) + "\n" if any(line.strip() for line in printed) else None
    return Session("\n".join(code_lines) + "\n", expected, raises)
