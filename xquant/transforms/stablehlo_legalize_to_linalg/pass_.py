"""The pass: every pattern of the package in one greedy walk."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ModuleOp,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriteWalker,
)
from xquant.transforms.stablehlo_legalize_to_linalg.convolution import LowerConvolution
from xquant.transforms.stablehlo_legalize_to_linalg.data_movement import (
    LowerBroadcastInDim,
    LowerConcatenate,
    LowerReshape,
    LowerSlice,
    LowerTranspose,
)
from xquant.transforms.stablehlo_legalize_to_linalg.dot_product import LowerDotGeneral
from xquant.transforms.stablehlo_legalize_to_linalg.gather import LowerGather
from xquant.transforms.stablehlo_legalize_to_linalg.pointwise import (
    LowerConstant,
    LowerElementwise,
)
from xquant.transforms.stablehlo_legalize_to_linalg.reduce import (
    LowerReduce,
    LowerReduceWindow,
)


@dataclass(frozen=True)
class StablehloLegalizeToLinalgPass(ModulePass):
    """Lower the StableHLO subset (integer and float tensors) to linalg, arith, math and tensor."""

    name = "stablehlo-legalize-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    LowerElementwise(), LowerConstant(), LowerBroadcastInDim(), LowerTranspose(), LowerReshape(),
                    LowerConcatenate(), LowerSlice(), LowerGather(), LowerDotGeneral(), LowerConvolution(), LowerReduce(),
                    LowerReduceWindow(),
                ]
            ),
        ).rewrite_module(op)  # fmt: skip
