"""Quantized `dot` / `dot_general` / `convolution`: upstream's hybrid and
all-quantized forms (`contraction_upstream`), or with `exact` the contract's
integer form (exact accumulation, one f64 rescale, clamp, round half to even),
else dequantize -> float op -> quantize."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import IntegerType, TensorType, f64
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.hints import isa

from xquant.dialects import chlo
from xquant.dialects import stablehlo as shlo
from xquant.dialects.quant.types import UniformQuantizedType
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo.attributes import DotDimensionNumbersAttr
from xquant.dialects.stablehlo.misc import OptimizationBarrierOp
from xquant.dialects.stablehlo.type_utils import is_quantized, quantized
from xquant.numerics import uniform
from xquant.numerics.values import with_element
from xquant.transforms.stablehlo_legalize_quant_to_math.common import (
    op_types,
    replace_op,
    require_static,
    to_storage,
    touches_quantized,
)
from xquant.transforms.stablehlo_legalize_quant_to_math.contraction_upstream import (
    convolution_dims,
    dot_general_dims,
    upstream_dot_like,
)
from xquant.transforms.stablehlo_legalize_quant_to_math.elementwise import (
    dequantize_op_quantize,
)
from xquant.transforms.utils.stablehlo_emitters import (
    Channels,
    HloBuilder,
    emit_broadcast_binary,
    emit_convert,
    emit_parameters,
    is_f32,
    shape_of,
    storage_type,
)

_I32_LIMIT = 2**31


def _storage_bound(q: UniformQuantizedType) -> int:
    """The largest `|q|` of a storage value."""
    return max(abs(q.storage_min), abs(q.storage_max))


def _max_zero_point(q: UniformQuantizedType) -> int:
    """The largest `|z|` over the channels."""
    return int(np.max(np.abs(Channels.of(q).zero_points)))


def _centred_bound(q: UniformQuantizedType) -> int:
    """The largest `|q - z|` over the storage range and the channels."""
    zero_points = Channels.of(q).zero_points
    return int(
        np.max(
            np.maximum(
                np.abs(q.storage_min - zero_points), np.abs(q.storage_max - zero_points)
            )
        )
    )


def _contraction_size(dims: Sequence[int]) -> int | None:
    """The number of products summed per result element; None when a dimension is dynamic."""
    if any(d < 0 for d in dims):
        return None
    return int(np.prod(dims, dtype=object)) if dims else 1


def _accumulator_type(
    lhs_q: UniformQuantizedType,
    rhs_q: UniformQuantizedType,
    contraction: int | None,
    lhs_bound: int,
    rhs_bound: int,
) -> IntegerType:
    """i32 when every partial sum provably fits (`contraction * lhs_bound * rhs_bound < 2^31`), else i64.

    `lhs_bound` / `rhs_bound` bound `|x|` of each operand factor as the
    pattern accumulates it (including its zero-point correction terms).
    Storage wider than 8 bits always accumulates in i64; so does a dynamic
    contraction size (None).
    """
    if max(lhs_q.storage_width, rhs_q.storage_width) > 8 or contraction is None:
        return IntegerType(64)
    bound = contraction * lhs_bound * rhs_bound
    return IntegerType(32) if bound < _I32_LIMIT else IntegerType(64)


def _rescale(
    b: HloBuilder,
    acc: SSAValue,
    multiplier: np.ndarray,
    multiplier_axis: int | None,
    result_q: UniformQuantizedType,
) -> SSAValue:
    """`round_half_even(clamp(acc * multiplier + z_result))` into the result's storage (in f64)."""
    shape = shape_of(acc.type)
    value = b.convert(acc, f64)
    if not bool(np.all(multiplier == 1.0)):
        value = b.binary(
            ew.MultiplyOp, value, b.parameter(multiplier, f64, shape, multiplier_axis)
        )
    result_ch = Channels.of(result_q)
    if bool(np.any(result_ch.zero_points != 0)):
        zero_points = b.parameter(
            result_ch.zero_points.astype(np.float64), f64, shape, result_ch.axis
        )
        value = b.binary(ew.AddOp, value, zero_points)
    value = b.clamp_to(value, float(result_q.storage_min), float(result_q.storage_max))
    value = b.unary(ew.RoundNearestEvenOp, value)
    return b.convert(value, storage_type(result_q))


def _operand_sums(
    b: HloBuilder,
    stored: SSAValue,
    wide: IntegerType,
    batching: Sequence[int],
    contracting: Sequence[int],
    result_shape: Sequence[int],
    result_dims: Sequence[int],
) -> SSAValue:
    """Sum of an operand over its contracting dims, laid out over the result shape."""
    summed = b.reduce_sum(b.convert(stored, wide), contracting)
    rank = len(shape_of(stored.type))
    remaining = [d for d in range(rank) if d not in contracting]
    order = [*batching, *(d for d in remaining if d not in batching)]
    permutation = [remaining.index(d) for d in order]
    if permutation != sorted(permutation):
        summed_shape = shape_of(summed.type)
        summed = b.add(
            shlo.TransposeOp(
                summed,
                permutation,
                TensorType(wide, [summed_shape[p] for p in permutation]),
            )
        )
    return b.add(
        shlo.BroadcastInDimOp(summed, list(result_dims), TensorType(wide, result_shape))
    )


def _integer_dot_general(b: HloBuilder, op: shlo.DotGeneralOp) -> SSAValue | None:
    lhs_q, rhs_q, result_q = (quantized(t) for t in op_types(op))
    if lhs_q is None or rhs_q is None or result_q is None or not lhs_q.is_per_layer:
        return None
    numbers = op.dot_dimension_numbers
    lhs_rank, rhs_rank = len(shape_of(op.lhs.type)), len(shape_of(op.rhs.type))
    result_shape = shape_of(op.result.type)
    rhs_axis = rhs_q.quantized_dimension
    result_axis = (
        None
        if rhs_axis is None
        else numbers.rhs_dimension_in_result(rhs_axis, lhs_rank, rhs_rank)
    )
    multiplier = uniform.contraction_rescale(lhs_q, rhs_q, result_q, result_axis)
    if multiplier is None:
        return None
    lhs_shape = shape_of(op.lhs.type)
    contraction = _contraction_size([lhs_shape[d] for d in numbers.lhs_contracting])
    # What the pass accumulates: the dot of the raw storage integers, then
    # - z_lhs * sum_K(rhs) - z_rhs * sum_K(lhs) + K * z_lhs * z_rhs; every partial
    # sum of these terms is within K * (max|q_lhs| + |z_lhs|) * (max|q_rhs| + |z_rhs|).
    wide = _accumulator_type(
        lhs_q,
        rhs_q,
        contraction,
        _storage_bound(lhs_q) + _max_zero_point(lhs_q),
        _storage_bound(rhs_q) + _max_zero_point(rhs_q),
    )
    lhs, rhs = to_storage(b, op.lhs), to_storage(b, op.rhs)
    if not lhs_q.is_signed or not rhs_q.is_signed:
        lhs, rhs = b.convert(lhs, wide), b.convert(rhs, wide)
    acc = b.add(shlo.DotGeneralOp(lhs, rhs, numbers, TensorType(wide, result_shape)))
    nb = len(numbers.lhs_batching)
    lhs_free = lhs_rank - nb - len(numbers.lhs_contracting)
    z_lhs, z_rhs = lhs_q.zero_point, int(Channels.of(rhs_q).zero_points[0])
    if z_lhs != 0:
        sums = _operand_sums(
            b,
            to_storage(b, op.rhs),
            wide,
            numbers.rhs_batching,
            numbers.rhs_contracting,
            result_shape,
            [*range(nb), *range(nb + lhs_free, len(result_shape))],
        )
        acc = b.binary(
            ew.SubtractOp,
            acc,
            b.binary(ew.MultiplyOp, sums, b.splat(z_lhs, wide, result_shape)),
        )
    if rhs_q.is_per_layer and z_rhs != 0:
        sums = _operand_sums(
            b,
            to_storage(b, op.lhs),
            wide,
            numbers.lhs_batching,
            numbers.lhs_contracting,
            result_shape,
            list(range(nb + lhs_free)),
        )
        acc = b.binary(
            ew.SubtractOp,
            acc,
            b.binary(ew.MultiplyOp, sums, b.splat(z_rhs, wide, result_shape)),
        )
        if z_lhs != 0:
            k = int(np.prod([lhs_shape[d] for d in numbers.lhs_contracting]))
            acc = b.binary(
                ew.AddOp, acc, b.splat(k * z_lhs * z_rhs, wide, result_shape)
            )
    scales, axis = multiplier
    return _rescale(b, acc, scales, axis, result_q)


def _zero_centred(b: HloBuilder, value: SSAValue, wide: IntegerType) -> SSAValue:
    """`q - z` in `wide` for a quantized tensor (per-tensor or per-axis)."""
    q = quantized(value.type)
    assert q is not None
    channels = Channels.of(q)
    stored = b.convert(to_storage(b, value), wide)
    if not bool(np.any(channels.zero_points != 0)):
        return stored
    zero_points = b.parameter(
        channels.zero_points, wide, shape_of(value.type), channels.axis
    )
    return b.binary(ew.SubtractOp, stored, zero_points)


def _integer_convolution(b: HloBuilder, op: shlo.ConvolutionOp) -> SSAValue | None:
    lhs_q, rhs_q, result_q = (quantized(t) for t in op_types(op))
    if lhs_q is None or rhs_q is None or result_q is None or not lhs_q.is_per_layer:
        return None
    numbers = op.dimension_numbers
    result_axis = numbers.output_feature_dimension.data if rhs_q.is_per_axis else None
    multiplier = uniform.contraction_rescale(lhs_q, rhs_q, result_q, result_axis)
    if multiplier is None:
        return None
    # The zero-centred operands are multiplied and summed over the kernel's
    # spatial window and its input features (one group's share).
    rhs_shape = shape_of(op.rhs.type)
    kernel_dims = [
        *(d.data for d in numbers.kernel_spatial_dimensions),
        numbers.kernel_input_feature_dimension.data,
    ]
    contraction = _contraction_size([rhs_shape[d] for d in kernel_dims])
    wide = _accumulator_type(
        lhs_q, rhs_q, contraction, _centred_bound(lhs_q), _centred_bound(rhs_q)
    )
    lhs, rhs = _zero_centred(b, op.lhs, wide), _zero_centred(b, op.rhs, wide)
    conv = shlo.ConvolutionOp.create(
        operands=[lhs, rhs],
        result_types=[with_element(op.result.type, wide)],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    acc = b.add(conv)
    scales, axis = multiplier
    return _rescale(b, acc, scales, axis, result_q)


def _upstream_hybrid(b: HloBuilder, op: Operation) -> SSAValue | None:
    """Upstream's weight-only form: `optimization_barrier` on the rhs storage, its f32
    dequantization (`convert`, `broadcast_subtract zp` unless all 0, `broadcast_multiply
    scale`), then the op on floats.

    Only for rhs storage of at most 16 bits on f32, where the f32 `q - zp` is
    exact and so equals the contract's integer difference; else None.
    """
    lhs, rhs = op.operands[0], op.operands[1]
    rhs_q = quantized(rhs.type)
    if rhs_q is None or is_quantized(lhs.type) or is_quantized(op.result_types[0]):
        return None
    if rhs_q.storage_width > 16 or not is_f32(rhs_q.expressed_type):
        return None
    f32 = rhs_q.expressed_type
    stored = to_storage(b, rhs)
    barrier = b.add(
        OptimizationBarrierOp.create(operands=[stored], result_types=[stored.type])
    )
    channels = Channels.of(rhs_q)
    scales, dims = emit_parameters(b, channels.scales, f32, channels.axis)
    zero_points, _ = emit_parameters(
        b, channels.zero_points.astype(np.float64), f32, channels.axis
    )
    value = emit_convert(b, barrier, f32)
    if bool(np.any(channels.zero_points != 0)):
        value = emit_broadcast_binary(
            b, chlo.BroadcastSubtractOp, value, zero_points, dims
        )
    value = emit_broadcast_binary(b, chlo.BroadcastMultiplyOp, value, scales, dims)
    clone = type(op).create(
        operands=[lhs, value, *op.operands[2:]],
        result_types=list(op.result_types),
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    return b.add(clone)


def _upstream_all_quantized(
    b: HloBuilder, op: shlo.DotGeneralOp | shlo.ConvolutionOp
) -> SSAValue | None:
    """Upstream's integer form where upstream's pattern takes the op: per-tensor lhs,
    rhs and result both per-tensor or both per-axis (and, for a convolution,
    `convolution_dims`); else None (the caller falls back to dequantize-op-quantize)."""
    lhs_q, rhs_q, result_q = (quantized(t) for t in op_types(op))
    if lhs_q is None or rhs_q is None or result_q is None or not lhs_q.is_per_layer:
        return None
    if rhs_q.is_per_layer != result_q.is_per_layer:
        return None
    if isinstance(op, shlo.ConvolutionOp):
        dims = convolution_dims(op)
    else:
        dims = dot_general_dims(op)
    if dims is None:
        return None
    return upstream_dot_like(b, op, to_storage(b, op.lhs), to_storage(b, op.rhs), dims)


@dataclass(frozen=True)
class LowerDot(RewritePattern):
    """`stablehlo.dot`: hybrid as upstream; otherwise the equivalent `dot_general`
    (contracting the lhs's last dimension with the rhs's first), lowered next."""

    exact: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shlo.DotOp, rewriter: PatternRewriter) -> None:
        if not touches_quantized(op):
            return
        b = HloBuilder(exact=self.exact)
        if (result := _upstream_hybrid(b, op)) is not None:
            replace_op(rewriter, op, b, [result])
            return
        if not all(is_quantized(t) for t in op_types(op)):
            b = HloBuilder(exact=self.exact)
            replace_op(rewriter, op, b, dequantize_op_quantize(b, op))
            return
        lhs, rhs = op.operands
        rank = len(lhs.type.get_shape()) if isa(lhs.type, TensorType) else 1
        numbers = DotDimensionNumbersAttr.get([], [], [rank - 1], [0])
        rewriter.replace(op, shlo.DotGeneralOp(lhs, rhs, numbers, op.result_types[0]))


@dataclass(frozen=True)
class LowerDotGeneral(RewritePattern):
    """Quantized dot_general in integer form (upstream's, or with `exact` the contract's);
    hybrid by dequantizing the rhs; else the fallback."""

    exact: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.DotGeneralOp, rewriter: PatternRewriter
    ) -> None:
        _lower_contraction(op, rewriter, self.exact, _integer_dot_general)


def _lower_contraction(
    op: shlo.DotGeneralOp | shlo.ConvolutionOp,
    rewriter: PatternRewriter,
    exact: bool,
    integer_form: Callable[[HloBuilder, Any], SSAValue | None],
) -> None:
    """A quantized dot_general or convolution: upstream's hybrid form, then
    upstream's all-quantized form (default) or the contract's exact integer form
    (`exact`), else dequantize -> float op -> quantize."""
    if not touches_quantized(op):
        return
    b = HloBuilder(exact=exact)
    if (result := _upstream_hybrid(b, op)) is not None:
        replace_op(rewriter, op, b, [result])
        return
    all_quantized = all(is_quantized(t) for t in op_types(op))
    form = integer_form if exact else _upstream_all_quantized if all_quantized else None
    if exact and all_quantized:
        require_static(op)  # the exact integer form needs static shapes
    if form is not None:
        b = HloBuilder(exact=exact)  # a fresh builder: a failed attempt may leave ops
        if (result := form(b, op)) is not None:
            replace_op(rewriter, op, b, [result])
            return
    b = HloBuilder(exact=exact)
    replace_op(rewriter, op, b, dequantize_op_quantize(b, op))


@dataclass(frozen=True)
class LowerConvolution(RewritePattern):
    """Quantized convolution in integer form (upstream's, or with `exact` the contract's);
    hybrid by dequantizing the rhs; else the fallback."""

    exact: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.ConvolutionOp, rewriter: PatternRewriter
    ) -> None:
        _lower_contraction(op, rewriter, self.exact, _integer_convolution)
