"""Shared builders: the op list a pattern stages, scalar constants, `linalg.generic` and `tensor.empty`."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import IRDLOperation

from xquant.dialects.upstream import linalg as upstream_linalg
from xquant.numerics.values import element_type
from xquant.transforms.utils.op_list import OpList, index_constant
from xquant.transforms.utils.stablehlo_emitters import shape_of


class Unsupported(Exception):
    """The op (or one in its body) has no lowering here; it is left unchanged."""


class Ops(OpList):
    """Ops built in order; a pattern keeps two, the body and the hoisted ones that go
    before everything (constants captured by bodies)."""


def parallel(n: int) -> list[IteratorTypeAttr]:
    return [IteratorTypeAttr(IteratorType.PARALLEL)] * n


def empty(ops: Ops, t: TensorType[Attribute]) -> SSAValue:
    return ops.add(tensor.EmptyOp([], t))


class IndexConstants:
    """`arith.constant ... : index` values, one per value, staged in `ops`."""

    def __init__(self, ops: Ops):
        self.ops = ops
        self.values: dict[int, SSAValue] = {}

    def __call__(self, value: int) -> SSAValue:
        if value not in self.values:
            self.values[value] = index_constant(self.ops, value)
        return self.values[value]


def build_generic(
    ops: Ops,
    inputs: Sequence[SSAValue],
    input_maps: Sequence[AffineMap],
    outputs: Sequence[SSAValue],
    output_maps: Sequence[AffineMap],
    iterators: Sequence[IteratorTypeAttr],
    body_fn: Callable[[Sequence[SSAValue], Ops], Sequence[SSAValue]],
) -> list[SSAValue]:
    """A `linalg.generic`; `body_fn(block args, body ops)` returns the yielded values."""
    block = Block(arg_types=[element_type(v.type) for v in (*inputs, *outputs)])
    body = Ops([])
    yielded = body_fn(block.args, body)
    block.add_ops([*body.ops, linalg.YieldOp(*yielded)])
    generic = linalg.GenericOp(
        list(inputs),
        list(outputs),
        Region(block),
        [AffineMapAttr(m) for m in (*input_maps, *output_maps)],
        list(iterators),
        [v.type for v in outputs],
    )
    ops.ops.append(generic)
    return list(generic.results)


def build_map(
    ops: Ops,
    inputs: Sequence[SSAValue],
    init: SSAValue,
    body_fn: Callable[[Sequence[SSAValue], Ops], Sequence[SSAValue]],
) -> list[SSAValue]:
    """A `linalg.map`; `body_fn(block args, body ops)` returns the yielded value."""
    block = Block(arg_types=[element_type(v.type) for v in (*inputs, init)])
    body = Ops([])
    yielded = body_fn(block.args, body)
    block.add_ops([*body.ops, linalg.YieldOp(*yielded)])
    mapped = upstream_linalg.MapOp(list(inputs), init, Region(block))
    ops.ops.append(mapped)
    return list(mapped.results)


def operand_map(t: Attribute, rank: int) -> AffineMap:
    """Identity for a full-rank operand, the empty map for a rank-0 one (broadcast)."""
    return (
        AffineMap.identity(rank) if len(shape_of(t)) == rank else AffineMap(rank, 0, ())
    )


def reassociation(
    groups: Sequence[Sequence[int]],
) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    return ArrayAttr(ArrayAttr(IntegerAttr(d, i64) for d in group) for group in groups)


def discardable_attributes(op: Operation) -> dict[str, Attribute]:
    """The op's attributes that are not part of its definition (upstream's
    `getPrunedAttributeList`): they are carried over to the linalg op."""
    inherent = (
        type(op).get_irdl_definition().attributes
        if isinstance(op, IRDLOperation)
        else {}
    )
    return {
        name: value for name, value in op.attributes.items() if name not in inherent
    }
