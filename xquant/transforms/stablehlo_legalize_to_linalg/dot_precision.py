"""dot_general's precision: XLA's accumulation type, and `algorithm`, made explicit.

Upstream lowers a float dot_general to a contraction in the result type and
refuses one with an `algorithm`. XLA (and so JAX and TF) multiplies and sums
floats narrower than f32 in f32 and rounds once to the result type; with an
`algorithm`, operands are rounded to its precision types and summed in its
accumulation type. `WidenDotGeneral` rewrites such a dot_general to
`convert`s around a dot_general in the accumulation type (no algorithm), which
`LowerDotGeneral` then lowers, so the lowered program computes what the
interpreter computes (`numerics.values.float_accumulator`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloat, TensorType, f32
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.hints import isa

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.attributes import DotAlgorithmAttr
from xquant.dialects.stablehlo.type_utils import is_quantized
from xquant.numerics.values import dtype_of, element_type, float_accumulator


def _float_width(t: Attribute) -> int | None:
    element = element_type(t)
    return element.bitwidth if isinstance(element, AnyFloat) else None


class WidenDotGeneral(RewritePattern):
    """A float dot_general narrower than f32, or with a supported `algorithm`:
    converts around a plain dot_general in the accumulation type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.DotGeneralOp, rewriter: PatternRewriter
    ) -> None:
        result_type = op.result.type
        if not isa(result_type, TensorType[Attribute]) or any(
            is_quantized(t) for t in (op.lhs.type, op.rhs.type, result_type)
        ):
            return
        width = _float_width(result_type)
        if width is None or any(_float_width(t) is None for t in op.operand_types):
            return
        algorithm = op.algorithm
        if algorithm is None:
            if width >= 32:
                return
            assert float_accumulator(dtype_of(result_type)).itemsize == 4
            lhs_element = rhs_element = accumulation = f32
        elif isinstance(algorithm, DotAlgorithmAttr) and (
            algorithm.single_float_dtypes() is not None
        ):
            lhs_element = algorithm.lhs_precision_type
            rhs_element = algorithm.rhs_precision_type
            accumulation = algorithm.accumulation_type
        else:
            return
        new_ops: list[shlo.ConvertOp | shlo.DotGeneralOp] = []

        def convert(value: SSAValue, element: Attribute) -> SSAValue:
            t = value.type
            assert isa(t, TensorType[Attribute])
            if t.element_type == element:
                return value
            new_ops.append(shlo.ConvertOp(value, TensorType(element, t.get_shape())))
            return new_ops[-1].results[0]

        lhs, rhs = convert(op.lhs, lhs_element), convert(op.rhs, rhs_element)
        dot = shlo.DotGeneralOp(
            lhs,
            rhs,
            op.dot_dimension_numbers,
            TensorType(accumulation, result_type.get_shape()),
        )
        if op.precision_config is not None:
            dot.precision_config = op.precision_config
        dot.attributes.update(op.attributes)
        new_ops.append(dot)
        result = convert(dot.result, result_type.element_type)
        rewriter.replace(op, new_ops, [result])
