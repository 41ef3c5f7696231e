"""OCP Microscaling (MX v1.0) numerics on numpy arrays: the one owner of MX arithmetic.

An MX value is a scale tensor plus element data. Element `i` of the data
uses the scale at `i // block` along every dimension (`block = data dim /
scale dim`).

Scales
    `f8E8M0FNU`, or an 8-bit integer holding the same byte `b`, means
    `2^(b - 127)`; `b = 0xFF` is NaN and makes its whole block NaN; `0x00` is
    `2^-127` (an f32 subnormal, not zero). A float scale (f16, bf16, f32, ...)
    is a plain multiplier.

Elements
    `f8E4M3FN`, `f8E5M2`, `f6E2M3FN`, `f6E3M2FN`, `f4E2M1FN` (MXFP8/6/4),
    `i8` (MXINT8: two's complement with an implicit `2^-6`), and the plain
    floats `bf16`, `f16`, `f32`. `emax` is the exponent of the largest normal.

Quantize (OCP 6.3), per block, with `amax = max |v|`:
    `floor` (the spec, default): `e = floor(log2 amax) - emax`, with
        `floor(log2)` read from the exponent bits (never a float log2);
    `rceil`: `e = ceil(log2(amax / max_normal))`, computed exactly, so the
        block maximum never saturates (NVIDIA's / torchao's RCEIL rule);
    then `e` is clamped to [-127, 127] and stored as the byte `e + 127`.
    An all-zero block gets 0x00; NaN or Inf anywhere in a block gives 0xFF
    and every element of that block is +0.
    Elements: `rne(clamp(v / 2^e, -max_normal, max_normal))` -- the clamp
    comes first, so a finite value never becomes NaN/Inf (E4M3 has no Inf
    and a plain cast of 480 would be NaN). MXINT8: `clamp(rne(v / 2^e * 64),
    -127, 127)`. `v / 2^e` is computed in f32: it is exact whenever the result
    is an f32 normal, and smaller results are far below half of every
    format's smallest subnormal, so one RNE rounding to the element is exact.

NVFP4 (NVIDIA's FP4, not an OCP MX format; `algorithm = "nvfp4"`)
    f4E2M1FN elements, blocks of 16 along the last axis, f8E4M3FN block
    scales, an optional f32 per-tensor scale `g` (two-level scaling:
    `x ~ element * block_scale * g`). Every step is one f32 operation,
    exactly as torchao 0.18's `nvfp4_quantize` (the golden reference):
        amax = max |x| per block (NaN if the block has a NaN)
        s    = amax / 6                         (then `s / g` with `g`)
        s    = min(max(s, 2^-6), 448)           (NaN stays NaN)
        scale = rne_e4m3(s)                     (all-zero block: 2^-6 = 0x08;
                                                 never subnormal, never above 448)
        r    = 1 / f32(scale)                   (with `g`: (1 / g) / f32(scale))
        element = rne_e2m1(clamp(x * r, -6, 6)) (a reciprocal multiply, not a
                                                 division: the last bit can differ)
    NaN in a block gives scale 0x7F (NaN) and elements +0; Inf gives scale
    448 (0x7E) and the Inf element saturates to +-6.
    Dequantize: `decode(element) * (g * f32(scale))` in f32 (torchao's
    `get_hp_scales` order), or `decode(element) * f32(scale)` without `g`.
    `nvfp4_tensor_scale(amax) = amax / (448 * 6)` in f32.

Dequantize
    `v = decode(element) * scale` computed in f32 (exact for every power-of-two
    scale unless it overflows f32), NaN for a NaN scale, then rounded once to
    the result type.

Split storage
    Element codes are bit patterns (`f6E2M3FN` codes are 6 bits). They can be
    stored as several integer tensors whose widths add up to the element
    width; the first tensor holds the most significant bits (fp6 = i2 high +
    i4 low). Signless integer storage is held sign-extended (an `i2` holding
    0b11 is -1), as everywhere in the interpreter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import ml_dtypes
import numpy as np
from xdsl.dialects import builtin
from xdsl.dialects.builtin import IntegerType, Signedness
from xdsl.ir import Attribute
from xdsl.utils.hints import isa
from xdsl.utils.str_enum import StrEnum

from xquant.numerics.dtypes import numpy_dtype, storage_dtype

__all__ = [
    "NAN_SCALE_BYTE",
    "NVFP4_BLOCK",
    "Algorithm",
    "ElementFormat",
    "MxValue",
    "block_shape",
    "broadcast_blocks",
    "decode_elements",
    "decode_scale",
    "dequantize",
    "element_codes",
    "element_format",
    "elements_from_codes",
    "is_e8m0_scale_type",
    "join_storage",
    "nvfp4_tensor_scale",
    "quantize",
    "quantize_nvfp4",
    "scale_blocks",
    "scale_bytes",
    "scale_from_bytes",
    "split_storage",
]

NAN_SCALE_BYTE = 0xFF
"""The E8M0 byte that means NaN."""

E8M0_BIAS = 127
MIN_SHARED_EXP = -127
MAX_SHARED_EXP = 127
MXINT8_FRACTION_BITS = 6
"""MXINT8 elements carry an implicit scale of 2^-6."""

NVFP4_BLOCK = 16
"""NVFP4 blocks: 16 elements along the last axis."""
NVFP4_ELEMENT_MAX = 6.0
"""The largest f4E2M1FN magnitude."""
NVFP4_SCALE_MIN = 2.0**-6
"""The smallest normal f8E4M3FN: block scales are clamped up to it (torchao's E4M3_EPS)."""
NVFP4_SCALE_MAX = 448.0
"""The largest f8E4M3FN: block scales are clamped down to it."""


class Algorithm(StrEnum):
    """How a block's shared exponent is chosen from its largest magnitude."""

    FLOOR = "floor"
    """OCP MX v1.0 section 6.3: floor(log2 amax) - emax; the block max may saturate."""
    RCEIL = "rceil"
    """ceil(log2(amax / max_normal)): the smallest scale at which the block max does not saturate."""
    NVFP4 = "nvfp4"
    """NVIDIA's NVFP4: f8E4M3FN block scale rne(amax / 6), blocks of 16, optional f32 tensor scale."""


@dataclass(frozen=True)
class ElementFormat:
    """An MX element format: how its values are held and the numbers quantize needs."""

    element_type: Attribute
    dtype: np.dtype[Any]
    """The numpy dtype holding elements (ml_dtypes floats; int8 for MXINT8)."""
    bits: int
    emax: int
    """Exponent of the largest normal number (0 for MXINT8)."""
    max_normal: float
    """The largest finite magnitude (127/64 for MXINT8)."""
    is_int: bool

    @property
    def max_mantissa(self) -> float:
        """`max_normal / 2^emax`, in [1, 2): the largest mantissa of the top binade."""
        return self.max_normal / 2.0**self.emax


FLOAT_ELEMENT_TYPES: tuple[type[Attribute], ...] = (
    builtin.Float8E4M3FNType,
    builtin.Float8E5M2Type,
    builtin.Float6E2M3FNType,
    builtin.Float6E3M2FNType,
    builtin.Float4E2M1FNType,
    builtin.BFloat16Type,
    builtin.Float16Type,
    builtin.Float32Type,
)


def is_element_type(element_type: Attribute) -> bool:
    """An element format MX defines: one of `FLOAT_ELEMENT_TYPES`, or MXINT8 (a signless i8)."""
    if isa(element_type, IntegerType):
        return (
            element_type.width.data == 8
            and element_type.signedness.data == Signedness.SIGNLESS
        )
    return isinstance(element_type, FLOAT_ELEMENT_TYPES)


def element_format(element_type: Attribute) -> ElementFormat:
    """The MX format of a data element type (ValueError for a type MX does not define)."""
    if isa(element_type, IntegerType):
        if not is_element_type(element_type):
            raise ValueError(f"{element_type} is not an MX element type (MXINT8 is i8)")
        max_normal = 127 / 2**MXINT8_FRACTION_BITS
        return ElementFormat(element_type, np.dtype(np.int8), 8, 0, max_normal, True)
    if not is_element_type(element_type):
        raise ValueError(f"{element_type} is not an MX element type")
    dtype = numpy_dtype(element_type)
    # ml_dtypes.finfo is untyped beyond numpy's finfo, whose fields it fills in.
    info = cast("np.finfo[np.floating[Any]]", ml_dtypes.finfo(dtype))
    return ElementFormat(
        element_type,
        dtype,
        int(info.bits),
        int(info.maxexp) - 1,
        float(info.max),
        False,
    )


def is_e8m0_scale_type(scale_type: Attribute) -> bool:
    """True for scales that mean 2^(b-127): f8E8M0FNU or an 8-bit integer holding the byte."""
    if isinstance(scale_type, builtin.Float8E8M0FNUType):
        return True
    return isa(scale_type, IntegerType) and scale_type.width.data == 8


@dataclass(frozen=True)
class MxValue:
    """An `!mx_tensor.tensor` value: the scale array and the data array(s), never mutated."""

    scale: np.ndarray
    data: tuple[np.ndarray, ...]

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.data[0].shape)


# ---------------------------------------------------------------------------------------
# blocks


def block_shape(
    data_shape: Sequence[int], scale_shape: Sequence[int]
) -> tuple[int, ...]:
    """Block size per dimension (`data dim / scale dim`); ValueError if one does not divide."""
    if len(data_shape) != len(scale_shape):
        raise ValueError(
            f"scale of rank {len(scale_shape)} for data of rank {len(data_shape)}"
        )
    blocks: list[int] = []
    for dim, (size, count) in enumerate(zip(data_shape, scale_shape, strict=True)):
        if count <= 0 or size % count != 0:
            raise ValueError(
                f"dimension {dim}: data size {size} is not a multiple of scale size {count}"
            )
        blocks.append(size // count)
    return tuple(blocks)


def _blocked_view(
    shape: Sequence[int], scale_shape: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Interleaved (count, block) view of the data, the scale's matching view and the block axes."""
    blocks = block_shape(shape, scale_shape)
    view: list[int] = []
    scale_view: list[int] = []
    for count, block in zip(scale_shape, blocks, strict=True):
        view += [count, block]
        scale_view += [count, 1]
    return tuple(view), tuple(scale_view), tuple(range(1, 2 * len(blocks), 2))


def broadcast_blocks(per_block: np.ndarray, shape: Sequence[int]) -> np.ndarray:
    """A per-block array expanded to the full data `shape` (a view when possible)."""
    view, scale_view, _ = _blocked_view(shape, per_block.shape)
    return np.broadcast_to(per_block.reshape(scale_view), view).reshape(tuple(shape))


def scale_blocks(values: np.ndarray, per_block: np.ndarray) -> np.ndarray:
    """`values * per_block[block of each element]`, multiplied in the interleaved
    (count, block) view: the per-block array is never repeated to full size."""
    view, scale_view, _ = _blocked_view(values.shape, per_block.shape)
    product = values.reshape(view) * per_block.reshape(scale_view)
    return product.reshape(values.shape)


# ---------------------------------------------------------------------------------------
# scales


def shared_exponents(
    amax: np.ndarray, fmt: ElementFormat, algorithm: Algorithm = Algorithm.FLOOR
) -> np.ndarray:
    """The clamped shared exponent of each block from its f32 `amax` (NaN/Inf blocks: any value)."""
    amax = np.asarray(amax, dtype=np.float32)
    finite_positive = np.isfinite(amax) & (amax > 0)
    safe = np.where(finite_positive, amax, np.float32(1))
    mantissa, exponent = np.frexp(safe)
    exp = exponent.astype(np.int32) - 1 - fmt.emax
    if algorithm is Algorithm.RCEIL:
        # amax = 2m * 2^(exponent-1) with 2m in [1, 2); the block max saturates iff 2m > max mantissa.
        exp = exp + (mantissa.astype(np.float64) * 2 > fmt.max_mantissa).astype(
            np.int32
        )
    exp = np.where(finite_positive, exp, MIN_SHARED_EXP)
    return np.clip(exp, MIN_SHARED_EXP, MAX_SHARED_EXP).astype(np.int32)


def scale_bytes(
    x: np.ndarray,
    scale_shape: Sequence[int],
    fmt: ElementFormat,
    algorithm: Algorithm = Algorithm.FLOOR,
) -> np.ndarray:
    """The E8M0 scale byte (uint8) of every block of `x` (any float dtype)."""
    x32 = np.asarray(x).astype(np.float32)
    view, _, axes = _blocked_view(x32.shape, scale_shape)
    blocked = np.abs(x32.reshape(view))
    with np.errstate(invalid="ignore"):
        amax = (
            np.max(blocked, axis=axes)
            if blocked.size
            else np.zeros(tuple(scale_shape), np.float32)
        )
    nonfinite = ~np.isfinite(amax)
    exp = shared_exponents(amax, fmt, algorithm)
    return (
        np.where(nonfinite, NAN_SCALE_BYTE, exp + E8M0_BIAS)
        .astype(np.uint8)
        .reshape(tuple(scale_shape))
    )


def scale_from_bytes(bytes_: np.ndarray, scale_type: Attribute) -> np.ndarray:
    """E8M0 bytes (uint8) as an array of the scale type's holder (f8E8M0FNU, int8 or uint8)."""
    bytes_ = np.asarray(bytes_, dtype=np.uint8)
    if isinstance(scale_type, builtin.Float8E8M0FNUType):
        return bytes_.view(ml_dtypes.float8_e8m0fnu)
    if isa(scale_type, IntegerType) and scale_type.width.data == 8:
        return bytes_.view(numpy_dtype(scale_type))
    raise ValueError(
        f"quantize needs an E8M0 scale type (f8E8M0FNU or an 8-bit integer), not {scale_type}"
    )


def decode_scale(scale: np.ndarray, scale_type: Attribute) -> np.ndarray:
    """Scale values as f32 multipliers: 2^(b-127) (NaN for 0xFF) for E8M0 scales, the value for floats."""
    scale = np.asarray(scale)
    if not is_e8m0_scale_type(scale_type):
        return scale.astype(np.float32)
    b = scale.view(np.uint8).astype(np.int32)
    # ldexp in f32 is exact, including 2^-127 (an f32 subnormal) for b = 0.
    with np.errstate(over="ignore"):
        values = np.ldexp(np.float32(1), b - E8M0_BIAS).astype(np.float32)
    return np.where(b == NAN_SCALE_BYTE, np.float32(np.nan), values)


# ---------------------------------------------------------------------------------------
# elements


def _scale_elements(x32: np.ndarray, exp_full: np.ndarray) -> np.ndarray:
    """`x / 2^e` in f32 (2^-e built exactly, also when it is subnormal)."""
    return x32 * np.ldexp(np.float32(1), -exp_full).astype(np.float32)


def encode_elements(scaled: np.ndarray, fmt: ElementFormat) -> np.ndarray:
    """Already-scaled f32 values to elements: clamp to +-max normal, then one RNE rounding."""
    scaled = np.asarray(scaled, dtype=np.float32)
    if fmt.is_int:
        fixed = np.rint(
            np.clip(scaled * np.float32(2**MXINT8_FRACTION_BITS), -127, 127)
        )
        return np.where(np.isnan(fixed), 0, fixed).astype(np.int8)
    limit = np.float32(fmt.max_normal)
    clamped = np.minimum(np.maximum(scaled, -limit), limit)
    return clamped.astype(fmt.dtype)


def decode_elements(data: np.ndarray, fmt: ElementFormat) -> np.ndarray:
    """Element values as f32 (exact)."""
    data = np.asarray(data)
    if data.dtype.itemsize == 1 and data.dtype != np.bool_ and not fmt.is_int:
        # One-byte floats: a 256-entry table of ml_dtypes' own conversion, ~10x
        # faster than its astype on big tensors (same values, it is the same cast).
        table = np.arange(256, dtype=np.uint8).view(data.dtype).astype(np.float32)
        return table[data.view(np.uint8).reshape(-1)].reshape(data.shape)
    values = data.astype(np.float32)
    if fmt.is_int:
        return values * np.float32(2.0**-MXINT8_FRACTION_BITS)
    return values


def quantize(
    x: np.ndarray,
    scale_shape: Sequence[int],
    element_type: Attribute,
    algorithm: Algorithm = Algorithm.FLOOR,
) -> tuple[np.ndarray, np.ndarray]:
    """Quantize float `x` to (scale bytes as uint8, elements in the element format's dtype)."""
    fmt = element_format(element_type)
    x32 = np.asarray(x).astype(np.float32)
    bytes_ = scale_bytes(x32, scale_shape, fmt, algorithm)
    exp = bytes_.astype(np.int32) - E8M0_BIAS
    nan_block = bytes_ == NAN_SCALE_BYTE
    exp = np.where(nan_block, 0, exp)
    with np.errstate(all="ignore"):
        scaled = _scale_elements(x32, broadcast_blocks(exp, x32.shape))
        scaled = np.where(broadcast_blocks(nan_block, x32.shape), np.float32(0), scaled)
        return bytes_, encode_elements(scaled, fmt)


def nvfp4_tensor_scale(amax: Any) -> np.float32:
    """The NVFP4 per-tensor scale `amax / (448 * 6)` in f32 (torchao's `per_tensor_amax_to_scale`)."""
    return np.float32(amax) / np.float32(NVFP4_SCALE_MAX * NVFP4_ELEMENT_MAX)


def quantize_nvfp4(
    x: np.ndarray, scale_shape: Sequence[int], tensor_scale: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """NVFP4 quantize (see the module docstring): (f8E4M3FN block scales, f4E2M1FN elements)."""
    x32 = np.asarray(x).astype(np.float32)
    view, _, axes = _blocked_view(x32.shape, scale_shape)
    with np.errstate(all="ignore"):
        blocked = np.abs(x32.reshape(view))
        amax = (
            np.max(blocked, axis=axes).reshape(tuple(scale_shape))
            if blocked.size
            else np.zeros(tuple(scale_shape), np.float32)
        )
        block_scale = amax / np.float32(NVFP4_ELEMENT_MAX)
        g = None if tensor_scale is None else np.float32(tensor_scale)
        if g is not None:
            block_scale = block_scale / g
        # np.maximum/np.minimum propagate NaN, as torch.clamp does.
        block_scale = np.minimum(
            np.maximum(block_scale, np.float32(NVFP4_SCALE_MIN)),
            np.float32(NVFP4_SCALE_MAX),
        )
        scale = block_scale.astype(ml_dtypes.float8_e4m3fn)
        one = np.float32(1)
        numerator = one if g is None else one / g
        reciprocal = (numerator / scale.astype(np.float32)).astype(np.float32)
        scaled = x32 * broadcast_blocks(reciprocal, x32.shape)
        scaled = np.where(np.isnan(scaled), np.float32(0), scaled)
    fmt = element_format(builtin.f4E2M1FN)
    return scale, encode_elements(scaled, fmt)


def dequantize(
    scale: np.ndarray,
    scale_type: Attribute,
    data: np.ndarray,
    element_type: Attribute,
    result_dtype: Any = np.float32,
    tensor_scale: Any = None,
) -> np.ndarray:
    """`decode(element) * scale` in f32 (`decode(element) * (tensor_scale * scale)` with a tensor
    scale), rounded once to `result_dtype`."""
    fmt = element_format(element_type)
    multipliers = decode_scale(scale, scale_type)
    with np.errstate(all="ignore"):
        if tensor_scale is not None:
            multipliers = np.float32(tensor_scale) * multipliers
        values = scale_blocks(decode_elements(data, fmt), multipliers)
        # Overflow to Inf in the final rounding is the defined result, not a warning.
        return values.astype(np.float32, copy=False).astype(result_dtype, copy=False)


# ---------------------------------------------------------------------------------------
# bit patterns and split storage


def element_codes(data: np.ndarray, fmt: ElementFormat) -> np.ndarray:
    """The bit patterns of elements as unsigned integers (the low `bits` bits are used)."""
    data = np.asarray(data, dtype=fmt.dtype)
    unsigned = np.dtype(f"uint{fmt.dtype.itemsize * 8}")
    return data.view(unsigned) & unsigned.type((1 << fmt.bits) - 1)


def elements_from_codes(codes: np.ndarray, fmt: ElementFormat) -> np.ndarray:
    """Bit patterns (the low `bits` bits of any integer array) back to elements."""
    unsigned = np.dtype(f"uint{fmt.dtype.itemsize * 8}")
    bits = np.asarray(codes).astype(np.uint64) & np.uint64((1 << fmt.bits) - 1)
    return bits.astype(unsigned).view(fmt.dtype)


def split_storage(
    codes: np.ndarray, storage_types: Sequence[Attribute]
) -> list[np.ndarray]:
    """Split bit patterns into integer tensors, most significant bits first."""
    widths = [_storage_width(t) for t in storage_types]
    codes64 = np.asarray(codes).astype(np.uint64)
    shift = sum(widths)
    parts: list[np.ndarray] = []
    for storage_type, width in zip(storage_types, widths, strict=True):
        shift -= width
        bits = (codes64 >> np.uint64(shift)) & np.uint64((1 << width) - 1)
        parts.append(_hold(bits, storage_type, width))
    return parts


def join_storage(
    parts: Sequence[np.ndarray], storage_types: Sequence[Attribute]
) -> np.ndarray:
    """Concatenate the bits of integer tensors (most significant first) into uint64 patterns."""
    code = np.zeros(np.shape(parts[0]), dtype=np.uint64)
    for part, storage_type in zip(parts, storage_types, strict=True):
        width = _storage_width(storage_type)
        bits = np.asarray(part).astype(np.int64).astype(np.uint64) & np.uint64(
            (1 << width) - 1
        )
        code = (code << np.uint64(width)) | bits
    return code


def _storage_width(storage_type: Attribute) -> int:
    if not isa(storage_type, IntegerType):
        raise ValueError(f"storage type {storage_type} is not an integer type")
    return storage_type.width.data


def _hold(bits: np.ndarray, storage_type: Attribute, width: int) -> np.ndarray:
    """Unsigned bits in the interpreter's holder of `storage_type` (signless: sign-extended)."""
    assert isa(storage_type, IntegerType)
    unsigned = storage_type.signedness.data == Signedness.UNSIGNED
    dtype = storage_dtype(width, not unsigned)
    if (
        width == 1
        and not unsigned
        and storage_type.signedness.data == Signedness.SIGNLESS
    ):
        return bits.astype(bool)
    if unsigned:
        return bits.astype(dtype)
    half = 1 << (width - 1)
    return ((bits.astype(np.int64) ^ half) - half).astype(dtype)
