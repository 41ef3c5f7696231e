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
from xdsl.utils.exceptions import PassFailedException

from xquant.transforms.chlo_legalize_to_stablehlo import legalize_chlo
from xquant.transforms.stablehlo_legalize_to_linalg.convolution import LowerConvolution
from xquant.transforms.stablehlo_legalize_to_linalg.data_movement import (
    LowerBroadcastInDim,
    LowerConcatenate,
    LowerReshape,
    LowerSlice,
    LowerTranspose,
)
from xquant.transforms.stablehlo_legalize_to_linalg.dot_precision import WidenDotGeneral
from xquant.transforms.stablehlo_legalize_to_linalg.dot_product import (
    LowerDotGeneral,
    LowerEinsum,
)
from xquant.transforms.stablehlo_legalize_to_linalg.gather import LowerGather
from xquant.transforms.stablehlo_legalize_to_linalg.legacy_ops import (
    LowerBroadcast,
    LowerTorchIndexSelect,
)
from xquant.transforms.stablehlo_legalize_to_linalg.misc_ops import (
    LowerDynamicIota,
    LowerDynamicSlice,
    LowerDynamicUpdateSlice,
    LowerIota,
    LowerMap,
    LowerPad,
    LowerRealDynamicSlice,
    LowerReverse,
    LowerSetDimensionSize,
)
from xquant.transforms.stablehlo_legalize_to_linalg.pointwise import (
    LowerBitcastConvertResize,
    LowerConstant,
    LowerElementwise,
)
from xquant.transforms.stablehlo_legalize_to_linalg.reduce import (
    LowerReduce,
    LowerReduceWindow,
)
from xquant.transforms.stablehlo_legalize_to_linalg.select_and_scatter import (
    LowerSelectAndScatter,
)


@dataclass(frozen=True)
class StablehloLegalizeToLinalgPass(ModulePass):
    """Lower the StableHLO subset (integer and float tensors) to linalg, arith, math and tensor.

    Options, with upstream's names, defaults and meanings (`Passes.td`):

    - `enable-primitive-ops` (false): emit linalg's primitive ops where upstream
      does: `linalg.reduce` for reduce, `linalg.transpose` for transpose,
      `linalg.broadcast` for broadcast_in_dim that only adds dims, and
      `linalg.map` for pointwise ops (xquant's, `xquant.dialects.upstream.linalg`).
    - `capture-scalar-inputs` (true): a rank-0 operand of a pointwise op on
      ranked tensors is read once with `tensor.extract` before the generic and
      used in its body; false passes it as an input with an empty map.
    - `enable-sparse-ops` (false): accepted; true is refused, there is no
      sparse_tensor dialect in xDSL.
    """

    name = "stablehlo-legalize-to-linalg"

    enable_primitive_ops: bool = False
    capture_scalar_inputs: bool = True
    enable_sparse_ops: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.enable_sparse_ops:
            raise PassFailedException(
                "stablehlo-legalize-to-linalg: enable-sparse-ops=true is not supported "
                "(xDSL has no sparse_tensor dialect)"
            )
        # quant-to-math emits chlo broadcasting ops, as upstream; upstream's
        # pipelines run chlo-legalize-to-stablehlo before this pass.
        legalize_chlo(op)
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    LowerBitcastConvertResize(),
                    LowerElementwise(
                        self.capture_scalar_inputs, self.enable_primitive_ops
                    ),
                    LowerConstant(),
                    LowerBroadcastInDim(self.enable_primitive_ops),
                    LowerTranspose(self.enable_primitive_ops),
                    LowerReshape(),
                    LowerConcatenate(self.enable_primitive_ops),
                    LowerSlice(),
                    LowerGather(),
                    WidenDotGeneral(),
                    LowerDotGeneral(),
                    LowerEinsum(),
                    LowerConvolution(),
                    LowerReduce(self.enable_primitive_ops),
                    LowerReduceWindow(),
                    LowerSelectAndScatter(),
                    LowerIota(self.enable_primitive_ops),
                    LowerDynamicIota(self.enable_primitive_ops),
                    LowerReverse(),
                    LowerPad(),
                    LowerDynamicSlice(),
                    LowerRealDynamicSlice(),
                    LowerSetDimensionSize(),
                    LowerDynamicUpdateSlice(),
                    LowerMap(self.enable_primitive_ops),
                    LowerBroadcast(self.enable_primitive_ops),
                    LowerTorchIndexSelect(),
                ]
            ),
        ).rewrite_module(op)
