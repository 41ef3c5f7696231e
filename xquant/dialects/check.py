"""The `check` dialect that StableHLO's interpreter tests use (stablehlo/tests/CheckOps.td).

    check.expect_eq %a, %b : tensor<2xi8>                       exact
    check.expect_eq_const %a, dense<[10, 10]> : tensor<2xi8>    exact, against a literal
    check.expect_almost_eq %a, %b : tensor<2xf32>               |a - b| <= tolerance (default 1e-4)
    check.expect_almost_eq_const %a, dense<[4.0, 15.0]> : tensor<2xf32>
    check.expect_close %a, %b, max_ulp_difference = 3 : tensor<2xf32>, tensor<2xf32>

The tolerance of the almost-equal checks is an optional `tolerance` property
(`{tolerance = 1.000000e-03 : f64}`; `, tolerance = 1.0e-3` also parses).
The interpreter (`xquant.interpreter.check`) records every check it runs;
a failed check names the first mismatching element and both values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    TensorType,
    f64,
    i64,
)
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xquant.dialects.stablehlo.syntax import (
    parse_keyword_integer,
    parse_keyword_value,
    parse_op_tail,
    parse_optional_attributes,
    print_extra_attributes,
    print_operands,
    split_properties,
)
from xquant.dialects.stablehlo.type_utils import quantized, type_text
from xquant.numerics.values import element_type

DEFAULT_TOLERANCE = 1e-4
"""Absolute tolerance of `expect_almost_eq[_const]` and of `@check.eq` on floats."""

CUSTOM_CALL_CHECKS = (
    "check.eq",
    "check.expect_eq",
    "check.expect_almost_eq",
    "check.expect_close",
)
"""The `custom_call @check.*` targets the interpreter runs; each compares (actual, expected)."""


def _parse_tolerance(parser: Parser, properties: dict[str, Attribute]) -> None:
    if parser.parse_optional_punctuation(",") is None:
        return
    parse_keyword_value(parser, "tolerance")
    properties["tolerance"] = FloatAttr(float(parser.parse_number()), f64)


def _parse_operand_pair(parser: Parser) -> list[UnresolvedOperand]:
    """`%actual, %expected`."""
    actual = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    return [actual, parser.parse_unresolved_operand()]


def _verify_same_type(lhs: Attribute, rhs: Attribute) -> None:
    if lhs != rhs:
        raise VerifyException(
            f"requires all operands to have the same type, got {type_text(lhs)} "
            f"and {type_text(rhs)}"
        )


def verify_custom_call_check(target: str, operand_types: Sequence[Attribute]) -> None:
    """`custom_call @check.*`: a known check of two tensors of one shape and value type.

    Quantized operands compare by their dequantized values, so a quantized
    operand matches a float one of its expressed type.
    """
    if target not in CUSTOM_CALL_CHECKS:
        known = ", ".join(f"@{name}" for name in CUSTOM_CALL_CHECKS)
        raise VerifyException(
            f"custom_call @{target} is not a known check, expected one of {known}"
        )
    if len(operand_types) != 2:
        raise VerifyException(
            f"custom_call @{target} expects 2 operands (actual, expected), got {len(operand_types)}"
        )
    lhs, rhs = operand_types

    def value_type(t: Attribute) -> Attribute:
        q = quantized(t)
        return element_type(t) if q is None else q.expressed_type

    if not (
        isa(lhs, TensorType)
        and isa(rhs, TensorType)
        and lhs.get_shape() == rhs.get_shape()
        and value_type(lhs) == value_type(rhs)
    ):
        raise VerifyException(
            f"custom_call @{target} requires operands of the same shape and element type, got "
            f"{type_text(lhs)} and {type_text(rhs)}"
        )


class CheckBinaryOp(IRDLOperation):
    """`check.<op> %lhs, %rhs attr-dict : T`: compare two tensors of one type."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands = _parse_operand_pair(parser)
        properties: dict[str, Attribute] = {}
        _parse_tolerance(parser, properties)

        def parse_types() -> tuple[list[Attribute], list[Attribute]]:
            value_type = parser.parse_type()
            return [value_type, value_type], []

        return parse_op_tail(cls, parser, operands, properties, parse_types)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.operands)
        print_extra_attributes(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)

    def verify_(self) -> None:
        _verify_same_type(self.lhs.type, self.rhs.type)


class CheckConstOp(IRDLOperation):
    """`check.<op>_const %lhs, dense<...> : T`: compare a tensor with a literal of its type."""

    lhs = operand_def(TensorType)
    value = prop_def(DenseIntOrFPElementsAttr)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        start = parser.pos
        value = parser.parse_attribute()
        if not isa(value, DenseIntOrFPElementsAttr):
            parser.raise_error("expected a dense elements literal", start, parser.pos)
        properties: dict[str, Attribute] = {"value": value}
        _parse_tolerance(parser, properties)
        extra, attributes = split_properties(cls, parse_optional_attributes(parser))
        properties.update(extra)
        (operand,) = parser.resolve_operands([lhs], [value.type], parser.pos)
        return cls.create(
            operands=[operand], properties=properties, attributes=attributes
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_attribute(self.value)
        print_extra_attributes(printer, self, ("value",))

    def verify_(self) -> None:
        _verify_same_type(self.lhs.type, self.value.type)


@irdl_op_definition
class ExpectEqOp(CheckBinaryOp):
    """Exact equality (bitwise for floats, so NaN equals NaN)."""

    name = "check.expect_eq"


@irdl_op_definition
class ExpectEqConstOp(CheckConstOp):
    """Exact equality with a literal."""

    name = "check.expect_eq_const"


@irdl_op_definition
class ExpectAlmostEqOp(CheckBinaryOp):
    """`|lhs - rhs| <= tolerance` element-wise (NaN equals NaN, infinities must match)."""

    name = "check.expect_almost_eq"
    tolerance = opt_prop_def(FloatAttr)


@irdl_op_definition
class ExpectAlmostEqConstOp(CheckConstOp):
    """`|lhs - value| <= tolerance` element-wise, against a literal."""

    name = "check.expect_almost_eq_const"
    tolerance = opt_prop_def(FloatAttr)


@irdl_op_definition
class ExpectCloseOp(IRDLOperation):
    """At most `max_ulp_difference` (default 3) units in the last place apart."""

    name = "check.expect_close"

    actual = operand_def(TensorType)
    expected = operand_def(TensorType)
    min_ulp_difference = opt_prop_def(IntegerAttr)
    max_ulp_difference = opt_prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands = _parse_operand_pair(parser)
        properties: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            properties["max_ulp_difference"] = IntegerAttr(
                parse_keyword_integer(parser, "max_ulp_difference"), i64
            )

        def parse_types() -> tuple[list[Attribute], list[Attribute]]:
            actual_type = parser.parse_type()
            parser.parse_punctuation(",")
            return [actual_type, parser.parse_type()], []

        return parse_op_tail(cls, parser, operands, properties, parse_types)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.operands)
        printer.print_string(f", max_ulp_difference = {self.max_ulps}")
        print_extra_attributes(printer, self, ("max_ulp_difference",))
        printer.print_string(" : ")
        printer.print_list(self.operand_types, printer.print_attribute)

    def verify_(self) -> None:
        _verify_same_type(self.actual.type, self.expected.type)

    @property
    def max_ulps(self) -> int:
        return (
            3 if self.max_ulp_difference is None else self.max_ulp_difference.value.data
        )


Check = Dialect(
    "check",
    [
        ExpectEqOp,
        ExpectEqConstOp,
        ExpectAlmostEqOp,
        ExpectAlmostEqConstOp,
        ExpectCloseOp,
    ],
    [],
)

__all__ = [
    "CUSTOM_CALL_CHECKS",
    "DEFAULT_TOLERANCE",
    "Check",
    "ExpectAlmostEqConstOp",
    "ExpectAlmostEqOp",
    "ExpectCloseOp",
    "ExpectEqConstOp",
    "ExpectEqOp",
    "verify_custom_call_check",
]
