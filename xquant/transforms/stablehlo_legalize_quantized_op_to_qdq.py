"""`stablehlo-legalize-quantized-op-to-qdq`: quantized ops as dequantize -> float op -> quantize.

Every op of the subset whose spec defines its quantized form by
`dequantize_op_quantize` (or `hybrid_dequantize_then_op`) and that has a
`!quant.uniform` operand or result is rewritten, as upstream's
`StablehloLegalizeQuantizedOpToQDQ.cpp` (and the QDQ fallback of
`StablehloLegalizeQuantToMath.cpp`, which adds dot_general and convolution)
does it:

    %r = stablehlo.add %a, %b : (tensor<4x!qa>, tensor<4x!qb>) -> tensor<4x!qr>
  becomes
    %fa = stablehlo.uniform_dequantize %a : (tensor<4x!qa>) -> tensor<4xf32>
    %fb = stablehlo.uniform_dequantize %b : (tensor<4x!qb>) -> tensor<4xf32>
    %f = stablehlo.add %fa, %fb : tensor<4xf32>
    %r = stablehlo.uniform_quantize %f : (tensor<4xf32>) -> tensor<4x!qr>

Each quantized operand gets a `uniform_dequantize` (per-tensor or per-axis);
other operands (the i1 predicate of select, a float lhs) are used as they are.
The same op is rebuilt on the expressed types with its properties and
attributes, and each quantized result gets a `uniform_quantize`; other results
(compare's i1) are used directly.

Ops handled (upstream's list, all of which the dialect has except
triangular_solve):
- element-wise: the unary ops (abs, negate, sign, ceil, floor, round_*,
  sqrt, rsqrt, cbrt, exponential*, log*, logistic, tanh, tan, sine, cosine)
  and add, subtract, multiply, divide, remainder, maximum, minimum, power,
  atan2, clamp, reduce_precision;
- compare (its i1 result stays) and select (its predicate stays);
- dot, dot_general and convolution. A hybrid op (float lhs, quantized rhs,
  float result) gets, as upstream, just a dequantize of the rhs and no
  quantize: that is the spec's `hybrid_dequantize_then_op`;
- cholesky and the three batch_norm ops (every result requantized).

As MLIR's greedy rewrite driver does, ops without side effects whose results
are unused are erased (a dead quantized `tan` or `optimization_barrier`
disappears instead of being decomposed).

Left alone, as upstream leaves them: ops with regions (reduce, reduce_window,
select_and_scatter; the element-wise ops inside their bodies are ordinary ops
and are rewritten like any other), ops that only move or reinterpret data
(reshape, transpose, broadcast_in_dim, concatenate, slice, gather,
bitcast_convert), constants, custom calls, and uniform_quantize /
uniform_dequantize themselves. `stablehlo-legalize-qdq-to-quantized-op` is the
inverse fusion.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.dead_code_elimination import RemoveUnusedOperations, dce

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo import math_extra, misc
from xquant.dialects.stablehlo.type_utils import is_quantized, quantized
from xquant.numerics.values import with_element

ELEMENTWISE_QDQ_OPS: tuple[type[Operation], ...] = (
    *ew.UNARY_OPS,
    *ew.BINARY_OPS,
    ew.ClampOp,
    math_extra.RemainderOp,
    math_extra.Atan2Op,
    math_extra.TanOp,
    math_extra.ReducePrecisionOp,
)
OTHER_QDQ_OPS: tuple[type[Operation], ...] = (
    misc.DotOp,
    misc.CholeskyOp,
    misc.BatchNormGradOp,
    misc.BatchNormInferenceOp,
    misc.BatchNormTrainingOp,
)


def expressed_type(t: Attribute) -> Attribute:
    """A tensor of `!quant.uniform` as a tensor of its expressed type; other types unchanged."""
    q = quantized(t)
    return t if q is None else with_element(t, q.expressed_type)


def decomposable(op: Operation) -> bool:
    """Some operand or result is quantized, and every quantized one is `!quant.uniform`."""
    quantized_types = [
        t for t in (*op.operand_types, *op.result_types) if is_quantized(t)
    ]
    return bool(quantized_types) and all(
        quantized(t) is not None for t in quantized_types
    )


def decompose(op: Operation, rewriter: PatternRewriter) -> None:
    """Replace `op` by uniform_dequantize of its quantized operands, `op` on floats, uniform_quantize."""
    new_ops: list[Operation] = []
    operands: list[SSAValue] = []
    for operand in op.operands:
        if quantized(operand.type) is None:
            operands.append(operand)
            continue
        new_ops.append(shlo.UniformDequantizeOp(operand, expressed_type(operand.type)))
        operands.append(new_ops[-1].results[0])
    float_op = type(op).create(
        operands=operands,
        result_types=[expressed_type(t) for t in op.result_types],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    new_ops.append(float_op)
    results: list[SSAValue] = []
    for old, new in zip(op.results, float_op.results, strict=True):
        if quantized(old.type) is None:
            results.append(new)
            continue
        new_ops.append(shlo.UniformQuantizeOp(new, old.type))
        results.append(new_ops[-1].results[0])
    rewriter.replace(op, new_ops, results)


class DecomposeElementwise(RewritePattern):
    """Quantized unary and binary element-wise ops and clamp: dequantize, float op, quantize."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, ELEMENTWISE_QDQ_OPS) and decomposable(op):
            decompose(op, rewriter)


class DecomposeOthers(RewritePattern):
    """dot, cholesky and the batch_norm ops: dequantize, float op, quantize every quantized result."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, OTHER_QDQ_OPS) and decomposable(op):
            decompose(op, rewriter)


class DecomposeCompare(RewritePattern):
    """Quantized compare (`dequantize_compare`): the operands are dequantized, the i1 result stays."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ew.CompareOp, rewriter: PatternRewriter) -> None:
        if decomposable(op):
            decompose(op, rewriter)


class DecomposeSelect(RewritePattern):
    """Quantized select (`dequantize_select_quantize`): the predicate stays, the values go through floats."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ew.SelectOp, rewriter: PatternRewriter) -> None:
        if decomposable(op):
            decompose(op, rewriter)


class DecomposeDotGeneral(RewritePattern):
    """Quantized dot_general; hybrid (float lhs) dequantizes only the rhs and keeps the float result."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.DotGeneralOp, rewriter: PatternRewriter
    ) -> None:
        if decomposable(op):
            decompose(op, rewriter)


class DecomposeConvolution(RewritePattern):
    """Quantized convolution; hybrid (float lhs) dequantizes only the rhs and keeps the float result."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.ConvolutionOp, rewriter: PatternRewriter
    ) -> None:
        if decomposable(op):
            decompose(op, rewriter)


@dataclass(frozen=True)
class StablehloLegalizeQuantizedOpToQDQPass(ModulePass):
    """Decompose quantized StableHLO ops into uniform_dequantize -> float op -> uniform_quantize.

    Per-tensor and per-axis types alike; data movement and ops with regions
    are left quantized (see the module docstring).
    """

    name = "stablehlo-legalize-quantized-op-to-qdq"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    # MLIR's greedy driver erases the trivially dead ops it visits.
                    RemoveUnusedOperations(),
                    DecomposeElementwise(),
                    DecomposeOthers(),
                    DecomposeCompare(),
                    DecomposeSelect(),
                    DecomposeDotGeneral(),
                    DecomposeConvolution(),
                ]
            )
        ).rewrite_module(op)
        dce(op)
