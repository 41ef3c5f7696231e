"""The numeric contract of `!quant.uniform`, on numpy arrays, for every granularity.

    quantize(x)   = convert(rne(clamp(x / scale + zero_point, storage_min, storage_max)))
    dequantize(q) = convert(q - zero_point) * scale
    requantize(q) = quantize(dequantize(q, from), to)

Quantize's arithmetic happens in the expressed type (f32 math for f32, f16
math for f16, ...), with the scale and zero point first converted to it,
exactly as the lowered IR computes it. Dequantize subtracts the zero point
exactly in integers (`dequantize_wide_bits`: i32 for storage of at most 16
bits, i64 above), converts that difference to the expressed type with one
rounding to nearest even, then multiplies by the scale in the expressed type:
the StableHLO spec's `x_storage - zero_point` and ONNX's `DequantizeLinear`.
(Converting `q` first and subtracting in float would round twice where `q`
is not exact in the expressed type: i32 storage in f32, i16 in f16/bf16.)
Clamping comes before rounding (StableHLO's rule). The
float clamp bounds are the storage bounds rounded toward zero into the
expressed type, so the clamped value always converts without overflow (this
only matters where the expressed type cannot hold the bound, e.g. i32 in f32).
NaN quantizes to storage 0; +-inf clamp to the bounds.

Element `i` of a tensor uses the parameters at `i // block_size` along each
dimension. Per-layer is one block; per-axis is block 1 on its axis and the
full dimension elsewhere; sub-channel lists its blocks. The parameters are
broadcast by reshaping, never by materializing a full-size scale array.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

import ml_dtypes
import numpy as np
from xdsl.ir import Attribute

from xquant.numerics import lookup
from xquant.numerics.dtypes import (
    integer_range,
    integers_to_float,
    numpy_dtype,
    storage_dtype,
)
from xquant.numerics.storage_formats import FloatStorageFormat, quantize_float


class QuantileTable(Protocol):
    """What the arithmetic reads of a `!quant.quantile` storage type."""

    @property
    def quantile_type(self) -> Attribute: ...
    @property
    def storage_type(self) -> Attribute: ...
    @property
    def quantiles(self) -> np.ndarray: ...
    @property
    def storage_min(self) -> int: ...


class UniformType(Protocol):
    """What the arithmetic reads of a `!quant.uniform` type.

    `xquant.dialects.quant.types.UniformQuantizedType` is the one
    implementation; naming only its members here keeps the numeric contract
    below the dialects that describe it.
    """

    @property
    def expressed_type(self) -> Attribute: ...
    @property
    def storage_width(self) -> int: ...
    @property
    def is_signed(self) -> bool: ...
    @property
    def storage_min(self) -> int: ...
    @property
    def storage_max(self) -> int: ...
    @property
    def is_per_layer(self) -> bool: ...
    @property
    def is_per_axis(self) -> bool: ...
    @property
    def is_sub_channel(self) -> bool: ...
    @property
    def quantized_dimension(self) -> int | None: ...
    @property
    def scale(self) -> float: ...
    @property
    def scales(self) -> np.ndarray: ...
    @property
    def zero_points(self) -> np.ndarray: ...
    @property
    def float_storage(self) -> FloatStorageFormat | None: ...
    @property
    def quantile(self) -> QuantileTable | None: ...
    def block_sizes_for(self, shape: Sequence[int]) -> tuple[int, ...]: ...
    def scales_for(self, shape: Sequence[int]) -> tuple[np.ndarray, np.ndarray]: ...


def expressed_dtype(qtype: UniformType) -> np.dtype:
    """The numpy dtype that quantize/dequantize compute in."""
    return numpy_dtype(qtype.expressed_type)


def storage_numpy_dtype(qtype: UniformType) -> np.dtype:
    """The numpy dtype holding the stored values (`i4` -> int8, `u8` -> uint8,
    `f8E4M3FN` -> float8_e4m3fn, a quantile table: its storage integers)."""
    fmt = qtype.float_storage
    if fmt is not None:
        return fmt.dtype
    quantile = qtype.quantile
    if quantile is not None:
        storage = quantile.storage_type
        if numpy_dtype(storage).kind == "f":
            raise ValueError(
                f"quantile tables indexed by float storage ({storage}) cannot be computed"
            )
    return storage_dtype(qtype.storage_width, qtype.is_signed)


def quantile_entries(quantile: QuantileTable) -> np.ndarray:
    """The table as float64, each entry first converted to the quantile type
    (nearest-even for a float type; an integer type truncates, as `fptosi`)."""
    entries = np.asarray(quantile.quantiles, dtype=np.float64)
    with np.errstate(all="ignore"):
        return entries.astype(numpy_dtype(quantile.quantile_type)).astype(np.float64)


def clamp_bounds(qtype: UniformType) -> tuple[np.generic, np.generic]:
    """storage_min/max as expressed-type floats, rounded toward zero so they stay in range."""
    dtype = expressed_dtype(qtype)
    return _toward_zero(qtype.storage_min, dtype), _toward_zero(
        qtype.storage_max, dtype
    )


def _toward_zero(value: int, dtype: np.dtype) -> np.generic:
    with np.errstate(over="ignore"):
        rounded = np.array(value, dtype=np.float64).astype(dtype)
    while not np.isfinite(rounded) or abs(float(rounded)) > abs(value):
        # Sign-magnitude encodings: one less in the bit pattern is one step toward zero.
        bits_dtype = np.dtype(f"uint{dtype.itemsize * 8}")
        rounded = (rounded.view(bits_dtype) - bits_dtype.type(1)).view(dtype)
    return rounded.reshape(())[()]  # pyright: ignore[reportReturnType]


def broadcast_parameters(
    params: np.ndarray, shape: Sequence[int]
) -> tuple[np.ndarray, tuple[int, ...]]:
    """Prepare `params` (one entry per block) to broadcast against a tensor of `shape`.

    Returns the parameters reshaped to interleaved (blocks, 1) dimensions and
    the matching interleaved shape to view the tensor with: a tensor of shape
    (8, 64) with parameters (8, 2) is viewed as (8, 1, 2, 32) against
    parameters (8, 1, 2, 1). Both reshapes are views.
    """
    if params.ndim != len(shape):
        raise ValueError(
            f"parameters of rank {params.ndim} for a tensor of rank {len(shape)}"
        )
    param_shape: list[int] = []
    view_shape: list[int] = []
    for dim, count in zip(shape, params.shape, strict=True):
        if count == 0 or dim % count != 0:
            raise ValueError(f"dimension {dim} is not a multiple of {count} parameters")
        param_shape += [count, 1]
        view_shape += [count, dim // count]
    return params.reshape(param_shape), tuple(view_shape)


_Parameters = tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, ...]]

_PARAMETER_CACHE: dict[
    tuple[int, tuple[int, ...]], tuple[UniformType, _Parameters]
] = {}
_PARAMETER_CACHE_SIZE = 64


def _parameters(qtype: UniformType, shape: Sequence[int]) -> _Parameters:
    """Scales and zero points, broadcastable against the blocked view, and that view's shape.

    The scales and the first zero points are in the expressed type (for
    quantize), the second zero points are integers of `dequantize_wide_bits`.

    Cached by the identity of the (immutable) type: hashing a type with
    thousands of sub-channel scales, or rebuilding its arrays, on every call
    would cost more than the arithmetic.
    """
    key = (id(qtype), tuple(shape))
    entry = _PARAMETER_CACHE.get(key)
    if entry is not None and entry[0] is qtype:
        return entry[1]
    result = _compute_parameters(qtype, shape)
    if len(_PARAMETER_CACHE) >= _PARAMETER_CACHE_SIZE:
        _PARAMETER_CACHE.clear()
    _PARAMETER_CACHE[key] = (qtype, result)
    return result


def _compute_parameters(qtype: UniformType, shape: Sequence[int]) -> _Parameters:
    dtype = expressed_dtype(qtype)
    scales, zero_points = qtype.scales_for(shape)
    blocks = qtype.block_sizes_for(shape)
    for axis, (dim, count, block) in enumerate(
        zip(shape, scales.shape, blocks, strict=True)
    ):
        if count * block != dim:
            raise ValueError(
                f"dimension {axis} of size {dim} does not match {count} parameter(s) with block size {block}"
            )
    scales_b, view_shape = broadcast_parameters(scales.astype(dtype), shape)
    zps_b, _ = broadcast_parameters(zero_points.astype(dtype), shape)
    wide = np.dtype(f"int{dequantize_wide_bits(qtype)}")
    int_zps_b, _ = broadcast_parameters(zero_points.astype(wide), shape)
    return scales_b, zps_b, int_zps_b, view_shape


def dequantize_wide_bits(qtype: UniformType) -> int:
    """The integer width (32 or 64) dequantize computes `q - zero_point` in.

    32 for storage of at most 16 bits, 64 above, so the difference never
    overflows: over the whole storage type (not just the storage bounds, since
    any bit pattern can be cast in) and for zero points outside the storage
    range too (those widen to 64). A zero point within 2^32 of the i64 limits
    would overflow even there; the lowered IR's `subi` wraps exactly as numpy
    does, so the results still agree bit for bit.
    """
    if qtype.storage_width > 16:
        return 64
    low, high = integer_range(qtype.storage_width, qtype.is_signed)
    zero_points = qtype.zero_points
    lowest = low - int(zero_points.max())
    highest = high - int(zero_points.min())
    return 32 if -(2**31) <= lowest and highest < 2**31 else 64


def quantize(x: np.ndarray, qtype: UniformType) -> np.ndarray:
    """Float values (any shape the type allows) to storage integers, by the contract above."""
    dtype = expressed_dtype(qtype)
    x = np.asarray(x, dtype=dtype)
    scales, zero_points, _, view_shape = _parameters(qtype, x.shape)
    with np.errstate(all="ignore"):
        scaled = x.reshape(view_shape) / scales + zero_points
    fmt, quantile = qtype.float_storage, qtype.quantile
    if fmt is not None:
        stored = quantize_float(scaled, fmt, qtype.storage_min, qtype.storage_max)
        return stored.reshape(x.shape)
    if quantile is not None:
        return lookup.encode_nearest(
            scaled,
            quantile_entries(quantile),
            quantile.storage_min,
            qtype.storage_min,
            qtype.storage_max,
            storage_numpy_dtype(qtype),
        ).reshape(x.shape)
    low, high = clamp_bounds(qtype)
    with np.errstate(all="ignore"):
        # clip is minimum(maximum(.)) in one pass (NaN stays NaN); the sign of a
        # zero bound cannot matter, the value becomes an integer below.
        rounded = np.asarray(np.rint(np.clip(scaled, low, high)))  # 0-d: an array
    rounded[np.isnan(rounded)] = 0
    return rounded.astype(storage_numpy_dtype(qtype)).reshape(x.shape)


def dequantize(q: np.ndarray, qtype: UniformType) -> np.ndarray:
    """Storage integers to expressed-type floats: `convert(q - zero_point) * scale`.

    `q - zero_point` is exact, in integers of `dequantize_wide_bits`; the
    conversion to the expressed type rounds once (nearest even); the
    multiplication by the scale happens in the expressed type. A zero point
    of 0 converts `q` directly (the same value, one rounding).
    """
    dtype = expressed_dtype(qtype)
    q = np.asarray(q)
    scales, float_zero_points, zero_points, view_shape = _parameters(qtype, q.shape)
    stored = q.reshape(view_shape)
    fmt, quantile = qtype.float_storage, qtype.quantile
    if fmt is not None or quantile is not None:
        if quantile is not None:
            entries = quantile_entries(quantile).astype(dtype)
            stored = lookup.decode(stored, entries, quantile.storage_min)
        with np.errstate(all="ignore"):
            values = stored.astype(dtype)
            if np.any(float_zero_points != 0):
                values = values - float_zero_points
            values = values * scales
        return values.astype(dtype).reshape(q.shape)
    if np.any(zero_points != 0):
        stored = stored.astype(zero_points.dtype) - zero_points
    with np.errstate(all="ignore"):
        values = integers_to_float(stored, dtype) * scales
    return values.astype(dtype).reshape(q.shape)


def requantize(
    q: np.ndarray, from_type: UniformType, to_type: UniformType
) -> np.ndarray:
    """Storage integers of `from_type` to storage integers of `to_type` via the expressed values.

    When every source scale is an integer multiple of the target's
    (`IntegerRequantize`), the same result comes from integers alone.
    """
    exact = IntegerRequantize.of(from_type, to_type)
    if exact is not None:
        return exact.apply(np.asarray(q), to_type)
    values = dequantize(q, from_type)
    return quantize(values.astype(expressed_dtype(to_type)), to_type)


_MAX_FACTOR = 2**24


@dataclass(frozen=True)
class IntegerRequantize:
    """Requantize as `clamp(k * q + c)` per channel, where `s_from = k * s_to` exactly.

    `k` is a positive integer and `c = z_to - k * z_from`. Used where it is
    bit-identical to the float formula `quantize(dequantize(q))`: when every
    `|k * (q - z_from)| + |z_to|` over the source storage range stays within
    `2^(p-4)` (`p` the expressed type's significand bits: 2^20 for f32),
    `q - z_from` converts exactly and the float formula's roundings stay
    within 1/4 of that integer. The one exception is `k == 1`, a pure
    zero-point shift, kept exact at any magnitude (the float formula would
    round `q - z_from` once it leaves the significand: i32 values in f32,
    most values in bf16; the same choice as integer add/subtract). Applies
    to per-tensor and per-axis types on one axis with one expressed type;
    `wide_bits` (32 or 64) holds every intermediate without overflow and
    `clamps` says whether the target range can be exceeded at all.
    """

    axis: int | None
    factors: np.ndarray
    offsets: np.ndarray
    wide_bits: int
    clamps: bool

    @staticmethod
    def of(source: UniformType, target: UniformType) -> IntegerRequantize | None:
        """The integer form from `source` to `target`, or None; cached per pair of type objects."""
        key = (id(source), id(target))
        entry = _INTEGER_REQUANTIZE_CACHE.get(key)
        if entry is not None and entry[0] is source and entry[1] is target:
            return entry[2]
        found = IntegerRequantize._find(source, target)
        if len(_INTEGER_REQUANTIZE_CACHE) >= _PARAMETER_CACHE_SIZE:
            _INTEGER_REQUANTIZE_CACHE.clear()
        _INTEGER_REQUANTIZE_CACHE[key] = (source, target, found)
        return found

    @staticmethod
    def _find(source: UniformType, target: UniformType) -> IntegerRequantize | None:
        if source.expressed_type != target.expressed_type:
            return None
        if source.is_sub_channel or target.is_sub_channel:
            return None
        if source.is_per_axis and target.is_per_axis:
            if source.quantized_dimension != target.quantized_dimension:
                return None
        axis = (
            source.quantized_dimension
            if source.is_per_axis
            else target.quantized_dimension
        )
        count = max(source.scales.size, target.scales.size)
        if min(source.scales.size, target.scales.size) not in (1, count):
            return None
        dtype = expressed_dtype(source)
        scales_from, zps_from = _channels(source, count)
        scales_to, zps_to = _channels(target, count)
        s_from = scales_from.astype(dtype).astype(np.float64)
        s_to = scales_to.astype(dtype).astype(np.float64)
        with np.errstate(all="ignore"):
            factors = np.rint(s_from / s_to)
        if not (np.all(factors >= 1) and np.all(factors <= _MAX_FACTOR)):
            return None
        if not np.array_equal(factors * s_to, s_from):
            return None
        k = factors.astype(np.int64)
        c = zps_to - k * zps_from
        if np.any(k != 1) and not _float_exact(source, target, k, zps_from, zps_to):
            return None
        low = k * source.storage_min + c
        high = k * source.storage_max + c
        extremes = np.concatenate(
            [low, high, k * source.storage_min, k * source.storage_max]
        )
        wide_bits = 32 if int(np.abs(extremes).max()) < 2**31 else 64
        clamps = bool(
            np.any(low < target.storage_min) or np.any(high > target.storage_max)
        )
        return IntegerRequantize(axis if count > 1 else None, k, c, wide_bits, clamps)

    def apply(self, q: np.ndarray, target: UniformType) -> np.ndarray:
        """The target storage of source storage integers `q`."""
        shape = [1] * q.ndim
        if self.axis is not None:
            shape[self.axis] = -1
        wide = np.dtype(f"int{self.wide_bits}")
        value = q.astype(wide)
        if np.any(self.factors != 1):
            value *= self.factors.astype(wide).reshape(shape)
        if np.any(self.offsets != 0):
            value += self.offsets.astype(wide).reshape(shape)
        if self.clamps:
            np.clip(value, target.storage_min, target.storage_max, out=value)
        return value.astype(storage_numpy_dtype(target))


_INTEGER_REQUANTIZE_CACHE: dict[
    tuple[int, int],
    tuple[UniformType, UniformType, IntegerRequantize | None],
] = {}


def _float_exact(
    source: UniformType,
    target: UniformType,
    factors: np.ndarray,
    zps_from: np.ndarray,
    zps_to: np.ndarray,
) -> bool:
    """Whether the float requantize formula is exact integer math over the whole source range."""
    info = cast(Any, ml_dtypes.finfo)(expressed_dtype(source))  # untyped in ml_dtypes
    bits = int(info.nmant) + 1
    stored = max(abs(source.storage_min), abs(source.storage_max))
    if max(stored, int(np.abs(zps_from).max())) > 2**bits:
        return False
    offsets = np.maximum(
        np.abs(source.storage_min - zps_from), np.abs(source.storage_max - zps_from)
    )
    if int((factors * offsets + np.abs(zps_to)).max()) > 2 ** (bits - 4):
        return False
    # Normal numbers only: the relative error bound fails for subnormals and inf.
    s_to = float(np.min(target.scales))
    s_from = float(np.max(source.scales))
    return (
        s_to >= float(info.smallest_normal)
        and s_from * float(offsets.max()) <= float(info.max) / 2
    )


def contraction_rescale(
    lhs: UniformType,
    rhs: UniformType,
    result: UniformType,
    rhs_axis_in_result: int | None,
) -> tuple[np.ndarray, int | None] | None:
    """The multiplier `s_lhs * s_rhs / s_result` of an integer dot/convolution, per result channel.

    A quantized contraction whose operands and result are all quantized is
    computed exactly in integers, `acc = sum((q_lhs - z_lhs) * (q_rhs - z_rhs))`,
    then rescaled once by `rescale_accumulator`. Returns the multiplier and
    the result dimension it varies along (None for one multiplier), or None
    when that form does not apply and the contraction goes through floats:
    a per-axis lhs, storage wider than 16 bits (the sum could overflow i64),
    or a per-axis result on another dimension than the rhs's channels.
    """
    if not lhs.is_per_layer or max(lhs.storage_width, rhs.storage_width) > 16:
        return None
    if rhs.is_sub_channel or result.is_sub_channel:
        return None
    result_axis = rhs_axis_in_result if rhs.is_per_axis else None
    if result.is_per_axis:
        if result_axis is not None and result_axis != result.quantized_dimension:
            return None
        result_axis = result.quantized_dimension
    rhs_scales = np.asarray(rhs.scales, np.float64).reshape(-1)
    result_scales = np.asarray(result.scales, np.float64).reshape(-1)
    multiplier = lhs.scale * rhs_scales / result_scales
    return multiplier, result_axis if multiplier.size > 1 else None


def rescale_accumulator(
    acc: np.ndarray,
    multiplier: np.ndarray,
    axis: int | None,
    result: UniformType,
) -> np.ndarray:
    """`rne(clamp(acc * multiplier + z_result))` in float64, into the result's storage.

    The one rounding of an integer contraction (see `contraction_rescale`);
    `axis` is the result dimension `multiplier` and the zero points vary along.
    """
    shape = [1] * acc.ndim
    if axis is not None:
        shape[axis] = -1
    zero_points = np.asarray(result.zero_points, np.float64).reshape(-1)
    value = acc.astype(np.float64) * multiplier.reshape(shape) + zero_points.reshape(
        shape
    )
    value = np.clip(value, float(result.storage_min), float(result.storage_max))
    return np.rint(value).astype(storage_numpy_dtype(result))


def _channels(qtype: UniformType, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Scales (float64) and zero points (int64) of a per-tensor/per-axis type over `count` channels."""
    scales = np.asarray(qtype.scales, np.float64).reshape(-1)
    zero_points = np.asarray(qtype.zero_points, np.int64).reshape(-1)
    if scales.size == 1 and count > 1:
        return np.repeat(scales, count), np.repeat(zero_points, count)
    return scales, zero_points


def common_channels(*qtypes: UniformType) -> tuple[int | None, int] | None:
    """`(axis, channel count)` when every type has the same scale on every channel, else None.

    Per-tensor types count as that scale on every channel; per-axis types
    must share one axis; sub-channel types never qualify.
    """
    if any(q.is_sub_channel for q in qtypes):
        return None
    axes = {q.quantized_dimension for q in qtypes if q.is_per_axis}
    if len(axes) > 1:
        return None
    count = max(q.scales.size for q in qtypes)
    scales = [_channels(q, count)[0] for q in qtypes]
    if any(s.size != count or not np.array_equal(s, scales[0]) for s in scales):
        return None
    return next(iter(axes), None), count


def integer_add_correction(
    lhs: UniformType,
    rhs: UniformType,
    result: UniformType,
    subtract: bool,
) -> tuple[np.ndarray, int | None] | None:
    """Per-channel `c` such that add/subtract is `clamp(q_lhs +- q_rhs + c)` in integers.

    That form applies, exactly, when all three types share one scale per
    channel and one expressed type: `c = z_out - z_lhs - z_rhs` (add) or
    `z_out - z_lhs + z_rhs` (subtract). Returns `c` and the axis it varies
    along, or None (then the op goes through floats). Exact where the float
    form is not: an i32 storage value does not fit an f32 mantissa.
    """
    found = common_channels(lhs, rhs, result)
    if found is None or lhs.expressed_type != result.expressed_type:
        return None
    axis, count = found
    zl, zr, zo = (_channels(q, count)[1] for q in (lhs, rhs, result))
    return (zo - zl + zr if subtract else zo - zl - zr), axis
