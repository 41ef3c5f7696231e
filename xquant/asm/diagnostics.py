"""Diagnostics as MLIR reports them: a severity, a message and a source location.

MLIR's `SourceMgrDiagnosticHandler` prints a diagnostic as

    file.mlir:3:8: error: 'quant.qcast' op scale must be positive
      %0 = quant.qcast %arg0 : f32 to !q
           ^

and one without a location as `<unknown>:0: error: message`. The tools
collect `Diagnostic`s instead of printing at once, so that
`--verify-diagnostics` can check them against the file's annotations
(`xquant.asm.diagnostic_verifier`) before anything is shown.

Passes and the interpreter raise `OpDiagnostic` against the op they cannot
handle; the tools find its source position through `source_location`, from
the spans the parser recorded (`remember_spans`), since xDSL ops carry none.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.utils.lexer import Span

from xquant.dialects.parse_errors import ParseErrorWithFollowUps

__all__ = [
    "Diagnostic",
    "OpDiagnostic",
    "Severity",
    "SourceLocation",
    "diagnostic_at",
    "diagnostic_from_parse_error",
    "diagnostics_from_parse_error",
    "remember_spans",
    "source_location",
]


class Severity(Enum):
    """MLIR's `DiagnosticSeverity`, spelled as printed."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"
    REMARK = "remark"


@dataclass(frozen=True)
class SourceLocation:
    """A `FileLineColLoc`: 1-based line and column in a named buffer."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass
class Diagnostic:
    """One diagnostic; `source_line` and `underline` draw the caret line."""

    severity: Severity
    message: str
    location: SourceLocation | None = None
    source_line: str | None = None
    underline: int = 1
    """How many characters from the column on to mark (`^~~~`)."""
    notes: list[Diagnostic] = field(default_factory=list["Diagnostic"])

    def render(self) -> str:
        """The diagnostic and its notes as MLIR prints them, newline-terminated."""
        if self.location is None:
            text = f"<unknown>:0: {self.severity.value}: {self.message}\n"
        else:
            text = f"{self.location}: {self.severity.value}: {self.message}\n"
            if self.source_line is not None:
                line, column = _window(self.source_line, self.location.column - 1)
                underline = self.underline
                if line is not self.source_line:  # cut: keep the marks inside
                    underline = min(underline, len(line) - column)
                caret = "^" + "~" * max(0, underline - 1)
                text += f"{line}\n{' ' * column}{caret}\n"
        return text + "".join(note.render() for note in self.notes)


WINDOW = 100
"""Characters of a long source line shown on either side of the caret."""


def _window(line: str, column: int) -> tuple[str, int]:
    """`line` cut to `WINDOW` characters either side of `column` (0-based), with
    `...` where it was cut, and the caret's column in the cut line.

    A parse error in a multi-megabyte dense literal would otherwise echo the
    whole line; lines that fit are shown whole, as MLIR shows them.
    """
    if len(line) <= 2 * WINDOW + 7:
        return line, column
    start = max(0, column - WINDOW)
    end = min(len(line), column + WINDOW + 1)
    head = "..." if start > 0 else ""
    tail = "..." if end < len(line) else ""
    return head + line[start:end] + tail, column - start + len(head)


def diagnostic_at(
    span: Span[str] | Span[bytes] | None,
    message: str,
    file_name: str,
    severity: Severity = Severity.ERROR,
) -> Diagnostic:
    """A diagnostic located at the start of `span` (unknown location if None).

    The line number is the span's own: callers that parse one `// -----`
    chunk of a file pad it so that lines count from the file's start.
    """
    if span is None:
        return Diagnostic(severity, message)
    loc = span.get_location()
    content = span.input.content
    line_start = span.input.get_start_of_line(span.start)
    line_end = span.input.get_end_of_line(span.start)
    line = content[line_start:line_end]
    if isinstance(line, bytes):
        line = line.decode("utf-8", "replace")
    return Diagnostic(
        severity,
        message,
        SourceLocation(file_name, loc.line, span.start - line_start + 1),
        line,
    )


def diagnostic_from_parse_error(err: ParseError, file_name: str) -> Diagnostic:
    """A parse error as an error diagnostic at its position."""
    return diagnostic_at(err.span, err.msg, file_name)


def diagnostics_from_parse_error(err: ParseError, file_name: str) -> list[Diagnostic]:
    """A parse error and the errors MLIR reports after it, in order."""
    diagnostics = [diagnostic_from_parse_error(err, file_name)]
    if isinstance(err, ParseErrorWithFollowUps):
        diagnostics += [
            diagnostic_at(span, message, file_name) for span, message in err.follow_ups
        ]
    return diagnostics


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
