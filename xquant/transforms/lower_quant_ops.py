"""`lower-quant-ops`: `quant.qcast` / `quant.dcast` to arith, math, linalg, tensor and shape ops.

The storage integers move between the quantized and the integer world
through `quant.scast`, as upstream does. Every case is covered:

- scalars: arith on scalars;
- ranked tensors (static or dynamic), any granularity: one `linalg.generic`
  whose body is the scalar math; per-axis and sub-channel read their
  parameters from dense constants through `(d_axis)` / `d floordiv block`
  indexing maps, per-layer captures scalar constants;
- unranked tensors: reshape to a known rank, run the ranked case, reshape
  back. Per-layer flattens to 1-D, per-axis to `?xNx?`, sub-channel (which
  upstream does not support) to rank 2k+1 `[left, A1, mid, ..., Ak, right]`
  with `A_i = block_i * scales_i` (seed 000, appendix case 2).

`rounding=nearest-even` (default) emits the project's numeric contract:
dequantize subtracts the zero point exactly in integers before converting
(`extsi`/`extui` of the storage to i32, or i64 above 16-bit storage, `subi`
with the zero point constant, `sitofp`, `mulf`; a zero point of 0 is just
`sitofp`/`uitofp`, `mulf`). `rounding=toward-zero` reproduces upstream MLIR's
arithmetic op for op (fptosi truncation, integer clamp of explicit bounds
only; see `xquant.transforms.quant_ir`), including its dequantize
`sitofp(q) - sitofp(zp)` in float: where `q` is not exact in the expressed
type (i32 storage with f32) that rounds twice, e.g. `q = 33554433`, zero
point 3, scale 1.0 gives 33554428 where the contract gives 33554430. One
structural difference: upstream computes
per-layer tensors with `tensor.splat` and arith on whole tensors, which
xDSL's arith casts (scalar-only) cannot express, so per-layer tensors use a
`linalg.generic` here too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
    UnrankedTensorType,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xquant.dialects import shape
from xquant.dialects.quant.ops import (
    DequantizeCastOp,
    QuantizeCastOp,
    StorageCastOp,
    element_type,
)
from xquant.dialects.quant.types import UniformQuantizedType
from xquant.transforms.diagnostics import OpDiagnostic
from xquant.transforms.quant_ir import (
    Bounds,
    OpList,
    Params,
    Rounding,
    dense_constant,
    dequantize_wide_type,
    emit_dequantize,
    emit_quantize,
    make_bounds,
    scalar_constant,
    with_element,
)

BodyFn = Callable[[OpList, SSAValue, Params], SSAValue]


def _index(ops: OpList, value: int) -> SSAValue:
    return ops.add(arith.ConstantOp(IntegerAttr(value, IndexType())))


@dataclass(frozen=True)
class _Layout:
    """How the parameters map onto a ranked iteration space: their shape and indexing map exprs."""

    shape: tuple[int, ...]
    exprs: tuple[AffineExpr, ...]


class _Lowering:
    """Builds the lowering of one qcast/dcast for one quantized type."""

    def __init__(self, qtype: UniformQuantizedType, rounding: Rounding, quantize: bool):
        self.qtype = qtype
        self.rounding = rounding
        self.quantize = quantize
        self.out_element: Attribute = (
            qtype.storage_type if quantize else qtype.expressed_type
        )

    # ----- parameters -----

    def _zero_point_element(self) -> Attribute:
        """Storage integers (toward-zero), wide integers (dequantize) or floats (quantize)."""
        if self.rounding is Rounding.TOWARD_ZERO:
            return self.qtype.storage_type
        if not self.quantize:
            return dequantize_wide_type(self.qtype)
        return self.qtype.expressed_type

    def _scalar_params(self, ops: OpList) -> Params:
        qtype = self.qtype
        scale = scalar_constant(ops, qtype.scale, qtype.expressed_type)
        zero_point = scalar_constant(ops, qtype.zero_point, self._zero_point_element())
        return Params(scale, zero_point if qtype.zero_point != 0 else None)

    def _bounds(self, ops: OpList) -> Bounds:
        """Clamp constants (quantize only)."""
        return (
            make_bounds(ops, self.qtype, self.rounding)
            if self.quantize
            else Bounds(None, None)
        )

    def _body(self, bounds: Bounds) -> BodyFn:
        def body(ops: OpList, value: SSAValue, params: Params) -> SSAValue:
            result_type = with_element(value.type, self.out_element)
            if self.quantize:
                return emit_quantize(
                    ops, value, params, bounds, self.qtype, self.rounding, result_type
                )
            return emit_dequantize(
                ops, value, params, self.qtype, self.rounding, result_type
            )

        return body

    # ----- entry point -----

    def lower(self, ops: OpList, value: SSAValue) -> SSAValue:
        container = value.type
        if isinstance(container, UnrankedTensorType):
            return self._unranked(ops, value)
        if not isinstance(container, TensorType):
            params = self._scalar_params(ops)
            return self._body(self._bounds(ops))(ops, value, params)
        return self._ranked(ops, value, self._layout(container.get_shape()))

    # ----- ranked tensors -----

    def _layout(self, shape: Sequence[int]) -> _Layout | None:
        """Parameter layout for a ranked tensor of `shape` (None: per-layer scalars)."""
        qtype = self.qtype
        if qtype.is_per_layer:
            return None
        if qtype.is_per_axis:
            axis = qtype.quantized_dimensions[0]
            return _Layout((qtype.scales.size,), (AffineExpr.dimension(axis),))
        blocks = dict(qtype.block_size_info)
        exprs: list[AffineExpr] = []
        for dim in range(len(shape)):
            block = blocks.get(dim)
            if block is None:
                exprs.append(AffineExpr.constant(0))
            else:
                exprs.append(
                    AffineExpr.dimension(dim)
                    if block == 1
                    else AffineExpr.dimension(dim) // block
                )
        return _Layout(tuple(qtype.scales.shape), tuple(exprs))

    def _param_constants(
        self, ops: OpList, layout: _Layout
    ) -> tuple[SSAValue, SSAValue]:
        qtype = self.qtype
        scales = TensorType(qtype.expressed_type, layout.shape)
        zero_points = TensorType(self._zero_point_element(), layout.shape)
        return (
            dense_constant(ops, [float(s) for s in qtype.scales.flat], scales),
            dense_constant(ops, [int(z) for z in qtype.zero_points.flat], zero_points),
        )

    def _ranked(self, ops: OpList, value: SSAValue, layout: _Layout | None) -> SSAValue:
        container = value.type
        assert isinstance(container, TensorType)
        shape = container.get_shape()
        rank = len(shape)
        body_fn = self._body(self._bounds(ops))
        inputs = [value]
        maps = [AffineMap.identity(rank)]
        scalar_params: Params | None = None
        if layout is None:
            scalar_params = self._scalar_params(ops)
        else:
            scales, zero_points = self._param_constants(ops, layout)
            inputs += [scales, zero_points]
            param_map = AffineMap(rank, 0, layout.exprs)
            maps += [param_map, param_map]
        dynamic = [
            ops.add(tensor.DimOp(value, _index(ops, i)))
            for i, dim in enumerate(shape)
            if dim == DYNAMIC_INDEX
        ]
        result_type = TensorType(self.out_element, shape)
        empty = ops.add(tensor.EmptyOp(dynamic, result_type))
        maps.append(AffineMap.identity(rank))

        arg_types: list[Attribute] = [
            container.get_element_type(),
            *(
                []
                if layout is None
                else [self.qtype.expressed_type, self._zero_point_element()]
            ),
            self.out_element,
        ]
        block = Block(arg_types=arg_types)
        body = OpList()
        params = scalar_params or Params(block.args[1], block.args[2])
        result = body_fn(body, block.args[0], params)
        block.add_ops([*body.ops, YieldOp(result)])
        generic = GenericOp(
            inputs,
            [empty],
            Region(block),
            [AffineMapAttr(m) for m in maps],
            [IteratorTypeAttr(IteratorType.PARALLEL)] * rank,
            [result_type],
        )
        return ops.add(generic)

    # ----- unranked tensors -----

    def _unranked(self, ops: OpList, value: SSAValue) -> SSAValue:
        container = value.type
        assert isinstance(container, UnrankedTensorType)
        shape_value = ops.add(shape.ShapeOfOp(value))
        extents, known_shape, layout = self._flattening(ops, shape_value)
        extents_tensor = ops.add(tensor.FromElementsOp(*extents))
        element = cast(Attribute, container.element_type)  # pyright: ignore[reportUnknownMemberType]
        ranked_type = TensorType(element, known_shape)
        reshaped = ops.add(tensor.ReshapeOp(value, extents_tensor, ranked_type))
        result = self._ranked(ops, reshaped, layout)
        return ops.add(
            tensor.ReshapeOp(result, shape_value, UnrankedTensorType(self.out_element))
        )

    def _flattening(
        self, ops: OpList, shape_value: SSAValue
    ) -> tuple[list[SSAValue], list[int], _Layout | None]:
        """Extents of the known-rank view of an unranked tensor, its static shape and parameter layout."""
        qtype = self.qtype

        def num_elements(extents: SSAValue) -> SSAValue:
            return ops.add(shape.NumElementsOp(extents))

        def split(extents: SSAValue, at: int) -> tuple[SSAValue, SSAValue]:
            op = shape.SplitAtOp(extents, _index(ops, at))
            ops.add(op)
            return op.head, op.tail

        if qtype.is_per_layer:
            return [num_elements(shape_value)], [DYNAMIC_INDEX], None
        if qtype.is_per_axis:
            axis, count = qtype.quantized_dimensions[0], qtype.scales.size
            left, _ = split(shape_value, axis)
            _, right = split(shape_value, axis + 1)
            extents = [num_elements(left), _index(ops, count), num_elements(right)]
            return (
                extents,
                [DYNAMIC_INDEX, count, DYNAMIC_INDEX],
                _Layout((count,), (AffineExpr.dimension(1),)),
            )
        # Sub-channel: [left, A1, mid1, A2, ..., Ak, right], Ai = block_i * scales_i.
        blocks = dict(qtype.block_size_info)
        axes = sorted(blocks)
        compact = qtype.scales_for([0] * (axes[-1] + 1))[0].shape if axes else ()
        extents: list[SSAValue] = []
        known: list[int] = []
        param_shape: list[int] = []
        exprs: list[AffineExpr] = []
        previous = -1
        for axis in axes:
            head, _ = split(shape_value, axis)
            _, between = split(head, previous + 1)
            size = blocks[axis] * compact[axis]
            extents += [num_elements(between), _index(ops, size)]
            known += [DYNAMIC_INDEX, size]
            param_shape += [1, compact[axis]]
            dim = AffineExpr.dimension(len(known) - 1)
            exprs += [
                AffineExpr.constant(0),
                dim if blocks[axis] == 1 else dim // blocks[axis],
            ]
            previous = axis
        _, right = split(shape_value, previous + 1)
        extents.append(num_elements(right))
        known.append(DYNAMIC_INDEX)
        param_shape.append(1)
        exprs.append(AffineExpr.constant(0))
        return extents, known, _Layout(tuple(param_shape), tuple(exprs))


def _uniform_type(
    op: QuantizeCastOp | DequantizeCastOp, attr: Attribute
) -> UniformQuantizedType:
    if not isinstance(attr, UniformQuantizedType):
        raise OpDiagnostic(
            op,
            f"'{op.name}' op cannot lower {attr}: only !quant.uniform types have a numeric meaning",
        )
    if not attr.has_signless_storage:
        # Upstream emits invalid IR here; quant.scast carries only signless integers.
        raise OpDiagnostic(
            op,
            f"'{op.name}' op cannot lower {attr}: its storage type "
            f"{attr.storage_type} is not signless, so quant.scast cannot carry it",
        )
    return attr


def _check_expressed_has_sign(op: QuantizeCastOp, qtype: UniformQuantizedType) -> None:
    """Quantizing adds zero points and clamps in the expressed type; an unsigned
    float (f8E8M0FNU) cannot hold their negative values."""
    semantics = getattr(qtype.expressed_type, "SEMANTICS", None)
    if semantics is not None and not semantics.has_sign:
        raise OpDiagnostic(
            op,
            f"'{op.name}' op cannot lower {qtype}: its expressed type "
            f"{qtype.expressed_type} has no sign",
        )


def _check_zero_points_fit_storage(
    op: QuantizeCastOp | DequantizeCastOp, qtype: UniformQuantizedType
) -> None:
    """Upstream's toward-zero lowering holds zero points in the storage type."""
    width = qtype.storage_width
    low, high = -(1 << (width - 1)), (1 << width) - 1
    for zero_point in qtype.zero_points.flat:
        if not low <= int(zero_point) <= high:
            raise OpDiagnostic(
                op,
                f"'{op.name}' op cannot lower {qtype} with rounding=toward-zero: "
                f"zero point {int(zero_point)} does not fit its storage type {qtype.storage_type}",
            )


@dataclass
class LowerQuantizeCast(RewritePattern):
    """`quant.qcast` -> storage-integer math, then `quant.scast` to the quantized type."""

    rounding: Rounding

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: QuantizeCastOp, rewriter: PatternRewriter) -> None:
        qtype = _uniform_type(op, element_type(op.result.type))
        if self.rounding is Rounding.TOWARD_ZERO:
            _check_zero_points_fit_storage(op, qtype)
        else:
            _check_expressed_has_sign(op, qtype)
        ops = OpList()
        stored = _Lowering(qtype, self.rounding, quantize=True).lower(ops, op.input)
        rewriter.insert(ops.ops, InsertPoint.before(op))
        rewriter.replace(op, StorageCastOp(stored, op.result.type))


@dataclass
class LowerDequantizeCast(RewritePattern):
    """`quant.scast` to the storage integers, then `quant.dcast` -> float math."""

    rounding: Rounding

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: DequantizeCastOp, rewriter: PatternRewriter
    ) -> None:
        qtype = _uniform_type(op, element_type(op.input.type))
        if self.rounding is Rounding.TOWARD_ZERO:
            _check_zero_points_fit_storage(op, qtype)
        ops = OpList()
        stored = ops.add(
            StorageCastOp(op.input, with_element(op.input.type, qtype.storage_type))
        )
        result = _Lowering(qtype, self.rounding, quantize=False).lower(ops, stored)
        rewriter.insert(ops.ops, InsertPoint.before(op))
        rewriter.replace(op, [], [result])


@dataclass(frozen=True)
class LowerQuantOpsPass(ModulePass):
    """Lower `quant.qcast` and `quant.dcast` to arith/math/linalg/tensor/shape ops plus `quant.scast`.

    Option `rounding`: `nearest-even` (default, the project's numeric
    contract: dequantize subtracts the zero point in integers, then
    `sitofp`) or `toward-zero` (upstream MLIR's lowering, op for op, which
    keeps upstream's float subtraction `sitofp(q) - sitofp(zp)` in
    dequantize).
    """

    name = "lower-quant-ops"

    rounding: str = Rounding.NEAREST_EVEN.value

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            rounding = Rounding(self.rounding)
        except ValueError:
            choices = ", ".join(r.value for r in Rounding)
            raise ValueError(
                f"lower-quant-ops: unknown rounding '{self.rounding}' (expected one of: {choices})"
            ) from None
        patterns: list[RewritePattern] = [
            LowerQuantizeCast(rounding),
            LowerDequantizeCast(rounding),
        ]
        PatternRewriteWalker(
            GreedyRewritePatternApplier(patterns), apply_recursively=False
        ).rewrite_module(op)
