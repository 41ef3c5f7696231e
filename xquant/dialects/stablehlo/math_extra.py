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
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    irdl_custom_directive,
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
    SameOperandsAndResultType,
    parse_optional_function_type,
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

    assembly_format = "$x attr-dict `:` functional-type(operands, results)"

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


@irdl_custom_directive
class ComplexOpType(CustomDirective):
    """`custom<ComplexOpType>`: the result's type `tensor<2xcomplex<f32>>` when the
    parts are both its element's halves, else a function type."""

    lhs_type: TypeDirective
    rhs_type: TypeDirective
    result_type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if (function_type := parse_optional_function_type(parser, 2)) is not None:
            (lhs, rhs) = function_type.inputs.data
            (result,) = function_type.outputs.data
        else:
            start = parser.pos
            result = parser.parse_type()
            element = element_type(result)
            if not isa(result, TensorType) or not isa(element, ComplexType):
                parser.raise_error(
                    "expected tensor with complex element type", start, parser.pos
                )
            lhs = rhs = TensorType(element.element_type, result.get_shape())
        self.lhs_type.set(state, (lhs,))
        self.rhs_type.set(state, (rhs,))
        self.result_type.set(state, (result,))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        (lhs,), (rhs,) = self.lhs_type.get(op), self.rhs_type.get(op)
        (result,) = self.result_type.get(op)
        element = element_type(result)
        if (
            isa(result, TensorType)
            and isa(element, ComplexType)
            and lhs == rhs == TensorType(element.element_type, result.get_shape())
        ):
            printer.print_attribute(result)
            return
        printer.print_function_type((lhs, rhs), (result,))


@irdl_op_definition
class ComplexOp(IRDLOperation):
    """`stablehlo.complex %re, %im : tensor<2xcomplex<f32>>` (`custom<ComplexOpType>`)."""

    name = "stablehlo.complex"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    custom_directives = (ComplexOpType,)
    assembly_format = (
        "operands attr-dict `:` "
        "custom<ComplexOpType>(type($lhs), type($rhs), type($result))"
    )

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


@irdl_custom_directive
class ExponentMantissa(CustomDirective):
    """`custom<ExponentMantissa>`: `e5m10`, the exponent and mantissa bit counts."""

    exponent_bits: AttributeVariable
    mantissa_bits: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        start = parser.pos
        text = parser.parse_identifier()
        match = _FORMAT.fullmatch(text)
        if match is None:
            parser.raise_error(
                "expected exponent mantissa in format e#m#", start, parser.pos
            )
        self.exponent_bits.set(state, IntegerAttr(int(match.group(1)), i32))
        self.mantissa_bits.set(state, IntegerAttr(int(match.group(2)), i32))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        exponent, mantissa = self.exponent_bits.get(op), self.mantissa_bits.get(op)
        assert isa(exponent, IntegerAttr) and isa(mantissa, IntegerAttr)
        printer.print_string(f"e{exponent.value.data}m{mantissa.value.data}")


@irdl_op_definition
class ReducePrecisionOp(IRDLOperation):
    """`stablehlo.reduce_precision %x, format = e5m10 : tensor<6xf32>`: round to a narrower float format."""

    name = "stablehlo.reduce_precision"

    operand = operand_def(TensorType)
    output = result_def(TensorType)
    exponent_bits = prop_def(IntegerAttr[IntegerType])
    mantissa_bits = prop_def(IntegerAttr[IntegerType])
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    custom_directives = (ExponentMantissa, SameOperandsAndResultType)
    assembly_format = (
        "$operand `,` `format` `=` custom<ExponentMantissa>($exponent_bits, $mantissa_bits) "
        "attr-dict `:` custom<SameOperandsAndResultType>(type(operands), type(results))"
    )

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
    RemainderOp,
    Atan2Op,
    TanOp,
    IsFiniteOp,
    RealOp,
    ImagOp,
    ComplexOp,
    ReducePrecisionOp,
]
