"""The StableHLO ops the IREE backend hands to IREE's own input conversion.

`stablehlo-legalize-to-linalg` has no linalg form for `stablehlo.sort` and
`stablehlo.scatter` (upstream's has none either); IREE converts them itself, to
`iree_linalg_ext.sort`/`scatter`, with the scalar ops of their regions, and
takes the linalg around them as it is. So they are printed as they are.

IREE's sort is not stable: on CPU it is a bubble sort that swaps neighbours
unless `comparator(a[j], a[j + 1])` holds, so equal keys trade places. Every
sort is therefore made stable first, as XLA's `StableSortExpander` does: an
index operand (an iota along the sorted dimension) breaks ties,
`less'(a, b) = less(a, b) or (not less(b, a) and index(a) < index(b))`, and its
result is dropped. With a strict weak order the result is then unique: the
stable order, the interpreter's (which sorts stably whether or not `is_stable`
is set, which StableHLO allows).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, TensorType, i1, i32, i64
from xdsl.dialects.linalg.ops import GenericOp, IndexOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.hints import isa

from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo.attributes import (
    ComparisonDirection,
    ComparisonDirectionAttr,
)
from xquant.dialects.stablehlo.bitwise import AndOp, NotOp, OrOp
from xquant.dialects.stablehlo.control_flow import SortOp
from xquant.dialects.stablehlo.reductions import ReturnOp
from xquant.dialects.stablehlo.structural import IotaOp

__all__ = ["IREE_INPUT_OPS", "handed_to_iree", "stabilize_sorts"]

IREE_INPUT_OPS = frozenset({"stablehlo.sort", "stablehlo.scatter"})
"""StableHLO ops printed as they are, for IREE's StableHLO input conversion."""


def handed_to_iree(op: Operation) -> bool:
    """`op` is in `IREE_INPUT_OPS`, or inside one's region (its comparator or update body)."""
    current: Operation | None = op
    while current is not None:
        if current.name in IREE_INPUT_OPS:
            return True
        current = current.parent_op()
    return False


def stabilize_sorts(root: Operation) -> int:
    """Give every `stablehlo.sort` under `root` an index operand that breaks ties
    (see the module's docstring); return how many were rewritten. The iotas are
    `stablehlo.iota` ops, for `stablehlo-legalize-to-linalg` to lower."""
    sorts = [op for op in root.walk() if isinstance(op, SortOp)]
    for op in sorts:
        _stabilize(op)
    return len(sorts)


def _stabilize(op: SortOp) -> None:
    first = op.inputs.types[0]
    assert isa(first, TensorType[Attribute])
    shape = list(first.get_shape())
    dimension = op.dimension.value.data if op.dimension is not None else -1
    dimension %= len(shape)
    old = op.comparator.block
    existing = next(
        (i for i, value in enumerate(op.inputs) if _is_iota(value, dimension)), None
    )
    if existing is None:
        index_element = i32 if shape[dimension] < 2**31 else i64
        index_type = TensorType(index_element, shape)
        iota = IotaOp.create(
            result_types=[index_type],
            properties={"iota_dimension": IntegerAttr(dimension, i64)},
        )
        Rewriter.insert_op(iota, InsertPoint.before(op))
        scalar_index = TensorType(index_element, [])
        block = Block(arg_types=[*old.arg_types, scalar_index, scalar_index])
        pairs = block.args[: len(old.args)]
        index_a, index_b = block.args[-2:]
    else:
        # An operand is already an iota along the sorted dimension (chlo.top_k's
        # indices): its arguments break the ties. (A second iota would be merged
        # with it by IREE's CSE, and IREE rejects a sort writing one value twice.)
        iota = None
        block = Block(arg_types=old.arg_types)
        pairs = block.args
        index_a, index_b = block.args[2 * existing : 2 * existing + 2]
    swapped = [pairs[i ^ 1] for i in range(len(pairs))]
    less_ab = _inline_comparator(old, pairs, block)
    less_ba = _inline_comparator(old, swapped, block)
    index_less = ew.CompareOp.create(
        operands=[index_a, index_b],
        result_types=[TensorType(i1, [])],
        properties={
            "comparison_direction": ComparisonDirectionAttr(ComparisonDirection.LT)
        },
    )
    not_ba = NotOp(less_ba)
    tie = AndOp(not_ba.result, index_less.results[0])
    either = OrOp(less_ab, tie.result)
    block.add_ops(
        [index_less, not_ba, tie, either, ReturnOp.create(operands=[either.result])]
    )
    operands = [*op.inputs] if iota is None else [*op.inputs, iota.results[0]]
    result_types = [*op.result_types]
    if iota is not None:
        result_types.append(iota.results[0].type)
    sort = SortOp.create(
        operands=operands,
        result_types=result_types,
        # IREE's conversion takes the dimension as written and rejects a negative one.
        properties={**op.properties, "dimension": IntegerAttr(dimension, i64)},
        attributes=dict(op.attributes),
        regions=[Region(block)],
    )
    Rewriter.replace_op(op, sort, new_results=list(sort.results[: len(op.results)]))


def _is_iota(value: SSAValue, dimension: int) -> bool:
    """`value` is `stablehlo.iota` along `dimension`, or its lowering: a `linalg.generic`
    without inputs yielding `arith.index_cast(linalg.index dimension)`."""
    owner = value.owner
    if isinstance(owner, IotaOp):
        return owner.iota_dimension.value.data == dimension
    if not isinstance(owner, GenericOp) or owner.inputs or len(owner.outputs) != 1:
        return False
    body = list(owner.body.block.ops)
    if len(body) != 3 or not isinstance(body[0], IndexOp):
        return False
    cast, yielded = body[1], body[2]
    return (
        body[0].dim.value.data == dimension
        and isinstance(cast, arith.IndexCastOp)
        and cast.input == body[0].result
        and isinstance(yielded, YieldOp)
        and tuple(yielded.operands) == (cast.result,)
        and owner.indexing_maps.data[0].data
        == AffineMap.identity(len(owner.iterator_types.data))
    )


def _inline_comparator(
    comparator: Block, arguments: Sequence[SSAValue], into: Block
) -> SSAValue:
    """Clone `comparator`'s ops into `into` on `arguments`; return what it returns."""
    mapping: dict[SSAValue, SSAValue] = dict(zip(comparator.args, arguments))
    returned: SSAValue | None = None
    for inner in comparator.ops:
        if isinstance(inner, ReturnOp):
            returned = mapping.get(inner.operands[0], inner.operands[0])
            continue
        into.add_op(inner.clone(value_mapper=mapping))
    assert returned is not None and isa(returned.type, TensorType[Attribute])
    return returned
