"""More element-wise math: remainder, atan2, tan, is_finite, real, imag, complex, reduce_precision.

    %0 = stablehlo.remainder %a, %b : tensor<2xf32>
    %1 = stablehlo.tan %x : tensor<2xf32>
    %2 = stablehlo.is_finite %x : (tensor<2xf32>) -> tensor<2xi1>
    %3 = stablehlo.real %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %4 = stablehlo.complex %re, %im : tensor<2xcomplex<f32>>
    %5 = stablehlo.reduce_precision %x, format = e5m10 : tensor<6xf32>

remainder, atan2, tan and reduce_precision accept per-tensor quantized
tensors (`dequantize_op_quantize`); is_finite accepts a quantized operand.
"""

from __future__ import annotations

import re
from typing import ClassVar

from typing_extensions import Self
from xdsl.dialects.builtin import (
    AnyFloat,
    ComplexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    i32,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xquant.dialects.stablehlo import quantization as q
from xquant.dialects.stablehlo.elementwise import (
    BinaryElementwiseOp,
    ElementKinds,
    UnaryElementwiseOp,
    verify_same_shapes,
)
from xquant.dialects.stablehlo.inferred_types import incompatible_return_type
from xquant.dialects.stablehlo.syntax import (
    ShortTypesFormat,
    parse_functional_op_tail,
    parse_keyword_value,
    parse_same_type_op_tail,
    print_functional_op_tail,
    print_same_type_op_tail,
)
from xquant.dialects.stablehlo.type_utils import (
    is_pred,
    is_quantized,
    shape_of,
    type_text,
)
from xquant.numerics.values import element_type


@irdl_op_definition
class RemainderOp(BinaryElementwiseOp):
    """`lhs - rhs * trunc(lhs / rhs)` (the sign follows the dividend)."""

    name = "stablehlo.remainder"
    ELEMENTS: ClassVar[ElementKinds] = "no_bool"


@irdl_op_definition
class Atan2Op(BinaryElementwiseOp):
    """`atan2(lhs, rhs)`."""

    name = "stablehlo.atan2"
    ELEMENTS: ClassVar[ElementKinds] = "float"


@irdl_op_definition
class TanOp(UnaryElementwiseOp):
    name = "stablehlo.tan"
    ELEMENTS: ClassVar[ElementKinds] = "float"


def _float_or_complex(t: Attribute) -> bool:
    element = element_type(t)
    return isinstance(element, AnyFloat | ComplexType)


@irdl_op_definition
class IsFiniteOp(IRDLOperation):
    """`stablehlo.is_finite %x : (tensor<4xf32>) -> tensor<4xi1>`: neither infinite nor NaN."""

    name = "stablehlo.is_finite"

    x = operand_def(TensorType)
    y = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operand = parser.parse_unresolved_operand()
        return parse_functional_op_tail(cls, parser, [operand], None, 1)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.x)
        print_functional_op_tail(printer, self)

    def verify_(self) -> None:
        verify_same_shapes(self.name, [self.x.type, self.y.type])
        q.verify_quantization_granularity(self.name, [self.x.type], False)
        element = element_type(self.x.type)
        if not (isinstance(element, AnyFloat) or is_quantized(self.x.type)):
            raise VerifyException(
                f"'{self.name}' op operand #0 must be ranked tensor of floating-point or per-tensor integer "
                f"quantized values, but got {type_text(self.x.type)}"
            )
        result = element_type(self.y.type)
        if not is_pred(result):
            raise VerifyException(
                f"'{self.name}' op result #0 must be ranked tensor of pred (AKA boolean or 1-bit integer) values, "
                f"but got {type_text(self.y.type)}"
            )


class _ComplexPartOp(UnaryElementwiseOp):
    """real / imag: a float or complex operand, a float result of the part's type."""

    def verify_(self) -> None:
        operand_type, result_type = self.operand.type, self.result.type
        verify_same_shapes(self.name, [operand_type, result_type])
        if not _float_or_complex(operand_type):
            raise VerifyException(
                f"'{self.name}' op operand #0 must be ranked tensor of floating-point or complex type values, "
                f"but got {type_text(operand_type)}"
            )
        element = element_type(operand_type)
        expected = element.element_type if isa(element, ComplexType) else element
        if element_type(result_type) != expected:
            raise incompatible_return_type(
                self.name, TensorType(expected, shape_of(result_type)), result_type
            )


@irdl_op_definition
class RealOp(_ComplexPartOp):
    """The real part (a float operand is its own real part)."""

    name = "stablehlo.real"


@irdl_op_definition
class ImagOp(_ComplexPartOp):
    """The imaginary part (zero for a float operand)."""

    name = "stablehlo.imag"


@irdl_op_definition
class ComplexOp(ShortTypesFormat):
    """`stablehlo.complex %re, %im : tensor<2xcomplex<f32>>` (`custom<ComplexOpType>`)."""

    name = "stablehlo.complex"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    @classmethod
    def parse_short_types(
        cls, parser: Parser
    ) -> tuple[list[Attribute], list[Attribute]]:
        """`: tensor<2xcomplex<f32>>`: the result's type; the parts are its element's halves."""
        start = parser.pos
        result_type = parser.parse_type()
        element = element_type(result_type)
        if not isa(result_type, TensorType) or not isa(element, ComplexType):
            parser.raise_error(
                "expected tensor with complex element type", start, parser.pos
            )
        part = TensorType(element.element_type, result_type.get_shape())
        return [part, part], [result_type]

    def short_types(self) -> list[Attribute] | None:
        result_type = self.result.type
        element = element_type(result_type)
        if (
            isa(element, ComplexType)
            and self.lhs.type == self.rhs.type
            and self.lhs.type
            == TensorType(element.element_type, result_type.get_shape())
        ):
            return [result_type]
        return None

    def verify_(self) -> None:
        verify_same_shapes(self.name, [self.lhs.type, self.rhs.type, self.result.type])
        if self.lhs.type != self.rhs.type:
            raise VerifyException(
                f"'{self.name}' op requires the same type for all operands"
            )
        part = element_type(self.lhs.type)
        if not isinstance(part, AnyFloat):
            raise VerifyException(
                f"'{self.name}' op operand #0 must be ranked tensor of 32/64-bit float values, "
                f"but got {type_text(self.lhs.type)}"
            )
        element = element_type(self.result.type)
        if not (isa(element, ComplexType) and element.element_type == part):
            inferred = TensorType(ComplexType(part), shape_of(self.result.type))
            raise incompatible_return_type(self.name, inferred, self.result.type)


_FORMAT = re.compile(r"e(\d+)m(\d+)")


@irdl_op_definition
class ReducePrecisionOp(IRDLOperation):
    """`stablehlo.reduce_precision %x, format = e5m10 : tensor<6xf32>`: round to a narrower float format."""

    name = "stablehlo.reduce_precision"

    operand = operand_def(TensorType)
    output = result_def(TensorType)
    exponent_bits = prop_def(IntegerAttr[IntegerType])
    mantissa_bits = prop_def(IntegerAttr[IntegerType])
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parse_keyword_value(parser, "format")
        start = parser.pos
        text = parser.parse_identifier()
        match = _FORMAT.fullmatch(text)
        if match is None:
            parser.raise_error(
                "expected exponent mantissa in format e#m#", start, parser.pos
            )
        bits: dict[str, Attribute] = {
            "exponent_bits": IntegerAttr(int(match.group(1)), i32),
            "mantissa_bits": IntegerAttr(int(match.group(2)), i32),
        }
        return parse_same_type_op_tail(cls, parser, [operand], bits)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(
            f", format = e{self.exponent_bits.value.data}m{self.mantissa_bits.value.data}"
        )
        print_same_type_op_tail(printer, self, ("exponent_bits", "mantissa_bits"))

    def verify_(self) -> None:
        types = [self.operand.type, self.output.type]
        verify_same_shapes(self.name, types)
        q.verify_quantization_granularity(self.name, types, False)
        q.verify_compatible_element_types(self.name, types)
        if self.exponent_bits.value.data < 1:
            raise VerifyException("exponent_bits must be at least 1.")
        if self.mantissa_bits.value.data < 0:
            raise VerifyException("mantissa_bits must be at least 0.")


MATH_EXTRA_OPS: list[type[IRDLOperation]] = [
    RemainderOp, Atan2Op, TanOp, IsFiniteOp, RealOp, ImagOp, ComplexOp, ReducePrecisionOp,
]  # fmt: skip
