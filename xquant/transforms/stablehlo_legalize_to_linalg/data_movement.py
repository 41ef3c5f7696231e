"""broadcast_in_dim, transpose, reshape, concatenate, slice (upstream: `StablehloLegalizeToLinalg.cpp`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.hints import isa

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.syntax import array_values
from xquant.dialects.stablehlo.type_utils import is_quantized
from xquant.transforms.stablehlo_legalize_to_linalg.common import (
    IndexConstants,
    Ops,
    build_generic,
    discardable_attributes,
    empty,
    index_constant,
    parallel,
    reassociation,
)
from xquant.transforms.stablehlo_legalize_to_linalg.type_conversion import (
    restore_type,
    signless_type,
    signless_value,
)
from xquant.transforms.utils.stablehlo_emitters import is_static, shape_of


@dataclass(frozen=True)
class LowerBroadcastInDim(RewritePattern):
    """A copy generic whose input map drops (or pins to 0) the broadcast dims.

    With `enable_primitive_ops`, upstream's `BroadcastInDimOpToBroadcastConverter`:
    operand dims that expand (size 1 to more) are collapsed away, operand dims
    out of order are put in order by a `linalg.transpose`, and a
    `linalg.broadcast` adds the remaining result dims.
    """

    enable_primitive_ops: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.BroadcastInDimOp, rewriter: PatternRewriter
    ) -> None:
        if is_quantized(op.operand.type) or not is_static(op.result.type):
            return
        original = op.result.type
        assert isa(original, TensorType)
        shape, result_shape = shape_of(op.operand.type), shape_of(original)
        rank = len(result_shape)
        # Unsigned tensors are broadcast as signless ones, as upstream's type converter.
        ops = Ops([])
        source = signless_value(ops, op.operand)
        result_type = signless_type(original)
        if self.enable_primitive_ops and is_static(op.operand.type):
            operand, dims = _collapse_expanding(
                ops, source, list(op.dims), result_shape
            )
            operand, dims = _sorted_broadcast_operand(ops, operand, dims)
            out = empty(ops, result_type)
            added = [d for d in range(rank) if d not in dims]
            broadcast = ops.add(
                linalg.BroadcastOp(operand, out, DenseArrayBase.from_list(i64, added))
            )
            ops.ops[-1].attributes.update(discardable_attributes(op))
            result = restore_type(ops, broadcast, original)
            rewriter.replace(op, ops.ops, [result])
            return
        exprs = tuple(
            AffineExpr.constant(0)
            if shape[i] == 1 and result_shape[d] != 1
            else AffineExpr.dimension(d)
            for i, d in enumerate(op.dims)
        )
        out = empty(ops, result_type)
        (result,) = build_generic(
            ops,
            [source],
            [AffineMap(rank, 0, exprs)],
            [out],
            [AffineMap.identity(rank)],
            parallel(rank),
            lambda args, _: [args[0]],
        )
        result = restore_type(ops, result, original)
        rewriter.replace(op, ops.ops, [result])


def _collapse_expanding(
    ops: Ops, operand: SSAValue, dims: list[int], result_shape: Sequence[int]
) -> tuple[SSAValue, list[int]]:
    """Upstream's `collapseExpandingDims`: operand dims of size 1 that the broadcast
    expands join the group of the dim before them (the first group when they lead),
    so `linalg.broadcast` sees only dims it keeps; returns the collapsed operand and
    its broadcast dims."""
    t = operand.type
    assert isa(t, TensorType[Attribute])
    shape = shape_of(t)
    groups: list[list[int]] = []
    pending: list[int] = []
    kept: list[int] = []
    for i, d in enumerate(dims):
        pending.append(i)
        if not (shape[i] == 1 and result_shape[d] != 1):
            groups.append(pending)
            pending = []
            kept.append(i)
    if groups:
        groups[-1].extend(pending)
    if len(kept) == len(dims):
        return operand, dims
    collapsed = TensorType(t.get_element_type(), [shape[i] for i in kept])
    value = ops.add(
        tensor.CollapseShapeOp.create(
            operands=[operand],
            result_types=[collapsed],
            properties={"reassociation": reassociation(groups)},
        )
    )
    return value, [dims[i] for i in kept]


def _sorted_broadcast_operand(
    ops: Ops, operand: SSAValue, dims: list[int]
) -> tuple[SSAValue, list[int]]:
    """Upstream's `transposeBroadcastOperand`: `linalg.broadcast` cannot permute, so
    an operand whose broadcast dims are out of order is transposed first."""
    if dims == sorted(dims):
        return operand, dims
    t = operand.type
    assert isa(t, TensorType[Attribute])
    permutation = sorted(range(len(dims)), key=lambda i: dims[i])
    shape = shape_of(t)
    transposed = TensorType(t.get_element_type(), [shape[i] for i in permutation])
    out = empty(ops, transposed)
    ops.add(
        linalg.TransposeOp(
            operand, out, DenseArrayBase.from_list(i64, permutation), transposed
        )
    )
    return ops.ops[-1].results[0], [dims[i] for i in permutation]


def _transposed_empty(
    ops: Ops, source: SSAValue, permutation: list[int], result_type: TensorType[Any]
) -> SSAValue:
    """`tensor.empty` of the transpose's result: dynamic result dim i is `tensor.dim`
    of source dim `permutation[i]`, read in source-dim order after all the index
    constants (upstream's order after folding)."""
    dynamic = [i for i, n in enumerate(shape_of(result_type)) if n == DYNAMIC_INDEX]
    read = sorted({permutation[i] for i in dynamic})
    constants = [index_constant(ops, d) for d in read]
    dims = {d: ops.add(tensor.DimOp(source, c)) for d, c in zip(read, constants)}
    return ops.add(tensor.EmptyOp([dims[permutation[i]] for i in dynamic], result_type))


@dataclass(frozen=True)
class LowerTranspose(RewritePattern):
    """A copy generic with a permuted input map, as upstream; with
    `enable_primitive_ops` a `linalg.transpose`."""

    enable_primitive_ops: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.TransposeOp, rewriter: PatternRewriter
    ) -> None:
        if is_quantized(op.operand.type):
            return
        result_type = op.result.type
        assert isa(result_type, TensorType)
        ops = Ops([])
        permutation = list(op.dims)
        out = _transposed_empty(ops, op.operand, permutation, result_type)
        if self.enable_primitive_ops:
            ops.add(
                linalg.TransposeOp(
                    op.operand,
                    out,
                    DenseArrayBase.from_list(i64, permutation),
                    result_type,
                )
            )
        else:
            rank = len(permutation)
            exprs = [AffineExpr.dimension(0)] * rank
            for i, d in enumerate(permutation):
                exprs[d] = AffineExpr.dimension(i)
            build_generic(
                ops,
                [op.operand],
                [AffineMap(rank, 0, tuple(exprs))],
                [out],
                [AffineMap.identity(rank)],
                parallel(rank),
                lambda args, _: [args[0]],
            )
        ops.ops[-1].attributes.update(discardable_attributes(op))
        rewriter.replace(op, ops.ops)


def collapse_groups(
    source: Sequence[int], target: Sequence[int]
) -> list[list[int]] | None:
    """The reassociation collapsing static `source` into `target` (MLIR's
    `getReassociationIndicesForCollapse`): each target dim takes source dims
    greedily until their product matches, trailing 1s join the last group; None
    if no single collapse does it."""
    if len(source) <= len(target):
        return None
    groups: list[list[int]] = []
    d = 0
    while d < len(source) and len(groups) < len(target):
        want = target[len(groups)]
        group: list[int] = []
        product = 1
        while d < len(source) - 1 and product * source[d] < want:
            product *= source[d]
            group.append(d)
            d += 1
        if product * source[d] != want:
            return None
        group.append(d)
        d += 1
        groups.append(group)
    if len(groups) != len(target) or any(n != 1 for n in source[d:]):
        return None
    if groups:
        groups[-1].extend(range(d, len(source)))
    return groups


@dataclass(frozen=True)
class LowerReshape(RewritePattern):
    """As upstream's `ReshapeOpConverter` (static results): one
    `tensor.collapse_shape` or `tensor.expand_shape` when a single one does it
    (rank 0 with an empty reassociation), else collapse to 1-D, `tensor.cast`
    a dynamic length to the static one, and expand; a result with no elements
    is a `tensor.empty`. A dynamic operand of a rank-0 result is cast to all
    ones first; other dynamic operands always go through 1-D."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shlo.ReshapeOp, rewriter: PatternRewriter) -> None:
        source, result_type = op.operand.type, op.result.type
        if is_quantized(source) or not is_static(result_type):
            return
        assert isa(source, TensorType) and isa(result_type, TensorType)
        if source == result_type:
            rewriter.replace(op, [], [op.operand])
            return
        shape, result_shape = shape_of(source), shape_of(result_type)
        if 0 in result_shape:
            rewriter.replace(op, tensor.EmptyOp([], result_type))
            return
        # Unsigned tensors are reshaped as signless ones, as upstream's type converter.
        ops = Ops([])
        value = signless_value(ops, op.operand)
        target = signless_type(result_type)
        element = target.get_element_type()
        static = is_static(source)
        if not result_shape and not static:
            ones = TensorType(element, [1] * len(shape))
            value = ops.add(tensor.CastOp(value, ones))
            value = ops.add(_collapse(value, [], target))
        elif static and len(result_shape) < len(shape):
            groups = collapse_groups(shape, result_shape)
            if groups is not None:
                value = ops.add(_collapse(value, groups, target))
        elif static and len(result_shape) > len(shape):
            groups = collapse_groups(result_shape, shape)
            if groups is not None:
                value = ops.add(_expand(value, groups, target))
        if value.type != target:  # no single reshape: through 1-D
            size = int(np.prod(result_shape))
            if len(shape) != 1:
                flat = [size] if static else [DYNAMIC_INDEX]
                groups = [list(range(len(shape)))]
                value = ops.add(_collapse(value, groups, TensorType(element, flat)))
            if not static:
                value = ops.add(tensor.CastOp(value, TensorType(element, [size])))
            if len(result_shape) != 1:
                groups = [list(range(len(result_shape)))]
                value = ops.add(_expand(value, groups, target))
        result = restore_type(ops, value, result_type)
        rewriter.replace(op, ops.ops, [result])


def _collapse(
    value: SSAValue, groups: list[list[int]], result_type: TensorType[Any]
) -> Operation:
    return tensor.CollapseShapeOp.create(
        operands=[value],
        result_types=[result_type],
        properties={"reassociation": reassociation(groups)},
    )


def _expand(
    value: SSAValue, groups: list[list[int]], result_type: TensorType[Any]
) -> Operation:
    return tensor.ExpandShapeOp(
        value, [], reassociation(groups), shape_of(result_type), result_type
    )


@dataclass(frozen=True)
class LowerConcatenate(RewritePattern):
    """Upstream's `ConcatenateConverter`: one operand is the result itself; with
    `enable_primitive_ops` a `tensor.concat`, else a `linalg.generic` over the
    result whose body picks the operand by comparing the concat-dim index with
    the running sizes (an `scf.if` chain) and extracts the element, in the
    form upstream's `--canonicalize` leaves it (sizes folded, constants hoisted).

    Deviation: static shapes get the `tensor.concat` in both modes. The generic
    form has a region in its body, which the interpreter runs element by element
    (minutes for a 256x1024 result, against milliseconds for `tensor.concat`);
    upstream's tests only pin the generic form for dynamic shapes."""

    enable_primitive_ops: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.ConcatenateOp, rewriter: PatternRewriter
    ) -> None:
        if is_quantized(op.result.type):
            return
        original = op.result.type
        assert isa(original, TensorType)
        if len(op.inputs) == 1:
            rewriter.replace(op, [], [op.inputs[0]])
            return
        static = all(is_static(t) for t in (*op.operand_types, original))
        if self.enable_primitive_ops or static:
            rewriter.replace(
                op, tensor.ConcatOp(list(op.inputs), op.dimension.value.data, original)
            )
            return
        ops, hoist = Ops([]), Ops([])
        constant = IndexConstants(hoist)
        inputs = [signless_value(ops, v) for v in op.inputs]
        result_type = signless_type(original)
        dim = op.dimension.value.data
        rank = len(shape_of(result_type))
        element = result_type.get_element_type()

        def size(b: Ops, value: SSAValue, d: int) -> SSAValue | int:
            n = shape_of(value.type)[d]
            if n != DYNAMIC_INDEX:
                return n
            return b.add(tensor.DimOp(value, constant(d)))

        def add(b: Ops, lhs: SSAValue | int, rhs: SSAValue | int) -> SSAValue | int:
            if isinstance(lhs, int) and isinstance(rhs, int):
                return lhs + rhs
            if isinstance(lhs, int) and lhs == 0:
                return rhs
            as_value = [constant(x) if isinstance(x, int) else x for x in (lhs, rhs)]
            return b.add(arith.AddiOp(as_value[0], as_value[1]))

        def value(x: SSAValue | int) -> SSAValue:
            return constant(x) if isinstance(x, int) else x

        dynamic: list[SSAValue] = []
        for d, n in enumerate(shape_of(result_type)):
            if n != DYNAMIC_INDEX:
                continue
            if d != dim:
                dynamic.append(value(size(ops, inputs[0], d)))
                continue
            sizes = [size(ops, v, d) for v in inputs]
            total: SSAValue | int = 0
            for s in sizes:
                total = add(ops, total, s)
            dynamic.append(value(total))
        out = ops.add(tensor.EmptyOp(dynamic, result_type))

        def body(_: Sequence[SSAValue], body_ops: Ops) -> list[SSAValue]:
            index = [
                constant(0)
                if shape_of(result_type)[d] == 1
                else body_ops.add(linalg.IndexOp(d))
                for d in range(rank)
                if d != dim
            ]
            at = body_ops.add(linalg.IndexOp(dim))

            def extract(b: Ops, operand: SSAValue, offset: SSAValue | int) -> SSAValue:
                position = at
                if not (isinstance(offset, int) and offset == 0):
                    position = b.add(arith.SubiOp(at, value(offset)))
                indices = [*index[:dim], position, *index[dim:]]
                return b.add(tensor.ExtractOp(operand, indices, element))

            def select(b: Ops, k: int, offset: SSAValue | int) -> SSAValue:
                if k == len(inputs) - 1:
                    return extract(b, inputs[k], offset)
                end = add(b, offset, size(b, inputs[k], dim))
                less = b.add(arith.CmpiOp(at, value(end), "ult"))
                then_ops, else_ops = Ops([]), Ops([])
                then_value = extract(then_ops, inputs[k], offset)
                else_value = select(else_ops, k + 1, end)
                then_ops.ops.append(scf.YieldOp(then_value))
                else_ops.ops.append(scf.YieldOp(else_value))
                return b.add(
                    scf.IfOp(
                        less,
                        [element],
                        Region(Block(then_ops.ops)),
                        Region(Block(else_ops.ops)),
                    )
                )

            return [select(body_ops, 0, 0)]

        (result,) = build_generic(
            ops, [], [], [out], [AffineMap.identity(rank)], parallel(rank), body
        )
        ops.ops[-1].attributes.update(discardable_attributes(op))
        result = restore_type(ops, result, original)
        rewriter.replace(op, [*hoist.ops, *ops.ops], [result])


class LowerSlice(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shlo.SliceOp, rewriter: PatternRewriter) -> None:
        if is_quantized(op.result.type):
            return
        rewriter.replace(
            op,
            tensor.ExtractSliceOp.from_static_parameters(
                op.operand,
                array_values(op.start_indices),
                shape_of(op.result.type),
                array_values(op.strides),
            ),
        )
