"""The pieces of StableHLO's pretty syntax that many ops share.

- `custom<SameOperandsAndResultType>`: `: T` when every operand and the result
  have type T, else a function type `: (T1, T2) -> T3`.
- the attribute dictionary of a pretty op holds the op's properties too
  (`{feature_group_count = 1 : i64}`); `split_properties` sorts them out.
- `dims = [0, 1]`-style integer lists and `[a:b:c, ...]` slice ranges.

The ops of this package use declarative `assembly_format`s; the custom
directives here (`custom<SameOperandsAndResultType>`, ...) are the parts of
upstream's syntax the declarative format cannot spell. The `parse_*`/`print_*`
functions serve the ops that still write their syntax by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar, cast

from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    FunctionType,
    IntegerType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import (
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xquant.dialects.stablehlo.attributes import parse_int_list


def parse_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    """`%a, %b, ...` (at least one)."""
    return parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_unresolved_operand
    )


def parse_same_operands_and_result_type(
    parser: Parser, operand_count: int
) -> tuple[list[Attribute], Attribute]:
    """After the `:`, either one type for everything or a function type."""
    start = parser.pos
    if (function_type := parser.parse_optional_function_type()) is not None:
        inputs, outputs = function_type.inputs.data, function_type.outputs.data
        if len(inputs) != operand_count or len(outputs) != 1:
            parser.raise_error(
                f"expected a function type with {operand_count} input(s) and 1 result",
                start,
                parser.pos,
            )
        return list(inputs), outputs[0]
    single = parser.parse_type()
    return [single] * operand_count, single


def parse_function_type(
    parser: Parser, operand_count: int, result_count: int | None = 1
) -> FunctionType:
    """A function type with the given number of inputs (and results, unless None)."""
    start = parser.pos
    return _check_counts(
        parser, parser.parse_function_type(), start, operand_count, result_count
    )


def parse_optional_function_type(
    parser: Parser, operand_count: int, result_count: int | None = 1
) -> FunctionType | None:
    """`parse_function_type`, or None when no `(` starts a function type."""
    start = parser.pos
    if (function_type := parser.parse_optional_function_type()) is None:
        return None
    return _check_counts(parser, function_type, start, operand_count, result_count)


def _check_counts(
    parser: Parser,
    function_type: FunctionType,
    start: int,
    operand_count: int,
    result_count: int | None,
) -> FunctionType:
    if len(function_type.inputs.data) != operand_count or (
        result_count is not None and len(function_type.outputs.data) != result_count
    ):
        expected = f"{operand_count} input(s)" + (
            "" if result_count is None else f" and {result_count} result(s)"
        )
        parser.raise_error(
            f"expected a function type with {expected}", start, parser.pos
        )
    return function_type


OpT = TypeVar("OpT", bound=IRDLOperation)


def parse_op_tail(
    cls: type[OpT],
    parser: Parser,
    operands: Sequence[UnresolvedOperand],
    properties: dict[str, Attribute] | None,
    parse_types: Callable[[], tuple[Sequence[Attribute], Sequence[Attribute]]],
    *,
    fixed: dict[str, Attribute] | None = None,
) -> OpT:
    """`{attr-dict} : <types>` after an op's operands, and the op.

    `parse_types` reads what follows the colon as (operand types, result
    types). `properties` are those the op's own syntax already read;
    properties written in the attribute dictionary take precedence over
    them, but not over `fixed` ones (the op's syntax always sets those).
    """
    extra, attributes = split_properties(cls, parse_optional_attributes(parser))
    parser.parse_punctuation(":")
    operand_types, result_types = parse_types()
    resolved = parser.resolve_operands(operands, operand_types, parser.pos)
    return cls.create(
        operands=resolved,
        result_types=list(result_types),
        properties={**(properties or {}), **extra, **(fixed or {})},
        attributes=attributes,
    )


def parse_same_type_op_tail(
    cls: type[OpT],
    parser: Parser,
    operands: Sequence[UnresolvedOperand],
    properties: dict[str, Attribute] | None = None,
) -> OpT:
    """`{attr-dict} : T` (or `: (Ts) -> T`) after an op's operands, and the op."""

    def parse_types() -> tuple[list[Attribute], list[Attribute]]:
        operand_types, result_type = parse_same_operands_and_result_type(
            parser, len(operands)
        )
        return operand_types, [result_type]

    return parse_op_tail(cls, parser, operands, properties, parse_types)


def parse_functional_op_tail(
    cls: type[OpT],
    parser: Parser,
    operands: Sequence[UnresolvedOperand],
    properties: dict[str, Attribute] | None = None,
    result_count: int | None = None,
    *,
    fixed: dict[str, Attribute] | None = None,
) -> OpT:
    """`{attr-dict} : (T1, ...) -> R` after an op's operands, and the op.

    The `functional-type(operands, results)` tail of most StableHLO pretty
    forms; `result_count` (None: any number) is checked on the function type.
    `properties` and `fixed` are as for `parse_op_tail`.
    """

    def parse_types() -> tuple[Sequence[Attribute], Sequence[Attribute]]:
        function_type = parse_function_type(parser, len(operands), result_count)
        return function_type.inputs.data, function_type.outputs.data

    return parse_op_tail(cls, parser, operands, properties, parse_types, fixed=fixed)


def print_functional_op_tail(
    printer: Printer, op: Operation, elided: Iterable[str] = ()
) -> None:
    """` {attr-dict} : (T1, ...) -> R`, the tail `parse_functional_op_tail` reads."""
    print_extra_attributes(printer, op, elided)
    printer.print_string(" : ")
    printer.print_function_type(op.operand_types, op.result_types)


def print_same_type_op_tail(
    printer: Printer, op: Operation, elided: Iterable[str] = ()
) -> None:
    """` {attr-dict} : T` (or a function type), the tail `parse_same_type_op_tail` reads."""
    print_extra_attributes(printer, op, elided)
    print_same_operands_and_result_type(printer, op.operand_types, op.result_types[0])


def parse_optional_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    """`%a, %b, ...` (possibly none)."""
    return (
        parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand,
            parser.parse_unresolved_operand,
        )
        or []
    )


def parse_keyword_value(parser: Parser, keyword: str) -> None:
    """`keyword =`, before the value the caller reads."""
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")


def parse_keyword_integer(parser: Parser, keyword: str) -> int:
    """`keyword = 3`."""
    parse_keyword_value(parser, keyword)
    return parser.parse_integer(allow_boolean=False)


def parse_dims_property(parser: Parser, keyword: str) -> DenseArrayBase:
    """`keyword = [0, 1]` as the `array<i64: ...>` property it spells."""
    return i64_array(parse_dims(parser, keyword))


def print_dims_property(
    printer: Printer, keyword: str, attr: DenseArrayBase | None
) -> None:
    """`, keyword = [0, 1]`, what `parse_dims_property` reads after a comma."""
    printer.print_string(f", {keyword} = {format_dims(array_values(attr))}")


def print_same_operands_and_result_type(
    printer: Printer, operand_types: Sequence[Attribute], result_type: Attribute
) -> None:
    """` : T` if all types agree, else ` : (T1, ...) -> T`."""
    printer.print_string(" : ")
    if all(t == result_type for t in operand_types):
        printer.print_attribute(result_type)
        return
    printer.print_function_type(operand_types, [result_type])


def print_operands(printer: Printer, operands: Iterable[SSAValue]) -> None:
    printer.print_list(operands, printer.print_operand)


def property_names(op_class: type[IRDLOperation]) -> set[str]:
    return set(op_class.get_irdl_definition().properties)


def split_properties(
    op_class: type[IRDLOperation], attributes: dict[str, Attribute]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """(properties, remaining attributes) of a pretty attribute dictionary."""
    names = property_names(op_class)
    properties = {k: v for k, v in attributes.items() if k in names}
    rest = {k: v for k, v in attributes.items() if k not in names}
    return properties, rest


def print_extra_attributes(
    printer: Printer, op: Operation, elided: Iterable[str] = ()
) -> None:
    """` {k = v, ...}` of the properties and attributes not printed elsewhere (nothing if empty)."""
    skip = set(elided)
    entries = {k: v for k, v in op.properties.items() if k not in skip}
    entries.update({k: v for k, v in op.attributes.items() if k not in skip})
    if not entries:
        return
    printer.print_string(" ")
    printer.print_attr_dict(entries)


def parse_optional_attributes(parser: Parser) -> dict[str, Attribute]:
    attrs = parser.parse_optional_attr_dict()
    return dict(attrs)


def i64_array(values: Sequence[int]) -> DenseArrayBase:
    """`array<i64: ...>`, the property form of StableHLO's dimension lists."""
    return DenseArrayBase.from_list(i64, list(values))


def dims_property(op: Operation, name: str) -> DenseArrayBase | None:
    """The dims property `name` of `op`, a dense array by the op's definition (None if absent).

    For ops that name the property in a class variable, where the field's type is lost."""
    return cast(DenseArrayBase | None, op.properties.get(name))


def array_values(attr: DenseArrayBase | None) -> tuple[int, ...]:
    if attr is None:
        return ()
    # An array's element type is an integer or a float type: `get_values` is typed per case.
    # (A string: building the union at run time cost 6 us per call, most of the op's time.)
    array = cast("DenseArrayBase[IntegerType] | DenseArrayBase[AnyFloat]", attr)
    return tuple(int(v) for v in array.get_values())


def parse_dims(parser: Parser, keyword: str) -> list[int]:
    """`keyword = [0, 1]`."""
    parse_keyword_value(parser, keyword)
    return parse_int_list(parser)


def format_dims(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


SAME_TYPE_FORMAT = (
    "operands attr-dict `:` "
    "custom<SameOperandsAndResultType>(type(operands), type(results))"
)
"""`stablehlo.<op> %a, %b {attr-dict} : T`, or `: (T1, T2) -> R` when the types differ."""

FUNCTIONAL_TYPE_FORMAT = "operands attr-dict `:` functional-type(operands, results)"
"""`stablehlo.<op> %a, %b {attr-dict} : (T1, T2) -> R`."""


@irdl_custom_directive
class VariadicOperandWithAttribute(CustomDirective):
    """`custom<VariadicOperandWithAttribute>`: `%a, %b,`, each operand followed by a
    comma, before the keyword of the attribute that follows."""

    operands: VariadicOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        operands: list[UnresolvedOperand] = []
        while (operand := parser.parse_optional_unresolved_operand()) is not None:
            operands.append(operand)
            parser.parse_punctuation(",")
        self.operands.set(state, operands)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        operands = self.operands.get(op)
        if not operands:
            return
        state.print_whitespace(printer)
        printer.print_list(operands, printer.print_operand)
        printer.print_string(",")


def _set_types(
    parser: Parser,
    state: ParsingState,
    start: int,
    assignments: Sequence[tuple[TypeDirective, Sequence[Attribute]]],
) -> None:
    """Give each directive its types; a count that does not fit is a parse error."""
    try:
        for directive, types in assignments:
            directive.set(state, types)
    except VerifyException as err:
        parser.raise_error(str(err), start, parser.pos)


def _operand_count(state: ParsingState) -> int:
    return sum(len(o) for o in state.operands if o is not None)


@irdl_custom_directive
class SameOperandsAndResultType(CustomDirective):
    """`custom<SameOperandsAndResultType>(type(operands), type(results))`.

    `T` when every operand and the result have type T, else `(T1, T2) -> T3`.
    """

    operand_types: TypeDirective
    result_types: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        start = parser.pos
        if (function_type := parser.parse_optional_function_type()) is not None:
            inputs, outputs = function_type.inputs.data, function_type.outputs.data
            _set_types(
                parser,
                state,
                start,
                ((self.operand_types, inputs), (self.result_types, outputs)),
            )
            return
        single = parser.parse_type()
        _set_types(
            parser,
            state,
            start,
            (
                (self.operand_types, [single] * _operand_count(state)),
                (self.result_types, [single]),
            ),
        )

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        operand_types, result_types = (
            self.operand_types.get(op),
            self.result_types.get(op),
        )
        if len(result_types) == 1 and all(t == result_types[0] for t in operand_types):
            printer.print_attribute(result_types[0])
            return
        printer.print_function_type(operand_types, result_types)


@irdl_custom_directive
class SelectOpType(CustomDirective):
    """`custom<SelectOpType>`: `tensor<2xi1>, tensor<2xf32>` (the predicate's type,
    then the values' one) when the values and the result agree, else a function type."""

    pred_type: TypeDirective
    on_true_type: TypeDirective
    on_false_type: TypeDirective
    result_type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if (function_type := parse_optional_function_type(parser, 3)) is not None:
            types = (*function_type.inputs.data, *function_type.outputs.data)
        else:
            pred_type = parser.parse_type()
            parser.parse_punctuation(",")
            value_type = parser.parse_type()
            types = (pred_type, value_type, value_type, value_type)
        directives = (
            self.pred_type,
            self.on_true_type,
            self.on_false_type,
            self.result_type,
        )
        for directive, t in zip(directives, types):
            directive.set(state, (t,))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        (pred_type,) = self.pred_type.get(op)
        (on_true,), (on_false,) = self.on_true_type.get(op), self.on_false_type.get(op)
        (result,) = self.result_type.get(op)
        if on_true == on_false == result:
            printer.print_list((pred_type, result), printer.print_attribute)
            return
        printer.print_function_type((pred_type, on_true, on_false), (result,))
