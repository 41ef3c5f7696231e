"""gather (upstream: `GatherConversion` in `StablehloLegalizeToLinalg.cpp`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.hints import isa

from xquant.dialects import stablehlo as shlo
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
    is_index_like,
    is_unsigned,
    restore_type,
    signless,
    signless_type,
    signless_value,
)
from xquant.transforms.utils.stablehlo_emitters import shape_of


def is_signed(t: Attribute) -> bool:
    """An explicitly signed integer (`si32`): upstream's type converter has no rule for it."""
    return isa(t, IntegerType) and t.signedness.data == Signedness.SIGNED


class LowerGather(RewritePattern):
    """One parallel generic over the result; its body computes the operand coordinates.

    As upstream (StablehloLegalizeToLinalg's GatherConversion): no inputs, the
    result dims from `linalg.index`; each start index is read from the indices
    tensor with `tensor.extract` (the batch dims of the result, the
    `index_vector_dim` pinned to its position in `start_index_map`), cast with
    `arith.index_cast` and clamped to `[0, operand_dim - slice_size]`; batching
    dims add the result's matching batch dim and offset dims the result's offset
    dim; the element is a `tensor.extract` of the operand. Unsigned indices are
    read with `arith.index_castui`, unsigned elements through signless tensors;
    a dynamic operand dim bounds its start by `tensor.dim - slice size`, a
    dynamic result (batch) dim is sized from its start_indices dim.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shlo.GatherOp, rewriter: PatternRewriter) -> None:
        types = (op.operand.type, op.start_indices.type, op.result.type)
        if any(is_quantized(t) or is_signed(element_type(t)) for t in types):
            return
        if any(0 in shape_of(t) for t in types):
            return
        unsigned_index = is_unsigned(element_type(op.start_indices.type))
        index_element = signless(element_type(op.start_indices.type))
        if not is_index_like(index_element):
            return
        numbers = op.dimension_numbers
        shape = shape_of(op.operand.type)
        indices_shape = shape_of(op.start_indices.type)
        result_type = op.result.type
        assert isa(result_type, TensorType[Attribute])
        result_rank = len(result_type.get_shape())
        sizes = op.sizes
        vector_dim = numbers.index_vector_dim
        batch_dims = [d for d in range(result_rank) if d not in numbers.offset_dims]
        indices_batch = [d for d in range(len(indices_shape)) if d != vector_dim]
        dropped = {*numbers.collapsed_slice_dims, *numbers.operand_batching_dims}
        offset_operand_dims = [d for d in range(len(shape)) if d not in dropped]
        starts = numbers.start_index_map
        vector_size = (
            indices_shape[vector_dim] if vector_dim < len(indices_shape) else 1
        )
        if (
            len(batch_dims) != len(indices_batch)
            or len(offset_operand_dims) != len(numbers.offset_dims)
            or vector_size not in (len(starts), DYNAMIC_INDEX)
            or len(set(starts)) != len(starts)
            or set(starts) & set(numbers.operand_batching_dims)
            or any(sizes[d] != 1 for d in dropped)
        ):
            return
        batching = list(
            zip(numbers.operand_batching_dims, numbers.start_indices_batching_dims)
        )
        if len(batching) != len(numbers.start_indices_batching_dims) or any(
            indices_dim == vector_dim
            or (
                DYNAMIC_INDEX not in (shape[operand_dim], indices_shape[indices_dim])
                and shape[operand_dim] != indices_shape[indices_dim]
            )
            for operand_dim, indices_dim in batching
        ):
            return
        ops, hoist = Ops([]), Ops([])
        # Unsigned tensors are cast to signless ones (and the result back), as upstream.
        operand = signless_value(ops, op.operand)
        start_indices = signless_value(ops, op.start_indices)
        result_type = signless_type(result_type)
        index_constant = IndexConstants(hoist)

        def body(args: Sequence[SSAValue], body_ops: Ops) -> list[SSAValue]:
            result_index: dict[int, SSAValue] = {}

            def index(d: int) -> SSAValue:
                if result_type.get_shape()[d] == 1:
                    # A unit dim's index is 0 (what upstream's canonicalize folds it to).
                    return index_constant(0)
                if d not in result_index:
                    result_index[d] = body_ops.add(linalg.IndexOp(d))
                return result_index[d]

            coordinates: list[list[SSAValue]] = [[] for _ in shape]
            for k, dim in enumerate(starts):
                at = [
                    index_constant(k)
                    if i == vector_dim
                    else index(batch_dims[i if i < vector_dim else i - 1])
                    for i in range(len(indices_shape))
                ]
                start = body_ops.add(tensor.ExtractOp(start_indices, at, index_element))
                if not isinstance(index_element, IndexType):
                    cast = IndexCastUIOp if unsigned_index else arith.IndexCastOp
                    start = body_ops.add(cast(start, IndexType()))
                zero = index_constant(0)
                if shape[dim] == DYNAMIC_INDEX:
                    size = body_ops.add(tensor.DimOp(operand, index_constant(dim)))
                    bound = body_ops.add(arith.SubiOp(size, index_constant(sizes[dim])))
                else:
                    bound = index_constant(shape[dim] - sizes[dim])
                start = body_ops.add(arith.MaxSIOp(start, zero))
                start = body_ops.add(arith.MinSIOp(start, bound))
                coordinates[dim].append(start)
            for operand_dim, indices_dim in batching:
                position = indices_dim if indices_dim < vector_dim else indices_dim - 1
                coordinates[operand_dim].append(index(batch_dims[position]))
            for result_dim, operand_dim in zip(
                numbers.offset_dims, offset_operand_dims, strict=True
            ):
                coordinates[operand_dim].append(index(result_dim))
            operand_index: list[SSAValue] = []
            for terms in coordinates:
                if not terms:
                    operand_index.append(index_constant(0))
                    continue
                total = terms[0]
                for term in terms[1:]:
                    total = body_ops.add(arith.AddiOp(total, term))
                operand_index.append(total)
            element = result_type.get_element_type()
            return [body_ops.add(tensor.ExtractOp(operand, operand_index, element))]

        # Dynamic result dims are batch dims: the size of their start_indices dim.
        sizes_of_result: list[SSAValue] = []
        for d, size in enumerate(result_type.get_shape()):
            if size != DYNAMIC_INDEX:
                continue
            i = indices_batch[batch_dims.index(d)]
            sizes_of_result.append(
                ops.add(tensor.DimOp(start_indices, index_constant(i)))
            )
        out = ops.add(tensor.EmptyOp(sizes_of_result, result_type))
        (result,) = build_generic(
            ops,
            [],
            [],
            [out],
            [AffineMap.identity(result_rank)],
            parallel(result_rank),
            body,
        )
        ops.ops[-1].attributes.update(discardable_attributes(op))
        result = restore_type(ops, result, op.result.type)
        rewriter.replace(op, [*hoist.ops, *ops.ops], [result])
