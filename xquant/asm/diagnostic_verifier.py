"""`-verify-diagnostics`: check produced diagnostics against `expected-*` annotations.

A port of MLIR's `SourceMgrDiagnosticVerifierHandler` (mlir/lib/IR/Diagnostics.cpp)
with mlir-opt 22's observable behaviour and messages:

    // expected-error@+1 {{unknown quantized type foobar}}
    !qalias = !quant.foobar

- kinds `expected-error|warning|note|remark`, each with a `-re` form in which
  `{{R}}` parts are regular expressions and the rest is literal;
- targets: the annotation's own line, `@+N`, `@-N`, `@above` (closest line
  above without an annotation), `@below` (next line without one; stacked
  `@below`s all hit it) and `@unknown` (diagnostics without a location);
- plain text is a case-sensitive substring of the message;
- each diagnostic satisfies the first annotation on its line that matches it,
  even one already satisfied; every annotation must be satisfied and every
  diagnostic expected.

Upstream aborts on an unmatched `@unknown` annotation (an assertion in
`SMRange`); here it is reported like any other annotation that was not produced.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from xquant.asm.diagnostics import Diagnostic, Severity, SourceLocation

__all__ = ["DiagnosticVerifier", "ExpectedDiagnostic"]

_ANNOTATION = re.compile(
    r"expected-(error|note|remark|warning)(-re)? *"
    r"(@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}$"
)


@dataclass
class ExpectedDiagnostic:
    """One `expected-*` annotation and the line it targets (None: `@unknown`)."""

    severity: Severity
    text: str
    pattern: re.Pattern[str] | None
    """The compiled `-re` form; None for a plain substring."""
    target_line: int | None
    location: SourceLocation
    """Where the annotation starts (`expected-`), for its own messages."""
    source_line: str
    matched: bool = False

    def matches(self, message: str) -> bool:
        if self.pattern is not None:
            return self.pattern.search(message) is not None
        return self.text in message

    def error(self, message: str) -> Diagnostic:
        """An error at the annotation, underlining as many columns as its text is long."""
        return Diagnostic(
            Severity.ERROR,
            message,
            self.location,
            self.source_line,
            underline=len(self.text),
        )


def _regex_of(text: str) -> str:
    """MLIR's `ExpectedDiag::computeRegex`: literal text, `{{R}}` as `(R)`.

    Raises ValueError with MLIR's message for an unterminated or invalid part.
    """
    parts: list[str] = []
    rest = text
    while rest:
        start = rest.find("{{")
        if start < 0:
            parts.append(re.escape(rest))
            break
        parts.append(re.escape(rest[:start]))
        rest = rest[start + 2 :]
        end = rest.find("}}")
        if end < 0:
            raise ValueError("found start of regex with no end '}}'")
        fragment = rest[:end]
        try:
            re.compile(fragment)
        except re.error as err:
            raise ValueError(f"invalid regex: {err.msg}") from err
        parts.append(f"({fragment})")
        rest = rest[end + 2 :]
    return "".join(parts)


@dataclass
class DiagnosticVerifier:
    """Collects a file's annotations, then checks diagnostics against them.

    `process` takes each diagnostic as it is produced and returns the errors
    it causes (none when it was expected); `finish` returns one error per
    annotation that nothing satisfied. `only_expected` is
    `-verify-diagnostics=only-expected`: unexpected diagnostics are ignored.
    """

    file_name: str
    text: str
    only_expected: bool = False
    expected: list[ExpectedDiagnostic] = field(default_factory=list[ExpectedDiagnostic])
    errors: list[Diagnostic] = field(default_factory=list[Diagnostic])
    """Malformed annotations, found while reading the file."""

    def __post_init__(self) -> None:
        self._collect()

    def _collect(self) -> None:
        pending_below: list[ExpectedDiagnostic] = []
        last_plain_line = 0
        for number, raw in enumerate(self.text.splitlines(), start=1):
            line = raw.rstrip()
            match = _ANNOTATION.search(line)
            if match is None:
                for below in pending_below:
                    below.target_line = number
                pending_below.clear()
                last_plain_line = number
                continue
            kind, is_re, _, designator, text = match.groups()
            location = SourceLocation(self.file_name, number, match.start() + 1)
            pattern: re.Pattern[str] | None = None
            if is_re:
                try:
                    pattern = re.compile(_regex_of(text))
                except ValueError as err:
                    self.errors.append(
                        Diagnostic(Severity.ERROR, str(err), location, raw, len(text))
                    )
                    continue
            expected = ExpectedDiagnostic(
                Severity(kind), text, pattern, number, location, raw
            )
            if designator == "unknown":
                expected.target_line = None
            elif designator == "above":
                expected.target_line = last_plain_line
            elif designator == "below":
                pending_below.append(expected)
            elif designator is not None:
                expected.target_line = number + int(designator)
            self.expected.append(expected)
        for below in pending_below:
            self.errors.append(
                below.error(
                    "expected diagnostic with '@below' designator has no line below it"
                )
            )
            self.expected.remove(below)

    def process(self, diagnostic: Diagnostic) -> list[Diagnostic]:
        """Match `diagnostic` (and its notes) against the annotations."""
        errors = self._process_one(diagnostic)
        for note in diagnostic.notes:
            errors += self._process_one(note)
        return errors

    def _process_one(self, diagnostic: Diagnostic) -> list[Diagnostic]:
        location = diagnostic.location
        line = None if location is None else location.line
        near_miss: ExpectedDiagnostic | None = None
        for expected in self.expected:
            if expected.target_line != line or not expected.matches(diagnostic.message):
                continue
            if expected.severity is diagnostic.severity:
                expected.matched = True
                return []
            near_miss = expected
        if near_miss is not None:
            return [
                near_miss.error(
                    f"'{diagnostic.severity.value}' diagnostic emitted when "
                    f"expecting a '{near_miss.severity.value}'"
                )
            ]
        if self.only_expected:
            return []
        kind = diagnostic.severity.value
        return [
            Diagnostic(
                Severity.ERROR,
                f"unexpected {kind}: {diagnostic.message}",
                location,
                diagnostic.source_line,
                diagnostic.underline,
            )
        ]

    def finish(self) -> list[Diagnostic]:
        """One error per annotation that no diagnostic satisfied, in file order."""
        return [
            expected.error(
                f'expected {expected.severity.value} "{expected.text}" was not produced'
            )
            for expected in self.expected
            if not expected.matched
        ]
