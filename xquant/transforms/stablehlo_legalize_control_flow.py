"""`stablehlo-legalize-control-flow`: `stablehlo.while` to `scf.while` and
`stablehlo.case` to nested `scf.if`s, as IREE's `iree-stablehlo-legalize-control-flow`
(`compiler/plugins/input/StableHLO/Conversion/LegalizeControlFlow.cpp`).

The regions move unchanged; `stablehlo.return` becomes `scf.yield`, and the
condition's `tensor<i1>` is read with `tensor.extract` for `scf.condition`. A
case of one branch is inlined; with more, branch `i` runs under
`index == i` for every branch but the last, which takes every other index
(out-of-range ones too, as the spec says). IREE also turns a while that counts
with `compare LT` and `add` into `scf.for`; here every while stays an
`scf.while`, which computes the same values.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf, tensor
from xdsl.dialects.builtin import ModuleOp, TensorType, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.hints import isa

from xquant.dialects.stablehlo.attributes import ComparisonDirection
from xquant.dialects.stablehlo.control_flow import CaseOp, WhileOp
from xquant.dialects.stablehlo.reductions import ReturnOp
from xquant.numerics.values import element_type
from xquant.transforms.utils.stablehlo_emitters import HloBuilder


def _returns_to_yield(region: Region, rewriter: PatternRewriter) -> None:
    """The region's `stablehlo.return` becomes an `scf.yield` of the same values."""
    terminator = region.block.last_op
    assert isinstance(terminator, ReturnOp)
    rewriter.replace(terminator, scf.YieldOp(*terminator.operands))


def _is_rank0(value: SSAValue) -> bool:
    return isa(value.type, TensorType) and not value.type.get_shape()


class LowerWhile(RewritePattern):
    """`stablehlo.while` -> `scf.while` (condition read with `tensor.extract`)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, WhileOp):
            return
        condition = op.cond.block.last_op
        if not isinstance(condition, ReturnOp) or not _is_rank0(condition.operands[0]):
            return
        flag = condition.operands[0]
        extract = tensor.ExtractOp(flag, [], element_type(flag.type))
        rewriter.insert(extract, InsertPoint.before(condition))
        rewriter.replace(condition, scf.ConditionOp(extract, *op.cond.block.args))
        _returns_to_yield(op.body, rewriter)
        cond, body = op.cond, op.body
        op.detach_region(cond)
        op.detach_region(body)
        rewriter.replace(
            op, scf.WhileOp(list(op.operands), list(op.result_types), cond, body)
        )


class LowerCase(RewritePattern):
    """`stablehlo.case` -> nested `scf.if` on `index == i` (one branch: inlined)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, CaseOp):
            return
        branches = list(op.branches)
        if len(branches) == 1:
            block = branches[0].block
            terminator = block.last_op
            assert isinstance(terminator, ReturnOp)
            results = list(terminator.operands)
            rewriter.erase(terminator)
            rewriter.inline_block(block, InsertPoint.before(op))
            rewriter.replace(op, [], results)
            return
        for region in branches:
            _returns_to_yield(region, rewriter)
        for region in branches:
            op.detach_region(region)
        ops, outer = self._nested(op, branches, 0)
        rewriter.insert(ops, InsertPoint.before(op))
        rewriter.replace(op, [], list(outer.results))

    def _nested(
        self, op: CaseOp, branches: list[Region], index: int
    ) -> tuple[list[Operation], scf.IfOp]:
        b = HloBuilder()
        constant = b.scalar(index, i32)
        flag = b.compare(ComparisonDirection.EQ, op.index, constant)
        extract = tensor.ExtractOp(flag, [], element_type(flag.type))
        if index == len(branches) - 2:
            otherwise = branches[-1]
        else:
            inner_ops, inner = self._nested(op, branches, index + 1)
            otherwise = Region(Block([*inner_ops, scf.YieldOp(*inner.results)]))
        if_op = scf.IfOp(extract, list(op.result_types), branches[index], otherwise)
        return [*b.ops, extract, if_op], if_op


@dataclass(frozen=True)
class StablehloLegalizeControlFlowPass(ModulePass):
    """`stablehlo.while`/`stablehlo.case` to `scf.while`/`scf.if`."""

    name = "stablehlo-legalize-control-flow"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([LowerWhile(), LowerCase()])
        ).rewrite_module(op)
