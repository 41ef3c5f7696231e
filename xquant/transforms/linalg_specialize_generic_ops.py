"""`linalg-specialize-generic-ops`: `linalg.generic` back to named element-wise ops.

Upstream MLIR's pass of that name, for the element-wise binary case (what
`lower-quant-ops` followed by `linalg-convert-to-dps` produces): an
all-parallel generic with identity indexing maps, two inputs and one
output, whose body applies one binary `arith` op to the two input
arguments in order and yields it, with inputs and result of one element
type, becomes `linalg.add` / `linalg.sub` / `linalg.mul` / `linalg.div`
(`addf`/`addi`, `subf`/`subi`, `mulf`/`muli`, `divf`/`divsi`), keeping the
generic's `outs`. Other generics (casts, clamps, ...) stay generic; upstream's
other specializations (copy, fill, transpose, broadcast, contractions) are
not implemented. As MLIR's greedy driver, the pass also folds a
`tensor.splat` of a constant to a dense constant and erases dead ops.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import AddOp, GenericOp, MulOp, SubOp, YieldOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.dead_code_elimination import dce

from xquant.dialects.upstream.linalg import DivOp
from xquant.transforms.linalg_convert_to_dps import fold_constant_splats

__all__ = ["LinalgSpecializeGenericOpsPass"]

_NAMED: dict[type[Operation], Callable[..., Operation]] = {
    arith.AddfOp: AddOp,
    arith.AddiOp: AddOp,
    arith.SubfOp: SubOp,
    arith.SubiOp: SubOp,
    arith.MulfOp: MulOp,
    arith.MuliOp: MulOp,
    arith.DivfOp: DivOp,
    arith.DivSIOp: DivOp,
}


class SpecializeBinaryGeneric(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter, /) -> None:
        if len(op.inputs) != 2 or len(op.outputs) != 1 or len(op.res) != 1:
            return
        if any(t.data != IteratorType.PARALLEL for t in op.iterator_types):
            return
        rank = len(op.iterator_types)
        if any(m.data != AffineMap.identity(rank) for m in op.indexing_maps):
            return
        body = op.body.block
        ops = list(body.ops)
        if len(ops) != 2 or not isinstance(ops[1], YieldOp):
            return
        compute, yielded = ops
        named = _NAMED.get(type(compute))
        if named is None or tuple(yielded.operands) != (compute.results[0],):
            return
        if tuple(compute.operands) != tuple(body.args[:2]):
            return
        element_types = {arg.type for arg in body.args}
        if len(element_types) != 1 or compute.attributes or _has_flags(compute):
            return
        specialized = named(list(op.inputs), list(op.outputs), [r.type for r in op.res])
        rewriter.replace(op, specialized)


def _has_flags(op: Operation) -> bool:
    """Whether the op carries fastmath / overflow flags a named op would drop."""
    for name, value in op.properties.items():
        if name in ("fastmath", "overflowFlags") and str(value) not in (
            "#arith.fastmath<none>",
            "#arith.overflow<none>",
        ):
            return True
    return False


@dataclass(frozen=True)
class LinalgSpecializeGenericOpsPass(ModulePass):
    """Binary element-wise `linalg.generic`s become `linalg.add`/`sub`/`mul`/`div` (the part of MLIR's pass that `lower-quant-ops` output needs)."""

    name = "linalg-specialize-generic-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(SpecializeBinaryGeneric()).rewrite_module(op)
        fold_constant_splats(op)
        dce(op)
