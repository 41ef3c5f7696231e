"""reduce and reduce_window (upstream: `StablehloToLinalgReduce.cpp`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    IndexType,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.hints import isa
from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.quantization import element_type, is_quantized
from xquant.transforms.stablehlo_ir import is_static, shape_of
from xquant.transforms.stablehlo_legalize_to_linalg.common import (
    Ops,
    Unsupported,
    build_generic,
    empty,
    parallel,
)
from xquant.transforms.stablehlo_legalize_to_linalg.scalar_ops import (
    emit_convert,
    emit_scalar,
)
from xquant.transforms.stablehlo_legalize_to_linalg.type_conversion import (
    signed_or_unsigned,
)


def lower_region_body(
    region: Region, args: Sequence[SSAValue], body: Ops, hoist: Ops
) -> list[SSAValue]:
    """The scalar ops of a reducer body (StableHLO ops on rank-0 tensors), with `args` for its arguments."""
    values: dict[SSAValue, SSAValue] = dict(zip(region.block.args, args, strict=True))
    for inner in region.block.ops:
        if isinstance(inner, shlo.ReturnOp):
            return [values[v] for v in inner.operands]
        if len(inner.results) != 1 or inner.regions:
            raise Unsupported(inner.name)
        values[inner.results[0]] = emit_scalar(
            inner, [values[v] for v in inner.operands], body, hoist
        )
    raise Unsupported("reducer without return")


def reducer(
    region: Region, count: int, hoist: Ops
) -> Callable[[Sequence[SSAValue], Ops], list[SSAValue]]:
    """Body of a reduction generic: generic args are (elements..., [window], accumulators...).

    Elements of another type than the reducer's are converted first (the
    spec's implicit `to_destination_type`, e.g. i8 inputs summed in i32).
    """
    targets = [element_type(a.type) for a in region.block.args[:count]]

    def body(args: Sequence[SSAValue], body_ops: Ops) -> list[SSAValue]:
        elements, accumulators = args[:count], args[len(args) - count :]
        converted = [
            emit_convert(body_ops, hoist, e, e.type, t)
            for e, t in zip(elements, targets, strict=True)
        ]
        return lower_region_body(region, [*accumulators, *converted], body_ops, hoist)

    return body


class LowerReduce(RewritePattern):
    """The init values broadcast to the result, then a generic with reduction iterators running the reducer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shlo.ReduceOp, rewriter: PatternRewriter) -> None:
        types = [
            *op.operand_types,
            *op.result_types,
            *(a.type for a in op.body.block.args),
        ]
        if any(is_quantized(t) or signed_or_unsigned(t) for t in types):
            return
        count = len(op.inputs)
        shape = shape_of(op.inputs[0].type)
        rank = len(shape)
        dims = op.reduced_dimensions
        kept = [d for d in range(rank) if d not in dims]
        ops, hoist = Ops([]), Ops([])
        outs = [
            broadcast_scalar(ops, init, cast(TensorType[Attribute], t), hoist)
            for init, t in zip(op.init_values, op.result_types, strict=True)
        ]
        out_map = AffineMap(rank, 0, tuple(AffineExpr.dimension(d) for d in kept))
        iterators = [
            IteratorTypeAttr(
                IteratorType.REDUCTION if d in dims else IteratorType.PARALLEL
            )
            for d in range(rank)
        ]
        try:
            results = build_generic(
                ops, list(op.inputs), [AffineMap.identity(rank)] * count, outs, [out_map] * count, iterators,
                reducer(op.body, count, hoist),
            )  # fmt: skip
        except Unsupported:
            ops.discard()
            hoist.discard()
            return
        rewriter.replace(op, [*hoist.ops, *ops.ops], results)


class LowerReduceWindow(RewritePattern):
    """`tensor.pad` with the init value, then a generic over (output dims, window dims)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.ReduceWindowOp, rewriter: PatternRewriter
    ) -> None:
        types = [
            *op.operand_types,
            *op.result_types,
            *(a.type for a in op.body.block.args),
        ]
        if any(
            is_quantized(t) or signed_or_unsigned(t) or not is_static(t) for t in types
        ):
            return
        if any(
            element_type(a) != element_type(b)
            for a, b in zip(
                op.operand_types, types[len(op.operands) + len(op.results) :]
            )
        ):
            return
        count = len(op.inputs)
        shape = shape_of(op.inputs[0].type)
        rank = len(shape)
        window, strides, padding = op.window(rank)
        base_dilations, window_dilations = op.dilations(rank)
        if any(d != 1 for d in base_dilations) or any(
            lo < 0 or hi < 0 for lo, hi in padding
        ):
            return
        ops, hoist = Ops([]), Ops([])
        padded_inputs: list[SSAValue] = []
        for value, init in zip(op.inputs, op.init_values, strict=True):
            padded_inputs.append(self._pad(ops, value, init, padding))
        window_type = TensorType(element_type(op.inputs[0].type), list(window))
        window_tensor = empty(ops, window_type)
        outs = [
            broadcast_scalar(ops, init, cast(TensorType[Attribute], t))
            for init, t in zip(op.init_values, op.result_types, strict=True)
        ]
        loops = 2 * rank
        input_map = AffineMap(
            loops, 0,
            tuple(AffineExpr.dimension(d) * strides[d] + AffineExpr.dimension(rank + d) * window_dilations[d] for d in range(rank)),
        )  # fmt: skip
        window_map = AffineMap(
            loops, 0, tuple(AffineExpr.dimension(rank + d) for d in range(rank))
        )
        out_map = AffineMap(
            loops, 0, tuple(AffineExpr.dimension(d) for d in range(rank))
        )
        iterators = [
            *parallel(rank),
            *[IteratorTypeAttr(IteratorType.REDUCTION)] * rank,
        ]
        try:
            results = build_generic(
                ops, [*padded_inputs, window_tensor], [*[input_map] * count, window_map], outs, [out_map] * count,
                iterators, reducer(op.body, count, hoist),
            )  # fmt: skip
        except Unsupported:
            ops.discard()
            hoist.discard()
            return
        rewriter.replace(op, [*hoist.ops, *ops.ops], results)

    @staticmethod
    def _pad(
        ops: Ops, value: SSAValue, init: SSAValue, padding: Sequence[tuple[int, int]]
    ) -> SSAValue:
        if all(lo == 0 and hi == 0 for lo, hi in padding):
            return value
        source = value.type
        assert isa(source, TensorType)
        element = source.get_element_type()
        scalar = ops.add(tensor.ExtractOp(init, [], element))
        shape = [
            n + lo + hi for n, (lo, hi) in zip(source.get_shape(), padding, strict=True)
        ]
        block = Block(arg_types=[IndexType()] * len(shape))
        block.add_op(tensor.YieldOp(scalar))
        return ops.add(
            tensor.PadOp(
                value, [], [], Region(block), [lo for lo, _ in padding], [hi for _, hi in padding],
                TensorType(element, shape),
            )
        )  # fmt: skip


def broadcast_scalar(
    ops: Ops,
    scalar: SSAValue,
    result_type: TensorType[Attribute],
    hoist: Ops | None = None,
) -> SSAValue:
    """A rank-0 tensor broadcast to `result_type` (a generic with an empty input map).

    With `hoist`, the element is converted to the result's element type on the way.
    """
    rank = len(result_type.get_shape())
    out = empty(ops, result_type)
    source, target = element_type(scalar.type), result_type.get_element_type()

    def body(args: Sequence[SSAValue], body_ops: Ops) -> list[SSAValue]:
        if hoist is None or source == target:
            return [args[0]]
        return [emit_convert(body_ops, hoist, args[0], source, target)]

    (result,) = build_generic(
        ops, [scalar], [AffineMap(rank, 0, ())], [out], [AffineMap.identity(rank)], parallel(rank), body,
    )  # fmt: skip
    return result
