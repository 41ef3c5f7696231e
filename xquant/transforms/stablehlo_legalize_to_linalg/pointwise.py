"""Element-wise ops and constants (upstream: `StablehloToLinalgPointwise.cpp`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ComplexType,
    DenseIntOrFPElementsAttr,
    IntegerType,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.hints import isa

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo.math_extra import (
    ComplexOp,
    IsFiniteOp,
    ReducePrecisionOp,
)
from xquant.dialects.stablehlo.type_utils import is_quantized
from xquant.numerics.dtypes import numpy_dtype
from xquant.numerics.values import dense_value, element_type
from xquant.transforms.stablehlo_legalize_to_linalg.common import (
    Ops,
    Unsupported,
    build_generic,
    build_map,
    discardable_attributes,
    empty,
    index_constant,
    operand_map,
    parallel,
)
from xquant.transforms.stablehlo_legalize_to_linalg.scalar_ops import (
    complex_constant,
    emit_scalar,
)
from xquant.transforms.stablehlo_legalize_to_linalg.type_conversion import (
    in_reducer,
    restore_type,
    signed_or_unsigned,
    signless_type,
    signless_value,
)
from xquant.transforms.utils.quant_emitters import scalar_constant
from xquant.transforms.utils.stablehlo_emitters import is_static, shape_of


def splat_scalar(value: SSAValue, hoist: Ops) -> SSAValue | None:
    """The scalar of a splat constant operand, as an `arith.constant` (upstream's
    `materializeSplatScalarConstant`), or None if `value` is not one."""
    if not isinstance(owner := value.owner, (arith.ConstantOp, shlo.ConstantOp)):
        return None
    dense = owner.value
    # xDSL's `is_splat` fails on an empty tensor, which has no splat value anyway.
    if 0 in shape_of(value.type) or not isinstance(dense, DenseIntOrFPElementsAttr):
        return None
    if not dense.is_splat():
        return None
    if is_quantized(value.type) or signed_or_unsigned(value.type):
        return None
    element = element_type(value.type)
    if isa(element, ComplexType):
        real, imag = cast(tuple[float, float], dense.get_values()[0])
        return complex_constant(hoist, complex(real, imag), element)
    return scalar_constant(hoist, dense_value(dense).reshape(-1)[0].item(), element)


def empty_like(
    ops: Ops, result_type: TensorType[Attribute], operands: Sequence[SSAValue]
) -> SSAValue:
    """`tensor.empty` of the result's type; dynamic sizes read with `tensor.dim` from the
    first operand of the result's rank (upstream's `getEmptyTensorFor` after folding)."""
    shape = shape_of(result_type)
    source = next((v for v in operands if len(shape_of(v.type)) == len(shape)), None)
    sizes: list[SSAValue] = []
    for d, size in enumerate(shape):
        if size != DYNAMIC_INDEX:
            continue
        if source is None:
            raise Unsupported("a dynamic result size with no operand of its rank")
        sizes.append(ops.add(tensor.DimOp(source, index_constant(ops, d))))
    return ops.add(tensor.EmptyOp(sizes, plain_tensor(result_type)))


def plain_tensor(t: TensorType[Attribute]) -> TensorType[Attribute]:
    """`t` without its encoding (upstream's type converter drops StableHLO's bounds)."""
    return TensorType(t.element_type, t.get_shape())


def lower_elementwise(
    op: Operation, ops: Ops, capture_scalar_inputs: bool, primitive: bool = False
) -> SSAValue:
    """One parallel generic (or `linalg.map`) computing `op`; rank-0 operands are captured or broadcast.

    As upstream: splat constants become scalar constants used in the body,
    rank-0 operands of a ranked op are `tensor.extract`ed before the generic
    (`capture_scalar_inputs`) or passed with an empty map. `linalg.map`
    (`primitive`, upstream's `PointwiseToLinalgMapConverter`) always extracts
    rank-0 operands.
    """
    original_type = op.result_types[0]
    assert isa(original_type, TensorType[Attribute])
    rank = len(shape_of(original_type))
    if any(len(shape_of(t)) not in (0, rank) for t in op.operand_types):
        raise Unsupported("operands of mixed ranks")
    # Unsigned tensors are cast to signless ones and back, as upstream's type converter.
    result_type = signless_type(original_type)
    operands = [signless_value(ops, v) for v in op.operands]
    hoist = Ops([])
    out = empty_like(ops, result_type, operands)
    # Per operand: the scalar used in the body, or None for a mapped input.
    scalars: list[SSAValue | None] = []
    inputs: list[SSAValue] = []
    for operand in operands:
        operand_rank = len(shape_of(operand.type))
        scalar = splat_scalar(operand, hoist)
        if (
            scalar is None
            and operand_rank != rank
            and (capture_scalar_inputs or primitive)
        ):
            scalar = hoist.add(
                tensor.ExtractOp(operand, [], element_type(operand.type))
            )
        if scalar is None:
            inputs.append(operand)
        scalars.append(scalar)

    def body(args: Sequence[SSAValue], body_ops: Ops) -> list[SSAValue]:
        block_args = iter(args[: len(inputs)])
        operands = [next(block_args) if s is None else s for s in scalars]
        return [emit_scalar(op, operands, body_ops, hoist)]

    staged = Ops([])
    if primitive:
        # linalg.map wants every input of the init's shape (upstream's `coerceTensorShape`).
        init_type = out.type
        assert isa(init_type, TensorType[Attribute])
        mapped = [
            v
            if shape_of(v.type) == shape_of(init_type)
            else staged.add(
                tensor.CastOp(
                    v, TensorType(element_type(v.type), init_type.get_shape())
                )
            )
            for v in inputs
        ]
        (result,) = build_map(staged, mapped, out, body)
    else:
        (result,) = build_generic(
            staged,
            inputs,
            [operand_map(v.type, rank) for v in inputs],
            [out],
            [AffineMap.identity(rank)],
            parallel(rank),
            body,
        )
    staged.ops[-1].attributes.update(discardable_attributes(op))
    if result.type != result_type:
        result = staged.add(tensor.CastOp(result, result_type))
    result = restore_type(staged, result, original_type)
    ops.ops.extend([*hoist.ops, *staged.ops])
    return result


@dataclass(frozen=True)
class LowerElementwise(RewritePattern):
    """Element-wise ops, clamp, compare, select, convert, bitcast_convert: one parallel
    generic, or `linalg.map` with `primitive` (`enable-primitive-ops`)."""

    capture_scalar_inputs: bool = True
    primitive: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(
            op,
            (
                ew.ElementwiseOp,
                ew.CompareOp,
                ew.SelectOp,
                IsFiniteOp,
                ComplexOp,
                ReducePrecisionOp,
            ),
        ) or in_reducer(op):
            return
        if not all(
            isinstance(t, TensorType) for t in (*op.operand_types, *op.result_types)
        ):
            return
        ops = Ops([])
        try:
            result = lower_elementwise(
                op, ops, self.capture_scalar_inputs, self.primitive
            )
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


def _int_of(body: Ops, value: SSAValue, width: int) -> SSAValue:
    """`value` as the signless integer of its width (a bitcast unless it is one already)."""
    if isinstance(value.type, IntegerType):
        return value
    return body.add(arith.BitcastOp(value, IntegerType(width)))


class LowerBitcastConvertResize(RewritePattern):
    """bitcast_convert between element widths: one generic shifting bytes, as upstream.

    Expansion (one wide element into a new last dim of narrow ones): the
    `k`-th narrow element is the wide one shifted right by `k * width`
    (little-endian, as numpy views are); contraction: the narrow elements of
    the last dim are or-ed into a zero-filled result, shifted left likewise.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: ew.BitcastConvertOp, rewriter: PatternRewriter
    ) -> None:
        source_type, result_type = op.operand.type, op.result.type
        if not is_static(source_type) or not is_static(result_type):
            return
        assert isa(source_type, TensorType[Attribute])
        assert isa(result_type, TensorType[Attribute])
        source_rank, result_rank = (
            len(source_type.get_shape()),
            len(result_type.get_shape()),
        )
        if source_rank == result_rank:
            return
        source, target = source_type.element_type, result_type.element_type
        if any(
            is_quantized(t) or signed_or_unsigned(t) or isinstance(t, ComplexType)
            for t in (source, target)
        ):
            return
        in_bits = numpy_dtype(source).itemsize * 8
        out_bits = numpy_dtype(target).itemsize * 8
        expansion = in_bits > out_bits
        rank = max(source_rank, result_rank)
        ops, hoist = Ops([]), Ops([])
        out = empty(ops, result_type)
        if not expansion:
            zero = scalar_constant(hoist, 0, target)
            out = ops.add(linalg.FillOp([zero], [out], [result_type]))
        in_int, out_int = IntegerType(in_bits), IntegerType(out_bits)
        shift_type = in_int if expansion else out_int
        width = scalar_constant(hoist, out_bits if expansion else in_bits, shift_type)

        def body(args: Sequence[SSAValue], body_ops: Ops) -> list[SSAValue]:
            position = body_ops.add(linalg.IndexOp(rank - 1))
            iota = body_ops.add(arith.IndexCastOp(position, shift_type))
            amount = body_ops.add(arith.MuliOp(iota, width))
            value = _int_of(body_ops, args[0], in_bits)
            if expansion:
                shifted = body_ops.add(arith.ShRUIOp(value, amount))
                result = body_ops.add(arith.TruncIOp(shifted, out_int))
            else:
                extended = body_ops.add(arith.ExtUIOp(value, out_int))
                shifted = body_ops.add(arith.ShLIOp(extended, amount))
                accumulator = _int_of(body_ops, args[1], out_bits)
                result = body_ops.add(arith.OrIOp(shifted, accumulator))
            if result.type != target:
                result = body_ops.add(arith.BitcastOp(result, target))
            return [result]

        identity = AffineMap.identity(rank)
        maps = [
            AffineMap(rank, 0, identity.results[:source_rank]),
            AffineMap(rank, 0, identity.results[:result_rank]),
        ]
        iterators = parallel(rank - (0 if expansion else 1))
        if not expansion:
            iterators = [*iterators, IteratorTypeAttr(IteratorType.REDUCTION)]
        (result,) = build_generic(
            ops, [op.operand], maps[:1], [out], maps[1:], iterators, body
        )
        ops.ops[-1].attributes.update(discardable_attributes(op))
        rewriter.replace(op, [*hoist.ops, *ops.ops], [result])
