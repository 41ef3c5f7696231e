"""broadcast_in_dim, transpose, reshape, concatenate, slice (upstream: `StablehloLegalizeToLinalg.cpp`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.hints import isa

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.quantization import is_quantized
from xquant.dialects.stablehlo.syntax import array_values
from xquant.transforms.stablehlo_emitters import is_static, shape_of
from xquant.transforms.stablehlo_legalize_to_linalg.common import (
    Ops,
    build_generic,
    discardable_attributes,
    empty,
    parallel,
    reassociation,
)


@dataclass(frozen=True)
class LowerBroadcastInDim(RewritePattern):
    """A copy generic whose input map drops (or pins to 0) the broadcast dims.

    With `enable_primitive_ops`, a broadcast that only adds dims (operand dims
    in order, none of size 1 expanded) is a `linalg.broadcast`, as upstream's
    simple case; the others stay generic (upstream would collapse/transpose first).
    """

    enable_primitive_ops: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.BroadcastInDimOp, rewriter: PatternRewriter
    ) -> None:
        if is_quantized(op.operand.type) or not is_static(op.result.type):
            return
        result_type = op.result.type
        assert isa(result_type, TensorType)
        shape, result_shape = shape_of(op.operand.type), shape_of(result_type)
        rank = len(result_shape)
        exprs = tuple(
            AffineExpr.constant(0)
            if shape[i] == 1 and result_shape[d] != 1
            else AffineExpr.dimension(d)
            for i, d in enumerate(op.dims)
        )
        ops = Ops([])
        out = empty(ops, result_type)
        dims = list(op.dims)
        simple = dims == sorted(dims) and all(
            shape[i] == result_shape[d] for i, d in enumerate(dims)
        )
        if self.enable_primitive_ops and simple:
            added = [d for d in range(rank) if d not in dims]
            ops.add(
                linalg.BroadcastOp(
                    op.operand, out, DenseArrayBase.from_list(i64, added)
                )
            )
            ops.ops[-1].attributes.update(discardable_attributes(op))
            rewriter.replace(op, ops.ops)
            return
        (result,) = build_generic(
            ops, [op.operand], [AffineMap(rank, 0, exprs)], [out], [AffineMap.identity(rank)], parallel(rank),
            lambda args, _: [args[0]],
        )  # fmt: skip
        rewriter.replace(op, ops.ops, [result])


def _transposed_empty(
    ops: Ops, source: SSAValue, permutation: list[int], result_type: TensorType[Any]
) -> SSAValue:
    """`tensor.empty` of the transpose's result: dynamic result dim i is `tensor.dim`
    of source dim `permutation[i]`, read in source-dim order after all the index
    constants (upstream's order after folding)."""
    dynamic = [i for i, n in enumerate(shape_of(result_type)) if n == DYNAMIC_INDEX]
    read = sorted({permutation[i] for i in dynamic})
    constants = [ops.add(arith.ConstantOp(IntegerAttr(d, IndexType()))) for d in read]
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
                ops, [op.operand], [AffineMap(rank, 0, tuple(exprs))], [out],
                [AffineMap.identity(rank)], parallel(rank), lambda args, _: [args[0]],
            )  # fmt: skip
        ops.ops[-1].attributes.update(discardable_attributes(op))
        rewriter.replace(op, ops.ops)


class LowerReshape(RewritePattern):
    """Collapse to 1-D (or rank 0), then expand to the result shape."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shlo.ReshapeOp, rewriter: PatternRewriter) -> None:
        if is_quantized(op.operand.type) or not is_static(op.operand.type):
            return
        source, result_type = op.operand.type, op.result.type
        assert isa(source, TensorType) and isa(result_type, TensorType)
        shape, result_shape = shape_of(source), shape_of(result_type)
        element = source.get_element_type()
        ops = Ops([])
        if not shape or not result_shape:
            # Rank 0 <-> all-ones: a copy through constant-0 maps (xDSL rejects empty reassociations).
            rank = len(result_shape)
            out = empty(ops, result_type)
            (result,) = build_generic(
                ops, [op.operand], [AffineMap(rank, 0, (AffineExpr.constant(0),) * len(shape))], [out],
                [AffineMap.identity(rank)], parallel(rank), lambda args, _: [args[0]],
            )  # fmt: skip
            rewriter.replace(op, ops.ops, [result])
            return
        flat_shape = [int(np.prod(shape))]
        value: SSAValue = op.operand
        if len(shape) != len(flat_shape):
            groups = [list(range(len(shape)))]
            value = ops.add(
                tensor.CollapseShapeOp.create(
                    operands=[value], result_types=[TensorType(element, flat_shape)],
                    properties={"reassociation": reassociation(groups)},
                )
            )  # fmt: skip
        if len(result_shape) != len(flat_shape):
            groups = [list(range(len(result_shape)))]
            value = ops.add(
                tensor.ExpandShapeOp(
                    value, [], reassociation(groups), result_shape, result_type
                )
            )
        if value is op.operand:
            rewriter.replace(op, [], [value])
            return
        rewriter.replace(op, ops.ops, [value])


class LowerConcatenate(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.ConcatenateOp, rewriter: PatternRewriter
    ) -> None:
        if is_quantized(op.result.type):
            return
        result_type = op.result.type
        assert isa(result_type, TensorType)
        rewriter.replace(
            op, tensor.ConcatOp(list(op.inputs), op.dimension.value.data, result_type)
        )


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
