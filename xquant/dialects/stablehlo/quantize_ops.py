"""`stablehlo.uniform_quantize` and `stablehlo.uniform_dequantize`.

    %q = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.1:-30>>
    %r = stablehlo.uniform_quantize %q : (tensor<2x!quant.uniform<...>>) -> tensor<2x!quant.uniform<...>>
    %f = stablehlo.uniform_dequantize %q : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>) -> tensor<2xf32>

Float -> quantized is `quantize`; quantized -> quantized is a requantize
(`quantize(dequantize(x))`); both per-tensor and per-axis. The numbers are
`xquant.numerics.uniform`'s.
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloat, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xquant.dialects.stablehlo import quantization as q
from xquant.dialects.stablehlo.inferred_types import incompatible_return_type
from xquant.dialects.stablehlo.syntax import (
    SAME_TYPE_FORMAT,
    SameOperandsAndResultType,
)
from xquant.dialects.stablehlo.type_utils import quantized, type_text
from xquant.numerics.values import element_type


class QuantizationConversionOp(IRDLOperation):
    """Shared syntax: `$operand attr-dict : custom<SameOperandsAndResultType>`."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    def __init__(self, operand: SSAValue, result_type: Attribute):
        super().__init__(operands=[operand], result_types=[result_type])

    custom_directives = (SameOperandsAndResultType,)
    assembly_format = SAME_TYPE_FORMAT

    def verify_shapes(self) -> None:
        operand_type, result_type = self.operand.type, self.result.type
        assert isinstance(operand_type, TensorType)
        assert isinstance(result_type, TensorType)
        if operand_type.get_shape() != result_type.get_shape():
            raise VerifyException(
                "requires the same shape for all operands and results"
            )


@irdl_op_definition
class UniformQuantizeOp(QuantizationConversionOp):
    """Quantize floats, or requantize quantized values, into the result's `!quant.uniform` type."""

    name = "stablehlo.uniform_quantize"

    def verify_(self) -> None:
        self.verify_shapes()
        operand_element = element_type(self.operand.type)
        result_q = quantized(self.result.type)
        if result_q is None:
            raise VerifyException(
                f"'{self.name}' op result #0 must be ranked tensor of quantized values, but got {type_text(self.result.type)}"
            )
        operand_q = quantized(self.operand.type)
        if operand_q is None and not isinstance(operand_element, AnyFloat):
            raise VerifyException(
                f"'{self.name}' op operand #0 must be ranked tensor of floating-point or quantized values, "
                f"but got {type_text(self.operand.type)}"
            )
        expected = operand_element if operand_q is None else operand_q.expressed_type
        if result_q.expressed_type != expected:
            raise VerifyException(
                f"Expressed type of result expected to be {type_text(expected)}, "
                f"but got {type_text(result_q.expressed_type)}"
            )


@irdl_op_definition
class UniformDequantizeOp(QuantizationConversionOp):
    """Dequantize into the operand's expressed type: `(q - zero_point) * scale`."""

    name = "stablehlo.uniform_dequantize"

    def verify_(self) -> None:
        self.verify_shapes()
        operand_q = quantized(self.operand.type)
        if operand_q is None:
            raise VerifyException(
                f"'{self.name}' op operand #0 must be ranked tensor of quantized values, but got {type_text(self.operand.type)}"
            )
        result_type = self.result.type
        assert isinstance(result_type, TensorType)
        if result_type.get_element_type() != operand_q.expressed_type:
            inferred = TensorType(operand_q.expressed_type, result_type.get_shape())
            raise incompatible_return_type(self.name, inferred, result_type)


QUANTIZE_OPS: list[type[IRDLOperation]] = [UniformQuantizeOp, UniformDequantizeOp]
