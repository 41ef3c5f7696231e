"""A parse error that MLIR follows with more errors.

Some of MLIR's parsers report a failure twice: the token-level error, then a
second error from the caller that says what it was reading (`!quant.calibrated`
reports `expected ':'`, then `calibrated values must be present` at the
expressed type). `-verify-diagnostics` files expect both, in that order.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Span

__all__ = ["ParseErrorWithFollowUps"]


class ParseErrorWithFollowUps(ParseError):
    """`err`, then each `(span, message)` of `follow_ups` as an error of its own."""

    follow_ups: tuple[tuple[Span[str] | Span[bytes], str], ...]

    def __init__(
        self,
        err: ParseError,
        follow_ups: Sequence[tuple[Span[str] | Span[bytes], str]],
    ):
        super().__init__(err.span, err.msg)
        self.follow_ups = tuple(follow_ups)

    def __str__(self) -> str:
        parts = [super().__str__()]
        parts += [span.print_with_context(msg) for span, msg in self.follow_ups]
        return "\n".join(parts)
