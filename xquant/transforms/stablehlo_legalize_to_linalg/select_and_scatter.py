"""select_and_scatter (upstream: `SelectAndScatterNoOverlapConverter`), with the spec's tie rule.

Upstream's structure: a first generic over (source dims, window dims) keeps, per
window, the selected value and its row-major position in the stride tile (i32,
-1 for none yet); a second generic over the source dims each split into
(tile, stride) writes `scatter(init, source)` where the position matches and the
init elsewhere; a `tensor.collapse_shape` merges each (tile, stride) pair.

Two differences make the result the interpreter's bit for bit:

- the select region runs as `select(current, candidate)` and the candidate is
  taken when it returns false (the spec's C8, XLA: among equal elements the
  first one wins); upstream runs `select(candidate, current)` and takes the
  candidate when it returns true, so the last equal element wins;
- the scatter region runs as `scatter(accumulated, source)`, the interpreter's
  order (upstream: `scatter(source, accumulated)`; equal for commutative regions).

Beyond upstream: padding (window positions in the padding are never selected;
the result is cut out of the padded frame with `tensor.pad`/`tensor.extract_slice`
with the init value), windows of one element, and overlapping windows (a stride
below its window size: the first generic numbers positions in the window, then
one generic per window position updates a strided slice of the padded result,
positions in reverse row-major order, which gives every element its
contributions in source order, as the interpreter folds them). Left unlowered
(the IREE backend then names the op in a located error): dynamic shapes, empty
tensors, negative padding, and quantized, unsigned or promoted (wider
accumulator) element types.

The value output of the first generic is a `tensor.empty`, as upstream's; unlike
upstream's, the select region never reads it (before the first element is taken
it gets the candidate twice, and its result is not used), so no region runs on
uninitialized values. IREE still warns that the generic reads a `tensor.empty`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import IndexType, TensorType, i1, i32
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.type_utils import is_quantized
from xquant.numerics.values import element_type
from xquant.transforms.stablehlo_legalize_to_linalg.common import (
    IndexConstants,
    Ops,
    Unsupported,
    build_generic,
    discardable_attributes,
    empty,
    parallel,
    reassociation,
)
from xquant.transforms.stablehlo_legalize_to_linalg.reduce import lower_region_body
from xquant.transforms.stablehlo_legalize_to_linalg.type_conversion import (
    signed_or_unsigned,
)
from xquant.transforms.utils.quant_emitters import scalar_constant
from xquant.transforms.utils.stablehlo_emitters import is_static, shape_of


def _supported(op: shlo.SelectAndScatterOp) -> bool:
    """Static, signless, unquantized, every region argument of the operand's element type."""
    element = element_type(op.operand.type)
    types: list[Attribute] = [
        op.operand.type,
        op.source.type,
        op.init_value.type,
        op.result.type,
        *(a.type for a in op.select.block.args),
        *(a.type for a in op.scatter.block.args),
    ]
    if any(is_quantized(t) or signed_or_unsigned(t) or not is_static(t) for t in types):
        return False
    args = [*op.select.block.args, *op.scatter.block.args]
    return (
        all(element_type(a.type) == element for a in args)
        and element_type(op.result.type) == element
        and 0 not in (*shape_of(op.operand.type), *shape_of(op.source.type))
    )


class LowerSelectAndScatter(RewritePattern):
    """Two generics and a collapse (upstream's), selecting the first of equal elements."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.SelectAndScatterOp, rewriter: PatternRewriter
    ) -> None:
        if not _supported(op):
            return
        shape = list(shape_of(op.operand.type))
        rank = len(shape)
        window, strides, padding = op.window(rank)
        if any(lo < 0 or hi < 0 for lo, hi in padding):
            return
        ops, hoist = Ops([]), Ops([])
        try:
            result = _lower(op, shape, window, strides, padding, ops, hoist)
        except Unsupported:
            return
        rewriter.replace(op, [*hoist.ops, *ops.ops], [result])


def _lower(
    op: shlo.SelectAndScatterOp,
    shape: list[int],
    window: Sequence[int],
    strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    ops: Ops,
    hoist: Ops,
) -> SSAValue:
    rank = len(shape)
    element = element_type(op.operand.type)
    source_shape = list(shape_of(op.source.type))
    attributes = discardable_attributes(op)
    index = IndexConstants(hoist)
    minus_one = scalar_constant(hoist, -1, i32)

    overlap = any(s < w for s, w in zip(strides, window, strict=True))
    # A reduction loop per dim with a stride > 1 (upstream's filtered window),
    # positions in the stride tile; with overlapping windows, a loop per dim
    # with a window > 1, positions in the window.
    tiled = [d for d in range(rank) if (window if overlap else strides)[d] != 1]
    widths = window if overlap else strides
    loops = rank + len(tiled)
    positions: list[AffineExpr] = []
    for d in range(rank):
        expr = AffineExpr.dimension(d)
        if strides[d] != 1:
            expr = expr * strides[d]
        if d in tiled:
            expr = expr + AffineExpr.dimension(rank + tiled.index(d))
        positions.append(expr)
    window_map = AffineMap(
        loops, 0, tuple(AffineExpr.dimension(rank + i) for i in range(len(tiled)))
    )
    out_map = AffineMap(loops, 0, tuple(AffineExpr.dimension(d) for d in range(rank)))

    values = empty(ops, TensorType(element, source_shape))
    indices_type = TensorType(i32, source_shape)
    indices = ops.add(
        linalg.FillOp([minus_one], [empty(ops, indices_type)], [indices_type])
    )
    window_tensor = empty(ops, TensorType(element, [window[d] for d in tiled]))
    operand = _pad_operand(op.operand, shape, padding, ops, hoist)
    padded = [d for d in range(rank) if padding[d] != (0, 0)]

    def select_body(args: Sequence[SSAValue], body: Ops) -> list[SSAValue]:
        candidate, _, current, current_index = args
        first = body.add(arith.CmpiOp(current_index, minus_one, "eq"))
        # Before the first element `current` is the uninitialized tensor.empty:
        # the region sees the candidate instead (its result is not used then).
        known = body.add(arith.SelectOp(first, candidate, current))
        (keep,) = lower_region_body(op.select, [known, candidate], body, hoist)
        true = scalar_constant(hoist, 1, i1)
        replace = body.add(arith.XOrIOp(keep, true))
        take = body.add(arith.OrIOp(replace, first))
        for d in padded:  # window positions in the padding are never taken
            take = body.add(
                arith.AndIOp(
                    take, _inside(d, shape, strides, padding, tiled, body, index)
                )
            )
        position = _tile_position(
            [(rank + i, widths[d]) for i, d in enumerate(tiled)], body, index
        )
        position = body.add(arith.IndexCastOp(position, i32))
        chosen_index = body.add(arith.SelectOp(take, position, current_index))
        chosen = body.add(arith.SelectOp(take, candidate, current))
        return [chosen, chosen_index]

    reduction = IteratorTypeAttr(IteratorType.REDUCTION)
    _, selected = build_generic(
        ops,
        [operand, window_tensor],
        [AffineMap(loops, 0, tuple(positions)), window_map],
        [values, indices],
        [out_map, out_map],
        [*parallel(rank), *[reduction] * len(tiled)],
        select_body,
    )
    ops.ops[-1].attributes.update(attributes)
    if overlap:
        return _scatter_overlapping(
            op, shape, window, strides, padding, tiled, selected, ops, hoist
        )

    # Each source element broadcast over its (tile, stride) block.
    tiles: list[int] = []
    tile_exprs: list[AffineExpr] = []
    stride_loops: list[tuple[int, int]] = []
    for d in range(rank):
        tile_exprs.append(AffineExpr.dimension(len(tiles)))
        tiles.append(source_shape[d])
        if strides[d] > 1:
            stride_loops.append((len(tiles), strides[d]))
            tiles.append(strides[d])
    tiles_type = TensorType(element, tiles)
    tiles_empty = empty(ops, tiles_type)
    init = ops.add(tensor.ExtractOp(op.init_value, [], element))
    filled = ops.add(linalg.FillOp([init], [tiles_empty], [tiles_type]))
    tile_map = AffineMap(len(tiles), 0, tuple(tile_exprs))

    def scatter_body(args: Sequence[SSAValue], body: Ops) -> list[SSAValue]:
        chosen_index, update, accumulated = args
        (combined,) = lower_region_body(op.scatter, [accumulated, update], body, hoist)
        position = _tile_position(stride_loops, body, index)
        position = body.add(arith.IndexCastOp(position, i32))
        hit = body.add(arith.CmpiOp(position, chosen_index, "eq"))
        return [body.add(arith.SelectOp(hit, combined, accumulated))]

    (scattered,) = build_generic(
        ops,
        [selected, op.source],
        [tile_map, tile_map],
        [filled],
        [AffineMap.identity(len(tiles))],
        parallel(len(tiles)),
        scatter_body,
    )
    ops.ops[-1].attributes.update(attributes)

    groups: list[list[int]] = []
    start = 0
    for d in range(rank):
        size = 2 if strides[d] > 1 else 1
        groups.append(list(range(start, start + size)))
        start += size
    collapsed_shape = [n * s for n, s in zip(source_shape, strides, strict=True)]
    result: SSAValue = scattered
    if len(tiles) != rank:
        result = ops.add(
            tensor.CollapseShapeOp.create(
                operands=[scattered],
                result_types=[TensorType(element, collapsed_shape)],
                properties={"reassociation": reassociation(groups)},
            )
        )
    # The result is the operand's frame [lo, lo + n) of the padded one.
    high = [
        max(lo + n - c, 0)
        for (lo, _), n, c in zip(padding, shape, collapsed_shape, strict=True)
    ]
    if any(high):
        block = Block(arg_types=[IndexType()] * rank)
        block.add_op(tensor.YieldOp(init))
        padded_shape = [c + h for c, h in zip(collapsed_shape, high, strict=True)]
        result = ops.add(
            tensor.PadOp(
                result,
                [],
                [],
                Region(block),
                [0] * rank,
                high,
                TensorType(element, padded_shape),
            )
        )
        collapsed_shape = padded_shape
    offsets = [lo for lo, _ in padding]
    if any(offsets) or collapsed_shape != shape:
        result = ops.add(
            tensor.ExtractSliceOp.from_static_parameters(result, offsets, shape)
        )
    return result


def _scatter_overlapping(
    op: shlo.SelectAndScatterOp,
    shape: list[int],
    window: Sequence[int],
    strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    tiled: list[int],
    selected: SSAValue,
    ops: Ops,
    hoist: Ops,
) -> SSAValue:
    """Overlapping windows: one generic per window position on a strided slice of the
    padded result, in reverse row-major order of positions (so each element gets
    its contributions in source order, as the interpreter folds them)."""
    rank = len(shape)
    element = element_type(op.operand.type)
    source_shape = list(shape_of(op.source.type))
    frame_shape = [n + lo + hi for n, (lo, hi) in zip(shape, padding, strict=True)]
    frame_type = TensorType(element, frame_shape)
    init = ops.add(tensor.ExtractOp(op.init_value, [], element))
    frame = ops.add(linalg.FillOp([init], [empty(ops, frame_type)], [frame_type]))
    identity = AffineMap.identity(rank)
    offsets_list = list(itertools.product(*(range(w) for w in window)))
    for offsets in reversed(offsets_list):
        code = 0
        for d in tiled:
            code = code * window[d] + offsets[d]
        code_value = scalar_constant(hoist, code, i32)
        part = ops.add(
            tensor.ExtractSliceOp.from_static_parameters(
                frame, list(offsets), source_shape, list(strides)
            )
        )

        def body_fn(
            args: Sequence[SSAValue], body: Ops, code_value: SSAValue = code_value
        ) -> list[SSAValue]:
            chosen_index, update, accumulated = args
            (combined,) = lower_region_body(
                op.scatter, [accumulated, update], body, hoist
            )
            hit = body.add(arith.CmpiOp(chosen_index, code_value, "eq"))
            return [body.add(arith.SelectOp(hit, combined, accumulated))]

        (updated,) = build_generic(
            ops,
            [selected, op.source],
            [identity, identity],
            [part],
            [identity],
            parallel(rank),
            body_fn,
        )
        ops.ops[-1].attributes.update(discardable_attributes(op))
        frame = ops.add(
            tensor.InsertSliceOp.from_static_parameters(
                updated, frame, list(offsets), source_shape, list(strides)
            )
        )
    if frame_shape != shape:
        frame = ops.add(
            tensor.ExtractSliceOp.from_static_parameters(
                frame, [lo for lo, _ in padding], shape
            )
        )
    return frame


def _pad_operand(
    operand: SSAValue,
    shape: list[int],
    padding: Sequence[tuple[int, int]],
    ops: Ops,
    hoist: Ops,
) -> SSAValue:
    """The operand padded with zeros (never selected: `_inside` masks them)."""
    if all(p == (0, 0) for p in padding):
        return operand
    element = element_type(operand.type)
    zero = scalar_constant(hoist, 0, element)
    block = Block(arg_types=[IndexType()] * len(shape))
    block.add_op(tensor.YieldOp(zero))
    padded_shape = [n + lo + hi for n, (lo, hi) in zip(shape, padding, strict=True)]
    return ops.add(
        tensor.PadOp(
            operand,
            [],
            [],
            Region(block),
            [lo for lo, _ in padding],
            [hi for _, hi in padding],
            TensorType(element, padded_shape),
        )
    )


def _inside(
    d: int,
    shape: list[int],
    strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    tiled: list[int],
    body: Ops,
    index: IndexConstants,
) -> SSAValue:
    """Whether the window position along dim `d` is in the operand, not its padding."""
    rank = len(shape)
    position = body.add(linalg.IndexOp(d))
    if strides[d] != 1:
        position = body.add(arith.MuliOp(position, index(strides[d])))
    if d in tiled:
        offset = body.add(linalg.IndexOp(rank + tiled.index(d)))
        position = body.add(arith.AddiOp(position, offset))
    lo = padding[d][0]
    low = body.add(arith.CmpiOp(position, index(lo), "sge"))
    high = body.add(arith.CmpiOp(position, index(lo + shape[d]), "slt"))
    return body.add(arith.AndIOp(low, high))


def _tile_position(
    loops: Sequence[tuple[int, int]], body: Ops, index: IndexConstants
) -> SSAValue:
    """The row-major position in the stride tile: `((i0 * s1) + i1) * s2 + i2 ...`."""
    if not loops:
        return index(0)
    # The linalg.index ops first, then the arithmetic (upstream's order once folded).
    loop_indices = [body.add(linalg.IndexOp(loop)) for loop, _ in loops]
    position = loop_indices[0]
    for (_, stride), loop_index in zip(loops[1:], loop_indices[1:], strict=True):
        scaled = body.add(arith.MuliOp(position, index(stride)))
        position = body.add(arith.AddiOp(scaled, loop_index))
    return position


__all__ = ["LowerSelectAndScatter"]
