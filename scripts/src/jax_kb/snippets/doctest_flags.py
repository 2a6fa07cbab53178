"""doctest's option flags, as interpreter sessions use them: per statement (`# doctest: +ELLIPSIS`)
and per project (`doctest_flags` in the configuration)."""
from __future__ import annotations

import re

# What each flag does here. White space is always normalised (outputs are compared that way), so
# NORMALIZE_WHITESPACE is always in effect; the REPORT_ flags and FAIL_FAST change only how
# doctest itself reports, and the engine reports every failure in its own way.
SUPPORTED = {
    "ELLIPSIS": "`...` in the expected output matches any text",
    "NORMALIZE_WHITESPACE": "always in effect",
    "IGNORE_EXCEPTION_DETAIL": "an expected exception is matched by its class alone",
    "SKIP": "the statement is not run",
    "DONT_ACCEPT_BLANKLINE": "<BLANKLINE> is literal text",
    "REPORT_UDIFF": "", "REPORT_CDIFF": "", "REPORT_NDIFF": "", "REPORT_ONLY_FIRST_FAILURE": "", "FAIL_FAST": "",
}
DIRECTIVE = re.compile(r"#\s*doctest:\s*(?P<flags>[^#]*)")


def parse_flags(items, base: frozenset[str]) -> frozenset[str]:
    """`base` with each `+FLAG` (or bare FLAG) added and each `-FLAG` removed; ValueError names a
    flag this engine does not know."""
    flags = set(base)
    for item in items:
        item = item.strip()
        sign, name = (item[0], item[1:]) if item[:1] in "+-" else ("+", item)
        if name not in SUPPORTED:
            raise ValueError(f"doctest flag {name!r} is not supported here; the engine knows "
                             f"{', '.join(sorted(SUPPORTED))}")
        (flags.add if sign == "+" else flags.discard)(name)
    return frozenset(flags)


def directive_flags(line: str, base: frozenset[str]) -> frozenset[str]:
    """The flags of a statement whose first line is `line`."""
    match = DIRECTIVE.search(line)
    if match is None:
        return base
    return parse_flags([f for f in re.split(r"[\s,]+", match["flags"]) if f], base)
