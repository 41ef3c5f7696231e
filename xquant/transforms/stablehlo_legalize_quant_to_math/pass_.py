"""The pass: `bitcast_convert`s and function boundaries on storage integers,
every pattern, the bridges folded, then anything still quantized reported
as upstream's legality check does."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerType, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xquant.asm.diagnostics import OpDiagnostic
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo.type_utils import is_quantized
from xquant.transforms.stablehlo_legalize_quant_to_math.checks import (
    LowerCheckOps,
    LowerCustomCall,
)
from xquant.transforms.stablehlo_legalize_quant_to_math.common import (
    op_types,
    storage_tensor_type,
    to_storage,
    touches_quantized,
)
from xquant.transforms.stablehlo_legalize_quant_to_math.contraction import (
    LowerConvolution,
    LowerDot,
    LowerDotGeneral,
)
from xquant.transforms.stablehlo_legalize_quant_to_math.data_movement import (
    LowerConstant,
    LowerDataMovement,
)
from xquant.transforms.stablehlo_legalize_quant_to_math.elementwise import (
    LowerElementwise,
    LowerOtherDequantizeOpQuantize,
)
from xquant.transforms.stablehlo_legalize_quant_to_math.quantize import (
    LowerUniformDequantize,
    LowerUniformQuantize,
)
from xquant.transforms.stablehlo_legalize_quant_to_math.reductions import (
    LowerReductions,
)
from xquant.transforms.utils.signatures import convert_function_boundaries
from xquant.transforms.utils.stablehlo_emitters import HloBuilder


class FoldBridges(RewritePattern):
    """`bitcast_convert(bitcast_convert(x : A -> B) : B -> A)` is `x`; unused bridges go away."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: ew.BitcastConvertOp, rewriter: PatternRewriter
    ) -> None:
        source = op.operand.owner
        if (
            isinstance(source, ew.BitcastConvertOp)
            and source.operand.type == op.result.type
            and is_quantized(op.operand.type)
        ):
            rewriter.replace(op, [], [source.operand])
            return
        if not op.result.uses and (
            is_quantized(op.operand.type) or is_quantized(op.result.type)
        ):
            rewriter.erase(op)


def _first_quantized(module: ModuleOp) -> Operation | None:
    """The first op left with a quantized type; the pass's own bridges only if nothing else is."""
    bridge: Operation | None = None
    for op in module.walk():
        types = [
            *op_types(op),
            *(
                arg.type
                for region in op.regions
                for block in region.blocks
                for arg in block.args
            ),
        ]
        if any(is_quantized(t) for t in types if not isinstance(t, (IntegerType,))):
            if not isinstance(op, ew.BitcastConvertOp):
                return op
            bridge = bridge or op
    return bridge


def _lower_bitcast_converts(module: ModuleOp) -> None:
    """A `bitcast_convert` from or to a quantized tensor becomes one on storage integers.

    Upstream keeps the op (`bitcast_convert : (tensor<?x?xi8>) -> tensor<?x?xi8>`);
    it runs before any bridge exists, so the bridges this pass inserts (also
    `bitcast_convert`s) are never taken for the program's own.
    """
    for op in list(module.walk()):
        if not isinstance(op, ew.BitcastConvertOp) or not touches_quantized(op):
            continue
        b = HloBuilder()
        stored = to_storage(b, op.operand)
        result_type = storage_tensor_type(op.result.type) or op.result.type
        value = b.add(ew.BitcastConvertOp(stored, result_type))
        bridged = b.bitcast(value, op.result.type)
        parent = op.parent_block()
        assert parent is not None
        parent.insert_ops_before(b.ops, op)
        op.result.replace_all_uses_with(bridged)
        op.detach()
        op.erase()


def _function_boundaries(module: ModuleOp) -> None:
    convert_function_boundaries(
        module, storage_tensor_type, lambda value, t: ew.BitcastConvertOp(value, t)
    )


@dataclass(frozen=True)
class StablehloLegalizeQuantToMathPass(ModulePass):
    """Rewrite quantized StableHLO ops into StableHLO ops on integers and floats (no `!quant` left)."""

    name = "stablehlo-legalize-quant-to-math"

    # `exact=true`: the project's numeric contract where upstream approximates
    # (module docstring); default: upstream's lowering.
    exact: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _lower_bitcast_converts(op)
        _function_boundaries(op)
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    pattern(self.exact)
                    for pattern in (
                        LowerUniformQuantize,
                        LowerUniformDequantize,
                        LowerElementwise,
                        LowerDot,
                        LowerDotGeneral,
                        LowerConvolution,
                        LowerDataMovement,
                        LowerOtherDequantizeOpQuantize,
                        LowerConstant,
                        LowerCustomCall,
                        LowerCheckOps,
                        LowerReductions,
                    )
                ],
                dce_enabled=False,  # as upstream's conversion: unused ops (and parameters) stay
            )
        ).rewrite_module(op)
        PatternRewriteWalker(FoldBridges()).rewrite_module(op)
        if (illegal := _first_quantized(op)) is not None:
            raise OpDiagnostic(
                illegal,
                f"failed to legalize operation '{illegal.name}' that was explicitly marked illegal",
            )
