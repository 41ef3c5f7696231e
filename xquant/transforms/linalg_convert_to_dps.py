"""`linalg-convert-to-dps`: element-wise ops on tensors to destination-passing style.

Upstream MLIR's pass of that name (LLVM main; `lower-quant-ops-to-dps.mlir`
runs it after `-lower-quant-ops`). Each element-wise `arith` op on ranked,
statically shaped tensors (not `arith.constant`) becomes a `tensor.empty` of
its result type, created just before it, and an all-parallel `linalg.generic`
with identity maps that applies the same op to scalars and writes into that
empty tensor. As MLIR's greedy driver does, a `tensor.splat` of a constant is
folded to a dense `arith.constant` at the start of the function, and ops
left trivially dead are erased.

Only `arith` ops are converted (what `lower-quant-ops` emits); upstream's
other destination-style rewrites (`tensor.pad`, `tensor.generate`,
`tensor.from_elements`) are not implemented.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsolatedFromAbove as IsIsolatedFromAbove
from xdsl.transforms.dead_code_elimination import dce
from xdsl.utils.hints import isa

__all__ = ["LinalgConvertToDPSPass", "fold_constant_splats"]


def _static_tensor(attr: Attribute) -> TensorType[Attribute] | None:
    if isa(attr, TensorType[Attribute]) and all(n >= 0 for n in attr.get_shape()):
        return attr
    return None


class ElementwiseToGeneric(RewritePattern):
    """An element-wise `arith` op on static tensors -> `tensor.empty` + `linalg.generic`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not op.name.startswith("arith.") or isinstance(op, arith.ConstantOp):
            return
        if len(op.results) != 1 or op.regions or not op.operands:
            return
        result_type = _static_tensor(op.results[0].type)
        if result_type is None:
            return
        shape = result_type.get_shape()
        operand_types: list[TensorType[Attribute]] = []
        for operand in op.operands:
            operand_type = _static_tensor(operand.type)
            if operand_type is None or operand_type.get_shape() != shape:
                return
            operand_types.append(operand_type)
        empty = tensor.EmptyOp((), result_type)
        element_types = [t.get_element_type() for t in operand_types]
        body = Block(arg_types=[*element_types, result_type.get_element_type()])
        scalar = type(op).create(
            operands=body.args[: len(op.operands)],
            result_types=[result_type.get_element_type()],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        body.add_ops([scalar, YieldOp(scalar.results[0])])
        identity = AffineMapAttr(AffineMap.identity(len(shape)))
        generic = GenericOp(
            list(op.operands),
            [empty.tensor],
            Region(body),
            [identity] * (len(op.operands) + 1),
            [IteratorTypeAttr.parallel()] * len(shape),
            [result_type],
        )
        rewriter.replace(op, [empty, generic])


def fold_constant_splats(module: ModuleOp) -> None:
    """`tensor.splat` of an `arith.constant` -> a dense `arith.constant`, as MLIR's folder.

    The folded constant goes to the start of the enclosing region's entry
    block, where MLIR's `OperationFolder` puts the constants it creates.
    """
    for op in list(module.walk()):
        if not isinstance(op, tensor.SplatOp) or op.dynamicSizes:
            continue
        source = op.input.owner
        result_type = _static_tensor(op.result.type)
        if not isinstance(source, arith.ConstantOp) or result_type is None:
            continue
        value = source.value
        if not isa(value, IntegerAttr | FloatAttr):
            continue
        dense: Attribute = DenseIntOrFPElementsAttr.from_list(
            cast(Any, result_type), [value.value.data]
        )
        block = _isolated_entry_block(op)
        if block is None:
            continue
        constant = arith.ConstantOp(dense, result_type)
        Rewriter.insert_op(constant, InsertPoint.at_start(block))
        Rewriter.replace_op(op, [], [constant.result])


def _isolated_entry_block(op: Operation) -> Block | None:
    """The entry block of the closest enclosing op isolated from above (a function)."""
    parent = op.parent_op()
    while parent is not None and not parent.has_trait(IsIsolatedFromAbove):
        parent = parent.parent_op()
    if parent is None or not parent.regions:
        return None
    return parent.regions[0].first_block


@dataclass(frozen=True)
class LinalgConvertToDPSPass(ModulePass):
    """Element-wise `arith` ops on static tensors become `tensor.empty` + `linalg.generic` (MLIR's destination-passing style)."""

    name = "linalg-convert-to-dps"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            ElementwiseToGeneric(), apply_recursively=False
        ).rewrite_module(op)
        fold_constant_splats(op)
        dce(op)
