"""xDSL 0.74's string-literal lexer backtracks exponentially on an unterminated string.

The pattern `"(?:[^"\\\n\v\f]+|\\...)*"` nests `+` inside `*`, so when no closing
quote follows, `re` tries every way of splitting the rest of the line. A typo hangs
the parser for minutes. Reproducer (each extra character doubles the time; 30 take
minutes):

    func.func private @f() -> "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa

The same language matched one character at a time is linear. The lexer is built
inside xDSL's parser, so this stays a patch of its class attribute.
"""

from __future__ import annotations

import re

from xdsl.utils.mlir_lexer import MLIRLexer

LINEAR_STRING_LITERAL = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')


def install() -> None:
    """Swap the linear pattern into xDSL's lexer (idempotent)."""
    MLIRLexer._unescaped_characters_regex = LINEAR_STRING_LITERAL  # pyright: ignore[reportPrivateUsage]
