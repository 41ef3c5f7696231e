"""`scf-parallel-to-for`: `scf.parallel` (with reductions) as nested `scf.for`, in the interpreter's order.

Upstream's `scf-parallel-for-to-nested-fors` rejects an `scf.parallel` with
results. This pass also takes those: the nest carries one accumulator per
reduction as `iter_args`, starting from the init values, and after each
iteration folds the value `scf.reduce` gives into it with the reduction's
region inlined (`acc = region(acc, value)`), the first induction variable
outermost. That is the order the interpreter runs `scf.parallel` in, so the
result is the same bits; any order is a valid execution of the parallel
loop. The IREE backend applies it: IREE fails to compile (or crashes on) an
`scf.parallel` that carries a tensor through `scf.reduce`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)


def _clone_into(
    block: Block, ops: Sequence[Operation], mapping: dict[SSAValue, SSAValue]
) -> None:
    for op in ops:
        block.add_op(op.clone(mapping))


def _nest(
    op: scf.ParallelOp, level: int, ivs: list[SSAValue], accs: Sequence[SSAValue]
) -> scf.ForOp:
    """The `scf.for` of dimension `level` (and the ones inside it)."""
    block = Block(arg_types=[IndexType(), *(a.type for a in accs)])
    iv, inner_accs = block.args[0], list(block.args[1:])
    if level + 1 < len(op.lowerBound):
        inner = _nest(op, level + 1, [*ivs, iv], inner_accs)
        block.add_ops([inner, scf.YieldOp(*inner.results)])
    else:
        body = op.body.block
        mapping: dict[SSAValue, SSAValue] = dict(zip(body.args, [*ivs, iv]))
        reduce_op = body.last_op
        assert isinstance(reduce_op, scf.ReduceOp)
        _clone_into(block, list(body.ops)[:-1], mapping)
        new_accs: list[SSAValue] = []
        for acc, value, region in zip(
            inner_accs, reduce_op.args, reduce_op.reductions, strict=True
        ):
            rblock = region.block
            rmap: dict[SSAValue, SSAValue] = {
                rblock.args[0]: acc,
                rblock.args[1]: mapping.get(value, value),
            }
            *combine, ret = rblock.ops
            assert isinstance(ret, scf.ReduceReturnOp)
            _clone_into(block, combine, rmap)
            new_accs.append(rmap.get(ret.result, ret.result))
        block.add_op(scf.YieldOp(*new_accs))
    return scf.ForOp(
        op.lowerBound[level], op.upperBound[level], op.step[level], accs, block
    )


class ParallelToFor(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ParallelOp, rewriter: PatternRewriter) -> None:
        if not op.lowerBound:
            return
        loop = _nest(op, 0, [], list(op.initVals))
        rewriter.replace(op, loop, list(loop.results))


class ScfParallelToForPass(ModulePass):
    """Every `scf.parallel` as nested `scf.for`, reductions carried in order."""

    name = "scf-parallel-to-for"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ParallelToFor(), apply_recursively=False).rewrite_module(
            op
        )
