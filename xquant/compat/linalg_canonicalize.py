"""`linalg.generic` canonicalizations MLIR has and xDSL 0.74's `canonicalize` lacks.

Upstream's FileCheck tests of `stablehlo-legalize-to-linalg` run `--canonicalize`
after the pass. MLIR's `GenericOp::getCanonicalizationPatterns` includes
`EraseIdentityLinalgOp`: a generic on tensors whose indexing maps are all equal
and whose body only yields block arguments is replaced by the operands those
arguments read (through a `tensor.cast` where the types differ). xDSL keeps it.
Reproducer (MLIR prints `return %arg0`):

    #map = affine_map<(d0) -> (d0)>
    func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
      %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
          ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
      ^bb0(%x: f32, %o: f32):
        linalg.yield %x : f32
      } -> tensor<4xf32>
      func.return %r : tensor<4xf32>
    }

The pattern is registered on xDSL's `GenericOp` as an extra
`HasCanonicalizationPatternsTrait` (MLIR registers it on `linalg.generic` only:
`linalg.map` keeps an identity body).
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import BlockArgument, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.traits import HasCanonicalizationPatternsTrait


class EraseIdentityGeneric(RewritePattern):
    """A generic that only forwards its operands (MLIR's `EraseIdentityLinalgOp`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        maps = [m.data for m in op.indexing_maps]
        if len(set(maps)) > 1:
            return
        block = op.body.blocks.first
        if block is None or len(block.ops) != 1:
            return
        terminator = block.last_op
        if not isinstance(terminator, YieldOp):
            return
        if not all(isinstance(v.type, TensorType) for v in op.operands):
            return
        replacements: list[SSAValue] = []
        for value, result in zip(terminator.operands, op.res, strict=False):
            if not isinstance(value, BlockArgument) or value.block is not block:
                return
            source = op.operands[value.index]
            if source.type != result.type:
                cast = tensor.CastOp(source, result.type)
                rewriter.insert(cast)
                source = cast.dest
            replacements.append(source)
        if len(replacements) != len(op.results):
            return
        rewriter.replace(op, [], replacements)


class _GenericPatterns(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (EraseIdentityGeneric(),)


def install() -> None:
    """Register the pattern on xDSL's `GenericOp` (idempotent)."""
    if not any(isinstance(t, _GenericPatterns) for t in GenericOp.traits):
        GenericOp.traits.add_trait(_GenericPatterns())
