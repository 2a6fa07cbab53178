"""Expected output against actual output: white space folded, numbers to a tolerance, and `...`
matching any text as doctest's ELLIPSIS does."""
from __future__ import annotations

import pytest

from jax_kb.snippets.output_check import mismatch, outputs_match


@pytest.mark.parametrize("expected, actual", [
    ("executed   4.0", "executed 4.0\n"),  # white space folded
    ("[1.0, 2.0]", "[1.0000001, 2.0]\n"),  # numbers within the tolerance
    ("[1 2 3]", "[ 1  2  3]"),  # NumPy's padding next to numbers
    ("<function f at 0x...>", "<function f at 0x7f12ab34>"),  # an address
    ("object id ... was created", "object id 140056339540464 was created"),
    ("shape=(2, ...)", "shape=(2, 4, 5)"),  # a long shape
    ("Error: first line\n...\nlast line", "Error: first line\nmiddle\nlines\nlast line"),  # across lines
    ("a...b", "ab"),  # nothing at all
    ("... 1.5", "x = 1.500001"),  # numbers after an ellipsis keep their tolerance
    ("nan inf", "NaN Inf"),
])
def test_matching_outputs(expected, actual):
    assert outputs_match(expected, actual, 1e-5)


@pytest.mark.parametrize("expected, actual", [
    ("0.1", "0.1001"),  # outside the tolerance
    ("1", "12"), ("1", "x1"), ("x", "x y"),  # the whole text, not a part of it
    ("a...c", "ab"),  # an ellipsis does not excuse the text around it
    ("a ... b ... c", "a 1 c 2 b"),  # in order
    ("at 0x... is 1.5", "at 0x7f is 1.6"),
])
def test_outputs_that_differ(expected, actual):
    assert not outputs_match(expected, actual, 1e-5)


def test_a_mismatch_names_the_first_differing_line_and_shows_both_texts():
    message = mismatch("a\nb: 1\n", "a\nb: 2\n", 1e-5)
    assert message == ("output line 2: expected 'b: 1', got 'b: 2'\nexpected output:\n    a\n    b: 1\n"
                       "actual output:\n    a\n    b: 2")
    assert mismatch("x ...\ny", "z", 1e-5).startswith("the output from line 1 on does not match")
