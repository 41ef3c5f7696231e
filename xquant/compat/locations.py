"""xDSL 0.74 parses only part of MLIR's location grammar.

MLIR (`mlir/lib/AsmParser/LocationParser.cpp`) reads

    location      ::= `loc` `(` (location-inst | `#alias`) `)`
    location-inst ::= `unknown`
                    | string `:` line (`:` col (`to` line? `:` col)?)?
                    | string (`(` location-inst `)`)?
                    | `callsite` `(` location-inst `at` location-inst `)`
                    | `fused` (`<` attribute `>`)? `[` location-inst (`,` ...)* `]`
                    | `#alias`

xDSL 0.74 has no file ranges (JAX prints `loc("f.py":256:18 to :46)`), drops
the metadata of `fused<#attr>[...]`, keeps `fused[...]` as written (MLIR's
`FusedLoc::get` drops unknowns, merges duplicates and nested fused locations,
and returns a lone location as itself), keeps `"n"(unknown)` apart from
`"n"`, and reports malformed locations with its own words:

    %0 = arith.addi %a, %a : i32 loc("f.py":1:2 to :9)   // "Expected ')'"

The fix replaces `AttrParser._parse_location` and `parse_optional_location`
with MLIR's grammar, uniquing and messages, adds `FileLineColRange` (MLIR's
range, kept apart from a `FileLineColLoc` as MLIR keeps them apart: `"f":1`,
`"f":1:2 to :3` and `"f":1:2 to 1:3` are three attributes), and lets xDSL's
location constraint (`CallSiteLoc`, `NameLoc`, `FusedLoc` parameters) admit
it. A parser may let a trailing `loc(#alias)` refer to an alias defined later,
as MLIR does: `LocatedParser` (xquant.asm) sets `allow_deferred_locations`
and resolves the `DeferredLoc` placeholders when the module is parsed.

One more gap, on the rewriting side: xDSL's `PatternRewriter` leaves the ops
a pattern builds at `loc(unknown)`, where MLIR's patterns build them at the
matched op's location (`rewriter.create<...>(op.getLoc(), ...)`), so
`--mlir-print-debuginfo` after a lowering lost every source location. The fix
gives an op inserted by a pattern, what it nests and its blocks' arguments
the matched op's location when they have none.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    LocationConstraint,
    NameLoc,
    NoneAttr,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, BuiltinAttribute, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.irdl.constraints import VerificationContext
from xdsl.parser import AttrParser
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xquant.dialects.quant.syntax import fail_wrong_token

__all__ = [
    "DeferredLoc",
    "FileLineColRange",
    "fused_location",
    "give_location",
    "install",
    "is_location",
]


@irdl_attr_definition
class FileLineColRange(ParametrizedAttribute, BuiltinAttribute):
    """MLIR's `FileLineColRange` with 1, 3 or 4 numbers (2 is `FileLineColLoc`).

    `numbers` is what was written: `[line]`, `[line, col, end_col]` or
    `[line, col, end_line, end_col]`; MLIR keeps each spelling apart.
    """

    name = "builtin.file_line_col_range"

    filename: StringAttr = param_def()
    numbers: ArrayAttr[IntAttr] = param_def()

    def verify(self) -> None:
        if len(self.numbers) not in (1, 3, 4):
            raise VerifyException("a file range holds 1, 3 or 4 numbers")

    @property
    def start(self) -> tuple[int, int]:
        values = [n.data for n in self.numbers]
        return values[0], values[1] if len(values) > 1 else 0

    @property
    def end(self) -> tuple[int, int]:
        values = [n.data for n in self.numbers]
        if len(values) == 4:
            return values[2], values[3]
        if len(values) == 3:
            return values[0], values[2]
        return self.start

    def range_text(self) -> str:
        """`line:col`, `line:col to :end_col` or `line:col to end_line:end_col`."""
        (line, col), (end_line, end_col) = self.start, self.end
        if (line, col) == (end_line, end_col):
            return f"{line}:{col}"
        if line == end_line:
            return f"{line}:{col} to :{end_col}"
        return f"{line}:{col} to {end_line}:{end_col}"

    def print_builtin(self, printer: Printer) -> None:
        with printer.in_location():
            printer.print_string_literal(self.filename.data)
            printer.print_string(":" + self.range_text())


@irdl_attr_definition
class DeferredLoc(ParametrizedAttribute, BuiltinAttribute):
    """A trailing `loc(#alias)` whose alias is defined later in the text.

    Only ever on the IR while a `LocatedParser` runs; it replaces each one
    with the alias's location once the whole text is read.
    """

    name = "builtin.deferred_loc"

    alias: StringAttr = param_def()
    position: IntAttr = param_def()

    def print_builtin(self, printer: Printer) -> None:
        with printer.in_location():
            printer.print_string(self.alias.data)


_LOCATION_TYPES = (
    UnknownLoc,
    FileLineColLoc,
    FileLineColRange,
    NameLoc,
    CallSiteLoc,
    FusedLoc,
    DeferredLoc,
)


def is_location(attr: Attribute) -> bool:
    """Whether `attr` is one of MLIR's builtin locations."""
    return isinstance(attr, _LOCATION_TYPES)


def fused_location(locations: Sequence[Attribute], metadata: Attribute) -> Attribute:
    """MLIR's `FusedLoc::get`: unknowns dropped, duplicates merged, a fused
    location with the same metadata flattened, a lone location returned as is.

    `metadata` is `NoneAttr()` when there is none.
    """
    kept: dict[Attribute, None] = {}
    for location in locations:
        if isinstance(location, FusedLoc) and location.metadata == metadata:
            inner = cast(ArrayAttr[Attribute], location.locations)
            kept.update(dict.fromkeys(inner.data))
        elif not isinstance(location, UnknownLoc):
            kept[location] = None
    if not kept:
        if isinstance(metadata, NoneAttr):
            return UnknownLoc()
        return FusedLoc((UnknownLoc(),), metadata)
    if len(kept) == 1 and isinstance(metadata, NoneAttr):
        return next(iter(kept))
    return FusedLoc(tuple(kept), metadata)


# -- the parser ---------------------------------------------------------------------


def _parse_unsigned(parser: AttrParser, what: str) -> int:
    """An unsigned 32-bit integer token (decimal or hexadecimal), as MLIR's
    `getUnsignedIntegerValue`."""
    token = parser._current_token  # pyright: ignore[reportPrivateUsage]
    message = f"expected integer {what} number in FileLineColRange"
    text = token.text
    if token.kind is not MLIRTokenKind.INTEGER_LIT or text.startswith("-"):
        fail_wrong_token(parser, message)
    value = int(text, 16) if text[:2] in ("0x", "0X") else int(text)
    if value >= 2**32:
        # MLIR backs up for a line number, not for a column number.
        if what == "line":
            fail_wrong_token(parser, message)
        parser.raise_error(message)
    parser._consume_token()  # pyright: ignore[reportPrivateUsage]
    return value


def _expect(parser: AttrParser, punctuation: str, message: str) -> None:
    """`punctuation`, else MLIR's `message` at the current token."""
    if parser.parse_optional_punctuation(punctuation) is None:  # pyright: ignore[reportArgumentType]
        fail_wrong_token(parser, message)


def _at_colon(parser: AttrParser) -> bool:
    return parser._current_token.kind is MLIRTokenKind.COLON  # pyright: ignore[reportPrivateUsage]


def _parse_name_or_file_range(parser: AttrParser, name: str) -> Attribute:
    if parser.parse_optional_punctuation(":") is not None:
        line = _parse_unsigned(parser, "line")
        if not _at_colon(parser):
            return FileLineColRange(StringAttr(name), ArrayAttr([IntAttr(line)]))
        parser.parse_punctuation(":")
        col = _parse_unsigned(parser, "column")
        if parser.parse_optional_keyword("to") is None:
            return FileLineColLoc(StringAttr(name), IntAttr(line), IntAttr(col))
        numbers = [line, col]
        token = parser._current_token  # pyright: ignore[reportPrivateUsage]
        if token.kind is MLIRTokenKind.INTEGER_LIT:
            numbers.append(_parse_unsigned(parser, "line"))
        if not _at_colon(parser):
            fail_wrong_token(
                parser, "expected either integer or `:` post `to` in FileLineColRange"
            )
        parser.parse_punctuation(":")
        numbers.append(_parse_unsigned(parser, "column"))
        return FileLineColRange(
            StringAttr(name), ArrayAttr([IntAttr(n) for n in numbers])
        )
    if parser.parse_optional_punctuation("(") is None:
        return NameLoc(StringAttr(name), NoneAttr())
    child = _parse_location(parser)
    _expect(parser, ")", "expected ')' after child location of NameLoc")
    # `"n"(unknown)` is `"n"`, as in MLIR.
    return NameLoc(
        StringAttr(name), NoneAttr() if isinstance(child, UnknownLoc) else child
    )


def _parse_location(parser: AttrParser) -> Attribute:
    """MLIR's `parseLocationInstance`."""
    token = parser._current_token  # pyright: ignore[reportPrivateUsage]
    if token.kind is MLIRTokenKind.HASH_IDENT:
        # MLIR reports an undefined alias right after it, a wrong one at the
        # next token.
        if "." not in token.text and token.text not in parser.attribute_aliases:
            end = token.span.end
            parser.raise_error(
                f"undefined symbol alias id '{token.text[1:]}'", end, end + 1
            )
        attr = parser.parse_attribute()
        if not is_location(attr):
            parser.raise_error(f"expected location attribute, but got{attr}")
        return attr
    if (name := parser.parse_optional_str_literal()) is not None:
        return _parse_name_or_file_range(parser, name)
    if token.kind is not MLIRTokenKind.BARE_IDENT:
        fail_wrong_token(parser, "expected location instance")
    if token.text == "callsite":
        parser.parse_keyword("callsite")
        _expect(parser, "(", "expected '(' in callsite location")
        callee = _parse_location(parser)
        if parser.parse_optional_keyword("at") is None:
            fail_wrong_token(parser, "expected 'at' in callsite location")
        caller = _parse_location(parser)
        _expect(parser, ")", "expected ')' in callsite location")
        return CallSiteLoc(callee, caller)
    if token.text == "fused":
        parser.parse_keyword("fused")
        metadata: Attribute = NoneAttr()
        if parser.parse_optional_punctuation("<") is not None:
            metadata = parser.parse_attribute()
            _expect(parser, ">", "expected '>' after fused location metadata")
        _expect(parser, "[", "expected '[' in fused location")
        locations: list[Attribute] = []
        if parser.parse_optional_punctuation("]") is None:
            locations.append(_parse_location(parser))
            while parser.parse_optional_punctuation(",") is not None:
                locations.append(_parse_location(parser))
            _expect(parser, "]", "expected ']' in fused location")
        return fused_location(locations, metadata)
    if token.text == "unknown":
        parser.parse_keyword("unknown")
        return UnknownLoc()
    fail_wrong_token(parser, "expected location instance")


def _parse_optional_location(parser: AttrParser) -> Attribute | None:
    """`loc(...)`, an alias defined later only where the parser allows it."""
    if parser.parse_optional_characters("loc") is None:
        return None
    _expect(parser, "(", "expected '(' in location")
    token = parser._current_token  # pyright: ignore[reportPrivateUsage]
    location: Attribute
    if (
        token.kind is MLIRTokenKind.HASH_IDENT
        and "." not in token.text
        and token.text not in parser.attribute_aliases
        and getattr(parser, "allow_deferred_locations", False)
    ):
        parser._consume_token()  # pyright: ignore[reportPrivateUsage]
        location = DeferredLoc(StringAttr(token.text), IntAttr(token.span.start))
    elif token.kind is MLIRTokenKind.HASH_IDENT and "." not in token.text:
        location = parser.parse_attribute()
        if not is_location(location):
            parser.raise_error(f"expected location, but found '{location}'", token.span)
    else:
        location = _parse_location(parser)
    _expect(parser, ")", "expected ')' in location")
    return location


def _verify_location(
    self: LocationConstraint, attr: Attribute, constraint_context: VerificationContext
) -> None:
    if is_location(attr) or isinstance(attr, NoneAttr):
        return
    raise VerifyException(f"{attr} is not a location attribute")


def give_location(op: Operation, location: Attribute) -> None:
    """`location` for `op`, the ops it nests and their block arguments, where
    they have none (`loc(unknown)`)."""
    for nested in op.walk():
        if isinstance(nested.location, UnknownLoc):
            nested.location = location  # pyright: ignore[reportAttributeAccessIssue]
        for region in nested.regions:
            for block in region.blocks:
                for arg in block.args:
                    if isinstance(arg.location, UnknownLoc):
                        arg.location = location  # pyright: ignore[reportAttributeAccessIssue]


_xdsl_insert = PatternRewriter.insert


def _insert_located(
    self: PatternRewriter,
    op: Operation | Sequence[Operation],
    insertion_point: InsertPoint | None = None,
) -> Operation | Sequence[Operation]:
    matched = self._current_operation  # pyright: ignore[reportPrivateUsage]
    if matched is not None and not isinstance(matched.location, UnknownLoc):
        for new_op in (op,) if isinstance(op, Operation) else op:
            give_location(new_op, matched.location)
    return _xdsl_insert(self, op, insertion_point)  # pyright: ignore[reportArgumentType]


def install() -> None:
    """Give xDSL's parser MLIR's location grammar, and its rewriter MLIR's
    locations for new ops (idempotent)."""
    setattr(AttrParser, "_parse_location", _parse_location)
    setattr(AttrParser, "parse_optional_location", _parse_optional_location)
    setattr(LocationConstraint, "verify", _verify_location)
    setattr(PatternRewriter, "insert", _insert_located)
