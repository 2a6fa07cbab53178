"""Python code as tokens without comments: what translations must keep identical."""
from __future__ import annotations

import io
import tokenize

_IGNORED = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER}


def code_tokens(code: str) -> tuple[str, ...]:
    """Token strings with comments and layout-only newlines dropped; raw lines if it does not tokenize."""
    try:
        return tuple(tok.string if tok.type != tokenize.NEWLINE else "\n"
                     for tok in tokenize.generate_tokens(io.StringIO(code).readline) if tok.type not in _IGNORED)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return tuple(line.rstrip() for line in code.splitlines())
