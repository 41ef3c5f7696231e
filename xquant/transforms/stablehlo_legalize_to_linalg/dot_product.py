"""dot_general (upstream: `StablehloToLinalgDotProduct.cpp`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, complex, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ComplexType,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.hints import isa

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.attributes import DotDimensionNumbersAttr
from xquant.dialects.stablehlo.misc import EinsumOp
from xquant.dialects.stablehlo.type_utils import is_quantized
from xquant.dialects.upstream import linalg as upstream_linalg
from xquant.numerics.values import element_type
from xquant.transforms.stablehlo_legalize_to_linalg.common import (
    Ops,
    build_generic,
    discardable_attributes,
    index_constant,
    parallel,
)
from xquant.transforms.stablehlo_legalize_to_linalg.scalar_ops import (
    complex_constant,
    emit_convert,
)
from xquant.transforms.stablehlo_legalize_to_linalg.type_conversion import (
    is_float,
    restore_type,
    signed_or_unsigned,
    signless,
    signless_value,
)
from xquant.transforms.utils.quant_emitters import scalar_constant
from xquant.transforms.utils.stablehlo_emitters import shape_of


def _dot_numbers(op: Operation) -> DotDimensionNumbersAttr | None:
    """dot_general's numbers; `stablehlo.dot` as the dot_general it is (lhs's last dim
    by rhs's first); None for other ops and for a dot_general with an algorithm
    (upstream: "dot algorithms not yet supported in linalg conversion")."""
    if isinstance(op, shlo.DotOp):
        return DotDimensionNumbersAttr.get(
            [], [], [len(shape_of(op.lhs.type)) - 1], [0]
        )
    if isinstance(op, shlo.DotGeneralOp) and op.algorithm is None:
        return op.dot_dimension_numbers
    return None


def _simple_kind(
    numbers: DotDimensionNumbersAttr, lhs: Sequence[int], rhs: Sequence[int]
) -> type[NamedOperation] | None:
    """The named op of a simple dot (upstream's `isSimpleDot` + `opMatchesLinalgTarget`)."""
    if numbers.lhs_batching or numbers.rhs_batching or len(lhs) > 2 or len(rhs) > 2:
        return None
    if numbers.lhs_contracting != (len(lhs) - 1,) or numbers.rhs_contracting != (0,):
        return None
    if DYNAMIC_INDEX not in (lhs[-1], rhs[0]) and lhs[-1] != rhs[0]:
        return None
    return _NAMED[(len(lhs), len(rhs))]


_NAMED: dict[tuple[int, int], type[NamedOperation]] = {
    (1, 1): upstream_linalg.DotOp,
    (2, 1): upstream_linalg.MatvecOp,
    (1, 2): upstream_linalg.VecmatOp,
    (2, 2): linalg.MatmulOp,
}


def _is_batch_matmul(numbers: DotDimensionNumbersAttr, result_rank: int) -> bool:
    """Upstream's `DotGeneralBatchMatMulOpConversion`: `[b, m, k] x [b, k, n]`."""
    return (
        result_rank == 3
        and numbers.lhs_batching == numbers.rhs_batching == (0,)
        and numbers.lhs_contracting == (2,)
        and numbers.rhs_contracting == (1,)
    )


def _dim(ops: Ops, value: SSAValue, d: int) -> SSAValue:
    return ops.add(tensor.DimOp(value, index_constant(ops, d)))


class LowerDotGeneral(RewritePattern):
    """dot and dot_general as upstream's `StablehloToLinalgDotProduct.cpp`.

    A simple dot (no batch dims, lhs's last dim by rhs's first, ranks <= 2) is
    `linalg.matmul`/`matvec`/`vecmat`/`dot`; `[b, m, k] x [b, k, n]` is
    `linalg.batch_matmul`; anything else one `linalg.generic` over (batch, lhs
    free, rhs free, contracting). The init is `tensor.empty` (dynamic sizes by
    `tensor.dim` of the operand dims they come from) filled with zero, and the
    sum is in the result's element type, operands cast to it in the body.
    Unsigned tensors are cast to signless ones and back; discardable attributes
    are carried over. Complex matmuls are `linalg.matmul` (a `complex.mul`/`complex.add`
    body), other complex dots generics;
    quantized operands are left as they are.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        numbers = _dot_numbers(op)
        if numbers is None:
            return
        lhs_value, rhs_value = op.operands
        original_type = op.results[0].type
        types = (lhs_value.type, rhs_value.type, original_type)
        if any(is_quantized(t) for t in types):
            return
        complex_element = element_type(original_type)
        is_complex = isinstance(complex_element, ComplexType)
        if is_complex and any(element_type(t) != complex_element for t in types):
            return
        assert isa(original_type, TensorType[Attribute])
        element = signless(original_type.element_type)
        result_type = TensorType(element, original_type.get_shape())
        ops, hoist = Ops([]), Ops([])
        lhs, rhs = signless_value(ops, lhs_value), signless_value(ops, rhs_value)
        lhs_shape, rhs_shape = shape_of(lhs.type), shape_of(rhs.type)
        named = _simple_kind(numbers, lhs_shape, rhs_shape)
        if is_complex and named is not linalg.MatmulOp:
            named = None  # matvec/vecmat/dot here have no complex body: generics
        if named is not None:
            sizes = self._named_sizes(ops, named, lhs, rhs)
        else:
            sizes = self._result_sizes(ops, numbers, lhs, rhs, result_type)
        zero = (
            complex_constant(hoist, 0j, element)
            if isa(element, ComplexType)
            else scalar_constant(hoist, 0, element)
        )
        init = ops.add(tensor.EmptyOp(sizes, result_type))
        filled = ops.add(linalg.FillOp([zero], [init], [result_type]))
        attributes = discardable_attributes(op)
        if (
            named is None
            and not is_complex
            and _is_batch_matmul(numbers, len(result_type.get_shape()))
        ):
            named = upstream_linalg.BatchMatmulOp
        if named is not None:
            result = ops.add(named([lhs, rhs], [filled], [result_type], attributes))
        else:
            result = self._generic(numbers, lhs, rhs, filled, element, ops)
            ops.ops[-1].attributes.update(attributes)
        result = restore_type(ops, result, original_type)
        rewriter.replace(op, [*hoist.ops, *ops.ops], [result])

    @staticmethod
    def _named_sizes(
        ops: Ops, named: type[NamedOperation], lhs: SSAValue, rhs: SSAValue
    ) -> list[SSAValue]:
        """Upstream's `getDotOpEmptyTensorDynSizes`: rows of a matrix lhs, columns of a matrix rhs."""
        sizes: list[SSAValue] = []
        lhs_shape, rhs_shape = shape_of(lhs.type), shape_of(rhs.type)
        if len(lhs_shape) == 2 and lhs_shape[0] == DYNAMIC_INDEX:
            sizes.append(_dim(ops, lhs, 0))
        if len(rhs_shape) == 2 and rhs_shape[1] == DYNAMIC_INDEX:
            sizes.append(_dim(ops, rhs, 1))
        return sizes

    @staticmethod
    def _result_sizes(
        ops: Ops,
        numbers: DotDimensionNumbersAttr,
        lhs: SSAValue,
        rhs: SSAValue,
        result_type: TensorType[Attribute],
    ) -> list[SSAValue]:
        """The dynamic result dims, each a `tensor.dim` of the operand dim it comes from
        (dot_general's shape function, as upstream's reified and folded `tensor.empty`)."""
        lhs_rank, rhs_rank = len(shape_of(lhs.type)), len(shape_of(rhs.type))
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
        sources = [
            *((lhs, d) for d in numbers.lhs_batching),
            *((lhs, d) for d in lhs_free),
            *((rhs, d) for d in rhs_free),
        ]
        return [
            _dim(ops, value, d)
            for (value, d), size in zip(sources, result_type.get_shape(), strict=True)
            if size == DYNAMIC_INDEX
        ]

    @staticmethod
    def _generic(
        numbers: DotDimensionNumbersAttr,
        lhs: SSAValue,
        rhs: SSAValue,
        init: SSAValue,
        element: Attribute,
        ops: Ops,
    ) -> SSAValue:
        lhs_rank, rhs_rank = len(shape_of(lhs.type)), len(shape_of(rhs.type))
        nb = len(numbers.lhs_batching)
        nk = len(numbers.lhs_contracting)
        n_parallel = len(shape_of(init.type))
        loops = n_parallel + nk

        def operand_map(
            rank: int, batching: Sequence[int], contracting: Sequence[int], free: int
        ) -> AffineMap:
            """Upstream's `getMap`: batch dims, then contracting, the rest in order from `free`."""
            exprs: list[AffineExpr] = []
            for d in range(rank):
                if d in batching:
                    exprs.append(AffineExpr.dimension(batching.index(d)))
                elif d in contracting:
                    exprs.append(
                        AffineExpr.dimension(n_parallel + contracting.index(d))
                    )
                else:
                    exprs.append(AffineExpr.dimension(free))
                    free += 1
            return AffineMap(loops, 0, tuple(exprs))

        lhs_extra = lhs_rank - nb - nk
        lhs_map = operand_map(
            lhs_rank, numbers.lhs_batching, numbers.lhs_contracting, nb
        )
        rhs_map = operand_map(
            rhs_rank, numbers.rhs_batching, numbers.rhs_contracting, nb + lhs_extra
        )
        out_map = AffineMap(
            loops, 0, tuple(AffineExpr.dimension(d) for d in range(n_parallel))
        )
        iterators = [
            *parallel(n_parallel),
            *[IteratorTypeAttr(IteratorType.REDUCTION)] * nk,
        ]
        lhs_element, rhs_element = element_type(lhs.type), element_type(rhs.type)

        def body(args: Sequence[SSAValue], body_ops: Ops) -> list[SSAValue]:
            hoist = Ops([])
            a = emit_convert(body_ops, hoist, args[0], lhs_element, element)
            b = emit_convert(body_ops, hoist, args[1], rhs_element, element)
            mul, add = (
                (complex.MulOp, complex.AddOp)
                if isa(element, ComplexType)
                else (arith.MulfOp, arith.AddfOp)
                if is_float(element)
                else (arith.MuliOp, arith.AddiOp)
            )
            return [body_ops.add(add(args[2], body_ops.add(mul(a, b))))]

        (result,) = build_generic(
            ops, [lhs, rhs], [lhs_map, rhs_map], [init], [out_map], iterators, body
        )
        return result


def einsum_labels(text: str, rank: int) -> list[str] | None:
    """One operand's einsum labels, an ellipsis expanded to batch labels "0", "1", ...
    as upstream's `getEinsumConfigAsVector` (None if the rank does not fit)."""
    if "..." not in text:
        return list(text) if len(text) == rank else None
    before, after = text.split("...", 1)
    batch = rank - len(before) - len(after)
    if "..." in after or batch < 0:
        return None
    return [*before, *(str(i) for i in range(batch)), *after]


class LowerEinsum(RewritePattern):
    """`stablehlo.einsum`: one generic over the labels, as upstream's `EinsumToLinalgConverter`.

    An ellipsis stands for batch labels (the same count wherever it appears).
    Loops are the labels in order of first appearance (lhs, then rhs); labels
    missing from the output are reductions, and then the result is filled with
    zero and the body accumulates `out + lhs * rhs`; without one the body is
    the product. Dynamic result sizes are read with `tensor.dim` from the lhs
    (else the rhs). Operands of another element type than the result are left
    as they are.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: EinsumOp, rewriter: PatternRewriter) -> None:
        config = op.einsum_config.data.replace(" ", "")
        if config.count("->") != 1 or config.count(",") != 1:
            return
        inputs_text, output_text = config.split("->")
        lhs_text, rhs_text = inputs_text.split(",")
        result_type = op.result.type
        element = element_type(result_type)
        types = [op.lhs.type, op.rhs.type, result_type]
        if any(is_quantized(t) or signed_or_unsigned(t) for t in types):
            return
        if any(element_type(t) != element for t in types[:2]):
            return
        sides = [
            einsum_labels(text, len(shape_of(t)))
            for text, t in zip((lhs_text, rhs_text, output_text), types, strict=True)
        ]
        if any(side is None for side in sides):
            return
        lhs, rhs, output = (side for side in sides if side is not None)
        labels = list(dict.fromkeys(lhs + rhs))
        if set(output) - set(labels):
            return
        assert isa(result_type, TensorType[Attribute])

        def label_map(side: list[str]) -> AffineMap:
            return AffineMap(
                len(labels),
                0,
                tuple(AffineExpr.dimension(labels.index(c)) for c in side),
            )

        reductions = [c for c in labels if c not in output]
        iterators = [
            IteratorTypeAttr(
                IteratorType.REDUCTION if c in reductions else IteratorType.PARALLEL
            )
            for c in labels
        ]
        ops, hoist = Ops([]), Ops([])
        out = _einsum_empty(ops, op, (lhs, rhs), output, result_type, bool(reductions))
        mul, add = (
            (arith.MulfOp, arith.AddfOp)
            if is_float(element)
            else (arith.MuliOp, arith.AddiOp)
        )

        def body(args: Sequence[SSAValue], body_ops: Ops) -> list[SSAValue]:
            product = body_ops.add(mul(args[0], args[1]))
            if not reductions:
                return [product]
            return [body_ops.add(add(args[2], product))]

        (result,) = build_generic(
            ops,
            [op.lhs, op.rhs],
            [label_map(lhs), label_map(rhs)],
            [out],
            [label_map(output)],
            iterators,
            body,
        )
        ops.ops[-1].attributes.update(discardable_attributes(op))
        rewriter.replace(op, [*hoist.ops, *ops.ops], [result])


def _einsum_empty(
    ops: Ops,
    op: EinsumOp,
    sides: tuple[list[str], list[str]],
    output: list[str],
    result_type: TensorType[Attribute],
    fill: bool,
) -> SSAValue:
    """The init: `tensor.empty` sized by `tensor.dim` of the operand holding each
    dynamic output label (lhs first, upstream's `extractDynamicEinsumSizes`), the
    index constants and the zero first; filled with zero when something is summed."""
    reads: list[tuple[SSAValue, int]] = []
    for label, size in zip(output, shape_of(result_type), strict=True):
        if size != DYNAMIC_INDEX:
            continue
        for value, side in zip((op.lhs, op.rhs), sides, strict=True):
            if label in side:
                reads.append((value, side.index(label)))
                break
    indices = {d: index_constant(ops, d) for d in sorted({d for _, d in reads})}
    zero = scalar_constant(ops, 0, result_type.element_type) if fill else None
    sizes = [ops.add(tensor.DimOp(value, indices[d])) for value, d in reads]
    out = ops.add(tensor.EmptyOp(sizes, result_type))
    if zero is None:
        return out
    return ops.add(linalg.FillOp([zero], [out], [result_type]))
