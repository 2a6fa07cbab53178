"""Expected output against printed output: white space normalised, numbers to a relative tolerance,
and `...` in the expected text standing for any text, as doctest's ELLIPSIS does."""
from __future__ import annotations

import math
import re

ELLIPSIS = "..."
NUMBER = re.compile(r"[-+]?(?:(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|inf|nan)(?![\w.])", re.IGNORECASE)
_ANY_NUMBER = f"((?i:{NUMBER.pattern}))"


def _fold(text: str) -> str:
    return " ".join(text.split())


def _close(expected: str, actual: str, rtol: float) -> bool:
    if expected == actual:
        return True
    a, b = float(expected), float(actual)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=rtol, abs_tol=0.0)


class _Piece:
    """A stretch of folded expected text with no ellipsis in it: its text must appear as written,
    its numbers within the tolerance. NumPy pads numbers to a common width, so spaces next to a
    number do not count."""

    def __init__(self, text: str, at_end: bool):
        parts, self.numbers, start = [], [], 0
        for number in NUMBER.finditer(text):
            parts.append(re.escape(text[start:number.start()].strip()))
            self.numbers.append(number.group())
            start = number.end()
        parts.append(re.escape(text[start:].strip()))
        self.pattern = re.compile(f" ?{_ANY_NUMBER} ?".join(parts) + (r"\Z" if at_end else ""))

    def find(self, text: str, start: int, anchored: bool, rtol: float) -> int | None:
        """The end of the first place at or after start (at start itself when anchored) where the piece is."""
        while start <= len(text):
            found = (self.pattern.match if anchored else self.pattern.search)(text, start)
            if found is None:
                return None
            if all(_close(e, a, rtol) for e, a in zip(self.numbers, found.groups())):
                return found.end()
            if anchored:
                return None
            start = found.start() + 1
        return None


def outputs_match(expected: str, actual: str, rtol: float) -> bool:
    """Whether the actual output is the expected one: white space folded, numbers within rtol,
    each `...` of the expected text matching any text (none too), across lines as well."""
    text = _fold(actual)
    if _fold(expected) == text:  # most outputs: no pattern to build
        return True
    pieces = _fold(expected).split(ELLIPSIS)
    position = 0
    for number, piece in enumerate(pieces):
        last = number == len(pieces) - 1
        position = _Piece(piece, at_end=last).find(text, position, anchored=number == 0, rtol=rtol)
        if position is None:
            return False
    return True


def first_difference(expected: str, actual: str, rtol: float) -> str:
    """A short description of where two outputs part, for the failure message."""
    exp_lines, act_lines = expected.strip().splitlines(), actual.strip().splitlines()
    for number, (e, a) in enumerate(zip(exp_lines, act_lines), start=1):
        if ELLIPSIS in e:
            return f"the output from line {number} on does not match the expected one ({ELLIPSIS} stands for any text)"
        if not outputs_match(e, a, rtol):
            return f"output line {number}: expected {e.strip()!r}, got {a.strip()!r}"
    if len(exp_lines) != len(act_lines):
        return f"expected {len(exp_lines)} lines of output, got {len(act_lines)}"
    return "outputs differ"


def _indented(text: str) -> str:
    return "\n".join("    " + line for line in text.rstrip().splitlines()) or "    (nothing)"


def mismatch(expected: str, actual: str, rtol: float) -> str:
    """The failure message of an output that does not match: where they part, then both texts."""
    return (f"{first_difference(expected, actual, rtol)}\nexpected output:\n{_indented(expected)}\n"
            f"actual output:\n{_indented(actual)}")
