"""Element-wise ops and constants (upstream: `StablehloToLinalgPointwise.cpp`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    TensorType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.hints import isa
from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo.quantization import is_quantized
from xquant.transforms.stablehlo_ir import is_static, shape_of
from xquant.transforms.stablehlo_legalize_to_linalg.common import (
    Ops,
    Unsupported,
    build_generic,
    empty,
    operand_map,
    parallel,
)
from xquant.transforms.stablehlo_legalize_to_linalg.scalar_ops import emit_scalar
from xquant.transforms.stablehlo_legalize_to_linalg.type_conversion import (
    in_reducer,
    signed_or_unsigned,
)


def lower_elementwise(op: Operation, ops: Ops) -> SSAValue:
    result_type = op.result_types[0]
    assert isa(result_type, TensorType)
    rank = len(shape_of(result_type))
    hoist = Ops([])
    out = empty(ops, result_type)

    def body(args: Sequence[SSAValue], body_ops: Ops) -> list[SSAValue]:
        return [emit_scalar(op, args[: len(op.operands)], body_ops, hoist)]

    staged = Ops([])
    (result,) = build_generic(
        staged, list(op.operands), [operand_map(t, rank) for t in op.operand_types], [out],
        [AffineMap.identity(rank)], parallel(rank), body,
    )  # fmt: skip
    ops.ops.extend([*hoist.ops, *staged.ops])
    return result


class LowerElementwise(RewritePattern):
    """Element-wise ops, clamp, compare, select, convert, bitcast_convert: one parallel generic."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(
            op, (ew.ElementwiseOp, ew.CompareOp, ew.SelectOp)
        ) or in_reducer(op):
            return
        if not all(is_static(t) for t in (*op.operand_types, *op.result_types)):
            return
        ops = Ops([])
        try:
            result = lower_elementwise(op, ops)
        except Unsupported:
            ops.discard()
            return
        rewriter.replace(op, ops.ops, [result])


class LowerConstant(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shlo.ConstantOp, rewriter: PatternRewriter) -> None:
        if (
            op.value.type != op.output.type
            or is_quantized(op.output.type)
            or in_reducer(op)
        ):
            return
        if any(signed_or_unsigned(t) for t in (op.output.type,)):
            return
        rewriter.replace(op, arith.ConstantOp(op.value))
