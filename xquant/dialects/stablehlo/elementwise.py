"""StableHLO's element-wise ops: unary and binary arithmetic, clamp, compare, select, convert.

Pretty syntax (`custom<SameOperandsAndResultType>`):

    %0 = stablehlo.add %a, %b : tensor<4xf32>
    %1 = stablehlo.add %a, %b : (tensor<4x!quant.uniform<i8:f32, 0.1>>, ...) -> tensor<4x!quant.uniform<...>>
    %2 = stablehlo.negate %x : tensor<4xf32>

On quantized operands every op here means dequantize -> float op -> quantize
into the result type (the spec's `dequantize_op_quantize`), so operands and
result may have different scales and zero points. Only `add` accepts per-axis
types (add_c5..c7); the others are per-tensor only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xquant.dialects.stablehlo import quantization as q
from xquant.dialects.stablehlo.attributes import (
    ComparisonDirection,
    ComparisonDirectionAttr,
    ComparisonType,
    ComparisonTypeAttr,
)
from xquant.dialects.stablehlo.syntax import (
    FUNCTIONAL_TYPE_FORMAT,
    SAME_TYPE_FORMAT,
    SameOperandsAndResultType,
    SelectOpType,
)
from xquant.dialects.stablehlo.type_utils import (
    bit_width,
    compatible_element_types,
    compatible_shapes,
    is_pred,
    is_quantized,
    quantized,
    type_text,
)
from xquant.numerics.values import element_type


def verify_same_shapes(
    op_name: str, types: Sequence[Attribute], of: str = "operands and results"
) -> list[tuple[int, ...]]:
    """SameOperandsAndResultShape (SameOperandsShape with `of="operands"`); the tensors' shapes."""
    shapes = [tuple(t.get_shape()) for t in types if isinstance(t, TensorType)]
    if any(not compatible_shapes(shapes[0], s) for s in shapes[1:]):
        raise VerifyException(f"'{op_name}' op requires the same shape for all {of}")
    return shapes


ElementKinds = Literal["any", "no_bool", "float", "integer"]
ELEMENT_KIND_TEXT: dict[str, str] = {
    "no_bool": "integer (not i1), floating-point, complex or per-tensor integer quantized",
    "float": "floating-point, complex or per-tensor integer quantized",
    "integer": "pred (AKA boolean or 1-bit integer) or 2/4/8/16/32/64-bit integer",
}


def _admits(kinds: ElementKinds, element: Attribute) -> bool:
    if kinds == "float":
        return not isinstance(element, IntegerType)
    if kinds == "integer":
        return isinstance(element, IntegerType)
    return not is_pred(element)


class ElementwiseOp(IRDLOperation):
    """Base of the element-wise ops: shared syntax and the quantization checks.

    `PER_AXIS_ALLOWED` is true only for ops whose spec Inputs table admits
    per-axis quantized tensors.
    """

    custom_directives = (SameOperandsAndResultType,)
    assembly_format = SAME_TYPE_FORMAT

    PER_AXIS_ALLOWED: ClassVar[bool] = False
    # The element kinds the op's ODS type constraint admits besides quantized ones.
    ELEMENTS: ClassVar[ElementKinds] = "any"

    def verify_(self) -> None:
        types = [*self.operand_types, *self.result_types]
        verify_same_shapes(self.name, types)
        q.verify_quantization_granularity(self.name, types, self.PER_AXIS_ALLOWED)
        if not any(is_quantized(t) for t in types):
            self.verify_element_types()
            return
        self.verify_quantized()

    def verify_element_types(self) -> None:
        """Non-quantized operands and result share one element type of an admitted kind."""
        types = [*self.operand_types, *self.result_types]
        elements = {element_type(t) for t in types}
        if len(elements) > 1:
            raise VerifyException(
                "requires compatible element types for all operands and results"
            )
        if self.ELEMENTS == "any" or _admits(self.ELEMENTS, element_type(types[0])):
            return
        raise VerifyException(
            f"'{self.name}' op operand #0 must be ranked tensor of {ELEMENT_KIND_TEXT[self.ELEMENTS]} values, but got {type_text(types[0])}"
        )

    def verify_quantized(self) -> None:
        q.verify_compatible_element_types(
            self.name, [*self.operand_types, *self.result_types]
        )


class UnaryElementwiseOp(ElementwiseOp):
    """`stablehlo.<op> %x : T`."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    def __init__(self, operand: SSAValue, result_type: Attribute | None = None):
        super().__init__(
            operands=[operand],
            result_types=[operand.type if result_type is None else result_type],
        )


class BinaryElementwiseOp(ElementwiseOp):
    """`stablehlo.<op> %lhs, %rhs : T`."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    def __init__(
        self, lhs: SSAValue, rhs: SSAValue, result_type: Attribute | None = None
    ):
        super().__init__(
            operands=[lhs, rhs],
            result_types=[lhs.type if result_type is None else result_type],
        )


@irdl_op_definition
class AddOp(BinaryElementwiseOp):
    """`lhs + rhs`. The one arithmetic op that also takes per-axis quantized tensors (add_c2..c7)."""

    name = "stablehlo.add"
    PER_AXIS_ALLOWED: ClassVar[bool] = True

    def verify_quantized(self) -> None:
        q.verify_binary_quantization(self.lhs.type, self.rhs.type, self.result.type)


@irdl_op_definition
class SubtractOp(BinaryElementwiseOp):
    """`lhs - rhs`."""

    name = "stablehlo.subtract"
    ELEMENTS: ClassVar[ElementKinds] = "no_bool"


@irdl_op_definition
class MultiplyOp(BinaryElementwiseOp):
    """`lhs * rhs` (logical and for booleans)."""

    name = "stablehlo.multiply"


@irdl_op_definition
class DivideOp(BinaryElementwiseOp):
    """`lhs / rhs` (integer division truncates toward zero)."""

    name = "stablehlo.divide"
    ELEMENTS: ClassVar[ElementKinds] = "no_bool"


@irdl_op_definition
class MaximumOp(BinaryElementwiseOp):
    """Element-wise maximum (NaN propagates)."""

    name = "stablehlo.maximum"


@irdl_op_definition
class MinimumOp(BinaryElementwiseOp):
    """Element-wise minimum (NaN propagates)."""

    name = "stablehlo.minimum"


@irdl_op_definition
class PowerOp(BinaryElementwiseOp):
    """`lhs ** rhs`."""

    name = "stablehlo.power"
    ELEMENTS: ClassVar[ElementKinds] = "no_bool"


@irdl_op_definition
class NegateOp(UnaryElementwiseOp):
    """`-x`."""

    name = "stablehlo.negate"
    ELEMENTS: ClassVar[ElementKinds] = "no_bool"


@irdl_op_definition
class AbsOp(UnaryElementwiseOp):
    """`|x|`."""

    name = "stablehlo.abs"
    ELEMENTS: ClassVar[ElementKinds] = "no_bool"


@irdl_op_definition
class SignOp(UnaryElementwiseOp):
    """-1, 0 or 1 (NaN stays NaN, signed zeros keep their sign)."""

    name = "stablehlo.sign"
    ELEMENTS: ClassVar[ElementKinds] = "no_bool"


@irdl_op_definition
class CeilOp(UnaryElementwiseOp):
    name = "stablehlo.ceil"
    ELEMENTS: ClassVar[ElementKinds] = "float"


@irdl_op_definition
class FloorOp(UnaryElementwiseOp):
    name = "stablehlo.floor"
    ELEMENTS: ClassVar[ElementKinds] = "float"


@irdl_op_definition
class RoundNearestAfzOp(UnaryElementwiseOp):
    """Round to nearest, ties away from zero."""

    name = "stablehlo.round_nearest_afz"
    ELEMENTS: ClassVar[ElementKinds] = "float"


@irdl_op_definition
class RoundNearestEvenOp(UnaryElementwiseOp):
    """Round to nearest, ties to even."""

    name = "stablehlo.round_nearest_even"
    ELEMENTS: ClassVar[ElementKinds] = "float"


@irdl_op_definition
class SqrtOp(UnaryElementwiseOp):
    name = "stablehlo.sqrt"
    ELEMENTS: ClassVar[ElementKinds] = "float"


@irdl_op_definition
class RsqrtOp(UnaryElementwiseOp):
    name = "stablehlo.rsqrt"
    ELEMENTS: ClassVar[ElementKinds] = "float"


@irdl_op_definition
class CbrtOp(UnaryElementwiseOp):
    name = "stablehlo.cbrt"
    ELEMENTS: ClassVar[ElementKinds] = "float"


@irdl_op_definition
class ExpOp(UnaryElementwiseOp):
    name = "stablehlo.exponential"
    ELEMENTS: ClassVar[ElementKinds] = "float"


@irdl_op_definition
class Expm1Op(UnaryElementwiseOp):
    name = "stablehlo.exponential_minus_one"
    ELEMENTS: ClassVar[ElementKinds] = "float"


@irdl_op_definition
class LogOp(UnaryElementwiseOp):
    name = "stablehlo.log"
    ELEMENTS: ClassVar[ElementKinds] = "float"


@irdl_op_definition
class Log1pOp(UnaryElementwiseOp):
    name = "stablehlo.log_plus_one"
    ELEMENTS: ClassVar[ElementKinds] = "float"


@irdl_op_definition
class LogisticOp(UnaryElementwiseOp):
    """`1 / (1 + exp(-x))`."""

    name = "stablehlo.logistic"
    ELEMENTS: ClassVar[ElementKinds] = "float"


@irdl_op_definition
class TanhOp(UnaryElementwiseOp):
    name = "stablehlo.tanh"
    ELEMENTS: ClassVar[ElementKinds] = "float"


@irdl_op_definition
class SineOp(UnaryElementwiseOp):
    name = "stablehlo.sine"
    ELEMENTS: ClassVar[ElementKinds] = "float"


@irdl_op_definition
class CosineOp(UnaryElementwiseOp):
    name = "stablehlo.cosine"
    ELEMENTS: ClassVar[ElementKinds] = "float"


@irdl_op_definition
class ClampOp(ElementwiseOp):
    """`clamp(min, operand, max)`; min and max are scalars (rank 0) or shaped like the operand."""

    name = "stablehlo.clamp"

    min = operand_def(TensorType)
    operand = operand_def(TensorType)
    max = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    def verify_(self) -> None:
        operand_type = self.operand.type
        assert isinstance(operand_type, TensorType)
        for name, bound in (("min", self.min.type), ("max", self.max.type)):
            assert isinstance(bound, TensorType)
            if bound.get_shape() and not compatible_shapes(
                bound.get_shape(), operand_type.get_shape()
            ):
                raise VerifyException(
                    f"{name} shape [{', '.join(map(str, bound.get_shape()))}] is not scalar and does not match "
                    f"operand shape [{', '.join(map(str, operand_type.get_shape()))}]"
                )
        types = [*self.operand_types, *self.result_types]
        q.verify_quantization_granularity(self.name, types, False)
        if any(is_quantized(t) for t in types):
            q.verify_compatible_element_types(self.name, types)
        else:
            self.verify_element_types()


@irdl_op_definition
class CompareOp(IRDLOperation):
    """`stablehlo.compare  LT, %a, %b,  FLOAT : (T, T) -> tensor<...xi1>`.

    Quantized operands compare by their dequantized values (`dequantize_compare`).
    """

    name = "stablehlo.compare"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    comparison_direction = prop_def(ComparisonDirectionAttr)
    compare_type = opt_prop_def(ComparisonTypeAttr)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    assembly_format = (
        "` ` $comparison_direction `,` $lhs `,` $rhs (`,` ` ` $compare_type^)? "
        "attr-dict `:` functional-type(operands, results)"
    )

    def verify_(self) -> None:
        verify_same_shapes(self.name, [self.lhs.type, self.rhs.type, self.result.type])
        q.verify_quantization_granularity(
            self.name, [self.lhs.type, self.rhs.type], False
        )
        result_element = element_type(self.result.type)
        if not is_pred(result_element):
            raise VerifyException(
                f"result #0 must be ranked tensor of bool values, but got {type_text(self.result.type)}"
            )
        if not compatible_element_types(
            element_type(self.lhs.type), element_type(self.rhs.type)
        ):
            raise VerifyException(
                f"'{self.name}' op requires compatible element types for all operands"
            )
        self.verify_compare_type()

    def verify_compare_type(self) -> None:
        """compare_c3: `compare_type` matches the kind of the operands' element type.

        Quantized operands compare as their expressed floats. NOTYPE (absent)
        is always allowed, and so is FLOAT/TOTALORDER on integers: upstream
        does not verify c3 and its quant-to-tosa-rescale lowering keeps a
        quantized compare's TOTALORDER on the i32 values it compares.
        """
        if self.compare_type is None:
            return
        compare_type = self.compare_type.data
        element = element_type(self.lhs.type)
        if (qtype := quantized(self.lhs.type)) is not None:
            element = qtype.expressed_type
        if isa(element, IntegerType):
            unsigned = (
                element.width.data == 1
                or element.signedness.data == Signedness.UNSIGNED
            )
            expected = ComparisonType.UNSIGNED if unsigned else ComparisonType.SIGNED
            lax = (
                ComparisonType.NOTYPE,
                ComparisonType.FLOAT,
                ComparisonType.TOTALORDER,
            )
            if compare_type == expected or compare_type in lax:
                return
            allowed = [expected]
        elif isinstance(element, AnyFloat):
            allowed = [ComparisonType.FLOAT, ComparisonType.TOTALORDER]
        else:
            allowed = [ComparisonType.FLOAT]
        if compare_type not in (ComparisonType.NOTYPE, *allowed):
            raise VerifyException(
                f"compare_type {compare_type.value} is not valid for element type {type_text(element)}, "
                f"expected {' or '.join(a.value for a in allowed)}"
            )


@irdl_op_definition
class SelectOp(IRDLOperation):
    """`stablehlo.select %pred, %on_true, %on_false : tensor<2xi1>, tensor<2xf32>`.

    `pred` is a rank-0 or same-shaped i1 tensor. On quantized values it is
    `dequantize_select_quantize`.
    """

    name = "stablehlo.select"

    pred = operand_def(TensorType)
    on_true = operand_def(TensorType)
    on_false = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    custom_directives = (SelectOpType,)
    assembly_format = (
        "operands attr-dict `:` "
        "custom<SelectOpType>(type($pred), type($on_true), type($on_false), type($result))"
    )

    def verify_(self) -> None:
        pred_type = self.pred.type
        assert isa(pred_type, TensorType)
        pred_element = pred_type.get_element_type()
        if not is_pred(pred_element):
            raise VerifyException(
                f"operand #0 must be ranked tensor of bool values, but got {type_text(pred_type)}"
            )
        value_types = [self.on_true.type, self.on_false.type, self.result.type]
        verify_same_shapes(self.name, value_types)
        if pred_type.get_shape():
            verify_same_shapes(self.name, [pred_type, *value_types])
        q.verify_quantization_granularity(self.name, value_types, False)
        if not all(
            compatible_element_types(element_type(value_types[0]), element_type(t))
            for t in value_types
        ):
            raise VerifyException(
                "requires compatible element types for all operands and results"
            )


@irdl_op_definition
class ConvertOp(UnaryElementwiseOp):
    """Element type conversion between non-quantized types (use uniform_quantize for quantized ones)."""

    name = "stablehlo.convert"

    def verify_(self) -> None:
        verify_same_shapes(self.name, [self.operand.type, self.result.type])
        for index, t in enumerate((self.operand.type, self.result.type)):
            if is_quantized(t):
                kind = "operand" if index == 0 else "result"
                raise VerifyException(
                    f"'{self.name}' op {kind} #0 must be ranked tensor of non-quantized values, but got {type_text(t)}"
                )


@irdl_op_definition
class BitcastConvertOp(UnaryElementwiseOp):
    """Reinterpret the bits; a quantized tensor's bits are its storage integers."""

    name = "stablehlo.bitcast_convert"
    PER_AXIS_ALLOWED: ClassVar[bool] = True

    # StableHLO's format is `functional-type(operands, results)`: `(T) -> T`
    # even when the two types are the same.
    assembly_format = FUNCTIONAL_TYPE_FORMAT

    def verify_(self) -> None:
        operand_type, result_type = self.operand.type, self.result.type
        assert isa(operand_type, TensorType)
        assert isa(result_type, TensorType)
        operand_bits = bit_width(element_type(operand_type))
        result_bits = bit_width(element_type(result_type))
        operand_shape, result_shape = (
            list(operand_type.get_shape()),
            list(result_type.get_shape()),
        )
        if operand_bits == result_bits:
            if operand_shape != result_shape:
                raise VerifyException(
                    "operand and result shapes must match except for the innermost dimension of the shape with the "
                    "smaller element type"
                )
            return
        # bitcast_convert_c1: the narrower side has one more, innermost, dimension of size ratio.
        smaller, larger = (
            (result_shape, operand_shape)
            if result_bits < operand_bits
            else (operand_shape, result_shape)
        )
        smaller_bits, larger_bits = sorted((operand_bits, result_bits))
        if len(smaller) != len(larger) + 1:
            raise VerifyException(
                f"rank of smaller element type ({len(smaller)}) should be 1 more than rank of larger element type "
                f"({len(larger)}), but {len(smaller)} != {len(larger)} + 1."
            )
        if smaller[:-1] != larger:
            raise VerifyException(
                "operand and result shapes must match except for the innermost dimension of the shape with the "
                f"smaller element type. Got: {type_text(operand_type)} and {type_text(result_type)}."
            )
        if smaller[-1] != DYNAMIC_INDEX and smaller_bits * smaller[-1] != larger_bits:
            raise VerifyException(
                f"requires compatible bit widths. Got: {type_text(operand_type)} and {type_text(result_type)}, "
                f"but {smaller_bits} * {smaller[-1]} != {larger_bits}."
            )


UNARY_OPS: list[type[UnaryElementwiseOp]] = [
    NegateOp,
    AbsOp,
    SignOp,
    CeilOp,
    FloorOp,
    RoundNearestAfzOp,
    RoundNearestEvenOp,
    SqrtOp,
    RsqrtOp,
    CbrtOp,
    ExpOp,
    Expm1Op,
    LogOp,
    Log1pOp,
    LogisticOp,
    TanhOp,
    SineOp,
    CosineOp,
]
BINARY_OPS: list[type[BinaryElementwiseOp]] = [
    AddOp,
    SubtractOp,
    MultiplyOp,
    DivideOp,
    MaximumOp,
    MinimumOp,
    PowerOp,
]

ELEMENTWISE_OPS: list[type[IRDLOperation]] = [
    *UNARY_OPS,
    *BINARY_OPS,
    ClampOp,
    CompareOp,
    SelectOp,
    ConvertOp,
    BitcastConvertOp,
]

__all__ = [
    "BINARY_OPS",
    "ELEMENTWISE_OPS",
    "UNARY_OPS",
    "AbsOp",
    "AddOp",
    "BinaryElementwiseOp",
    "BitcastConvertOp",
    "CbrtOp",
    "CeilOp",
    "ClampOp",
    "CompareOp",
    "ComparisonDirection",
    "ConvertOp",
    "CosineOp",
    "DivideOp",
    "ElementwiseOp",
    "ExpOp",
    "Expm1Op",
    "FloorOp",
    "Log1pOp",
    "LogOp",
    "LogisticOp",
    "MaximumOp",
    "MinimumOp",
    "MultiplyOp",
    "NegateOp",
    "PowerOp",
    "RoundNearestAfzOp",
    "RoundNearestEvenOp",
    "RsqrtOp",
    "SelectOp",
    "SignOp",
    "SineOp",
    "SqrtOp",
    "SubtractOp",
    "TanhOp",
    "UnaryElementwiseOp",
]
