"""Expected output against printed output: white space normalised, numbers to a relative tolerance."""
from __future__ import annotations

import math
import re

NUMBER = re.compile(r"[-+]?(?:(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|inf|nan)(?![\w.])", re.IGNORECASE)


def _split(text: str) -> tuple[list[str], list[str]]:
    """(the text around the numbers, the numbers), white space folded to single spaces."""
    folded = " ".join(text.split())
    numbers = NUMBER.findall(folded)
    return NUMBER.sub("#", folded).split("#"), numbers


def _close(expected: str, actual: str, rtol: float) -> bool:
    if expected == actual:
        return True
    a, b = float(expected), float(actual)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=rtol, abs_tol=0.0)


def outputs_match(expected: str, actual: str, rtol: float) -> bool:
    exp_text, exp_numbers = _split(expected)
    act_text, act_numbers = _split(actual)
    # NumPy pads numbers to a common width, so spaces next to a number do not count.
    if [t.strip() for t in exp_text] != [t.strip() for t in act_text]:
        return False
    return all(_close(e, a, rtol) for e, a in zip(exp_numbers, act_numbers))


def first_difference(expected: str, actual: str, rtol: float) -> str:
    """A short description of where two outputs part, for the failure message."""
    exp_lines, act_lines = expected.strip().splitlines(), actual.strip().splitlines()
    for number, (e, a) in enumerate(zip(exp_lines, act_lines), start=1):
        if not outputs_match(e, a, rtol):
            return f"output line {number}: expected {e.strip()!r}, got {a.strip()!r}"
    if len(exp_lines) != len(act_lines):
        return f"expected {len(exp_lines)} lines of output, got {len(act_lines)}"
    return "outputs differ"


def ellipsis_match(expected: str, actual: str) -> bool:
    """doctest's ELLIPSIS: each `...` of the expected output matches any text (an empty one too),
    after white space is folded as everywhere here."""
    pieces = " ".join(expected.split()).split("...")
    text = " ".join(actual.split())
    if len(pieces) == 1:
        return pieces[0] == text
    first, last = pieces[0], pieces[-1]
    if not (text.startswith(first.rstrip()) and text.endswith(last.lstrip())):
        return False
    position, end = len(first.rstrip()), len(text) - len(last.lstrip())
    for piece in (p.strip() for p in pieces[1:-1]):
        found = text.find(piece, position, end)
        if found < 0:
            return False
        position = found + len(piece)
    return position <= end
