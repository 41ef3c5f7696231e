"""`custom_call` checks and `check` dialect ops with quantized operands: exact
checks compare storage integers, the others dequantized values."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xquant.dialects import check
from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.type_utils import is_quantized
from xquant.transforms.stablehlo_legalize_quant_to_math.common import (
    to_float,
    to_storage,
    touches_quantized,
)
from xquant.transforms.utils.stablehlo_emitters import HloBuilder


@dataclass(frozen=True)
class LowerCustomCall(RewritePattern):
    """`custom_call` (the checks) compares dequantized values: dequantize quantized operands."""

    exact: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.CustomCallOp, rewriter: PatternRewriter
    ) -> None:
        if not any(is_quantized(t) for t in op.operand_types):
            return
        if op.call_target_name.data not in check.CUSTOM_CALL_CHECKS:
            return  # upstream lowers no custom_call: left for the legality check
        b = HloBuilder(exact=self.exact)
        operands = [to_float(b, v) for v in op.operands]
        rewriter.insert(b.ops, InsertPoint.before(op))
        for index, value in enumerate(operands):
            op.operands[index] = value
        rewriter.handle_operation_modification(op)


@dataclass(frozen=True)
class LowerCheckOps(RewritePattern):
    """`check.*` ops: exact checks compare storage integers, approximate ones dequantized values."""

    exact: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.dialect_name() != "check" or not touches_quantized(op):
            return
        if isinstance(op, check.ExpectEqConstOp):
            return  # its literal is typed by the operand; left for the final legality check
        exact = isinstance(op, check.ExpectEqOp)
        b = HloBuilder(exact=self.exact)
        operands = [to_storage(b, v) if exact else to_float(b, v) for v in op.operands]
        rewriter.insert(b.ops, InsertPoint.before(op))
        for index, value in enumerate(operands):
            op.operands[index] = value
        rewriter.handle_operation_modification(op)
