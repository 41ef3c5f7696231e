"""A parser that remembers where each op came from, and raises only `ParseError`.

xDSL's ops carry no source location, while MLIR reports every diagnostic at
`file:line:col`. `LocatedParser` records the span of each op's name as it
parses (MLIR locates an op at its name, after `%0 = `), so verifier and pass
errors can be located afterwards; `parse_located` also turns everything that
escapes xDSL's parser on odd input (a type's `verify()`, Python's recursion
and integer limits) into a `ParseError` at the parser's position.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import (
    FileLineColLoc,
    IntAttr,
    ModuleOp,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, AttributeInvT, BlockArgument, Operation, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xquant.compat.locations import DeferredLoc, is_location
from xquant.xdsl_internals import current_token, parse_top_level_definition

__all__ = ["LocatedModule", "LocatedParser", "parse_located"]

_ALIAS_OR_METADATA = (
    MLIRTokenKind.HASH_IDENT,
    MLIRTokenKind.EXCLAMATION_IDENT,
    MLIRTokenKind.FILE_METADATA_BEGIN,
)
_UNREGISTERED_OP = re.compile(r"Operation (\S+) is not registered")


class LocatedParser(Parser):
    """A parser that records the source span of every operation it parses.

    It also reads MLIR's whole location grammar (`xquant.compat.locations`),
    with trailing `loc(#alias)` of ops and block arguments free to name an
    alias defined later in the text (JAX and TensorFlow print them after the
    module); `explicit_locations` holds the ops and block arguments whose
    location was written in the text.
    """

    op_spans: dict[Operation, Span[str] | Span[bytes]]
    arg_spans: dict[BlockArgument, Span[str] | Span[bytes]]
    explicit_locations: set[Operation | BlockArgument]
    allow_deferred_locations: bool

    def __init__(self, ctx: Context, input: str | bytes, name: str = "<unknown>"):
        super().__init__(ctx, input, name)
        self.op_spans = {}
        self.arg_spans = {}
        self.explicit_locations = set()
        self.allow_deferred_locations = True
        self._name_spans: list[Span[str] | Span[bytes]] = []
        self._first_uses: dict[str, Span[str] | Span[bytes]] = {}
        self._location_end = -1
        self._deferred_count = 0
        self._written_unknowns: list[Attribute] = []

    def parse_optional_location(self) -> Attribute | None:  # pyright: ignore[reportIncompatibleMethodOverride]
        location = super().parse_optional_location()
        if location is not None:
            # Where the next token starts: an op or argument whose text ends
            # here had its location written out.
            self._location_end = current_token(self).span.start
            if isinstance(location, DeferredLoc):
                self._deferred_count += 1
            elif isinstance(location, UnknownLoc):
                # A function's arguments get theirs after they are registered:
                # known by identity once the module is parsed.
                self._written_unknowns.append(location)
        return location  # pyright: ignore[reportReturnType]

    def _parse_optional_builtin_attr(self) -> Attribute | None:
        # `loc(#alias)` as an attribute value must name a defined alias (MLIR).
        allow, self.allow_deferred_locations = self.allow_deferred_locations, False
        try:
            return super()._parse_optional_builtin_attr()
        finally:
            self.allow_deferred_locations = allow

    def _ends_with_location(self) -> bool:
        return self._location_end == current_token(self).span.start

    def resolve_operand(
        self, operand: UnresolvedOperand, type: AttributeInvT
    ) -> SSAValue[AttributeInvT]:
        if operand.operand_name not in self.ssa_values:
            self._first_uses.setdefault(operand.operand_name, operand.span)
        return super().resolve_operand(operand, type)

    def _register_ssa_definition(
        self, name: str, values: Sequence[SSAValue], span: Span
    ) -> None:
        # MLIR locates a block argument at its name.
        for value in values:
            if isinstance(value, BlockArgument):
                self.arg_spans[value] = span
                if self._ends_with_location():
                    self.explicit_locations.add(value)
        super()._register_ssa_definition(name, values, span)

    def _parse_op_result_list(self) -> list[tuple[Span, int]]:
        results = super()._parse_op_result_list()
        # Ops nest (regions), hence a stack of name spans.
        self._name_spans.append(current_token(self).span)
        return results

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """As xDSL's, but input without ops is an empty module (as in MLIR).

        xDSL raises "Could not parse entire input!" for a file or `// -----`
        chunk that holds only comments or aliases; mlir-opt prints `module {}`.
        """
        if not allow_implicit_module:
            return super().parse_module(False)
        ops: list[Operation] = []
        while current_token(self).kind is not MLIRTokenKind.EOF:
            if current_token(self).kind in _ALIAS_OR_METADATA:
                self._parse_top_level_definition()
            elif (op := self.parse_optional_operation()) is not None:
                ops.append(op)
            else:
                self.raise_error("Could not parse entire input!")
        if self.forward_ssa_references:
            # MLIR blames the first use of a value that is never defined.
            first_use = min(
                (self._first_uses[name] for name in self.forward_ssa_references),
                key=lambda span: span.start,
            )
            raise ParseError(first_use, "use of undeclared SSA value name")
        if self._deferred_count:
            for op in ops:
                self._resolve_deferred_locations(op)
        if self._written_unknowns:
            self._note_written_unknowns(ops)
        if len(ops) == 1 and isinstance(ops[0], ModuleOp):
            return ops[0]
        return ModuleOp(ops)

    def _resolve_deferred_locations(self, root: Operation) -> None:
        """Replace each `DeferredLoc` by its alias's location (MLIR's messages)."""
        for op in root.walk():
            if isinstance(op.location, DeferredLoc):
                op.location = self._deferred_target(op.location)  # pyright: ignore[reportAttributeAccessIssue]
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.args:
                        if isinstance(arg.location, DeferredLoc):
                            arg.location = self._deferred_target(arg.location)  # pyright: ignore[reportAttributeAccessIssue]

    def _note_written_unknowns(self, ops: Sequence[Operation]) -> None:
        """Block arguments whose `loc(unknown)` is written in the text."""
        written = {id(location) for location in self._written_unknowns}
        for root in ops:
            for op in root.walk():
                for region in op.regions:
                    for block in region.blocks:
                        for arg in block.args:
                            if id(arg.location) in written:
                                self.explicit_locations.add(arg)

    def _deferred_target(self, deferred: DeferredLoc) -> Attribute:
        start = deferred.position.data
        span = Span(start, start + len(deferred.alias.data), self.lexer.input)
        target = self.attribute_aliases.get(deferred.alias.data)
        if target is None:
            raise ParseError(span, "operation location alias was never defined")
        if not is_location(target):
            raise ParseError(span, f"expected location, but found '{target}'")
        return target

    def _parse_top_level_definition(self) -> None:
        parse_top_level_definition(self)

    def parse_optional_attribute(self) -> Attribute | None:
        start = current_token(self).span.start
        try:
            return super().parse_optional_attribute()
        except NotImplementedError as err:  # xDSL cannot pack e.g. dense i65 data
            raise ParseError(
                Span(start, current_token(self).span.start, self.lexer.input),
                f"not supported by xDSL: {err}",
            ) from err

    def parse_operation(self) -> Operation:
        depth = len(self._name_spans)
        try:
            op = super().parse_operation()
        except ParseError as err:
            # An unknown op in custom form under allow-unregistered: xDSL
            # blames its `builtin.unregistered` stand-in, MLIR the op's name.
            if err.msg.startswith("Operation builtin.unregistered does not have"):
                name = self._name_spans[depth]
                raise ParseError(name, f"custom op '{name.text}' is unknown") from err
            raise
        self.op_spans[op] = self._name_spans.pop()
        if self._ends_with_location():
            self.explicit_locations.add(op)
        return op


@dataclass
class LocatedModule:
    """A parsed module and where each of its ops came from."""

    module: ModuleOp
    op_spans: dict[Operation, Span[str] | Span[bytes]] = field(
        default_factory=dict[Operation, "Span[str] | Span[bytes]"]
    )
    arg_spans: dict[BlockArgument, Span[str] | Span[bytes]] = field(
        default_factory=dict[BlockArgument, "Span[str] | Span[bytes]"]
    )
    explicit_locations: set[Operation | BlockArgument] = field(
        default_factory=set[Operation | BlockArgument]
    )

    def span_of(self, op: Operation) -> Span[str] | Span[bytes] | None:
        """The span of `op`, or of its closest parsed ancestor (ops built by passes have none)."""
        current: Operation | None = op
        while current is not None:
            if (span := self.op_spans.get(current)) is not None:
                return span
            current = current.parent_op()
        return None

    def attach_locations(
        self, file_name: str, module_location: tuple[int, int]
    ) -> None:
        """Give every parsed op and block argument whose location the text
        does not write the `file:line:col` of its name.

        Only for `--mlir-print-debuginfo`: computing line numbers walks the
        text, so it is not done on every parse. An implicit module (not in
        the text) gets `module_location`, as mlir-opt gives it the start of
        its chunk.
        """
        for op, span in self.op_spans.items():
            if op not in self.explicit_locations:
                op.location = _file_line_col(file_name, span)
        for arg, span in self.arg_spans.items():
            # A function's arguments get their written location after they
            # are registered: known when it is not unknown.
            if arg not in self.explicit_locations and isinstance(
                arg.location, UnknownLoc
            ):
                arg.location = _file_line_col(file_name, span)
        if self.module not in self.op_spans:
            line, column = module_location
            self.module.location = FileLineColLoc(
                StringAttr(file_name), IntAttr(line), IntAttr(column)
            )


def _file_line_col(file_name: str, span: Span[str] | Span[bytes]) -> FileLineColLoc:
    loc = span.get_location()
    return FileLineColLoc(StringAttr(file_name), IntAttr(loc.line), IntAttr(loc.col))


def parse_located(
    ctx: Context,
    text: str | bytes,
    name: str = "<unknown>",
    *,
    implicit_module: bool = True,
) -> LocatedModule:
    """Parse `text` into a module, recording op positions.

    Raises only `ParseError`: a type or attribute whose construction check
    fails while parsing is reported at the parser's position. Messages that
    have an MLIR spelling get it (unregistered and unknown ops).
    """
    parser = LocatedParser(ctx, text, name)
    try:
        module = parser.parse_module(implicit_module)
    except ParseError as err:
        raise _mlir_spelling(ctx, err) from err
    except VerifyException as err:
        raise _error_at(parser, str(err)) from err
    except RecursionError as err:  # xDSL's parser recurses once per nesting level
        raise _error_at(parser, "input is nested too deeply to parse") from err
    except NotImplementedError as err:  # e.g. xDSL cannot pack dense i65 data
        raise _error_at(parser, f"not supported by xDSL: {err}") from err
    except (
        ValueError,
        TypeError,
        KeyError,
        IndexError,
        OverflowError,
        AssertionError,
    ) as err:
        if "Exceeds the limit" in str(err):  # Python's int() digit limit
            raise _error_at(parser, "integer value too large") from err
        raise _error_at(parser, f"invalid input: {err}") from err
    return LocatedModule(
        module, parser.op_spans, parser.arg_spans, parser.explicit_locations
    )


def _error_at(parser: Parser, message: str) -> ParseError:
    token = current_token(parser)
    return ParseError(token.span, message)


def _mlir_spelling(ctx: Context, err: ParseError) -> ParseError:
    """mlir-opt's message for an op xDSL does not know, else `err` itself."""
    match = _UNREGISTERED_OP.fullmatch(err.msg)
    if match is None:
        return err
    op_name = match.group(1)
    dialect = op_name.split(".", 1)[0]
    if dialect in ctx.registered_dialect_names:
        return ParseError(err.span, f"custom op '{op_name}' is unknown")
    return ParseError(
        err.span,
        "operation being parsed with an unregistered dialect. If this is "
        "intended, please use -allow-unregistered-dialect with the MLIR tool used",
    )
