"""IR builders shared by the StableHLO quantization passes.

`HloBuilder` collects StableHLO ops on plain integer and float tensors; the
functions below turn the numeric contract of `xquant.numerics.uniform` into
such ops, op for op, so the interpreter computes the same bits on the
lowered IR as on the quantized original:

    quantize:   v = x / scale + zp ; v = clamp(lo, v, hi) ; v = round_nearest_even(v) ;
                q = convert(v)                       (convert maps NaN to 0)
    dequantize: v = convert(convert(q : iN -> i32/i64) - zp) * scale
                (zero point 0: v = convert(q) * scale)

Dequantize subtracts the zero point exactly in integers
(`uniform.dequantize_wide_bits`: i32 for storage of at most 16 bits, i64
above) and converts the difference to the expressed type with one rounding.

Parameters are rank-0 constants broadcast to the operand's shape (per-tensor)
or 1-D constants broadcast along the quantized dimension (per-axis), the
form upstream's pass reaches after `chlo-legalize-to-stablehlo`. Quantized
values cross into the integer world with `stablehlo.bitcast_convert`, which
is exactly a view change on the storage integers; the passes fold the
bridging pairs away.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.utils.hints import isa

from xquant.dialects import chlo
from xquant.dialects import stablehlo as shlo
from xquant.dialects.quant.types import UniformQuantizedType
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo.attributes import (
    ComparisonDirection,
    ComparisonDirectionAttr,
)
from xquant.dialects.stablehlo.type_utils import shape_of
from xquant.numerics import uniform
from xquant.numerics.uniform import clamp_bounds
from xquant.numerics.values import element_type, int_info, with_element
from xquant.transforms.utils.op_list import OpList


def storage_type(qtype: UniformQuantizedType) -> IntegerType:
    """The integer element type holding `qtype`'s storage: signless iN, or uiN when unsigned."""
    width = qtype.storage_width
    return (
        IntegerType(width)
        if qtype.is_signed
        else IntegerType(width, Signedness.UNSIGNED)
    )


def is_static(t: Attribute) -> bool:
    return isinstance(t, TensorType) and all(d >= 0 for d in t.get_shape())


@dataclass(frozen=True)
class Channels:
    """Scales and zero points of a per-tensor (`axis` None) or per-axis type, as flat arrays."""

    axis: int | None
    scales: np.ndarray
    zero_points: np.ndarray

    @staticmethod
    def of(qtype: UniformQuantizedType) -> Channels:
        axis = qtype.quantized_dimension if qtype.is_per_axis else None
        return Channels(axis, qtype.scales.reshape(-1), qtype.zero_points.reshape(-1))

    def expand(self, count: int) -> Channels:
        """Per-tensor parameters repeated over `count` channels."""
        if self.axis is not None or count == 1:
            return self
        return Channels(
            None, np.repeat(self.scales, count), np.repeat(self.zero_points, count)
        )


def _is_integer(t: Attribute) -> bool:
    return isinstance(t, IntegerType)


def _widens_exactly(source: Attribute, target: Attribute) -> bool:
    """Whether every value of integer type `source` is a value of integer type `target` (i1 excluded)."""
    if not (_is_integer(source) and _is_integer(target)):
        return False
    src, dst = int_info(source), int_info(target)
    if src.width < 2:
        return False
    if src.unsigned_type == dst.unsigned_type:
        return dst.width >= src.width
    return src.unsigned_type and dst.width > src.width


@dataclass
class HloBuilder(OpList):
    """StableHLO ops built in order, to be inserted together (before the op being rewritten)."""

    # The pass's `exact` option: the contract's numbers where upstream's form
    # differs (i32 storage: exact dequantize, contract clamp bounds); else upstream's.
    exact: bool = field(default=True, kw_only=True)

    # ----- constants

    def constant(
        self,
        values: Sequence[float] | Sequence[int],
        element: Attribute,
        shape: Sequence[int],
    ) -> SSAValue:
        """A dense `stablehlo.constant` of `shape` (values flat, row-major)."""
        # `element` is an integer or float type; xDSL's overloads want it statically
        # (the float one accepts int values too, and from_list packs by the real type).
        tensor = cast("TensorType[AnyFloat]", TensorType(element, shape))
        attr = DenseIntOrFPElementsAttr.from_list(tensor, list(values))
        return self.add(shlo.ConstantOp(attr))

    def scalar(self, value: float | int, element: Attribute) -> SSAValue:
        """A rank-0 constant."""
        value = int(value) if isa(element, IntegerType) else float(value)
        return self.constant([value], element, [])

    def splat(
        self, value: float | int, element: Attribute, shape: Sequence[int]
    ) -> SSAValue:
        """`value` broadcast to `shape` (a rank-0 constant and a broadcast_in_dim)."""
        scalar = self.scalar(value, element)
        if not shape:
            return scalar
        return self.add(shlo.BroadcastInDimOp(scalar, [], TensorType(element, shape)))

    def parameter(
        self,
        values: np.ndarray,
        element: Attribute,
        shape: Sequence[int],
        axis: int | None,
    ) -> SSAValue:
        """Per-tensor (one value) or per-axis (one per channel along `axis`) parameters at full shape."""
        flat = values.reshape(-1)
        to_number = int if isa(element, IntegerType) else float
        if axis is None or bool(np.all(flat == flat[0])):
            return self.splat(to_number(flat[0]), element, shape)
        line = self.constant([to_number(v) for v in flat], element, [flat.size])
        return self.add(shlo.BroadcastInDimOp(line, [axis], TensorType(element, shape)))

    # ----- ops

    def convert(self, value: SSAValue, element: Attribute) -> SSAValue:
        """`value` converted to `element`; an exact integer widening just before is skipped.

        `convert(convert(x : i8 -> i32) : i32 -> i64)` is `convert(x : i8 -> i64)`,
        so chains of requantize and accumulate steps do not touch every element twice.
        """
        inner = value.owner
        if isinstance(inner, ew.ConvertOp) and _widens_exactly(
            element_type(inner.operand.type), element_type(value.type)
        ):
            value = inner.operand
            if not inner.result.uses and inner in self.ops:
                self.ops.remove(inner)
                inner.erase()
        if element_type(value.type) == element:
            return value
        return self.add(ew.ConvertOp(value, with_element(value.type, element)))

    def bitcast(self, value: SSAValue, t: Attribute) -> SSAValue:
        if value.type == t:
            return value
        return self.add(ew.BitcastConvertOp(value, t))

    def binary(
        self, op_class: type[ew.BinaryElementwiseOp], lhs: SSAValue, rhs: SSAValue
    ) -> SSAValue:
        return self.add(op_class(lhs, rhs))

    def unary(self, op_class: type[ew.UnaryElementwiseOp], value: SSAValue) -> SSAValue:
        return self.add(op_class(value))

    def clamp(self, low: SSAValue, value: SSAValue, high: SSAValue) -> SSAValue:
        return self.add(
            ew.ClampOp.create(operands=[low, value, high], result_types=[value.type])
        )

    def clamp_to(
        self, value: SSAValue, low: float | int, high: float | int
    ) -> SSAValue:
        element = element_type(value.type)
        return self.clamp(self.scalar(low, element), value, self.scalar(high, element))

    def compare(
        self, direction: ComparisonDirection, lhs: SSAValue, rhs: SSAValue
    ) -> SSAValue:
        return self.add(
            ew.CompareOp.create(
                operands=[lhs, rhs],
                result_types=[with_element(lhs.type, IntegerType(1))],
                properties={"comparison_direction": ComparisonDirectionAttr(direction)},
            )
        )

    def reduce_sum(self, value: SSAValue, dims: Sequence[int]) -> SSAValue:
        """`stablehlo.reduce ... applies stablehlo.add` over `dims` (integer or float)."""
        element = element_type(value.type)
        shape = shape_of(value.type)
        scalar_type = TensorType(element, [])
        block = Block(arg_types=[scalar_type, scalar_type])
        total = ew.AddOp(block.args[0], block.args[1])
        block.add_ops([total, shlo.ReturnOp(total.result)])
        kept = [n for d, n in enumerate(shape) if d not in dims]
        return self.add(
            shlo.ReduceOp(
                [value],
                [self.scalar(0, element)],
                list(dims),
                Region(block),
                [TensorType(element, kept)],
            )
        )


# ----- the numeric contract


def emit_dequantize(
    b: HloBuilder, stored: SSAValue, qtype: UniformQuantizedType
) -> SSAValue:
    """Storage integers to expressed floats: `convert(q - zp) * scale`, `q - zp` exact in integers."""
    channels = Channels.of(qtype)
    shape = shape_of(stored.type)
    expressed = qtype.expressed_type
    value = stored
    if bool(np.any(channels.zero_points != 0)):
        wide = IntegerType(uniform.dequantize_wide_bits(qtype))
        value = b.convert(value, wide)
        zero_points = b.parameter(channels.zero_points, wide, shape, channels.axis)
        value = b.binary(ew.SubtractOp, value, zero_points)
    value = b.convert(value, expressed)
    scales = b.parameter(channels.scales, expressed, shape, channels.axis)
    return b.binary(ew.MultiplyOp, value, scales)


def emit_quantize(
    b: HloBuilder, value: SSAValue, qtype: UniformQuantizedType
) -> SSAValue:
    """Expressed floats to storage integers: divide, add zp, clamp, round half to even, convert."""
    channels = Channels.of(qtype)
    shape = shape_of(value.type)
    expressed = qtype.expressed_type
    value = b.convert(value, expressed)
    scales = b.parameter(channels.scales, expressed, shape, channels.axis)
    value = b.binary(ew.DivideOp, value, scales)
    if bool(np.any(channels.zero_points != 0)):
        zero_points = b.parameter(
            channels.zero_points.astype(np.float64), expressed, shape, channels.axis
        )
        value = b.binary(ew.AddOp, value, zero_points)
    low, high = clamp_bounds(qtype)
    value = b.clamp_to(value, float(low), float(high))
    value = b.unary(ew.RoundNearestEvenOp, value)
    return b.convert(value, storage_type(qtype))


def wide_type(*qtypes: UniformQuantizedType) -> IntegerType:
    """An integer type that holds sums and differences of storage values without overflow."""
    return IntegerType(32 if max(q.storage_width for q in qtypes) <= 16 else 64)


def emit_requantize(
    b: HloBuilder,
    stored: SSAValue,
    source: UniformQuantizedType,
    target: UniformQuantizedType,
) -> SSAValue:
    """Storage of `source` to storage of `target`: `quantize(dequantize(q))`.

    When the contract allows it (`uniform.IntegerRequantize`: each source
    scale an integer multiple of the target's) this is integer math,
    `clamp(k * q + c)`; otherwise it goes through the expressed type.
    """
    if source == target:
        return stored
    exact = uniform.IntegerRequantize.of(source, target)
    if exact is not None:
        shape = shape_of(stored.type)
        wide = IntegerType(exact.wide_bits)
        value = b.convert(stored, wide)
        if bool(np.any(exact.factors != 1)):
            factors = b.parameter(exact.factors, wide, shape, exact.axis)
            value = b.binary(ew.MultiplyOp, value, factors)
        if bool(np.any(exact.offsets != 0)):
            offsets = b.parameter(exact.offsets, wide, shape, exact.axis)
            value = b.binary(ew.AddOp, value, offsets)
        if exact.clamps:
            value = b.clamp_to(value, target.storage_min, target.storage_max)
        return b.convert(value, storage_type(target))
    values = emit_dequantize(b, stored, source)
    return emit_quantize(b, values, target)


# ----- upstream's form (`StablehloLegalizeQuantToMath.cpp`), shapes may be dynamic
#
# Parameters are rank-0 constants (per-tensor) or 1-D constants with
# `broadcast_dimensions = [axis]` (per-axis), combined by `chlo` broadcasting
# ops, so nothing here needs a static shape. Each function emits upstream's
# ops in upstream's order where that computes the contract's numbers
# bit for bit; where it would not, callers keep the contract's own form.

_F32_EXACT = 2**24
"""Every integer of magnitude up to 2^24 is an f32; sums and products below it are exact."""


def retype(t: Attribute, element: Attribute) -> TensorType[Attribute]:
    """Tensor type `t` with element type `element`; dynamic dimensions and encoding kept."""
    assert isinstance(t, TensorType)
    return TensorType(element, t.get_shape(), t.encoding)


def emit_convert(b: HloBuilder, value: SSAValue, element: Attribute) -> SSAValue:
    """`stablehlo.convert` to `element`, emitted even when it changes nothing (as upstream)."""
    return b.add(ew.ConvertOp(value, retype(value.type, element)))


def emit_broadcast_binary(
    b: HloBuilder,
    op_class: type[chlo.BroadcastBinaryOp],
    lhs: SSAValue,
    rhs: SSAValue,
    dims: tuple[int, ...] | None = None,
) -> SSAValue:
    """`chlo.broadcast_<op> lhs, rhs`; the result has `lhs`'s type (rhs is a parameter)."""
    return b.add(op_class(lhs, rhs, dims, lhs.type))


def emit_parameters(
    b: HloBuilder, values: np.ndarray, element: Attribute, axis: int | None
) -> tuple[SSAValue, tuple[int, ...] | None]:
    """A rank-0 constant (per-tensor) or a 1-D one and its `broadcast_dimensions` (per-axis)."""
    flat = values.reshape(-1)
    to_number = int if isa(element, IntegerType) else float
    if axis is None:
        return b.scalar(to_number(flat[0]), element), None
    return b.constant([to_number(v) for v in flat], element, [flat.size]), (axis,)


def is_f32(t: Attribute) -> bool:
    from xdsl.dialects.builtin import Float32Type

    return isinstance(t, Float32Type)


def dequantize_int_type(qtype: UniformQuantizedType) -> IntegerType:
    """The integer type of `q - zp` in dequantize: upstream's i32 where that is exact, else i64.

    i32 holds the difference for storage up to 16 bits, and any signed
    storage up to 32 bits with zero points all 0; a 32-bit storage with a
    zero point (or u32) needs i64, where upstream's i32 would wrap.
    """
    if uniform.dequantize_wide_bits(qtype) == 32:
        return IntegerType(32)
    zero = bool(np.all(Channels.of(qtype).zero_points == 0))
    fits = qtype.storage_width <= 32 if qtype.is_signed else qtype.storage_width < 32
    return IntegerType(32 if zero and fits else 64)


def emit_dequantize_upstream(
    b: HloBuilder, stored: SSAValue, qtype: UniformQuantizedType
) -> SSAValue:
    """`convert(q) -> i32`, `broadcast_subtract zp`, `convert -> f32`, `broadcast_multiply scale`."""
    channels = Channels.of(qtype)
    expressed = qtype.expressed_type
    # upstream: `q - zp` in i32 always (it wraps for i32 storage with a zero point)
    wide = dequantize_int_type(qtype) if b.exact else IntegerType(32)
    scales, dims = emit_parameters(b, channels.scales, expressed, channels.axis)
    zero_points, _ = emit_parameters(b, channels.zero_points, wide, channels.axis)
    value = emit_convert(b, stored, wide)
    value = emit_broadcast_binary(b, chlo.BroadcastSubtractOp, value, zero_points, dims)
    value = emit_convert(b, value, expressed)
    return emit_broadcast_binary(b, chlo.BroadcastMultiplyOp, value, scales, dims)


def emit_quantize_upstream(
    b: HloBuilder, value: SSAValue, qtype: UniformQuantizedType
) -> SSAValue:
    """`broadcast_divide scale`, `broadcast_add zp`, clamp, `round_nearest_even`, `convert`.

    In the expressed type (upstream: f32 only). With `b.exact` the clamp
    bounds are the contract's (`clamp_bounds`: rounded toward zero, so
    2^31 - 128 for i32 storage in f32); else upstream's, the storage bounds
    as floats (f32(2^31) for i32, outside i32).
    """
    channels = Channels.of(qtype)
    expressed = qtype.expressed_type
    scales, dims = emit_parameters(b, channels.scales, expressed, channels.axis)
    zero_points, _ = emit_parameters(
        b, channels.zero_points.astype(np.float64), expressed, channels.axis
    )
    low, high = (
        clamp_bounds(qtype) if b.exact else (qtype.storage_min, qtype.storage_max)
    )
    low_value, high_value = (
        b.scalar(float(low), expressed),
        b.scalar(float(high), expressed),
    )
    if element_type(value.type) != expressed:
        value = emit_convert(b, value, expressed)
    value = emit_broadcast_binary(b, chlo.BroadcastDivideOp, value, scales, dims)
    value = emit_broadcast_binary(b, chlo.BroadcastAddOp, value, zero_points, dims)
    value = b.clamp(low_value, value, high_value)
    value = b.unary(ew.RoundNearestEvenOp, value)
    return emit_convert(b, value, storage_type(qtype))


def merged_requantize(
    source: UniformQuantizedType,
    target: UniformQuantizedType,
    output_width: int,
    clamped_later: bool = False,
) -> uniform.IntegerRequantize | None:
    """The integer requantize when upstream's f32 form `q * (s_in / s_out) + merged_zp` is exact.

    That is when the contract's requantize is `clamp(k * q + c)` with integer
    `k`, `c` (`uniform.IntegerRequantize`), f32 is the expressed type, every
    `|k * q| + |c|` stays below 2^24, and upstream's clamp (skipped for an
    `output_width` of 32 or more) is the contract's, or the caller clamps
    afterwards (`clamped_later`: an add's i32 operands).
    """
    if not (is_f32(source.expressed_type) and is_f32(target.expressed_type)):
        return None
    exact = uniform.IntegerRequantize.of(source, target)
    if exact is None:
        return None
    bound = max(abs(source.storage_min), abs(source.storage_max))
    largest = bound * int(np.max(np.abs(exact.factors))) + int(
        np.max(np.abs(exact.offsets))
    )
    if largest >= _F32_EXACT or (
        output_width >= 32 and exact.clamps and not clamped_later
    ):
        return None
    return exact


def emit_requantize_upstream(
    b: HloBuilder,
    stored: SSAValue,
    source: UniformQuantizedType,
    target: UniformQuantizedType,
    output: IntegerType,
    clamped_later: bool = False,
) -> SSAValue | None:
    """Upstream's requantize of storage `stored` into integers of type `output`, or None.

    Same type: one `convert`. Otherwise `convert -> f32`, `broadcast_multiply`
    by the merged scale, `broadcast_add` of the merged zero point when not
    0, a clamp when `output` is narrower than 32 bits, `round_nearest_even`,
    `convert`. None when that would not be the contract's result
    (`merged_requantize`); the caller then uses `emit_requantize`.
    """
    if source == target:
        return emit_convert(b, stored, output)
    if not b.exact:
        return _merged_float_requantize(b, stored, source, target, output)
    exact = merged_requantize(source, target, output.width.data, clamped_later)
    if exact is None:
        return None
    f32 = source.expressed_type
    per_axis = source.is_per_axis or target.is_per_axis
    axis = exact.axis if per_axis else None
    value = emit_convert(b, stored, f32)
    factors, dims = emit_parameters(b, exact.factors.astype(np.float64), f32, axis)
    value = emit_broadcast_binary(b, chlo.BroadcastMultiplyOp, value, factors, dims)
    if bool(np.any(exact.offsets != 0)):
        offsets, _ = emit_parameters(b, exact.offsets.astype(np.float64), f32, axis)
        value = emit_broadcast_binary(b, chlo.BroadcastAddOp, value, offsets, dims)
    if output.width.data < 32:
        low, high = clamp_bounds(target)
        value = b.clamp(b.scalar(float(low), f32), value, b.scalar(float(high), f32))
    value = b.unary(ew.RoundNearestEvenOp, value)
    return emit_convert(b, value, output)


def _merged_float_requantize(
    b: HloBuilder,
    stored: SSAValue,
    source: UniformQuantizedType,
    target: UniformQuantizedType,
    output: IntegerType,
) -> SSAValue:
    """Upstream's `requantize` / `applyMergedScalesAndZps`, whatever its rounding:
    `convert -> f32`, `broadcast_multiply` by f32(s_in / s_out), `broadcast_add`
    of f32(z_out - z_in * s_in / s_out) when not 0, a clamp below 32 bits,
    `round_nearest_even`, `convert`."""
    f32 = source.expressed_type
    per_axis = source.is_per_axis or target.is_per_axis
    src, dst = Channels.of(source), Channels.of(target)
    count = max(src.scales.size, dst.scales.size)
    if per_axis:
        src, dst = src.expand(count), dst.expand(count)
    scales = src.scales.astype(np.float64) / dst.scales.astype(np.float64)
    zero_points = dst.zero_points.astype(np.float64) - src.zero_points * scales
    axis = (target if target.is_per_axis else source).quantized_dimension
    axis = axis if per_axis else None
    value = emit_convert(b, stored, f32)
    factors, dims = emit_parameters(b, scales.astype(np.float32), f32, axis)
    value = emit_broadcast_binary(b, chlo.BroadcastMultiplyOp, value, factors, dims)
    offsets = zero_points.astype(np.float32)
    if bool(np.any(offsets != 0)):
        offsets_value, _ = emit_parameters(b, offsets, f32, axis)
        value = emit_broadcast_binary(
            b, chlo.BroadcastAddOp, value, offsets_value, dims
        )
    if output.width.data < 32:
        low, high = target.storage_min, target.storage_max
        value = b.clamp(b.scalar(float(low), f32), value, b.scalar(float(high), f32))
    value = b.unary(ew.RoundNearestEvenOp, value)
    return emit_convert(b, value, output)
