"""reduce and reduce_window (upstream: `StablehloToLinalgReduce.cpp`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    IndexType,
    TensorType,
    VectorType,
    f32,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.hints import isa

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.type_utils import is_quantized
from xquant.dialects.upstream import linalg as upstream_linalg
from xquant.numerics.values import element_type
from xquant.transforms.stablehlo_legalize_to_linalg.common import (
    Ops,
    Unsupported,
    build_generic,
    discardable_attributes,
    empty,
    index_constant,
    parallel,
)
from xquant.transforms.stablehlo_legalize_to_linalg.scalar_ops import (
    emit_convert,
    emit_scalar,
)
from xquant.transforms.stablehlo_legalize_to_linalg.type_conversion import (
    signed_or_unsigned,
)
from xquant.transforms.utils.stablehlo_emitters import is_static, shape_of


def captured(value: SSAValue, hoist: Ops) -> SSAValue:
    """A rank-0 tensor defined outside a reducer body, read once before the op."""
    if shape_of(value.type):
        raise Unsupported("captured value that is not rank 0")
    return hoist.add(tensor.ExtractOp(value, [], element_type(value.type)))


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
        operands = [
            values[v] if v in values else captured(v, hoist) for v in inner.operands
        ]
        values[inner.results[0]] = emit_scalar(inner, operands, body, hoist)
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


def filled_init(
    ops: Ops,
    hoist: Ops,
    init: SSAValue,
    result_type: Attribute,
    source: SSAValue,
    kept: Sequence[int],
) -> SSAValue:
    """The result tensor filled with the init value: `tensor.extract` + `linalg.fill`, as upstream.

    A dynamic result dim takes its size from `source`'s matching kept dim
    (`tensor.dim`); an init of another element type than the result is converted.
    """
    assert isa(result_type, TensorType[Attribute])
    element, target = element_type(init.type), result_type.get_element_type()
    scalar = ops.add(tensor.ExtractOp(init, [], element))
    scalar = emit_convert(ops, hoist, scalar, element, target)
    sizes: list[SSAValue] = []
    for i, n in enumerate(result_type.get_shape()):
        if n == DYNAMIC_INDEX:
            sizes.append(ops.add(tensor.DimOp(source, index_constant(ops, kept[i]))))
    out = ops.add(tensor.EmptyOp(sizes, result_type))
    return ops.add(linalg.FillOp([scalar], [out], [result_type]))


@dataclass(frozen=True)
class LowerReduce(RewritePattern):
    """The result filled with the init values, then the reduction running the reducer.

    A `linalg.generic` whose input maps put the reduced dims innermost (upstream's
    `getTransposeMapForReduction`), or with `enable_primitive_ops` a
    `linalg.reduce` where xDSL's can express it (one input of the init's type).
    Empty reductions (no dims, or a 0-sized input) are left to canonicalization.
    """

    enable_primitive_ops: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shlo.ReduceOp, rewriter: PatternRewriter) -> None:
        types = [
            *op.operand_types,
            *op.result_types,
            *(a.type for a in op.body.block.args),
        ]
        if any(is_quantized(t) or signed_or_unsigned(t) for t in types):
            return
        shape = shape_of(op.inputs[0].type)
        rank = len(shape)
        dims = list(op.reduced_dimensions)
        if not dims or 0 in shape:
            return
        kept = [d for d in range(rank) if d not in dims]
        ops, hoist = Ops([]), Ops([])
        primitive = self.enable_primitive_ops and self._primitive(op)
        # linalg.reduce keeps the input's sizes; a result StableHLO made dynamic
        # gets them back with a tensor.cast, as upstream's type conversion does.
        out_types = [
            TensorType(element_type(t), [shape[d] for d in kept]) if primitive else t
            for t in op.result_types
        ]
        outs = [
            filled_init(ops, hoist, init, t, source, kept)
            for source, init, t in zip(
                op.inputs, op.init_values, out_types, strict=True
            )
        ]
        try:
            if primitive:
                results = self._reduce(op, outs, sorted(dims), ops, hoist)
            else:
                results = self._generic(op, outs, kept, dims, ops, hoist)
        except Unsupported:
            ops.discard()
            hoist.discard()
            return
        ops.ops[-1].attributes.update(discardable_attributes(op))
        results = [
            value if value.type == t else ops.add(tensor.CastOp(value, t))
            for value, t in zip(results, (r.type for r in op.results_), strict=True)
        ]
        rewriter.replace(op, [*hoist.ops, *ops.ops], results)

    @staticmethod
    def _primitive(op: shlo.ReduceOp) -> bool:
        """`linalg.reduce` needs each input of its init's element type, and
        static sizes (the input's kept ones; the result may have made them dynamic)."""
        dims = op.reduced_dimensions
        for source, result, arg in zip(
            op.inputs, op.result_types, op.body.block.args, strict=False
        ):
            kept = [n for d, n in enumerate(shape_of(source.type)) if d not in dims]
            if element_type(source.type) != element_type(arg.type):
                return False
            if DYNAMIC_INDEX in kept or not all(
                k == n or n == DYNAMIC_INDEX
                for k, n in zip(kept, shape_of(result), strict=True)
            ):
                return False
        return True

    @staticmethod
    def _reduce(
        op: shlo.ReduceOp, outs: list[SSAValue], dims: list[int], ops: Ops, hoist: Ops
    ) -> list[SSAValue]:
        count = len(op.inputs)
        block = Block(arg_types=[element_type(v.type) for v in (*op.inputs, *outs)])
        body = Ops([])
        yielded = reducer(op.body, count, hoist)(block.args, body)
        block.add_ops([*body.ops, linalg.YieldOp(*yielded)])
        reduce = upstream_linalg.ReduceOp(list(op.inputs), outs, dims, Region(block))
        ops.ops.append(reduce)
        return list(reduce.results)

    @staticmethod
    def _generic(
        op: shlo.ReduceOp,
        outs: list[SSAValue],
        kept: list[int],
        dims: list[int],
        ops: Ops,
        hoist: Ops,
    ) -> list[SSAValue]:
        rank = len(kept) + len(dims)
        # Loops: the kept dims, then the reduced ones in the op's order.
        loop_of = {d: i for i, d in enumerate([*kept, *dims])}
        input_map = AffineMap(
            rank, 0, tuple(AffineExpr.dimension(loop_of[d]) for d in range(rank))
        )
        out_map = AffineMap(
            rank, 0, tuple(AffineExpr.dimension(i) for i in range(len(kept)))
        )
        iterators = [
            *parallel(len(kept)),
            *[IteratorTypeAttr(IteratorType.REDUCTION)] * len(dims),
        ]
        count = len(op.inputs)
        return build_generic(
            ops,
            list(op.inputs),
            [input_map] * count,
            outs,
            [out_map] * count,
            iterators,
            reducer(op.body, count, hoist),
        )


_POOLING_KINDS = {
    "stablehlo.add": "sum",
    "stablehlo.maximum": "max",
    "stablehlo.minimum": "min",
}


def _pooling_kind(op: shlo.ReduceWindowOp, index: int) -> str | None:
    """ "sum"/"max"/"min" when result `index` is one such op on its block arguments
    (upstream's `ReduceWindowOp::getReductionOp`), else None."""
    block = op.body.block
    terminator = block.last_op
    if terminator is None or index >= len(terminator.operands):
        return None
    compute = terminator.operands[index].owner
    if not isinstance(compute, Operation) or compute.name not in _POOLING_KINDS:
        return None
    if len(compute.operands) != 2:
        return None
    args = [
        a.index if isinstance(a, BlockArgument) and a.block is block else None
        for a in compute.operands
    ]
    other = index + len(op.inputs)
    # add, maximum and minimum are commutative: either order.
    if (
        sorted(a for a in args if a is not None) != sorted([index, other])
        or None in args
    ):
        return None
    return _POOLING_KINDS[compute.name]


def lower_to_pooling(
    op: shlo.ReduceWindowOp,
) -> tuple[list[Operation], list[SSAValue]] | None:
    """`linalg.pooling_n[d]hwc_{sum,max,min}` per result (upstream's `ReduceWindowOpConversion`).

    As upstream: f32 NHWC/NDHWC inputs, window and strides 1 on the batch and
    channel dims, no padding, no base dilation, and each result reduced by one
    add/maximum/minimum of its block arguments. Each result gets a window-shaped
    `tensor.empty`, a `tensor.empty` of its shape (dynamic sizes from the input:
    `(size - window * dilation) / stride + 1` on spatial dims), the init value
    extracted and filled in.
    """
    rank = len(shape_of(op.result_types[0]))
    if rank not in (4, 5):
        return None
    window, strides, padding = op.window(rank)
    base_dilations, window_dilations = op.dilations(rank)
    if any(p != (0, 0) for p in padding) or any(d != 1 for d in base_dilations):
        return None
    last = rank - 1
    if strides[0] != 1 or strides[last] != 1 or window[0] != 1 or window[last] != 1:
        return None
    if any(element_type(v.type) != f32 for v in op.inputs):
        return None
    kinds = [_pooling_kind(op, i) for i in range(len(op.results))]
    if None in kinds:
        return None
    spatial = list(range(1, last))
    vector = VectorType(i64, [rank - 2])
    strides_attr = DenseIntOrFPElementsAttr.from_list(
        vector, [strides[d] for d in spatial]
    )
    dilations_attr = DenseIntOrFPElementsAttr.from_list(
        vector, [window_dilations[d] for d in spatial]
    )
    ops = Ops([])
    results: list[SSAValue] = []
    for value, init, result_type, kind in zip(
        op.inputs, op.init_values, op.result_types, kinds, strict=True
    ):
        assert isa(result_type, TensorType[Attribute]) and kind is not None
        window_tensor = empty(ops, TensorType(f32, [window[d] for d in spatial]))
        sizes: list[SSAValue] = []
        for d, size in enumerate(result_type.get_shape()):
            if size != DYNAMIC_INDEX:
                continue
            dim = ops.add(tensor.DimOp(value, index_constant(ops, d)))
            if d in spatial:
                offset = index_constant(ops, window[d] * window_dilations[d])
                dim = ops.add(arith.SubiOp(dim, offset))
                dim = ops.add(arith.DivUIOp(dim, index_constant(ops, strides[d])))
                dim = ops.add(arith.AddiOp(dim, index_constant(ops, 1)))
            sizes.append(dim)
        out = ops.add(tensor.EmptyOp(sizes, result_type))
        scalar = ops.add(tensor.ExtractOp(init, [], element_type(init.type)))
        filled = ops.add(linalg.FillOp([scalar], [out], [result_type]))
        pooling = upstream_linalg.CHANNEL_LAST_POOLING[(rank - 2, kind)](
            [value, window_tensor],
            [filled],
            [result_type],
            discardable_attributes(op),
            strides=strides_attr,
            dilations=dilations_attr,
        )
        results.append(ops.add(pooling))
    return ops.ops, results


class LowerReduceWindow(RewritePattern):
    """Upstream's pooling ops where they apply (`lower_to_pooling`), else `tensor.pad`
    with the init value, then a generic over (output dims, window dims)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.ReduceWindowOp, rewriter: PatternRewriter
    ) -> None:
        if (pooling := lower_to_pooling(op)) is not None:
            rewriter.replace(op, *pooling)
            return
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
        if any(lo < 0 or hi < 0 for lo, hi in padding):
            return
        ops, hoist = Ops([]), Ops([])
        # In upstream's order: the broadcast inits, the padded inputs, the window.
        outs = [
            broadcast_scalar(ops, init, cast(TensorType[Attribute], t))
            for init, t in zip(op.init_values, op.result_types, strict=True)
        ]
        padded_inputs = [
            self._pad(ops, value, init, padding, base_dilations)
            for value, init in zip(op.inputs, op.init_values, strict=True)
        ]
        # One reduction loop per window dim of size > 1 (upstream's filtered window).
        window_dims = [d for d in range(rank) if window[d] != 1]
        window_tensor = empty(ops, TensorType(f32, [window[d] for d in window_dims]))
        loops = rank + len(window_dims)
        input_exprs: list[AffineExpr] = []
        for d in range(rank):
            expr = AffineExpr.dimension(d)
            if strides[d] != 1:
                expr = expr * strides[d]
            if d in window_dims:
                window_expr = AffineExpr.dimension(rank + window_dims.index(d))
                if window_dilations[d] != 1:
                    window_expr = window_expr * window_dilations[d]
                expr = expr + window_expr
            input_exprs.append(expr)
        input_map = AffineMap(loops, 0, tuple(input_exprs))
        window_map = AffineMap(
            loops,
            0,
            tuple(AffineExpr.dimension(rank + i) for i in range(len(window_dims))),
        )
        out_map = AffineMap(
            loops, 0, tuple(AffineExpr.dimension(d) for d in range(rank))
        )
        iterators = [
            *parallel(rank),
            *[IteratorTypeAttr(IteratorType.REDUCTION)] * len(window_dims),
        ]
        try:
            results = build_generic(
                ops,
                [*padded_inputs, window_tensor],
                [*[input_map] * count, window_map],
                outs,
                [out_map] * count,
                iterators,
                reducer(op.body, count, hoist),
            )
            ops.ops[-1].attributes.update(discardable_attributes(op))
        except Unsupported:
            ops.discard()
            hoist.discard()
            return
        rewriter.replace(op, [*hoist.ops, *ops.ops], results)

    @staticmethod
    def _pad(
        ops: Ops,
        value: SSAValue,
        init: SSAValue,
        padding: Sequence[tuple[int, int]],
        base_dilations: Sequence[int],
    ) -> SSAValue:
        """The input padded with the init value: `tensor.pad`, or with base
        dilations (interior padding) a `linalg.fill` of the padded shape and a
        strided `tensor.insert_slice`, as upstream's lowering of `stablehlo.pad`."""
        dilated = any(d != 1 for d in base_dilations)
        if not dilated and all(lo == 0 and hi == 0 for lo, hi in padding):
            return value
        source = value.type
        assert isa(source, TensorType[Attribute])
        element = source.get_element_type()
        scalar = ops.add(tensor.ExtractOp(init, [], element))
        shape = [
            (n - 1) * d + 1 + lo + hi
            for n, d, (lo, hi) in zip(
                source.get_shape(), base_dilations, padding, strict=True
            )
        ]
        padded_type = TensorType(element, shape)
        if dilated:
            filled = ops.add(
                linalg.FillOp([scalar], [empty(ops, padded_type)], [padded_type])
            )
            return ops.add(
                tensor.InsertSliceOp.from_static_parameters(
                    value,
                    filled,
                    [lo for lo, _ in padding],
                    source.get_shape(),
                    base_dilations,
                )
            )
        block = Block(arg_types=[IndexType()] * len(shape))
        block.add_op(tensor.YieldOp(scalar))
        return ops.add(
            tensor.PadOp(
                value,
                [],
                [],
                Region(block),
                [lo for lo, _ in padding],
                [hi for _, hi in padding],
                padded_type,
            )
        )


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
        ops,
        [scalar],
        [AffineMap(rank, 0, ())],
        [out],
        [AffineMap.identity(rank)],
        parallel(rank),
        body,
    )
    return result
