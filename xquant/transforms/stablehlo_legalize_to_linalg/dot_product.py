"""dot_general (upstream: `StablehloToLinalgDotProduct.cpp`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.hints import isa

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.misc import EinsumOp
from xquant.dialects.stablehlo.quantization import element_type, is_quantized
from xquant.transforms.stablehlo_ir import is_static, shape_of
from xquant.transforms.stablehlo_legalize_to_linalg.common import (
    Ops,
    build_generic,
    discardable_attributes,
    empty,
    parallel,
    scalar_constant,
)
from xquant.transforms.stablehlo_legalize_to_linalg.scalar_ops import (
    convert_tensor,
    emit_convert,
)
from xquant.transforms.stablehlo_legalize_to_linalg.type_conversion import (
    accumulate_type,
    is_float,
    signed_or_unsigned,
)


class LowerDotGeneral(RewritePattern):
    """`linalg.matmul` for `[M,K] x [K,N]`, else a generic over (batch, lhs free, rhs free, contracting)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: shlo.DotGeneralOp, rewriter: PatternRewriter
    ) -> None:
        if any(
            is_quantized(t) or signed_or_unsigned(t)
            for t in (*op.operand_types, op.result.type)
        ):
            return
        result_type = op.result.type
        assert isa(result_type, TensorType)
        element = result_type.get_element_type()
        acc_element = accumulate_type(element)
        acc_type = TensorType(acc_element, result_type.get_shape())
        numbers = op.dot_dimension_numbers
        ops = Ops([])
        hoist = Ops([])
        zero = scalar_constant(hoist, 0, acc_element)
        init = ops.add(linalg.FillOp([zero], [empty(ops, acc_type)], [acc_type]))
        lhs_shape, rhs_shape = shape_of(op.lhs.type), shape_of(op.rhs.type)
        plain = (
            not numbers.lhs_batching and len(lhs_shape) == 2 and len(rhs_shape) == 2
            and numbers.lhs_contracting == (1,) and numbers.rhs_contracting == (0,)
            and element_type(op.lhs.type) == element_type(op.rhs.type)
        )  # fmt: skip
        if plain:
            acc = ops.add(linalg.MatmulOp([op.lhs, op.rhs], [init], [acc_type]))
        else:
            acc = self._generic(op, init, acc_element, ops)
        if acc_element != element:
            acc = convert_tensor(ops, acc, result_type)
        rewriter.replace(op, [*hoist.ops, *ops.ops], [acc])

    def _generic(
        self, op: shlo.DotGeneralOp, init: SSAValue, acc_element: Attribute, ops: Ops
    ) -> SSAValue:
        numbers = op.dot_dimension_numbers
        lhs_rank, rhs_rank = len(shape_of(op.lhs.type)), len(shape_of(op.rhs.type))
        nb = len(numbers.lhs_batching)
        lhs_free = [
            d
            for d in range(lhs_rank)
            if d not in (*numbers.lhs_batching, *numbers.lhs_contracting)
        ]
        rhs_free = [
            d
            for d in range(rhs_rank)
            if d not in (*numbers.rhs_batching, *numbers.rhs_contracting)
        ]
        nk = len(numbers.lhs_contracting)
        n_parallel = nb + len(lhs_free) + len(rhs_free)
        loops = n_parallel + nk

        def operand_map(
            rank: int,
            batching: Sequence[int],
            contracting: Sequence[int],
            free: Sequence[int],
            offset: int,
        ):
            exprs: list[AffineExpr] = []
            for d in range(rank):
                if d in batching:
                    exprs.append(AffineExpr.dimension(batching.index(d)))
                elif d in contracting:
                    exprs.append(
                        AffineExpr.dimension(n_parallel + contracting.index(d))
                    )
                else:
                    exprs.append(AffineExpr.dimension(offset + free.index(d)))
            return AffineMap(loops, 0, tuple(exprs))

        lhs_map = operand_map(
            lhs_rank, numbers.lhs_batching, numbers.lhs_contracting, lhs_free, nb
        )
        rhs_map = operand_map(
            rhs_rank,
            numbers.rhs_batching,
            numbers.rhs_contracting,
            rhs_free,
            nb + len(lhs_free),
        )
        out_map = AffineMap(
            loops, 0, tuple(AffineExpr.dimension(d) for d in range(n_parallel))
        )
        iterators = [
            *parallel(n_parallel),
            *[IteratorTypeAttr(IteratorType.REDUCTION)] * nk,
        ]
        lhs_element, rhs_element = element_type(op.lhs.type), element_type(op.rhs.type)

        def body(args: Sequence[SSAValue], body_ops: Ops) -> list[SSAValue]:
            hoist = Ops([])
            a = emit_convert(body_ops, hoist, args[0], lhs_element, acc_element)
            b = emit_convert(body_ops, hoist, args[1], rhs_element, acc_element)
            if is_float(acc_element):
                return [
                    body_ops.add(
                        arith.AddfOp(args[2], body_ops.add(arith.MulfOp(a, b)))
                    )
                ]
            return [
                body_ops.add(arith.AddiOp(args[2], body_ops.add(arith.MuliOp(a, b))))
            ]

        (result,) = build_generic(
            ops,
            [op.lhs, op.rhs],
            [lhs_map, rhs_map],
            [init],
            [out_map],
            iterators,
            body,
        )
        return result


class LowerEinsum(RewritePattern):
    """`stablehlo.einsum`: one generic over the labels, as upstream's `EinsumToLinalgConverter`.

    Loops are the labels in order of first appearance (lhs, then rhs); labels
    missing from the output are reductions. The result is filled with zero and
    the body accumulates `out + lhs * rhs`. Ellipses, dynamic shapes, and
    operands of another element type than the result are left as they are.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: EinsumOp, rewriter: PatternRewriter) -> None:
        config = op.einsum_config.data.replace(" ", "")
        if "..." in config or "->" not in config or "," not in config:
            return
        inputs_text, output = config.split("->")
        lhs, rhs = inputs_text.split(",", 1)
        result_type = op.result.type
        element = element_type(result_type)
        types = [op.lhs.type, op.rhs.type, result_type]
        if any(
            is_quantized(t) or signed_or_unsigned(t) or not is_static(t) for t in types
        ):
            return
        if any(element_type(t) != element for t in types[:2]):
            return
        labels = list(dict.fromkeys(lhs + rhs))
        if set(output) - set(labels) or any(
            len(text) != len(shape_of(t))
            for text, t in zip((lhs, rhs, output), types, strict=True)
        ):
            return
        assert isa(result_type, TensorType[Attribute])

        def label_map(text: str) -> AffineMap:
            return AffineMap(
                len(labels),
                0,
                tuple(AffineExpr.dimension(labels.index(c)) for c in text),
            )

        iterators = [
            IteratorTypeAttr(
                IteratorType.PARALLEL if c in output else IteratorType.REDUCTION
            )
            for c in labels
        ]
        ops, hoist = Ops([]), Ops([])
        out = empty(ops, result_type)
        zero = scalar_constant(ops, 0, element)
        filled = ops.add(linalg.FillOp([zero], [out], [result_type]))
        mul, add = (
            (arith.MulfOp, arith.AddfOp)
            if is_float(element)
            else (arith.MuliOp, arith.AddiOp)
        )

        def body(args: Sequence[SSAValue], body_ops: Ops) -> list[SSAValue]:
            product = body_ops.add(mul(args[0], args[1]))
            return [body_ops.add(add(args[2], product))]

        (result,) = build_generic(
            ops, [op.lhs, op.rhs], [label_map(lhs), label_map(rhs)], [filled],
            [label_map(output)], iterators, body,
        )  # fmt: skip
        ops.ops[-1].attributes.update(discardable_attributes(op))
        rewriter.replace(op, [*hoist.ops, *ops.ops], [result])
