"""StableHLO's quantization constraints, in one place, with upstream's message texts.

Each `verify_*` function raises `VerifyException` with the message that
`stablehlo/dialect/TypeInference.cpp` (or Base.cpp) emits for the same
constraint; the ops call them from their `verify_`. Types in messages are
quoted as MLIR diagnostics quote them. The constraint numbers are the spec's
(`add_c5`, `dot_general_c15`, ...).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ShapedType,
    TensorType,
)
from xdsl.ir import Attribute, Operation
from xdsl.traits import OpTrait
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xquant.dialects.quant.types import QuantizedType, UniformQuantizedType
from xquant.dialects.stablehlo.type_utils import (
    compatible_element_types,
    is_promotable,
    is_quantized,
    quantized,
    same_scales_and_zero_points,
    shape_of,
    type_text,
)
from xquant.numerics.float_format import llvm_double
from xquant.numerics.values import element_type

STORAGE_WIDTHS = (2, 4, 8, 16, 32)
"""The storage widths StableHLO's ODS admits for `!quant.uniform` (signed or unsigned)."""


def verify_quantized_tensor_type(op_name: str, label: str, t: Attribute) -> None:
    """The quantized-type and quantized-tensor constraints of the spec's "Types" section.

    `label` names the value in the message (`operand #0`, `result #1`). The
    quant dialect itself is laxer (MLIR wraps zero points and does not know
    the tensor), so StableHLO ops check these on every operand and result:
    a storage width of 2/4/8/16/32 bits, C8 (zero points within
    [storage_min, storage_max]), C12 (`quantization_dimension < rank`) and
    C13 (one scale per slice of the quantized dimension).
    """
    q = quantized(t)
    if q is None:
        return
    prefix = f"'{op_name}' op {label}"
    if q.storage_width not in STORAGE_WIDTHS:
        raise VerifyException(
            f"{prefix} has storage width {q.storage_width}, expected one of "
            f"{', '.join(map(str, STORAGE_WIDTHS))}, in {type_text(t)}"
        )
    for zero_point in q.zero_points.flat:
        if not q.storage_min <= int(zero_point) <= q.storage_max:
            raise VerifyException(
                f"{prefix} has zero point {int(zero_point)} outside the storage range "
                f"[{q.storage_min}, {q.storage_max}] in {type_text(t)}"
            )
    if not isinstance(t, ShapedType):
        return
    shape = tuple(t.get_shape())
    for dim in q.quantized_dimensions:
        if dim >= len(shape):
            raise VerifyException(
                f"{prefix} has quantization dimension {dim}, which is out of range for rank "
                f"{len(shape)}, in {type_text(t)}"
            )
    if not q.is_per_axis:
        return
    dim = q.quantized_dimension
    assert dim is not None
    scale_count = len(q.scales_attr)
    if shape[dim] != DYNAMIC_INDEX and shape[dim] != scale_count:
        raise VerifyException(
            f"{prefix} has {scale_count} scales but its quantization dimension {dim} has size "
            f"{shape[dim]}, in {type_text(t)}"
        )


class QuantizedTensorTypes(OpTrait):
    """Every operand and result type of the op satisfies `verify_quantized_tensor_type`.

    All StableHLO ops carry this trait; it runs before the op's own verifier,
    which can then index shapes by quantization dimension safely.
    """

    def verify(self, op: Operation) -> None:
        for index, t in enumerate(op.operand_types):
            verify_quantized_tensor_type(op.name, f"operand #{index}", t)
        for index, t in enumerate(op.result_types):
            verify_quantized_tensor_type(op.name, f"result #{index}", t)


def verify_quantization_granularity(
    op_name: str, types: Sequence[Attribute], per_axis_allowed: bool
) -> None:
    """Per-axis and sub-channel types only where the spec's Inputs table allows them.

    Upstream rejects them through the ODS operand constraint (`HLO_Tensor` only
    admits per-tensor quantized element types).
    """
    if per_axis_allowed:
        return
    for index, t in enumerate(types):
        if (q := quantized(t)) is not None and not q.is_per_layer:
            raise VerifyException(
                f"'{op_name}' op operand #{index} must be ranked tensor of non-quantized or per-tensor quantized values, "
                f"but got {type_text(t)}"
            )


def verify_compatible_element_types(op_name: str, types: Sequence[Attribute]) -> None:
    """`HLO_CompatibleOperandsAndResultElementType`: quantized types may differ only in scale and zero point."""
    elements = [element_type(t) for t in types]
    first = elements[0]
    for other in elements[1:]:
        if not compatible_element_types(first, other):
            raise VerifyException(
                f"'{op_name}' op requires compatible element types for all operands and results"
            )


def verify_binary_quantization(
    lhs: Attribute, rhs: Attribute, result: Attribute
) -> None:
    """add_c2 .. add_c7 (verifyBinaryOpQuantizationConstraints), for quantized operands."""
    lhs_q, rhs_q, result_q = quantized(lhs), quantized(rhs), quantized(result)
    if lhs_q is None or rhs_q is None or result_q is None:
        raise VerifyException(
            "expects  all operands and results to be either quantized or non-quantized"
        )
    storage = (lhs_q.storage_width, lhs_q.is_signed)
    if storage != (rhs_q.storage_width, rhs_q.is_signed) or storage != (
        result_q.storage_width,
        result_q.is_signed,
    ):
        raise VerifyException(
            "mismatched operands and result quantization storage types"
        )
    expressed = lhs_q.expressed_type
    if expressed != rhs_q.expressed_type or expressed != result_q.expressed_type:
        raise VerifyException(
            "mismatched operands and result quantization expressed types"
        )
    if lhs_q.is_per_axis or rhs_q.is_per_axis:
        if not result_q.is_per_axis:
            raise VerifyException("result is not per_axis quantized but lhs or rhs are")
        if (
            lhs_q.is_per_axis
            and lhs_q.quantized_dimension != result_q.quantized_dimension
        ):
            raise VerifyException(
                "quantization_dimension of lhs and result are not same "
                f"{type_text(lhs_q)} vs {type_text(result_q)}"
            )
        if (
            rhs_q.is_per_axis
            and rhs_q.quantized_dimension != result_q.quantized_dimension
        ):
            raise VerifyException(
                "quantization_dimension of rhs and result are not same "
                f"{type_text(rhs_q)} vs {type_text(result_q)}"
            )
        return
    if result_q.is_per_axis:
        raise VerifyException(
            "result per_axis quantized but none from rhs and lhs are per_axis quantized"
        )


def verify_same_scale_and_zero_point(operand: Attribute, result: Attribute) -> None:
    """reshape_c1, transpose_c1, broadcast_in_dim_c1: `baseline_element_type` equality."""
    operand_q, result_q = quantized(operand), quantized(result)
    if operand_q is None or result_q is None:
        return
    if operand_q.is_per_layer and result_q.is_per_layer and operand_q != result_q:
        raise VerifyException(
            f"expect same quantization scale and zero_point but got {type_text(operand)} vs {type_text(result)}"
        )
    if (
        operand_q.is_per_axis
        and result_q.is_per_axis
        and not same_scales_and_zero_points(operand_q, result_q)
    ):
        raise VerifyException(
            f"expect same quantization scales and zero_points but got {type_text(operand)} vs {type_text(result)}"
        )


def verify_same_element_type(
    op_name: str, operand: Attribute, result: Attribute
) -> None:
    """Element types agree: both quantized (compatibly) or both the same non-quantized type."""
    if is_quantized(operand) == is_quantized(result) and compatible_element_types(
        element_type(operand), element_type(result)
    ):
        return
    raise VerifyException(
        f"'{op_name}' op requires the same element type for all operands and results"
    )


def verify_same_baseline(op_name: str, operand: Attribute, result: Attribute) -> None:
    """Element types agree; quantized ones in scale and zero point too (`baseline_element_type`)."""
    verify_same_element_type(op_name, operand, result)
    verify_same_scale_and_zero_point(operand, result)


def per_axis_dimensions(
    operand: Attribute, result: Attribute
) -> tuple[int, int] | None:
    """The quantized dimensions of operand and result when both are per-axis, else None."""
    operand_q, result_q = quantized(operand), quantized(result)
    if operand_q is None or result_q is None:
        return None
    if not (operand_q.is_per_axis and result_q.is_per_axis):
        return None
    operand_dim, result_dim = (
        operand_q.quantized_dimension,
        result_q.quantized_dimension,
    )
    assert operand_dim is not None
    assert result_dim is not None
    return operand_dim, result_dim


def verify_reshape_quantization(operand: Attribute, result: Attribute) -> None:
    """reshape_c1 and reshape_c3: the quantized axis must survive the reshape."""
    verify_same_scale_and_zero_point(operand, result)
    if (axes := per_axis_dimensions(operand, result)) is None:
        return
    operand_dim, result_dim = axes
    operand_shape, result_shape = shape_of(operand), shape_of(result)
    if operand_shape[operand_dim] != result_shape[result_dim]:
        raise VerifyException(
            "expect same quantization dimension size for operand and result "
            f"{type_text(operand)} and {type_text(result)}"
        )
    operand_prod = math.prod(operand_shape[:operand_dim])
    result_prod = math.prod(result_shape[:result_dim])
    if operand_prod != result_prod:
        raise VerifyException(
            "product of dimensions before quantization dimension must match between operand and result for "
            f"{operand_prod} and {result_prod}"
        )


def verify_transpose_quantization(
    operand: Attribute, result: Attribute, permutation: Sequence[int]
) -> None:
    """transpose_c1 and transpose_c4: the result's axis is the permuted operand axis."""
    verify_same_scale_and_zero_point(operand, result)
    if (axes := per_axis_dimensions(operand, result)) is None:
        return
    operand_dim, result_dim = axes
    if result_dim < len(permutation) and permutation[result_dim] != operand_dim:
        raise VerifyException(
            f"operand quantization_dimension {operand_dim} is not same as "
            f"permutation[{result_dim}] = {permutation[result_dim]}"
        )


def verify_broadcast_quantization(
    operand: Attribute, result: Attribute, dimensions: Sequence[int]
) -> None:
    """broadcast_in_dim_c1 and broadcast_in_dim_c6."""
    operand_q, result_q = quantized(operand), quantized(result)
    if operand_q is None or result_q is None:
        return
    if not (operand_q.is_per_axis and result_q.is_per_axis):
        verify_same_scale_and_zero_point(operand, result)
        return
    operand_dim, result_dim = (
        operand_q.quantized_dimension,
        result_q.quantized_dimension,
    )
    assert operand_dim is not None
    assert result_dim is not None
    if operand_dim < len(dimensions) and result_dim != dimensions[operand_dim]:
        raise VerifyException(
            f"result quantization_dimension {result_dim} not same as "
            f"broadcast_dimensions[{operand_dim}] = {dimensions[operand_dim]}"
        )
    if shape_of(operand)[operand_dim] != 1:
        verify_same_scale_and_zero_point(operand, result)
        return
    operand_scale, operand_zp = (
        float(operand_q.scales[0]),
        int(operand_q.zero_points[0]),
    )
    for i, (scale, zp) in enumerate(
        zip(result_q.scales.tolist(), result_q.zero_points.tolist(), strict=True)
    ):
        if scale != operand_scale:
            raise VerifyException(
                f"mismatch result scale {i} ({llvm_double(scale)}) and operand scale 0 ({llvm_double(operand_scale)})"
            )
        if zp != operand_zp:
            raise VerifyException(
                f"mismatch result zero_point {i} ({zp}) and operand zero_point 0 ({operand_zp})"
            )


def verify_dot_like_quantization(
    lhs: Attribute, rhs: Attribute, result: Attribute
) -> None:
    """convolution_c28/c31-c34 and dot_general_c14/c17-c20 (shared by both ops)."""
    lhs_e, rhs_e, result_e = element_type(lhs), element_type(rhs), element_type(result)
    if not isinstance(rhs_e, QuantizedType) or isinstance(
        lhs_e, QuantizedType
    ) != isinstance(result_e, QuantizedType):
        raise VerifyException(
            "rhs should be quantized for quantized operations and is_quantized(lhs)=is_quantized(result) should hold"
        )
    assert isinstance(rhs_e, UniformQuantizedType)
    if not isinstance(lhs_e, UniformQuantizedType):
        if lhs_e != rhs_e.expressed_type or lhs_e != result_e:
            raise VerifyException(
                "mismatched rhs quantization expressed type and lhs and result element type"
            )
        return
    assert isinstance(result_e, UniformQuantizedType)
    if (lhs_e.storage_width, lhs_e.is_signed) != (
        rhs_e.storage_width,
        rhs_e.is_signed,
    ):
        raise VerifyException("mismatched lhs and rhs quantization storage types")
    if (
        lhs_e.expressed_type != rhs_e.expressed_type
        or lhs_e.expressed_type != result_e.expressed_type
    ):
        raise VerifyException(
            "mismatched lhs, rhs and result quantization expressed types"
        )
    if rhs_e.is_per_layer and not result_e.is_per_layer:
        raise VerifyException("mismatched rhs and result quantization granularity")


def verify_rhs_zero_points(rhs: Attribute) -> None:
    """dot_general_c15: a quantized rhs has zero points 0 (symmetric weights)."""
    rhs_q = quantized(rhs)
    if rhs_q is None:
        return
    if rhs_q.is_per_layer and rhs_q.zero_point != 0:
        raise VerifyException("Zero point of rhs should be 0")
    if not rhs_q.is_per_layer and any(int(z) != 0 for z in rhs_q.zero_points.flat):
        raise VerifyException("Zero points of rhs should be 0")


def verify_per_tensor_lhs(op_name: str, lhs: Attribute) -> None:
    """dot_general/convolution: a quantized lhs is per-tensor (ODS operand constraint)."""
    if (q := quantized(lhs)) is not None and not q.is_per_layer:
        raise VerifyException(
            f"'{op_name}' op operand #0 must be ranked tensor of non-quantized or per-tensor quantized values, "
            f"but got {type_text(lhs)}"
        )


def verify_reducer_types(
    input_types: Sequence[Attribute],
    init_types: Sequence[Attribute],
    block_arg_types: Sequence[Attribute],
    block_result_types: Sequence[Attribute],
) -> None:
    """reduce_c6 / reduce_window_c13 / select_and_scatter_c10: the body may accumulate in a wider type.

    The body takes (accumulators..., inputs...) of rank-0 tensors, returns
    accumulators, each promotable from the matching input and init value.
    """
    count = len(input_types)
    if len(block_arg_types) != 2 * count:
        raise VerifyException(
            f"Reduction-region must take {2 * count} parameters, but takes {len(block_arg_types)} parameter(s)"
        )
    if len(block_result_types) != count:
        raise VerifyException(
            f"Reduction-region here must produce {count} tensors, but produces {len(block_result_types)} instead"
        )
    for index in range(count):
        accumulator, init = block_result_types[index], init_types[index]
        if block_arg_types[index] != accumulator:
            raise VerifyException(
                f"The type of reduction-region's parameter at index {index} is different than the corresponding "
                f"result type: {type_text(block_arg_types[index])} vs {type_text(accumulator)}"
            )
        if block_arg_types[count + index] != accumulator:
            raise VerifyException(
                f"The type of reduction-region's parameter at index {count + index} is different than the "
                f"corresponding result type: {type_text(block_arg_types[count + index])} vs {type_text(accumulator)}"
            )
        if not isa(init, TensorType) or init.get_shape():
            raise VerifyException(
                f"The shape of reduction-region's result type at index {index} differs from the op's corresponding "
                f"init-value type: {type_text(accumulator)} vs {type_text(init)}"
            )
        if not is_promotable(init, accumulator):
            raise VerifyException(
                f"The element-type of reduction-region's result type at index {index} is expected to be promotable "
                f"from the op's corresponding init-value element-type: {type_text(accumulator)} vs {type_text(init)}"
            )
        if not is_promotable(input_types[index], block_arg_types[count + index]):
            raise VerifyException(
                f"The element-type of reduction-region's argument at index {count + index} is expected to be "
                f"promotable from {type_text(element_type(input_types[index]))}, but got "
                f"{type_text(element_type(block_arg_types[count + index]))}"
            )
