"""A fix for xDSL 0.74's string-literal lexer, which backtracks exponentially.

Its pattern `"(?:[^"\\\n\v\f]+|\\...)*"` nests `+` inside `*`, so an
unterminated string (`func"nc private @f() -> ...`) makes `re` try every way
of splitting the rest of the line: a typo hangs the parser for minutes. The
same language matched one character at a time is linear.
"""

from __future__ import annotations

import re

from xdsl.utils.mlir_lexer import MLIRLexer

_LINEAR_STRING_LITERAL = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


def install() -> None:
    """Swap the linear pattern into xDSL's lexer (idempotent)."""
    MLIRLexer._unescaped_characters_regex = _LINEAR_STRING_LITERAL  # pyright: ignore[reportPrivateUsage]
