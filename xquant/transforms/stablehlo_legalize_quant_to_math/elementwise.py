"""Element-wise ops: upstream's add, exact integer add / subtract on one scale,
max / min / select on the storage integers, and the dequantize -> float op ->
quantize fallback (for the other element-wise ops and upstream's `QDQ_OPS`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from xquant.dialects import chlo
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo.type_utils import quantized
from xquant.numerics import uniform
from xquant.numerics.values import element_type
from xquant.transforms.stablehlo_legalize_quant_to_math.common import (
    op_types,
    replace_op,
    require_signed_expressed_types,
    storage_tensor_type,
    to_float,
    to_storage,
    touches_quantized,
)
from xquant.transforms.utils.stablehlo_emitters import (
    Channels,
    HloBuilder,
    emit_broadcast_binary,
    emit_convert,
    emit_parameters,
    emit_quantize_upstream,
    emit_requantize_upstream,
    is_f32,
    merged_requantize,
    retype,
    storage_type,
    wide_type,
)


def _quantize_results(
    b: HloBuilder, op: Operation, floats: Sequence[SSAValue]
) -> list[SSAValue]:
    results: list[SSAValue] = []
    for value, old in zip(floats, op.results, strict=True):
        q = quantized(old.type)
        results.append(value if q is None else emit_quantize_upstream(b, value, q))
    return results


def _float_type(t: Attribute) -> Attribute:
    q = quantized(t)
    return t if q is None else retype(t, q.expressed_type)


def dequantize_op_quantize(b: HloBuilder, op: Operation) -> list[SSAValue]:
    """The fallback: dequantize quantized operands, run `op` on floats, quantize quantized results."""
    operands = [to_float(b, v) for v in op.operands]
    clone = type(op).create(
        operands=operands,
        result_types=[_float_type(t) for t in op.result_types],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    b.add(clone) if clone.results else b.ops.append(clone)
    return _quantize_results(b, op, clone.results)


def _upstream_add(b: HloBuilder, op: ew.AddOp) -> SSAValue | None:
    """Upstream's per-tensor add: both operands requantized to the result in i32, then
    `broadcast_add`, `broadcast_subtract z_out`, clamp and convert.

    Only where that is the contract's result: every type per-tensor on f32,
    storage narrower than 32 bits (upstream neither widens nor clamps i32
    sums), each operand of the result's type or with an exact merged-scale
    requantize (`merged_requantize`). Else None.
    """
    lhs_q, rhs_q, result_q = (quantized(t) for t in op_types(op))
    if lhs_q is None or rhs_q is None or result_q is None:
        return None
    if not (lhs_q.is_per_layer and rhs_q.is_per_layer and result_q.is_per_layer):
        return None
    if result_q.storage_width >= 32:
        return None
    for source in (lhs_q, rhs_q):
        if source.storage_width >= 32:
            return None
        if source != result_q and merged_requantize(source, result_q, 32, True) is None:
            return None
    i32 = IntegerType(32)
    lhs = emit_requantize_upstream(
        b, to_storage(b, op.lhs), lhs_q, result_q, i32, clamped_later=True
    )
    rhs = emit_requantize_upstream(
        b, to_storage(b, op.rhs), rhs_q, result_q, i32, clamped_later=True
    )
    assert lhs is not None and rhs is not None  # merged_requantize said so
    zero_point = b.scalar(result_q.zero_point, i32)
    value = emit_broadcast_binary(b, chlo.BroadcastAddOp, lhs, rhs)
    value = emit_broadcast_binary(b, chlo.BroadcastSubtractOp, value, zero_point)
    value = b.clamp_to(value, result_q.storage_min, result_q.storage_max)
    return emit_convert(b, value, storage_type(result_q))


def _upstream_add_as_is(b: HloBuilder, op: ew.AddOp) -> SSAValue | None:
    """Upstream's `ConvertUniformQuantizedAddOp` whatever its numbers (the default).

    Per-tensor: both operands requantized to the result in i32 (upstream's
    merged float form), `broadcast_add`, `broadcast_subtract z_out`, then for
    storage below 32 bits a clamp and a convert (i32 sums wrap, unclamped).
    Per-axis: only one i32 type for all three, `add` then `broadcast_subtract`
    of the zero points when not all 0. Else None (dequantize-op-quantize).
    """
    lhs_q, rhs_q, result_q = (quantized(t) for t in op_types(op))
    if lhs_q is None or rhs_q is None or result_q is None:
        return None
    i32 = IntegerType(32)
    if lhs_q.is_per_axis or rhs_q.is_per_axis or result_q.is_per_axis:
        if not (lhs_q == rhs_q == result_q) or lhs_q.storage_width != 32:
            return None
        value = b.add(ew.AddOp(to_storage(b, op.lhs), to_storage(b, op.rhs)))
        channels = Channels.of(result_q)
        if bool(np.any(channels.zero_points != 0)):
            zero_points, dims = emit_parameters(
                b, channels.zero_points, i32, channels.axis
            )
            value = emit_broadcast_binary(
                b, chlo.BroadcastSubtractOp, value, zero_points, dims
            )
        return value
    lhs = emit_requantize_upstream(b, to_storage(b, op.lhs), lhs_q, result_q, i32)
    rhs = emit_requantize_upstream(b, to_storage(b, op.rhs), rhs_q, result_q, i32)
    assert lhs is not None and rhs is not None  # not exact: always built
    zero_point = b.scalar(result_q.zero_point, i32)
    value = emit_broadcast_binary(b, chlo.BroadcastAddOp, lhs, rhs)
    value = emit_broadcast_binary(b, chlo.BroadcastSubtractOp, value, zero_point)
    if result_q.storage_width >= 32:
        return value
    value = b.clamp_to(value, result_q.storage_min, result_q.storage_max)
    return emit_convert(b, value, storage_type(result_q))


def _float_path_is_exact(op: Operation) -> bool:
    """Whether dequantize -> f32 op -> quantize gives the integer form's result (upstream's fallback).

    For add/subtract on one scale per channel, f32 and storage of at most
    16 bits: the integer result `n` has `|n| < 2^18`, the float path's three
    roundings move it by less than `2^18 * 2^-22`, so it rounds back to `n`.
    """
    types = [quantized(t) for t in op_types(op)]
    return all(
        q is not None and q.storage_width <= 16 and is_f32(q.expressed_type)
        for q in types
    )


def _integer_add_subtract(
    b: HloBuilder, op: ew.AddOp | ew.SubtractOp
) -> SSAValue | None:
    """`a -+ b + (z_out - z_a -+ z_b)` in a wide integer type when every channel shares one scale.

    i64 for 32-bit storage, and always clamped to the result's storage
    range: the contract's exact sum (upstream adds i32 storage in i32,
    wrapping, and does not clamp it).
    """
    types = [quantized(t) for t in op_types(op)]
    if any(t is None for t in types):
        return None
    lhs_q, rhs_q, result_q = types
    assert lhs_q is not None and rhs_q is not None and result_q is not None
    subtract = isinstance(op, ew.SubtractOp)
    found = uniform.integer_add_correction(lhs_q, rhs_q, result_q, subtract)
    if found is None:
        return None
    correction, axis = found
    wide = wide_type(lhs_q, rhs_q, result_q)
    lhs = emit_convert(b, to_storage(b, op.lhs), wide)
    rhs = emit_convert(b, to_storage(b, op.rhs), wide)
    value = b.binary(ew.SubtractOp if subtract else ew.AddOp, lhs, rhs)
    if bool(np.any(correction != 0)):
        if axis is None or bool(np.all(correction == correction[0])):
            correction, axis = correction.reshape(-1)[:1], None
        parameter, dims = emit_parameters(b, correction, wide, axis)
        value = emit_broadcast_binary(b, chlo.BroadcastAddOp, value, parameter, dims)
    value = b.clamp_to(value, result_q.storage_min, result_q.storage_max)
    return emit_convert(b, value, storage_type(result_q))


def _same_type_storage_op(b: HloBuilder, op: Operation) -> SSAValue | None:
    """max / min / select on one quantized type: the same op on the storage integers."""
    value_types = (
        op.operand_types[1:] if isinstance(op, ew.SelectOp) else op.operand_types
    )
    if len({element_type(t) for t in (*value_types, op.result_types[0])}) != 1:
        return None
    operands = [to_storage(b, v) for v in op.operands]
    result_type = storage_tensor_type(op.result_types[0])
    # The op touches quantized values and all its value types agree: the result is quantized.
    assert result_type is not None
    clone = type(op).create(
        operands=operands,
        result_types=[result_type],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    return b.add(clone)


@dataclass(frozen=True)
class LowerElementwise(RewritePattern):
    """Element-wise ops, compare, select and clamp on quantized tensors."""

    exact: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, (ew.ElementwiseOp, ew.CompareOp, ew.SelectOp)):
            return
        if isinstance(op, ew.BitcastConvertOp) or not touches_quantized(op):
            return
        require_signed_expressed_types(op)
        b = HloBuilder(exact=self.exact)
        result: SSAValue | None = None
        if isinstance(op, ew.AddOp):
            result = _upstream_add(b, op) if self.exact else _upstream_add_as_is(b, op)
        if (
            self.exact
            and result is None
            and isinstance(op, (ew.AddOp, ew.SubtractOp))
            and not _float_path_is_exact(op)
        ):
            b = HloBuilder(exact=self.exact)
            result = _integer_add_subtract(b, op)
        elif isinstance(op, (ew.MaximumOp, ew.MinimumOp, ew.SelectOp)):
            result = _same_type_storage_op(b, op)
        if result is None:
            b = HloBuilder(exact=self.exact)
            replace_op(rewriter, op, b, dequantize_op_quantize(b, op))
            return
        replace_op(rewriter, op, b, [result])


QDQ_OPS: frozenset[str] = frozenset(
    f"stablehlo.{name}"
    for name in (
        "atan2",
        "batch_norm_grad",
        "batch_norm_inference",
        "batch_norm_training",
        "cholesky",
        "reduce_precision",
        "remainder",
        "triangular_solve",
    )
)
"""Upstream's dequantize -> op -> quantize fallback list, less what `LowerElementwise` covers."""


@dataclass(frozen=True)
class LowerOtherDequantizeOpQuantize(RewritePattern):
    """The rest of upstream's fallback list (batch norms, atan2, ...): dequantize -> float op -> quantize."""

    exact: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name not in QDQ_OPS or not touches_quantized(op):
            return
        require_signed_expressed_types(op)
        b = HloBuilder(exact=self.exact)
        replace_op(rewriter, op, b, dequantize_op_quantize(b, op))
