"""Errors that passes raise against a specific op, so tools can point at its source line."""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence

from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException
from xdsl.utils.lexer import Span


class OpDiagnostic(DiagnosticException):
    """A pass cannot handle `op`; the message follows MLIR's `'dialect.op' op ...` form."""

    def __init__(self, op: Operation, message: str, follow_ups: Sequence[str] = ()):
        super().__init__(message)
        self.op = op
        # Further errors at the same op, reported after `message` (as MLIR's
        # conversion driver follows a pattern's error with "failed to legalize").
        self.follow_ups = tuple(follow_ups)


# Where parsed ops came from, for errors raised far from the parser (the
# interpreter, passes). Weak: an op that dies takes its entry with it.
_SPANS: weakref.WeakKeyDictionary[Operation, Span[str] | Span[bytes]] = (
    weakref.WeakKeyDictionary()
)


def remember_spans(op_spans: Mapping[Operation, Span[str] | Span[bytes]]) -> None:
    """Record the source spans of parsed ops (`LocatedModule.op_spans`)."""
    _SPANS.update(op_spans)


def source_location(op: Operation) -> str | None:
    """`file:line:col` of `op`, or of its closest ancestor whose span was remembered."""
    current: Operation | None = op
    while current is not None:
        if (span := _SPANS.get(current)) is not None:
            loc = span.get_location()
            return f"{loc.file}:{loc.line}:{loc.col}"
        current = current.parent_op()
    return None
