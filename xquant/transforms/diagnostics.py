"""Errors that passes raise against a specific op, so tools can point at its source line."""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException


class OpDiagnostic(DiagnosticException):
    """A pass cannot handle `op`; the message follows MLIR's `'dialect.op' op ...` form."""

    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op
