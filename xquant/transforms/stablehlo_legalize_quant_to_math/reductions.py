"""`reduce`, `reduce_window`, `select_and_scatter`: upstream's retype-only path,
or with `exact` explicit requantizations to the body's accumulator type (a
single sum: one exact i64 sum with one final clamp)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np
from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from xquant.dialects import stablehlo as shlo
from xquant.dialects.quant.types import UniformQuantizedType
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo import reductions as red
from xquant.dialects.stablehlo.type_utils import is_quantized, quantized
from xquant.numerics import uniform
from xquant.numerics.values import element_type, with_element
from xquant.transforms.stablehlo_legalize_quant_to_math.common import (
    converted_to,
    op_types,
    replace_op,
    require_static,
    storage_tensor_type,
    to_storage,
)
from xquant.transforms.utils.stablehlo_emitters import (
    HloBuilder,
    shape_of,
    storage_type,
)


def _operand_targets(op: Operation) -> list[Attribute]:
    """The body type each operand is converted to (the spec's `to_destination_type`)."""
    if isinstance(op, shlo.SelectAndScatterOp):
        scatter = red.accumulator_types(op.scatter)[0]
        return [
            element_type(op.select.block.args[0].type),
            element_type(scatter),
            element_type(scatter),
        ]
    assert isinstance(op, (shlo.ReduceOp, shlo.ReduceWindowOp))
    accumulators = [element_type(t) for t in red.accumulator_types(op.body)]
    return [*accumulators, *accumulators]


def _retype_body(rewriter: PatternRewriter, region: Region) -> None:
    """Block arguments to storage integers (bridged back inside), quantized returns bridged out."""
    block = region.block
    for arg in list(block.args):
        new_type = storage_tensor_type(arg.type)
        if new_type is None:
            continue
        old_type = arg.type
        new_arg = rewriter.replace_value_with_new_type(arg, new_type)
        cast = ew.BitcastConvertOp(new_arg, old_type)
        rewriter.insert(cast, InsertPoint.at_start(block))
        new_arg.replace_uses_with_if(cast.result, lambda use: use.operation is not cast)
    terminator = block.last_op
    assert terminator is not None
    for index, value in enumerate(terminator.operands):
        new_type = storage_tensor_type(value.type)
        if new_type is None:
            continue
        cast = ew.BitcastConvertOp(value, new_type)
        rewriter.insert(cast, InsertPoint.before(terminator))
        terminator.operands[index] = cast.result


def _widen_select(
    b: HloBuilder,
    rewriter: PatternRewriter,
    operand: SSAValue,
    select: Region,
    source: SSAValue,
) -> SSAValue:
    """select_and_scatter needs operand and source of one element type (C1).

    The source is requantized to the scatter's accumulator storage, so the
    operand is sign-extended to that integer type too and the select body
    narrows its arguments back before comparing: the comparison is the
    original one on the original storage values.
    """
    wide = element_type(source.type)
    narrow = element_type(operand.type)
    if wide == narrow:
        return operand
    block = select.block
    for arg in list(block.args):
        old_type = arg.type
        new_arg = rewriter.replace_value_with_new_type(arg, TensorType(wide, []))
        cast = ew.ConvertOp(new_arg, old_type)
        rewriter.insert(cast, InsertPoint.at_start(block))
        new_arg.replace_uses_with_if(cast.result, lambda use: use.operation is not cast)
    return b.convert(operand, wide)


def _sum_accumulator(op: Operation) -> UniformQuantizedType | None:
    """The per-tensor accumulator type of a single-input reduce/reduce_window whose body is one `add`."""
    if not isinstance(op, (shlo.ReduceOp, shlo.ReduceWindowOp)) or len(op.inputs) != 1:
        return None
    if red.combiner_name(op.body) != "stablehlo.add":
        return None
    acc = quantized(op.body.block.args[0].type)
    return acc if acc is not None and acc.is_per_layer else None


def _lower_sum(
    b: HloBuilder, op: shlo.ReduceOp | shlo.ReduceWindowOp, acc: UniformQuantizedType
) -> SSAValue:
    """Sum of zero-centred values in i64 (an `add` body on `a + b - z` unrolled), one final clamp.

    A `reduce` touches its (large) input once: it sums the elements `x` as
    they are and applies the affine map to accumulator storage, `k * x + c`
    (`_affine_to`), and the zero-point terms once per result, exactly in
    i64. A `reduce_window` centres its input first, since padding makes the
    element count vary per window.
    """
    wide = IntegerType(64)
    z = acc.zero_point
    init_centred = b.convert(converted_to(b, op.init_values[0], acc), wide)
    if z != 0:
        init_centred = b.binary(ew.SubtractOp, init_centred, b.scalar(z, wide))
    out_type = op.result_types[0]
    assert isinstance(out_type, TensorType)
    result_type = with_element(cast(TensorType[Attribute], out_type), wide)
    if isinstance(op, shlo.ReduceWindowOp):
        centred = b.convert(converted_to(b, op.inputs[0], acc), wide)
        if z != 0:
            centred = b.binary(
                ew.SubtractOp, centred, b.splat(z, wide, shape_of(centred.type))
            )
        total = _sum_op(b, op, centred, init_centred, result_type)
        return _finish_sum(b, total, z, acc)
    x, k, c = _affine_to(b, op.inputs[0], acc)
    x = b.convert(x, wide)
    shape = shape_of(x.type)
    count = int(np.prod([shape[d] for d in op.reduced_dimensions]))
    if k == 1:
        total = _sum_op(b, op, x, init_centred, result_type)
    else:
        total = _sum_op(b, op, x, b.scalar(0, wide), result_type)
        total = b.binary(ew.MultiplyOp, total, b.splat(k, wide, shape_of(result_type)))
        init_full = b.add(shlo.BroadcastInDimOp(init_centred, [], result_type))
        total = b.binary(ew.AddOp, total, init_full)
    return _finish_sum(b, total, z + count * (c - z), acc)


def _affine_to(
    b: HloBuilder, value: SSAValue, acc: UniformQuantizedType
) -> tuple[SSAValue, int, int]:
    """`(x, k, c)` with `k * x + c` the accumulator storage of each element of `value`.

    The raw storage with the integer requantize's factor and offset when the
    conversion is one without clamping, else the converted values (`k = 1`).
    """
    source = quantized(value.type)
    if source == acc:
        return to_storage(b, value), 1, 0
    if source is not None:
        exact = uniform.IntegerRequantize.of(source, acc)
        if exact is not None and exact.axis is None and not exact.clamps:
            factor, offset = int(exact.factors[0]), int(exact.offsets[0])
            return to_storage(b, value), factor, offset
    return converted_to(b, value, acc), 1, 0


def _sum_op(
    b: HloBuilder,
    op: shlo.ReduceOp | shlo.ReduceWindowOp,
    operand: SSAValue,
    init: SSAValue,
    result_type: TensorType[Attribute],
) -> SSAValue:
    """`op` again, on i64 operands with a plain `add` body."""
    body = Region(_add_block(TensorType(element_type(init.type), [])))
    return b.add(
        type(op).create(
            operands=[operand, init],
            result_types=[result_type],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=[body],
        )
    )


def _finish_sum(
    b: HloBuilder, total: SSAValue, offset: int, acc: UniformQuantizedType
) -> SSAValue:
    """`total + offset`, clamped to the accumulator's storage and converted to it."""
    if offset != 0:
        shift = b.splat(offset, element_type(total.type), shape_of(total.type))
        total = b.binary(ew.AddOp, total, shift)
    total = b.clamp_to(total, acc.storage_min, acc.storage_max)
    return b.convert(total, storage_type(acc))


def _add_block(scalar_type: TensorType[Attribute]):
    from xdsl.ir import Block

    block = Block(arg_types=[scalar_type, scalar_type])
    total = ew.AddOp(block.args[0], block.args[1])
    block.add_ops([total, shlo.ReturnOp(total.result)])
    return block


@dataclass(frozen=True)
class LowerReductions(RewritePattern):
    """reduce / reduce_window / select_and_scatter with quantized operands or accumulators.

    By default as upstream: reduce and select_and_scatter stay (an error: upstream
    has no pattern for them), reduce_window only changes type (its body's ops
    are lowered on their own). With `exact`, all three keep the contract's numbers.
    """

    exact: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(
            op, (shlo.ReduceOp, shlo.ReduceWindowOp, shlo.SelectAndScatterOp)
        ):
            return
        arg_types = [arg.type for region in op.regions for arg in region.block.args]
        if not any(is_quantized(t) for t in (*op_types(op), *arg_types)):
            return
        if not self.exact:
            if isinstance(op, shlo.ReduceWindowOp):
                _retype_only(rewriter, op)
            return
        require_static(op)
        b = HloBuilder(exact=self.exact)
        if (acc := _sum_accumulator(op)) is not None:
            assert isinstance(op, (shlo.ReduceOp, shlo.ReduceWindowOp))
            replace_op(rewriter, op, b, [_lower_sum(b, op, acc)])
            return
        operands = [
            converted_to(b, value, target)
            for value, target in zip(op.operands, _operand_targets(op), strict=True)
        ]
        regions = _retyped_regions(rewriter, op)
        if isinstance(op, shlo.SelectAndScatterOp):
            operands[0] = _widen_select(
                b, rewriter, operands[0], regions[0], operands[1]
            )
        _replace_with_clone(rewriter, op, b, operands, regions)


def _retype_only(rewriter: PatternRewriter, op: Operation) -> None:
    """Upstream's `ConvertGenericOp`: the op on storage types, its body's arguments retyped."""
    b = HloBuilder()
    operands = [to_storage(b, value) for value in op.operands]
    _replace_with_clone(rewriter, op, b, operands, _retyped_regions(rewriter, op))


def _retyped_regions(rewriter: PatternRewriter, op: Operation) -> list[Region]:
    """`op`'s regions moved out, their block arguments retyped to storage types."""
    regions = [
        rewriter.move_region_contents_to_new_regions(region) for region in op.regions
    ]
    for region in regions:
        _retype_body(rewriter, region)
    return regions


def _replace_with_clone(
    rewriter: PatternRewriter,
    op: Operation,
    b: HloBuilder,
    operands: list[SSAValue],
    regions: list[Region],
) -> None:
    """Replace `op` by the same op on `operands` and `regions`, with storage result types."""
    clone = type(op).create(
        operands=operands,
        result_types=[storage_tensor_type(t) or t for t in op.result_types],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=regions,
    )
    b.ops.append(clone)
    replace_op(rewriter, op, b, list(clone.results))
