"""`uniform_quantize` (quantize or requantize) and `uniform_dequantize`."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xquant.asm.diagnostics import OpDiagnostic
from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.type_utils import quantized
from xquant.transforms.stablehlo_legalize_quant_to_math.common import (
    converted_to,
    replace_op,
    require_signed_expressed_types,
    to_float,
)
from xquant.transforms.utils.stablehlo_emitters import HloBuilder


@dataclass(frozen=True)
class LowerUniformQuantize(RewritePattern):
    """`uniform_quantize`: quantize floats, or requantize storage integers, by the contract."""

    exact: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.UniformQuantizeOp, rewriter: PatternRewriter
    ) -> None:
        require_signed_expressed_types(op)
        result_q = quantized(op.result.type)
        assert result_q is not None
        source_q = quantized(op.operand.type)
        if (
            source_q is not None
            and source_q.is_per_axis
            and result_q.is_per_axis
            and source_q.quantized_dimension != result_q.quantized_dimension
        ):
            raise OpDiagnostic(
                op,
                "Cannot requantize while changing quantization_axis",
                [
                    f"failed to legalize operation '{op.name}' that was explicitly marked illegal"
                ],
            )
        b = HloBuilder(exact=self.exact)
        replace_op(rewriter, op, b, [converted_to(b, op.operand, result_q)])


@dataclass(frozen=True)
class LowerUniformDequantize(RewritePattern):
    """`uniform_dequantize`: `convert(q - zp) * scale`, `q - zp` exact in i32/i64, then the expressed type."""

    exact: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.UniformDequantizeOp, rewriter: PatternRewriter
    ) -> None:
        require_signed_expressed_types(op)
        b = HloBuilder(exact=self.exact)
        replace_op(rewriter, op, b, [to_float(b, op.operand)])
