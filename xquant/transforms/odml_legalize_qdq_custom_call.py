"""`odml-legalize-qdq-custom-call`: litert-torch's Q/DQ custom calls as StableHLO's ops.

litert-torch (ai-edge-torch's `odml_torch`) exports PT2E's
`quantized_decomposed.quantize_per_tensor/_per_channel` as

    %q = stablehlo.custom_call @odml_torch.uniform_quantize(%x)
        {backend_config = "tensor<2x3x!quant.uniform<i8<-128:127>:f32, 0.4:2>>"}
        : (tensor<2x3xf32>) -> tensor<2x3xf32>

(the quantized type only as text: its Python bindings have no `quant`
dialect) and `dequantize_*` as `custom_call @odml_torch.uniform_dequantize`
with no config. This pass is TensorFlow Lite's `LegalizeQDQCustomCallPass`:
the quantize call becomes `stablehlo.uniform_quantize` to the type in
`backend_config`, the dequantize call `stablehlo.uniform_dequantize` of it.
A dequantize call whose operand is not quantized after that, or a config that
is not a quantized tensor type of the operand's shape, is a located error.
Other custom calls are left as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr, TensorType
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.hints import isa

from xquant.asm.diagnostics import OpDiagnostic
from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.type_utils import quantized, shape_of, type_text

QUANTIZE_TARGET = "odml_torch.uniform_quantize"
DEQUANTIZE_TARGET = "odml_torch.uniform_dequantize"


def odml_quantized_type(op: shlo.CustomCallOp, ctx: Context) -> TensorType[Attribute]:
    """The quantized tensor type in an `@odml_torch.uniform_quantize`'s `backend_config`."""
    config = op.backend_config
    prefix = f"'{op.name}' op @{QUANTIZE_TARGET}"
    if not isinstance(config, StringAttr):
        raise OpDiagnostic(op, f"{prefix} needs a backend_config string")
    try:
        parsed = Parser(ctx, config.data, "backend_config").parse_type()
    except (ParseError, VerifyException) as err:
        raise OpDiagnostic(
            op, f"{prefix}: backend_config is not a type: {err}"
        ) from None
    (operand,) = op.operands if len(op.operands) == 1 else (None,)
    if (
        operand is None
        or not isa(parsed, TensorType[Attribute])
        or quantized(parsed) is None
        or shape_of(parsed) != shape_of(operand.type)
    ):
        raise OpDiagnostic(
            op,
            f"{prefix}: backend_config {type_text(parsed)} is not a quantized "
            "tensor type of the operand's shape",
        )
    return parsed


def is_odml_quantize(op: object) -> bool:
    return (
        isinstance(op, shlo.CustomCallOp)
        and op.call_target_name.data == QUANTIZE_TARGET
    )


@dataclass(frozen=True)
class LegalizeQuantizeCall(RewritePattern):
    ctx: Context

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.CustomCallOp, rewriter: PatternRewriter
    ) -> None:
        if op.call_target_name.data != QUANTIZE_TARGET:
            return
        result_type = odml_quantized_type(op, self.ctx)
        quantize = shlo.UniformQuantizeOp(op.operands[0], result_type)
        rewriter.replace(op, quantize)


class LegalizeDequantizeCall(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.CustomCallOp, rewriter: PatternRewriter
    ) -> None:
        if op.call_target_name.data != DEQUANTIZE_TARGET:
            return
        if len(op.operands) != 1 or len(op.results) != 1:
            raise OpDiagnostic(
                op, f"'{op.name}' op @{DEQUANTIZE_TARGET} takes one operand"
            )
        operand = op.operands[0]
        if quantized(operand.type) is None:
            if is_odml_quantize(operand.owner):
                return  # its quantize call is rewritten first
            raise OpDiagnostic(
                op,
                f"'{op.name}' op @{DEQUANTIZE_TARGET}: operand is not quantized "
                f"(got {type_text(operand.type)})",
            )
        rewriter.replace(op, shlo.UniformDequantizeOp(operand, op.results[0].type))


@dataclass(frozen=True)
class OdmlLegalizeQDQCustomCallPass(ModulePass):
    """litert-torch's Q/DQ custom calls to `uniform_quantize`/`uniform_dequantize`."""

    name = "odml-legalize-qdq-custom-call"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(LegalizeQuantizeCall(ctx)).rewrite_module(op)
        PatternRewriteWalker(LegalizeDequantizeCall()).rewrite_module(op)
