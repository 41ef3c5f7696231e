"""iota, reverse, pad, dynamic_slice, dynamic_update_slice, map (upstream: `StablehloLegalizeToLinalg.cpp`).

Each pattern builds what upstream's converter of the same op builds, and the
unsigned element types go through signless tensors
(`builtin.unrealized_conversion_cast`) as upstream's type converter does.
Ops are left as they are for quantized or explicitly signed (`si32`) element
types (upstream's type converter has no rule for them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, complex, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ComplexType,
    IndexType,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.hints import isa

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.control_flow import MapOp
from xquant.dialects.stablehlo.dynamism import (
    DynamicIotaOp,
    DynamicSliceOp,
    DynamicUpdateSliceOp,
    RealDynamicSliceOp,
    SetDimensionSizeOp,
)
from xquant.dialects.stablehlo.misc import PadOp, ReverseOp
from xquant.dialects.stablehlo.syntax import array_values
from xquant.dialects.stablehlo.type_utils import is_quantized
from xquant.dialects.upstream.arith import IndexCastUIOp
from xquant.numerics.values import element_type
from xquant.transforms.stablehlo_legalize_to_linalg.common import (
    IndexConstants,
    Ops,
    Unsupported,
    build_generic,
    build_map,
    discardable_attributes,
    empty,
    parallel,
)
from xquant.transforms.stablehlo_legalize_to_linalg.pointwise import (
    empty_like,
    splat_scalar,
)
from xquant.transforms.stablehlo_legalize_to_linalg.reduce import lower_region_body
from xquant.transforms.stablehlo_legalize_to_linalg.scalar_ops import emit_convert
from xquant.transforms.stablehlo_legalize_to_linalg.type_conversion import (
    is_index_like,
    is_unsigned,
    restore_type,
    signless,
    signless_type,
    signless_value,
)
from xquant.transforms.utils.quant_emitters import scalar_constant
from xquant.transforms.utils.stablehlo_emitters import is_static, shape_of


def _outside_subset(types: Sequence[Attribute]) -> bool:
    """Quantized or explicitly signed element types: upstream's type converter has no rule."""
    return any(
        is_quantized(t)
        or (
            isa(e := element_type(t), IntegerType)
            and e.signedness.data == Signedness.SIGNED
        )
        for t in types
    )


# --------------------------------------------------------------------------- iota


def _iota_cast_width(element: Attribute) -> int | None:
    """The integer width `linalg.index` is cast to: the element's (a complex's
    part's); None for an element that is neither integer nor float (`index`)."""
    part = element.element_type if isa(element, ComplexType) else element
    if not isa(part, IntegerType | AnyFloat):
        return None
    return part.bitwidth


def _iota_exact(size: int, width: int, element: Attribute) -> bool:
    """Whether upstream's casts give the interpreter's iota (`arange(size)` converted
    to the element type, integers wrapping) for every index below `size`.

    Integer results wrap like the spec's conversion, so any size is exact
    except for i1 (the cast keeps the low bit, the conversion tests for
    nonzero); a float needs every index to fit the signed cast width.
    """
    if isa(element, IntegerType):
        return element.width.data != 1 or size <= 2
    return size <= 1 << (width - 1)


def _convert_index(
    body: Ops, hoist: Ops, value: SSAValue, element: Attribute
) -> SSAValue:
    """The cast index as the result element: StableHLO's convert (complex: real part, zero imaginary)."""
    if not isa(element, ComplexType):
        return emit_convert(body, hoist, value, value.type, element)
    part = element.element_type
    assert isa(part, AnyFloat)
    real = body.add(arith.SIToFPOp(value, part))
    zero = scalar_constant(hoist, 0.0, part)
    return body.add(complex.CreateOp(real, zero, element))


@dataclass(frozen=True)
class LowerIota(RewritePattern):
    """An all-parallel generic with no inputs yielding `linalg.index` cast to the element type.

    As upstream's `IotaConverter`: the index is `arith.index_cast` to the
    integer of the element's width, then converted (`arith.sitofp` for floats,
    `complex.create` with a zero imaginary part for complex). Under
    `enable-primitive-ops`, upstream's `IotaToMapConverter`: a `linalg.map`
    with no inputs whose body casts `linalg.index` to i64, then converts. Left
    as it is: dynamic shapes, and sizes the cast would wrap for float or i1
    results.
    """

    enable_primitive_ops: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shlo.IotaOp, rewriter: PatternRewriter) -> None:
        if is_static(op.output.type):
            lower_iota(op, None, op.iota_dimension.value.data, rewriter, self)


@dataclass(frozen=True)
class LowerDynamicIota(RewritePattern):
    """`dynamic_iota` as `iota`, the dynamic sizes of the `tensor.empty` read from
    the shape operand (`tensor.extract`, `arith.index_cast`), as upstream.

    A dynamic iota dimension has no known size, so it is lowered only where the
    cast is exact for any size: integer results other than i1, float results
    cast through at least 32 bits."""

    enable_primitive_ops: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DynamicIotaOp, rewriter: PatternRewriter) -> None:
        if _outside_subset([op.output_shape.type]):
            return
        lower_iota(op, op.output_shape, op.iota_dimension.value.data, rewriter, self)


def lower_iota(
    op: Operation,
    shape_operand: SSAValue | None,
    dim: int,
    rewriter: PatternRewriter,
    options: LowerIota | LowerDynamicIota,
) -> None:
    """The iota generic (or map) of `op`'s result; nothing if it cannot be exact."""
    original = op.results[0].type
    if _outside_subset([original]):
        return
    assert isa(original, TensorType[Attribute])
    result_type = signless_type(original)
    element = result_type.element_type
    width = _iota_cast_width(element)
    if width is not None and options.enable_primitive_ops:
        width = 64
    size = result_type.get_shape()[dim]
    if size == DYNAMIC_INDEX:
        exact = width is not None and (
            (isa(element, IntegerType) and width != 1)
            or (not isa(element, IntegerType) and width >= 32)
        )
    else:
        exact = width is not None and _iota_exact(size, width, element)
    if width is None or not exact:
        return
    rank = result_type.get_num_dims()
    ops, hoist = Ops([]), Ops([])
    constant = IndexConstants(hoist)
    sizes: list[SSAValue] = []
    for d, n in enumerate(result_type.get_shape()):
        if n != DYNAMIC_INDEX:
            continue
        assert shape_operand is not None
        shape_element = element_type(shape_operand.type)
        extracted = ops.add(
            tensor.ExtractOp(shape_operand, [constant(d)], shape_element)
        )
        if not isinstance(shape_element, IndexType):
            cast = IndexCastUIOp if is_unsigned(shape_element) else arith.IndexCastOp
            extracted = ops.add(cast(extracted, IndexType()))
        sizes.append(extracted)
    out = ops.add(tensor.EmptyOp(sizes, result_type))
    cast_width = width

    def body(_: Sequence[SSAValue], body_ops: Ops) -> list[SSAValue]:
        index = body_ops.add(linalg.IndexOp(dim))
        value = body_ops.add(arith.IndexCastOp(index, IntegerType(cast_width)))
        return [_convert_index(body_ops, hoist, value, element)]

    if options.enable_primitive_ops:
        (result,) = build_map(ops, [], out, body)
    else:
        (result,) = build_generic(
            ops, [], [], [out], [AffineMap.identity(rank)], parallel(rank), body
        )
    ops.ops[-1].attributes.update(discardable_attributes(op))
    result = restore_type(ops, result, original)
    rewriter.replace(op, [*hoist.ops, *ops.ops], [result])


# ------------------------------------------------------------------------ reverse


class LowerReverse(RewritePattern):
    """A copy generic whose input map reads `n - 1 - d` along the reversed dims, as
    upstream's `ReverseConverter`; left as it is when a reversed dim is dynamic."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReverseOp, rewriter: PatternRewriter) -> None:
        original = op.result.type
        if _outside_subset([op.operand.type, original]):
            return
        assert isa(original, TensorType[Attribute])
        shape = original.get_shape()
        dims = array_values(op.dimensions)
        if any(shape[d] == DYNAMIC_INDEX for d in dims):
            return
        rank = len(shape)
        exprs = [AffineExpr.dimension(d) for d in range(rank)]
        for d in dims:
            exprs[d] = AffineExpr.constant(shape[d] - 1) - exprs[d]
        ops = Ops([])
        operand = signless_value(ops, op.operand)
        out = empty_like(ops, signless_type(original), [operand])
        (result,) = build_generic(
            ops,
            [operand],
            [AffineMap(rank, 0, tuple(exprs))],
            [out],
            [AffineMap.identity(rank)],
            parallel(rank),
            lambda args, _: [args[0]],
        )
        ops.ops[-1].attributes.update(discardable_attributes(op))
        result = restore_type(ops, result, original)
        rewriter.replace(op, ops.ops, [result])


# ---------------------------------------------------------------------------- pad


def _pad_value(ops: Ops, hoist: Ops, padding: SSAValue) -> SSAValue:
    """The padding scalar: a splat constant's `arith.constant` (upstream's
    `createOrFold<tensor::ExtractOp>` folds it), else a `tensor.extract`."""
    if (scalar := splat_scalar(padding, hoist)) is not None:
        return scalar
    return ops.add(tensor.ExtractOp(padding, [], element_type(padding.type)))


def _padded(
    ops: Ops,
    operand: SSAValue,
    scalar: SSAValue,
    low: Sequence[int],
    high: Sequence[int],
    interior: Sequence[int],
) -> SSAValue:
    """`operand` padded by non-negative `low`/`high`/`interior`, as upstream's
    `PadOpConversion`: `tensor.pad`, or with interior padding a `linalg.fill`
    of the padded shape and a `tensor.insert_slice` strided by `interior + 1`."""
    source = operand.type
    assert isa(source, TensorType[Attribute])
    shape = [
        lo + hi + n + max(n - 1, 0) * inner
        for n, lo, hi, inner in zip(
            source.get_shape(), low, high, interior, strict=True
        )
    ]
    padded_type = TensorType(source.element_type, shape)
    if any(interior):
        filled = ops.add(
            linalg.FillOp([scalar], [empty(ops, padded_type)], [padded_type])
        )
        return ops.add(
            tensor.InsertSliceOp.from_static_parameters(
                operand, filled, low, source.get_shape(), [i + 1 for i in interior]
            )
        )
    block = Block(arg_types=[IndexType()] * len(shape))
    block.add_op(tensor.YieldOp(scalar))
    return ops.add(tensor.PadOp(operand, [], [], Region(block), low, high, padded_type))


class LowerPad(RewritePattern):
    """`tensor.pad`, or (interior padding) a fill and a strided `tensor.insert_slice`.

    Negative edge padding is upstream's `PadOpNegativePaddingConversion`: the
    operand is padded by the padding's magnitudes (a negative low side by 0),
    then `tensor.extract_slice` takes the result from offset `-low`. Left as it
    is: dynamic shapes.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: PadOp, rewriter: PatternRewriter) -> None:
        original = op.result.type
        types = [op.operand.type, op.padding_value.type, original]
        if _outside_subset(types) or not all(is_static(t) for t in types):
            return
        assert isa(original, TensorType[Attribute])
        low = array_values(op.edge_padding_low)
        high = array_values(op.edge_padding_high)
        interior = array_values(op.interior_padding)
        ops, hoist = Ops([]), Ops([])
        operand = signless_value(ops, op.operand)
        padding = signless_value(ops, op.padding_value)
        scalar = _pad_value(ops, hoist, padding)
        padded = _padded(
            ops,
            operand,
            scalar,
            [max(lo, 0) for lo in low],
            [abs(hi) for hi in high],
            interior,
        )
        if any(v < 0 for v in (*low, *high)):
            padded = ops.add(
                tensor.ExtractSliceOp.from_static_parameters(
                    padded, [max(-lo, 0) for lo in low], original.get_shape()
                )
            )
        result = restore_type(ops, padded, original)
        rewriter.replace(op, [*hoist.ops, *ops.ops], [result])


# ------------------------------------------------------ dynamic (update) slice


def _clamped_starts(
    ops: Ops,
    constants: IndexConstants,
    op: DynamicSliceOp | DynamicUpdateSliceOp,
    operand: SSAValue,
    sizes: Sequence[int],
) -> list[SSAValue]:
    """Each start index read (`tensor.extract`), cast to `index` and clamped to
    `[0, operand_dim - size]` (`arith.maxsi` + `arith.minsi`), as the spec says
    and upstream emits; a dynamic operand dim is read with `tensor.dim`.

    Unsigned starts are cast with `index_castui` and clamped by one
    `arith.minui`: upstream's signed clamp reads a ui64 start of 2^63 or more
    as negative and moves it to 0 instead of to the upper bound.
    """
    shape = shape_of(operand.type)
    starts: list[SSAValue] = []
    for d, start in enumerate(op.start_indices):
        index_element = element_type(start.type)
        value = ops.add(
            tensor.ExtractOp(signless_value(ops, start), [], signless(index_element))
        )
        if not isinstance(index_element, IndexType):
            cast = IndexCastUIOp if is_unsigned(index_element) else arith.IndexCastOp
            value = ops.add(cast(value, IndexType()))
        if shape[d] == DYNAMIC_INDEX:
            size = ops.add(tensor.DimOp(operand, constants(d)))
            bound = ops.add(arith.SubiOp(size, constants(sizes[d])))
        else:
            bound = constants(shape[d] - sizes[d])
        if is_unsigned(index_element):
            starts.append(ops.add(arith.MinUIOp(value, bound)))
            continue
        value = ops.add(arith.MaxSIOp(value, constants(0)))
        starts.append(ops.add(arith.MinSIOp(value, bound)))
    return starts


def _index_operands_supported(indices: Sequence[SSAValue]) -> bool:
    return all(
        not shape_of(v.type) and is_index_like(signless(element_type(v.type)))
        for v in indices
    )


class LowerDynamicSlice(RewritePattern):
    """`tensor.extract_slice` at the clamped start indices, as upstream's
    `DynamicSliceConverter` (the operand may have dynamic dims)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DynamicSliceOp, rewriter: PatternRewriter) -> None:
        original = op.result.type
        types = [op.operand.type, original, *(v.type for v in op.start_indices)]
        if _outside_subset(types) or not _index_operands_supported(op.start_indices):
            return
        assert isa(original, TensorType[Attribute])
        sizes = array_values(op.slice_sizes)
        ops, hoist = Ops([]), Ops([])
        operand = signless_value(ops, op.operand)
        starts = _clamped_starts(ops, IndexConstants(hoist), op, operand, sizes)
        sliced = ops.add(
            tensor.ExtractSliceOp(
                operand, starts, sizes, [1] * len(sizes), signless_type(original)
            )
        )
        result = restore_type(ops, sliced, original)
        rewriter.replace(op, [*hoist.ops, *ops.ops], [result])


class LowerRealDynamicSlice(RewritePattern):
    """`tensor.extract_slice` as upstream's `RealDynamicSliceConverter`: per dim the
    start (clamped to `[0, operand_dim - size]`) and stride read from the index
    tensors, and for a dynamic result dim the size `ceildivui(limit - start, stride)`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: RealDynamicSliceOp, rewriter: PatternRewriter
    ) -> None:
        original = op.result.type
        bounds = (op.start_indices, op.limit_indices, op.strides)
        types = [op.operand.type, original, *(v.type for v in bounds)]
        if _outside_subset(types) or len({element_type(v.type) for v in bounds}) != 1:
            return
        assert isa(original, TensorType[Attribute])
        ops, hoist = Ops([]), Ops([])
        constant = IndexConstants(hoist)
        operand = signless_value(ops, op.operand)
        start_t, limit_t, stride_t = (signless_value(ops, v) for v in bounds)
        element = signless(element_type(op.start_indices.type))
        unsigned = is_unsigned(element_type(op.start_indices.type))
        result_type = signless_type(original)
        operand_shape = shape_of(operand.type)

        def to_index(value: SSAValue) -> SSAValue:
            if isinstance(value.type, IndexType):
                return value
            cast = IndexCastUIOp if unsigned else arith.IndexCastOp
            return ops.add(cast(value, IndexType()))

        offsets: list[SSAValue] = []
        sizes: list[SSAValue | int] = []
        strides: list[SSAValue] = []
        for d, n in enumerate(result_type.get_shape()):
            at = [constant(d)]
            start = ops.add(tensor.ExtractOp(start_t, at, element))
            stride = ops.add(tensor.ExtractOp(stride_t, at, element))
            if n == DYNAMIC_INDEX:
                limit = ops.add(tensor.ExtractOp(limit_t, at, element))
                delta = ops.add(arith.SubiOp(limit, start))
                size: SSAValue | int = to_index(
                    ops.add(arith.CeilDivUIOp(delta, stride))
                )
            else:
                size = n
            start = to_index(start)
            if operand_shape[d] == DYNAMIC_INDEX:
                dim = ops.add(tensor.DimOp(operand, constant(d)))
                bound = ops.add(
                    arith.SubiOp(dim, constant(size) if isinstance(size, int) else size)
                )
            elif isinstance(size, int):
                bound = constant(operand_shape[d] - size)
            else:
                bound = ops.add(arith.SubiOp(constant(operand_shape[d]), size))
            start = ops.add(arith.MaxSIOp(start, constant(0)))
            offsets.append(ops.add(arith.MinSIOp(start, bound)))
            sizes.append(size)
            strides.append(to_index(stride))
        sliced = ops.add(
            tensor.ExtractSliceOp(operand, offsets, sizes, strides, result_type)
        )
        result = restore_type(ops, sliced, original)
        rewriter.replace(op, [*hoist.ops, *ops.ops], [result])


class LowerSetDimensionSize(RewritePattern):
    """`tensor.extract_slice` from 0 with the size read at `dimension`, as upstream's
    `SetDimensionSizeConverter` (other dynamic dims: their `tensor.dim`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: SetDimensionSizeOp, rewriter: PatternRewriter
    ) -> None:
        original = op.result.type
        if _outside_subset([op.operand.type, original]):
            return
        assert isa(original, TensorType[Attribute])
        ops, hoist = Ops([]), Ops([])
        constant = IndexConstants(hoist)
        operand = signless_value(ops, op.operand)
        result_type = signless_type(original)
        dimension = op.dimension.value.data
        size = ops.add(tensor.ExtractOp(op.size, [], element_type(op.size.type)))
        size = ops.add(arith.IndexCastOp(size, IndexType()))
        sizes: list[SSAValue | int] = [
            size
            if d == dimension
            else (
                ops.add(tensor.DimOp(operand, constant(d))) if n == DYNAMIC_INDEX else n
            )
            for d, n in enumerate(shape_of(operand.type))
        ]
        rank = len(sizes)
        sliced = ops.add(
            tensor.ExtractSliceOp(operand, [0] * rank, sizes, [1] * rank, result_type)
        )
        result = restore_type(ops, sliced, original)
        rewriter.replace(op, [*hoist.ops, *ops.ops], [result])


class LowerDynamicUpdateSlice(RewritePattern):
    """`tensor.insert_slice` of the update at the clamped start indices, as upstream's
    `DynamicUpdateSliceConverter`; left as it is for dynamic shapes (as upstream)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: DynamicUpdateSliceOp, rewriter: PatternRewriter
    ) -> None:
        original = op.result.type
        types = [op.operand.type, op.update.type, original]
        if _outside_subset([*types, *(v.type for v in op.start_indices)]):
            return
        if not all(is_static(t) for t in types):
            return
        if not _index_operands_supported(op.start_indices):
            return
        sizes = shape_of(op.update.type)
        ops, hoist = Ops([]), Ops([])
        update = signless_value(ops, op.update)
        operand = signless_value(ops, op.operand)
        starts = _clamped_starts(ops, IndexConstants(hoist), op, operand, sizes)
        inserted = ops.add(
            tensor.InsertSliceOp.get(
                update, operand, sizes, [DYNAMIC_INDEX] * len(sizes), offsets=starts
            )
        )
        result = restore_type(ops, inserted, original)
        rewriter.replace(op, [*hoist.ops, *ops.ops], [result])


# ---------------------------------------------------------------------------- map


@dataclass(frozen=True)
class LowerMap(RewritePattern):
    """An all-parallel generic (identity maps) whose body is the computation's scalar ops.

    As upstream's `MapOpToGenericConverter`; with `enable_primitive_ops` a
    `linalg.map` (upstream's `MapOpToMapConverter`): the inputs `tensor.cast`
    to the first one's shape, the init shaped like it, the result cast back to
    the op's type. Left as it is: a body op without a scalar lowering here.
    """

    enable_primitive_ops: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MapOp, rewriter: PatternRewriter) -> None:
        original = op.result.type
        if _outside_subset([*op.operand_types, original]) or not op.inputs:
            return
        assert isa(original, TensorType[Attribute])
        ops, hoist = Ops([]), Ops([])
        inputs = [signless_value(ops, v) for v in op.inputs]
        result_type = signless_type(original)

        def body(args: Sequence[SSAValue], body_ops: Ops) -> list[SSAValue]:
            arguments = args[: len(inputs)]
            return lower_region_body(op.computation, arguments, body_ops, hoist)

        attributes = discardable_attributes(op)
        try:
            if self.enable_primitive_ops:
                result = self._map(ops, inputs, result_type, body, attributes)
            else:
                rank = result_type.get_num_dims()
                out = empty_like(ops, result_type, inputs)
                identity = AffineMap.identity(rank)
                (result,) = build_generic(
                    ops,
                    inputs,
                    [identity] * len(inputs),
                    [out],
                    [identity],
                    parallel(rank),
                    body,
                )
                ops.ops[-1].attributes.update(attributes)
        except Unsupported:
            ops.discard()
            hoist.discard()
            return
        result = restore_type(ops, result, original)
        rewriter.replace(op, [*hoist.ops, *ops.ops], [result])

    @staticmethod
    def _map(
        ops: Ops,
        inputs: Sequence[SSAValue],
        result_type: TensorType[Attribute],
        body: Callable[[Sequence[SSAValue], Ops], list[SSAValue]],
        attributes: dict[str, Attribute],
    ) -> SSAValue:
        """`linalg.map` over `inputs` coerced to the first input's shape, cast to `result_type`."""
        first = inputs[0].type
        assert isa(first, TensorType[Attribute])
        coerced = [
            v
            if shape_of(v.type) == first.get_shape()
            else ops.add(
                tensor.CastOp(v, TensorType(element_type(v.type), first.get_shape()))
            )
            for v in inputs
        ]
        init_type = TensorType(result_type.element_type, first.get_shape())
        out = empty_like(ops, init_type, [inputs[0]])
        (result,) = build_map(ops, coerced, out, body)
        ops.ops[-1].attributes.update(attributes)
        if result.type == result_type:
            return result
        return ops.add(tensor.CastOp(result, result_type))
