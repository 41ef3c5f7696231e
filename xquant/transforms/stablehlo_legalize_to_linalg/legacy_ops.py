"""broadcast and torch_index_select, two ops on their way out of StableHLO (upstream:
`BroadcastConverter`, `BroadcastOpToBroadcastConverter` and
`TorchIndexSelectOpConversion` in `StablehloLegalizeToLinalg.cpp`).

Built in the form upstream's `--canonicalize` leaves: index constants hoisted, the
`linalg.index` of a unit result dim folded to 0. Unsigned tensors go through
signless ones as upstream's type converter does; quantized or explicitly signed
element types are left as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IndexType,
    IntegerType,
    Signedness,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.hints import isa

from xquant.dialects.stablehlo.misc import BroadcastOp, TorchIndexSelectOp
from xquant.dialects.stablehlo.syntax import array_values
from xquant.dialects.stablehlo.type_utils import is_quantized
from xquant.dialects.upstream.arith import IndexCastUIOp
from xquant.numerics.values import element_type
from xquant.transforms.stablehlo_legalize_to_linalg.common import (
    IndexConstants,
    Ops,
    build_generic,
    discardable_attributes,
    parallel,
)
from xquant.transforms.stablehlo_legalize_to_linalg.type_conversion import (
    is_unsigned,
    restore_type,
    signless_type,
    signless_value,
)
from xquant.transforms.utils.stablehlo_emitters import shape_of


def _outside_subset(types: Sequence[Attribute]) -> bool:
    """Quantized or explicitly signed element types: upstream's type converter has no rule."""
    return any(
        is_quantized(t)
        or (
            isa(e := element_type(t), IntegerType)
            and e.signedness.data == Signedness.SIGNED
        )
        for t in types
    )


def _dims(
    ops: Ops, constant: IndexConstants, sources: Sequence[tuple[SSAValue, int]]
) -> list[SSAValue]:
    """`tensor.dim` of each (value, dim), in order."""
    return [ops.add(tensor.DimOp(value, constant(d))) for value, d in sources]


@dataclass(frozen=True)
class LowerBroadcast(RewritePattern):
    """A copy generic reading the operand on the trailing dims; with
    `enable_primitive_ops` a `linalg.broadcast` adding the leading dims."""

    enable_primitive_ops: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastOp, rewriter: PatternRewriter) -> None:
        original = op.result.type
        if _outside_subset([op.operand.type, original]):
            return
        assert isa(original, TensorType[Attribute])
        added = len(array_values(op.broadcast_sizes))
        rank = len(shape_of(original))
        ops, hoist = Ops([]), Ops([])
        constant = IndexConstants(hoist)
        operand = signless_value(ops, op.operand)
        result_type = signless_type(original)
        dynamic = _dims(
            ops,
            constant,
            [
                (operand, d - added)
                for d, n in enumerate(shape_of(result_type))
                if n == DYNAMIC_INDEX
            ],
        )
        out = ops.add(tensor.EmptyOp(dynamic, result_type))
        if self.enable_primitive_ops:
            dimensions = DenseArrayBase.from_list(i64, list(range(added)))
            result = ops.add(linalg.BroadcastOp(operand, out, dimensions))
        else:
            exprs = tuple(AffineExpr.dimension(d) for d in range(added, rank))
            (result,) = build_generic(
                ops,
                [operand],
                [AffineMap(rank, 0, exprs)],
                [out],
                [AffineMap.identity(rank)],
                parallel(rank),
                lambda args, _: [args[0]],
            )
        ops.ops[-1].attributes.update(discardable_attributes(op))
        result = restore_type(ops, result, original)
        rewriter.replace(op, [*hoist.ops, *ops.ops], [result])


class LowerTorchIndexSelect(RewritePattern):
    """A generic over the result with the index and a shape-only slice tensor as inputs;
    the body casts the index element and extracts the operand element there."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: TorchIndexSelectOp, rewriter: PatternRewriter
    ) -> None:
        original = op.result.type
        types = [op.operand.type, op.index.type, original]
        if _outside_subset(types):
            return
        assert isa(original, TensorType[Attribute])
        axis, batch = op.axes()
        index_rank = len(shape_of(op.index.type))
        ops, hoist = Ops([]), Ops([])
        constant = IndexConstants(hoist)
        operand = signless_value(ops, op.operand)
        index = signless_value(ops, op.index)
        unsigned_index = is_unsigned(element_type(op.index.type))
        result_type = signless_type(original)
        result_shape = shape_of(result_type)
        rank = len(result_shape)
        picked_end = axis + index_rank - batch
        if rank != len(shape_of(op.operand.type)) - 1 + index_rank - batch:
            return

        def source(i: int) -> tuple[SSAValue, int]:
            """Where result dim `i`'s size comes from."""
            if i < axis:
                return operand, i
            if i < picked_end:
                return index, i - axis + batch
            return operand, i - picked_end + axis + 1

        dynamic = _dims(
            ops,
            constant,
            [source(i) for i, n in enumerate(result_shape) if n == DYNAMIC_INDEX],
        )
        slice_dims = [*range(axis), *range(picked_end, rank)]
        slice_dynamic = _dims(
            ops,
            constant,
            [source(i) for i in slice_dims if result_shape[i] == DYNAMIC_INDEX],
        )
        element = result_type.get_element_type()
        slice_type = TensorType(element, [result_shape[i] for i in slice_dims])
        slice_value = ops.add(tensor.EmptyOp(slice_dynamic, slice_type))
        out = ops.add(tensor.EmptyOp(dynamic, result_type))
        index_map = AffineMap(
            rank,
            0,
            tuple(
                AffineExpr.dimension(d)
                for d in (*range(batch), *range(axis, picked_end))
            ),
        )
        slice_map = AffineMap(
            rank, 0, tuple(AffineExpr.dimension(d) for d in slice_dims)
        )

        def body(args: Sequence[SSAValue], body_ops: Ops) -> list[SSAValue]:
            cast = IndexCastUIOp if unsigned_index else arith.IndexCastOp
            position = body_ops.add(cast(args[0], IndexType()))

            def at(d: int) -> SSAValue:
                if result_shape[d] == 1:
                    return constant(0)
                return body_ops.add(linalg.IndexOp(d))

            indices = [
                *(at(d) for d in range(axis)),
                position,
                *(at(d) for d in range(picked_end, rank)),
            ]
            return [body_ops.add(tensor.ExtractOp(operand, indices, element))]

        (result,) = build_generic(
            ops,
            [index, slice_value],
            [index_map, slice_map],
            [out],
            [AffineMap.identity(rank)],
            parallel(rank),
            body,
        )
        ops.ops[-1].attributes.update(discardable_attributes(op))
        result = restore_type(ops, result, original)
        rewriter.replace(op, [*hoist.ops, *ops.ops], [result])
