"""Upstream's integer form of quantized `dot_general` / `convolution` (the default of
`stablehlo-legalize-quant-to-math`).

Op for op as `matchAndRewriteDotLikeOp` in upstream's
`StablehloLegalizeQuantToMath.cpp`: the op on the storage integers into i32,
zero-point offsets (`reduce` sums over the contracted dims times the other
operand's zero point, `broadcast_in_dim` or, on dynamic shapes,
`dynamic_broadcast_in_dim` to the result, minus `z_lhs * z_rhs * K`), then,
when the combined scale `s_lhs * s_rhs / s_result` is not within 0.001 of 1,
both the i32 result and the offset go through f32, are multiplied by it and
converted back (truncating), and the result zero point is added with `chlo`
broadcasting ops. No clamp: the i32 value is converted to the storage type.

A convolution is taken only where upstream takes it: rhs (and per-axis result)
zero points 0, per-axis rhs on its last dimension with one result/rhs scale
ratio, no lhs dilation, NHWC / NCHW / NDHWC / NCDHW layouts; padding becomes
an explicit `pad` with the lhs zero point (as i8, as upstream). Elsewhere
the caller falls back to dequantize -> op -> quantize, as upstream's
lower-benefit pattern does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    f32,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from xquant.dialects import chlo
from xquant.dialects import stablehlo as shlo
from xquant.dialects.quant.types import UniformQuantizedType
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo.dynamism import (
    DynamicBroadcastInDimOp,
    GetDimensionSizeOp,
)
from xquant.dialects.stablehlo.misc import PadOp
from xquant.dialects.stablehlo.reductions import padding_pairs
from xquant.dialects.stablehlo.syntax import array_values, i64_array
from xquant.dialects.stablehlo.type_utils import quantized
from xquant.transforms.utils.stablehlo_emitters import (
    Channels,
    HloBuilder,
    emit_convert,
    retype,
    shape_of,
    storage_type,
)

DYNAMIC = DYNAMIC_INDEX


@dataclass(frozen=True)
class DotLikeDims:
    """Upstream's `DotLikeDimensionNumbers`."""

    lhs_batching: tuple[int, ...]
    lhs_spatial: tuple[int, ...]
    lhs_contracting: tuple[int, ...]
    rhs_batching: tuple[int, ...]
    rhs_spatial: tuple[int, ...]
    rhs_contracting: tuple[int, ...]


def dot_general_dims(op: shlo.DotGeneralOp) -> DotLikeDims:
    n = op.dot_dimension_numbers
    return DotLikeDims(
        tuple(n.lhs_batching),
        (),
        tuple(n.lhs_contracting),
        tuple(n.rhs_batching),
        (),
        tuple(n.rhs_contracting),
    )


# (input b, f, spatial), (kernel i, o, spatial), (output b, f, spatial) -> dims
_CONV_LAYOUTS: dict[tuple[tuple[int, ...], ...], DotLikeDims] = {
    # NHWC: lhs(b, 0, 1, f) x rhs(0, 1, i, o) -> res(b, 0, 1, f)
    ((0, 3, 1, 2), (2, 3, 0, 1), (0, 3, 1, 2)): DotLikeDims(
        (0,), (1, 2), (3,), (), (0, 1), (2,)
    ),
    # NCHW: lhs(b, f, 0, 1) x rhs(o, i, 0, 1) -> res(b, f, 0, 1)
    ((0, 1, 2, 3), (1, 0, 2, 3), (0, 1, 2, 3)): DotLikeDims(
        (0,), (2, 3), (1,), (), (2, 3), (1,)
    ),
    # NDHWC
    ((0, 4, 1, 2, 3), (3, 4, 0, 1, 2), (0, 4, 1, 2, 3)): DotLikeDims(
        (0,), (1, 2, 3), (4,), (), (0, 1, 2), (3,)
    ),
    # NCDHW as upstream's isConvNCDHW checks it: kernel (i, o, 0, 1, 2), so the
    # usual [o, i, 0, 1, 2] kernel is not taken (it falls back to floats there too)
    ((0, 1, 2, 3, 4), (0, 1, 2, 3, 4), (0, 1, 2, 3, 4)): DotLikeDims(
        (0,), (2, 3, 4), (1,), (), (2, 3, 4), (1,)
    ),
}


def convolution_dims(op: shlo.ConvolutionOp) -> DotLikeDims | None:
    """Upstream's `verifyAndConstructDims`: None where its pattern does not match."""
    rhs_q, result_q = quantized(op.rhs.type), quantized(op.result.type)
    if rhs_q is None or result_q is None:
        return None
    if rhs_q.is_per_layer:
        if rhs_q.zero_point != 0:
            return None
    else:
        rhs_ch, result_ch = Channels.of(rhs_q), Channels.of(result_q)
        if np.any(rhs_ch.zero_points != 0) or np.any(result_ch.zero_points != 0):
            return None
        if rhs_q.quantized_dimension != len(shape_of(op.rhs.type)) - 1:
            return None
        ratios = [float(r) / float(s) for r, s in zip(result_ch.scales, rhs_ch.scales)]
        if any(abs((r - ratios[0]) / ratios[0]) > 0.001 for r in ratios):
            return None
    if any(d != 1 for d in array_values(op.lhs_dilation)):
        return None
    n = op.dimension_numbers
    key = (
        (
            n.input_batch_dimension.data,
            n.input_feature_dimension.data,
            *(d.data for d in n.input_spatial_dimensions),
        ),
        (
            n.kernel_input_feature_dimension.data,
            n.kernel_output_feature_dimension.data,
            *(d.data for d in n.kernel_spatial_dimensions),
        ),
        (
            n.output_batch_dimension.data,
            n.output_feature_dimension.data,
            *(d.data for d in n.output_spatial_dimensions),
        ),
    )
    return _CONV_LAYOUTS.get(key)


def _reduce_sum_i32(b: HloBuilder, tensor: SSAValue, dims: Sequence[int]) -> SSAValue:
    """`createZeroPointPartialOffset`'s sum: convert to i32, reduce-add over `dims`."""
    value = emit_convert(b, tensor, i32)
    scalar = TensorType(i32, [])
    init = b.scalar(0, i32)
    block = Block(arg_types=[scalar, scalar])
    total = ew.AddOp(block.args[0], block.args[1])
    block.add_ops([total, shlo.ReturnOp(total.result)])
    shape = shape_of(tensor.type)
    kept = [n for d, n in enumerate(shape) if d not in dims]
    return b.add(
        shlo.ReduceOp(
            [value], [init], list(dims), Region(block), [TensorType(i32, kept)]
        )
    )


def _dim_value(b: HloBuilder, value: SSAValue, index: int) -> SSAValue:
    """`getDimValue`: dimension `index` of `value` as a `tensor<1xi64>`."""
    size = shape_of(value.type)[index]
    if size != DYNAMIC:
        return b.constant([size], i64, [1])
    dim = b.add(
        GetDimensionSizeOp.create(
            operands=[value],
            result_types=[TensorType(i32, [])],
            properties={"dimension": _i64_attr(index)},
        )
    )
    dim = emit_convert(b, dim, i64)
    return b.add(shlo.ReshapeOp(dim, TensorType(i64, [1])))


def _i64_attr(value: int) -> IntegerAttr[IntegerType]:
    return IntegerAttr(value, i64)


@dataclass
class _OutputDims:
    """`calculateDynamicOutputDims`, computed once on first need."""

    output: SSAValue
    value: SSAValue | None = None

    def get(self, b: HloBuilder) -> SSAValue:
        if self.value is None:
            rank = len(shape_of(self.output.type))
            parts = [_dim_value(b, self.output, i) for i in range(rank)]
            self.value = b.add(
                shlo.ConcatenateOp.create(
                    operands=parts,
                    result_types=[TensorType(i64, [rank])],
                    properties={"dimension": _i64_attr(0)},
                )
            )
        return self.value


def _broadcast_contribution(
    b: HloBuilder,
    contribution: SSAValue,
    reduction: Sequence[int],
    batching: Sequence[int],
    non_batching_start: int,
    output_type: TensorType,
    dims: _OutputDims,
) -> SSAValue:
    """`broadcastZpContribution`: the reduced tensor laid out over the result."""
    rank = len(shape_of(contribution.type))
    broadcast: list[int] = []
    batch_index, other_index, original = 0, non_batching_start, 0
    for _ in range(rank):
        while original in reduction:
            original += 1
        if original in batching:
            broadcast.append(batch_index)
            batch_index += 1
        else:
            broadcast.append(other_index)
            other_index += 1
        original += 1
    if DYNAMIC not in shape_of(output_type):
        return b.add(shlo.BroadcastInDimOp(contribution, broadcast, output_type))
    return b.add(
        DynamicBroadcastInDimOp.create(
            operands=[contribution, dims.get(b)],
            result_types=[output_type],
            properties={"broadcast_dimensions": i64_array(broadcast)},
        )
    )


def _zero_point_offset(
    b: HloBuilder,
    lhs: SSAValue,
    rhs: SSAValue,
    output: SSAValue,
    z_lhs: int,
    z_rhs: int,
    output_type: TensorType,
    dims: DotLikeDims,
) -> SSAValue | None:
    """`calculateZeroPointOffset`: `z_rhs * sum(lhs) + z_lhs * sum(rhs) - z_lhs * z_rhs * K`."""
    result: SSAValue | None = None
    output_dims = _OutputDims(output)
    if z_rhs != 0:
        reduction = [*dims.lhs_spatial, *dims.lhs_contracting]
        summed = _reduce_sum_i32(b, lhs, reduction)
        zp = b.scalar(z_rhs, i32)
        contribution = b.add(chlo.BroadcastMultiplyOp(summed, zp, None, summed.type))
        result = _broadcast_contribution(
            b,
            contribution,
            reduction,
            dims.lhs_batching,
            len(dims.lhs_batching),
            output_type,
            output_dims,
        )
    if z_lhs != 0:
        reduction = [*dims.rhs_spatial, *dims.rhs_contracting]
        summed = _reduce_sum_i32(b, rhs, reduction)
        zp = b.scalar(z_lhs, i32)
        contribution = b.add(chlo.BroadcastMultiplyOp(summed, zp, None, summed.type))
        start = len(shape_of(lhs.type)) - len(dims.lhs_contracting)
        if dims.lhs_spatial and dims.rhs_spatial:
            start = dims.lhs_contracting[0]
        contribution = _broadcast_contribution(
            b,
            contribution,
            reduction,
            dims.rhs_batching,
            start,
            output_type,
            output_dims,
        )
        result = (
            contribution if result is None else b.add(ew.AddOp(result, contribution))
        )
    if z_lhs != 0 and z_rhs != 0:
        assert result is not None
        rhs_shape = shape_of(rhs.type)
        static_total = 1
        dynamic_total = b.scalar(1, i32)
        has_dynamic = False
        for index in (*dims.rhs_spatial, *dims.rhs_contracting):
            if rhs_shape[index] == DYNAMIC:
                has_dynamic = True
                dim = b.add(
                    GetDimensionSizeOp.create(
                        operands=[rhs],
                        result_types=[TensorType(i32, [])],
                        properties={"dimension": _i64_attr(index)},
                    )
                )
                dynamic_total = b.add(ew.MultiplyOp(dynamic_total, dim))
            else:
                static_total *= rhs_shape[index]
        offset = b.scalar(_wrap_i32(z_lhs * z_rhs * static_total), i32)
        if has_dynamic:
            offset = b.add(ew.MultiplyOp(offset, dynamic_total))
        result = b.add(chlo.BroadcastSubtractOp(result, offset, None, result.type))
    return result


def _wrap_i32(value: int) -> int:
    """C++'s int32 arithmetic (`static_cast<int32_t>(lhsZp) * ...`), two's complement."""
    return (value + (1 << 31)) % (1 << 32) - (1 << 31)


def _pad_lhs(
    b: HloBuilder, op: shlo.ConvolutionOp, lhs: SSAValue, dims: DotLikeDims
) -> tuple[SSAValue, dict[str, Attribute]]:
    """`createDotLikeKernel<ConvolutionOp>`: nonzero padding becomes a `pad` of the lhs
    with its zero point; the convolution's padding becomes all zeros."""
    properties: dict[str, Attribute] = dict(op.properties)
    if op.padding is None:
        return lhs, properties
    padding = padding_pairs(op.padding, len(dims.lhs_spatial))
    if all(pair == (0, 0) for pair in padding):
        return lhs, properties
    lhs_q = quantized(op.lhs.type)
    assert lhs_q is not None
    rank = len(shape_of(lhs.type))
    low, high = [0] * rank, [0] * rank
    for i, d in enumerate(dims.lhs_spatial):
        low[d], high[d] = padding[i]
    zp = b.scalar(_wrap_i8(lhs_q.zero_point), IntegerType(8))
    shape = shape_of(lhs.type)
    padded_shape = [
        n if n == DYNAMIC else n + low[d] + high[d] for d, n in enumerate(shape)
    ]
    lhs = b.add(
        PadOp.create(
            operands=[lhs, zp],
            result_types=[TensorType(IntegerType(8), padded_shape)],
            properties={
                "edge_padding_low": i64_array(low),
                "edge_padding_high": i64_array(high),
                "interior_padding": i64_array([0] * rank),
            },
        )
    )
    zeros = np.zeros((rank - 2, 2), dtype=np.int64)
    properties["padding"] = DenseIntOrFPElementsAttr.from_list(
        TensorType(i64, [rank - 2, 2]), zeros.reshape(-1).tolist()
    )
    return lhs, properties


def _wrap_i8(value: int) -> int:
    return (value + 128) % 256 - 128


def upstream_dot_like(
    b: HloBuilder, op: Operation, lhs: SSAValue, rhs: SSAValue, dims: DotLikeDims
) -> SSAValue:
    """`matchAndRewriteDotLikeOp` on storage-integer operands `lhs`, `rhs` of `op`."""
    lhs_q = quantized(op.operands[0].type)
    rhs_q = quantized(op.operands[1].type)
    result_q = quantized(op.results[0].type)
    assert lhs_q is not None and rhs_q is not None and result_q is not None
    result_type = op.results[0].type
    result_i32 = retype(result_type, i32)
    result_f32 = retype(result_type, f32)
    if isinstance(op, shlo.ConvolutionOp):
        lhs, properties = _pad_lhs(b, op, lhs, dims)
        acc = b.add(
            shlo.ConvolutionOp.create(
                operands=[lhs, rhs],
                result_types=[result_i32],
                properties=properties,
                attributes=dict(op.attributes),
            )
        )
    else:
        acc = b.add(
            type(op).create(
                operands=[lhs, rhs],
                result_types=[result_i32],
                properties=dict(op.properties),
                attributes=dict(op.attributes),
            )
        )
    z_rhs = rhs_q.zero_point if rhs_q.is_per_layer else 0
    offset = _zero_point_offset(
        b, lhs, rhs, acc, lhs_q.zero_point, z_rhs, result_i32, dims
    )
    combined = lhs_q.scale * _first_scale(rhs_q) / _first_scale(result_q)
    if abs(combined - 1.0) > 0.001:
        scale = b.scalar(float(np.float32(combined)), f32)
        value = emit_convert(b, acc, f32)
        value = b.add(chlo.BroadcastMultiplyOp(value, scale, None, result_f32))
        acc = emit_convert(b, value, i32)
        if offset is not None:
            offset_f32 = retype(offset.type, f32)
            value = emit_convert(b, offset, f32)
            value = b.add(chlo.BroadcastMultiplyOp(value, scale, None, offset_f32))
            offset = emit_convert(b, value, i32)
    result_zp = result_q.zero_point if result_q.is_per_layer else 0
    combined_zp = b.scalar(result_zp, i32)
    if offset is not None:
        combined_zp = b.add(
            chlo.BroadcastSubtractOp(combined_zp, offset, None, result_i32)
        )
    total = b.add(chlo.BroadcastAddOp(acc, combined_zp, None, result_i32))
    return emit_convert(b, total, storage_type(result_q))


def _first_scale(q: UniformQuantizedType) -> float:
    return q.scale if q.is_per_layer else float(Channels.of(q).scales[0])
