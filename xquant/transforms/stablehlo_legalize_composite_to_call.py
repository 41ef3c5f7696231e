"""`stablehlo-legalize-composite-to-call`: each `stablehlo.composite` becomes a
`func.call` of its decomposition (upstream's pass of that name, without its
`except` option), which lowers and runs like any call."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from xquant.dialects.stablehlo.misc import CompositeOp


class CompositeToCall(RewritePattern):
    """`stablehlo.composite "n" %x {decomposition = @f}` -> `func.call @f(%x)`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, CompositeOp):
            return
        call = func.CallOp(op.decomposition, list(op.operands), list(op.result_types))
        rewriter.replace(op, call)


@dataclass(frozen=True)
class StablehloLegalizeCompositeToCallPass(ModulePass):
    """Composites to calls of their decompositions."""

    name = "stablehlo-legalize-composite-to-call"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(CompositeToCall()).rewrite_module(op)
