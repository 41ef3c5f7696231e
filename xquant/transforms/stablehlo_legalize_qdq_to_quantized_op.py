"""`stablehlo-legalize-qdq-to-quantized-op`: fuse dequantize -> float op -> quantize into one quantized op.

The inverse of `stablehlo-legalize-quantized-op-to-qdq`, as upstream's
`StablehloLegalizeQDQToQuantizedOp.cpp`. Matching starts at a
`uniform_quantize` of a float value:

    %fa = stablehlo.uniform_dequantize %a : (tensor<4x!qa>) -> tensor<4xf32>
    %fb = stablehlo.uniform_dequantize %b : (tensor<4x!qb>) -> tensor<4xf32>
    %f = stablehlo.add %fa, %fb : tensor<4xf32>
    %r = stablehlo.uniform_quantize %f : (tensor<4xf32>) -> tensor<4x!qr>
  becomes
    %r = stablehlo.add %a, %b : (tensor<4x!qa>, tensor<4x!qb>) -> tensor<4x!qr>

The op computing the float value (`%f`) is fused when
- it is a side-effect-free op (trait `Pure`) with at least one operand, a
  single result and no regions (upstream skips ops with regions and variadic
  ops too), and is not itself a uniform_quantize / uniform_dequantize;
- each of its operands is the result of a `uniform_dequantize` (so hybrid
  ops, compare with its i1 result and select with its i1 predicate are not
  fused, as upstream does not fuse them: openxla/stablehlo#2485);
- its result is used only by this `uniform_quantize` (stricter than
  upstream, which keeps the float op alive for its other users);
- the same op on the quantized types verifies: the dialect's verifiers hold
  the spec's quantization constraints (per-tensor only for most element-wise
  ops, the dot_general/convolution constraints, same scale for data movement),
  so a candidate that would not verify is left as it is.

The float op is then erased, and so is every dequantize left without users.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.type_utils import is_quantized


def fusable_compute_op(quantize: shlo.UniformQuantizeOp) -> Operation | None:
    """The float op feeding `quantize` when its shape allows fusion (see the module docstring)."""
    compute = quantize.operand.owner
    if not isinstance(compute, Operation) or is_quantized(quantize.operand.type):
        return None
    if isinstance(compute, shlo.UniformQuantizeOp | shlo.UniformDequantizeOp):
        return None
    if compute.regions or len(compute.results) != 1 or not compute.operands:
        return None
    if not compute.has_trait(Pure) or not compute.results[0].has_one_use():
        return None
    if not all(
        isinstance(operand.owner, shlo.UniformDequantizeOp)
        for operand in compute.operands
    ):
        return None
    return compute


def quantized_version(
    compute: Operation, quantize: shlo.UniformQuantizeOp
) -> Operation | None:
    """`compute` on the dequantized values' quantized operands, with `quantize`'s type, if it verifies."""
    operands = [
        operand.owner.operand
        for operand in compute.operands
        if isinstance(operand.owner, shlo.UniformDequantizeOp)
    ]
    fused = type(compute).create(
        operands=operands,
        result_types=[quantize.result.type],
        properties=dict(compute.properties),
        attributes=dict(compute.attributes),
    )
    try:
        fused.verify()
    except VerifyException:
        fused.erase()
        return None
    return fused


class FuseQDQIntoQuantizedOp(RewritePattern):
    """`uniform_quantize(op(uniform_dequantize(x), ...))` -> `op(x, ...)` on quantized types."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.UniformQuantizeOp, rewriter: PatternRewriter
    ) -> None:
        if (compute := fusable_compute_op(op)) is None:
            return
        if (fused := quantized_version(compute, op)) is None:
            return
        dequantizes = {operand.owner for operand in compute.operands}
        rewriter.replace(op, fused)
        rewriter.erase(compute)
        for dequantize in dequantizes:
            assert isinstance(dequantize, Operation)
            if not dequantize.results[0].uses:
                rewriter.erase(dequantize)


@dataclass(frozen=True)
class StablehloLegalizeQDQToQuantizedOpPass(ModulePass):
    """Fuse uniform_dequantize -> float op -> uniform_quantize into the op on quantized types.

    Only where the fused op verifies; dead dequantize and float ops are removed.
    """

    name = "stablehlo-legalize-qdq-to-quantized-op"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([FuseQDQIntoQuantizedOp()])
        ).rewrite_module(op)
