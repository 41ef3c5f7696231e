"""Byte-exact printing of float values, as MLIR's `printFloatValue`: the one
float formatter of xquant (the asm printer and the quant types both use it).

This is a port of `printFloatValue` (mlir/lib/IR/AsmPrinter.cpp) and of the
parts of LLVM's `IEEEFloat::toString` / `toStringImpl`
(llvm/lib/Support/APFloat.cpp) it relies on:

1. `toString(FormatPrecision=6, FormatMaxPadding=0, TruncateZero=false)`,
   e.g. `2.000000e+00`, used only when parsing it back in the same
   semantics gives a bitwise identical value;
2. otherwise the default `toString()` (`FormatPrecision=0`,
   `FormatMaxPadding=3`, `TruncateZero=true`), e.g. `0.69999999999999996`,
   `1.2345677999999999E-5`, if it contains a `.`;
3. otherwise (and for inf / NaN) the bit pattern, as `APInt::toString(16,
   unsigned, C literal)`: `0x` and uppercase hex digits, without leading zeros.

`format_float` does one value on exact integers (APFloat is exact too); the
parse-back is a correctly rounded decimal to binary conversion in the target
semantics, like `APFloat(semantics, string)`. `format_floats` does a whole
array (dense literals, the scales of a sub-channel type) with numpy on its
distinct values, and hands the few values it cannot decide to `format_float`.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from fractions import Fraction

import ml_dtypes
import numpy as np
from xdsl.dialects import builtin
from xdsl.ir import Attribute

__all__ = [
    "FloatSemantics",
    "apfloat_to_string",
    "format_float",
    "format_floats",
    "llvm_double",
    "round_double",
    "semantics_of",
]


@dataclass(frozen=True)
class FloatSemantics:
    """LLVM's `fltSemantics`: the parts needed for printing and parsing back."""

    name: str
    max_exponent: int
    min_exponent: int
    precision: int  # bits in the significand, including the integer bit
    size_in_bits: int
    nonfinite: str = "ieee"  # "ieee" | "nan_only" | "finite_only"
    nan_encoding: str = "ieee"  # "ieee" | "all_ones" | "negative_zero"
    has_zero: bool = True
    has_signed_repr: bool = True

    @property
    def largest(self) -> Fraction:
        """`makeLargest`: the largest finite value."""
        significand = (1 << self.precision) - 1
        if (
            self.nonfinite == "nan_only"
            and self.nan_encoding == "all_ones"
            and self.precision > 1
        ):
            significand &= ~1
        return Fraction(significand) * _pow2(self.max_exponent - self.precision + 1)


def _pow2(e: int) -> Fraction:
    return Fraction(1 << e) if e >= 0 else Fraction(1, 1 << -e)


# The table of llvm/lib/Support/APFloat.cpp.
IEEE_HALF = FloatSemantics("f16", 15, -14, 11, 16)
BFLOAT = FloatSemantics("bf16", 127, -126, 8, 16)
IEEE_SINGLE = FloatSemantics("f32", 127, -126, 24, 32)
IEEE_DOUBLE = FloatSemantics("f64", 1023, -1022, 53, 64)
IEEE_QUAD = FloatSemantics("f128", 16383, -16382, 113, 128)
X87_DOUBLE_EXTENDED = FloatSemantics("f80", 16383, -16382, 64, 80)
FLOAT_TF32 = FloatSemantics("tf32", 127, -126, 11, 19)
FLOAT8_E5M2 = FloatSemantics("f8E5M2", 15, -14, 3, 8)
FLOAT8_E5M2FNUZ = FloatSemantics(
    "f8E5M2FNUZ", 15, -15, 3, 8, "nan_only", "negative_zero"
)
FLOAT8_E4M3 = FloatSemantics("f8E4M3", 7, -6, 4, 8)
FLOAT8_E4M3FN = FloatSemantics("f8E4M3FN", 8, -6, 4, 8, "nan_only", "all_ones")
FLOAT8_E4M3FNUZ = FloatSemantics("f8E4M3FNUZ", 7, -7, 4, 8, "nan_only", "negative_zero")
FLOAT8_E4M3B11FNUZ = FloatSemantics(
    "f8E4M3B11FNUZ", 4, -10, 4, 8, "nan_only", "negative_zero"
)
FLOAT8_E3M4 = FloatSemantics("f8E3M4", 3, -2, 5, 8)
FLOAT8_E8M0FNU = FloatSemantics(
    "f8E8M0FNU", 127, -127, 1, 8, "nan_only", "all_ones", False, False
)
FLOAT6_E3M2FN = FloatSemantics("f6E3M2FN", 4, -2, 3, 6, "finite_only")
FLOAT6_E2M3FN = FloatSemantics("f6E2M3FN", 2, 0, 4, 6, "finite_only")
FLOAT4_E2M1FN = FloatSemantics("f4E2M1FN", 2, 0, 2, 4, "finite_only")

_BY_TYPE: dict[type[Attribute], FloatSemantics] = {
    builtin.Float16Type: IEEE_HALF,
    builtin.BFloat16Type: BFLOAT,
    builtin.Float32Type: IEEE_SINGLE,
    builtin.Float64Type: IEEE_DOUBLE,
    builtin.Float80Type: X87_DOUBLE_EXTENDED,
    builtin.Float128Type: IEEE_QUAD,
    builtin.FloatTF32Type: FLOAT_TF32,
    builtin.Float8E5M2Type: FLOAT8_E5M2,
    builtin.Float8E5M2FNUZType: FLOAT8_E5M2FNUZ,
    builtin.Float8E4M3Type: FLOAT8_E4M3,
    builtin.Float8E4M3FNType: FLOAT8_E4M3FN,
    builtin.Float8E4M3FNUZType: FLOAT8_E4M3FNUZ,
    builtin.Float8E4M3B11FNUZType: FLOAT8_E4M3B11FNUZ,
    builtin.Float8E3M4Type: FLOAT8_E3M4,
    builtin.Float8E8M0FNUType: FLOAT8_E8M0FNU,
    builtin.Float6E3M2FNType: FLOAT6_E3M2FN,
    builtin.Float6E2M3FNType: FLOAT6_E2M3FN,
    builtin.Float4E2M1FNType: FLOAT4_E2M1FN,
}

# numpy / ml_dtypes dtypes used to round a double into the narrow formats.
_DTYPES: dict[str, np.dtype] = {
    "f16": np.dtype(np.float16),
    "f32": np.dtype(np.float32),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f8E5M2": np.dtype(ml_dtypes.float8_e5m2),
    "f8E5M2FNUZ": np.dtype(ml_dtypes.float8_e5m2fnuz),
    "f8E4M3": np.dtype(ml_dtypes.float8_e4m3),
    "f8E4M3FN": np.dtype(ml_dtypes.float8_e4m3fn),
    "f8E4M3FNUZ": np.dtype(ml_dtypes.float8_e4m3fnuz),
    "f8E4M3B11FNUZ": np.dtype(ml_dtypes.float8_e4m3b11fnuz),
    "f8E3M4": np.dtype(ml_dtypes.float8_e3m4),
    "f8E8M0FNU": np.dtype(ml_dtypes.float8_e8m0fnu),
    "f6E3M2FN": np.dtype(ml_dtypes.float6_e3m2fn),
    "f6E2M3FN": np.dtype(ml_dtypes.float6_e2m3fn),
    "f4E2M1FN": np.dtype(ml_dtypes.float4_e2m1fn),
}


def semantics_of(float_type: Attribute | None) -> FloatSemantics:
    """The APFloat semantics of a builtin float type (None: IEEE double)."""
    if float_type is None:
        return IEEE_DOUBLE
    for cls, sem in _BY_TYPE.items():
        if isinstance(float_type, cls):
            return sem
    raise TypeError(f"not a builtin float type: {float_type}")


# ----- values: a sign and an exact rational magnitude (or inf / nan) -----


def _round_to_semantics(value: Fraction, sem: FloatSemantics) -> Fraction | None:
    """Round a non-negative rational to nearest-even in `sem`, as APFloat's
    `convertFromString`. None means the result is not finite (overflow)."""
    if value == 0:
        return Fraction(0)
    # e = floor(log2(value))
    e = value.numerator.bit_length() - value.denominator.bit_length()
    if _pow2(e) > value:
        e -= 1
    e = max(e, sem.min_exponent)
    ulp = _pow2(e - sem.precision + 1)
    scaled = value / ulp
    n = scaled.numerator // scaled.denominator
    rest = scaled - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2 == 1):
        n += 1
    rounded = n * ulp
    largest = sem.largest
    if rounded > largest:
        if sem.nonfinite == "finite_only":
            return largest  # handleOverflow: makeLargest
        return None
    return rounded


def round_double(value: float, sem: FloatSemantics) -> float:
    """`value` converted (nearest-even) into `sem`, returned as a double.

    One correctly rounded step, as APFloat's `convert`: numpy's f64 -> f32/f16
    casts are; ml_dtypes' narrow formats go through f32 (two roundings, wrong at
    ties such as 1.0625000000009095 -> f8E4M3FN), so those round exactly here.
    """
    if sem in (IEEE_DOUBLE, X87_DOUBLE_EXTENDED, IEEE_QUAD):
        return value
    if math.isnan(value) or math.isinf(value):
        return value
    if sem in (IEEE_SINGLE, IEEE_HALF):
        with np.errstate(over="ignore"):  # beyond the largest finite: inf
            return float(np.array(value).astype(_DTYPES[sem.name]).astype(np.float64))
    rounded = _round_to_semantics(Fraction(abs(value)), sem)
    magnitude = math.inf if rounded is None else float(rounded)
    return math.copysign(magnitude, value)


def _bits(value: float, sem: FloatSemantics) -> int:
    """The bit pattern of `value` (already representable) in `sem`, as `bitcastToAPInt`."""
    if sem is IEEE_DOUBLE:
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if sem is IEEE_SINGLE:
        return struct.unpack("<I", struct.pack("<f", value))[0]
    if sem.name in _DTYPES:
        raw = np.array(value, dtype=np.float64).astype(_DTYPES[sem.name])
        word = int(raw.view(np.uint8 if raw.itemsize == 1 else np.uint16))
        return word & ((1 << sem.size_in_bits) - 1)
    # tf32, f80, f128: IEEE-style encodings built by hand.
    sign = 1 if math.copysign(1.0, value) < 0 else 0
    explicit_integer_bit = sem is X87_DOUBLE_EXTENDED
    mantissa_bits = sem.precision - (0 if explicit_integer_bit else 1)
    exponent_bits = sem.size_in_bits - 1 - mantissa_bits
    bias = 1 - sem.min_exponent
    if math.isnan(value) or math.isinf(value):
        exponent_field = (1 << exponent_bits) - 1
        mantissa = 0 if math.isinf(value) else 1 << (sem.precision - 2)
        if explicit_integer_bit:
            mantissa |= 1 << (sem.precision - 1)
    elif value == 0:
        exponent_field, mantissa = 0, 0
    else:
        magnitude = Fraction(abs(value))
        e = max(
            magnitude.numerator.bit_length() - magnitude.denominator.bit_length(),
            sem.min_exponent,
        )
        if _pow2(e) > magnitude and e > sem.min_exponent:
            e -= 1
        significand = int(magnitude / _pow2(e - sem.precision + 1))
        normal = significand >> (sem.precision - 1) != 0
        exponent_field = e + bias if normal else 0
        mantissa = (
            significand
            if explicit_integer_bit
            else significand & ((1 << (sem.precision - 1)) - 1)
        )
    return (
        (sign << (sem.size_in_bits - 1)) | (exponent_field << mantissa_bits) | mantissa
    )


# ----- LLVM's toStringImpl -----


def _adjust_significand(significand: int, exp: int, precision: int) -> tuple[int, int]:
    """`AdjustToPrecision(APInt&, ...)`: drop decimal digits the precision cannot show."""
    bits = significand.bit_length()
    bits_required = (precision * 196 + 58) // 59  # 196/59 overestimates lg2(10)
    if bits <= bits_required:
        return significand, exp
    tens_removable = (bits - bits_required) * 59 // 196
    if not tens_removable:
        return significand, exp
    return significand // 10**tens_removable, exp + tens_removable


def _adjust_buffer(
    buffer: list[str], exp: int, precision: int
) -> tuple[list[str], int]:
    """`AdjustToPrecision(SmallVectorImpl<char>&, ...)`: round half up to `precision`
    digits. `buffer` holds the digits least significant first."""
    n = len(buffer)
    if n <= precision:
        return buffer, exp
    first = n - precision
    if buffer[first - 1] < "5":
        while first < n and buffer[first] == "0":
            first += 1
        return buffer[first:], exp + first
    buffer = list(buffer)
    for i in range(first, n):
        if buffer[i] == "9":
            first += 1
        else:
            buffer[i] = chr(ord(buffer[i]) + 1)
            break
    if first == n:
        return ["1"], exp + first
    return buffer[first:], exp + first


def _to_string_impl(
    negative: bool,
    exp: int,
    significand: int,
    semantics_precision: int,
    format_precision: int,
    format_max_padding: int,
    truncate_zero: bool,
) -> str:
    out: list[str] = ["-"] if negative else []
    if not format_precision:
        # Enough digits to round-trip (Steele & White): 2 + floor(bits / lg2(10)).
        format_precision = 2 + semantics_precision * 59 // 196

    # Ignore trailing binary zeros.
    trailing = (significand & -significand).bit_length() - 1
    exp += trailing
    significand >>= trailing

    # Change the exponent from 2^e to 10^e.
    if exp > 0:
        significand <<= exp
        exp = 0
    elif exp < 0:
        significand *= 5**-exp

    significand, exp = _adjust_significand(significand, exp, format_precision)

    # Fill the buffer, least significant digit first, dropping trailing zeros.
    buffer: list[str] = []
    in_trail = True
    while significand != 0:
        significand, digit = divmod(significand, 10)
        if in_trail and not digit:
            exp += 1
        else:
            buffer.append(chr(ord("0") + digit))
            in_trail = False
    assert buffer, "no characters in buffer!"

    buffer, exp = _adjust_buffer(buffer, exp, format_precision)
    n_digits = len(buffer)

    if not format_max_padding:
        scientific = True
    elif exp >= 0:
        # 765e3 --> 765000, but not making the number look more precise than it is.
        scientific = exp > format_max_padding or n_digits + exp > format_precision
    else:
        msd = exp + n_digits - 1  # power of the most significant digit
        scientific = False if msd >= 0 else -msd > format_max_padding

    if scientific:
        exp += n_digits - 1
        out.append(buffer[n_digits - 1])
        out.append(".")
        if n_digits == 1 and truncate_zero:
            out.append("0")
        else:
            out.extend(buffer[n_digits - 1 - i] for i in range(1, n_digits))
        if not truncate_zero and format_precision > n_digits - 1:
            out.append("0" * (format_precision - n_digits + 1))
        out.append("E" if truncate_zero else "e")
        out.append("+" if exp >= 0 else "-")
        exp_digits = str(abs(exp))
        if not truncate_zero and len(exp_digits) < 2:
            exp_digits = "0" + exp_digits
        out.append(exp_digits)
        return "".join(out)

    if exp >= 0:
        out.extend(reversed(buffer))
        out.append("0" * exp)
        return "".join(out)

    whole_digits = exp + n_digits
    i = 0
    if whole_digits > 0:
        while i != whole_digits:
            out.append(buffer[n_digits - i - 1])
            i += 1
        out.append(".")
    else:
        out.append("0.")
        out.append("0" * -whole_digits)
    while i != n_digits:
        out.append(buffer[n_digits - i - 1])
        i += 1
    return "".join(out)


def apfloat_to_string(
    value: float,
    sem: FloatSemantics = IEEE_DOUBLE,
    format_precision: int = 0,
    format_max_padding: int = 3,
    truncate_zero: bool = True,
) -> str:
    """`IEEEFloat::toString` of `value`, which must be representable in `sem`."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "-Inf" if value < 0 else "+Inf"
    negative = math.copysign(1.0, value) < 0
    if value == 0:
        sign = "-" if negative else ""
        if format_max_padding:
            return sign + "0"
        if truncate_zero:
            return sign + "0.0E+0"
        return sign + "0.0" + "0" * max(format_precision - 1, 0) + "e+00"
    # value = significand * 2^exp with exp = exponent - (precision - 1); the
    # trailing zeros are dropped first thing, so any exact split will do.
    numerator, denominator = abs(value).as_integer_ratio()
    exp = -(denominator.bit_length() - 1)  # denominator is a power of two
    return _to_string_impl(
        negative,
        exp,
        numerator,
        sem.precision,
        format_precision,
        format_max_padding,
        truncate_zero,
    )


def _parses_back_identical(text: str, value: float, sem: FloatSemantics) -> bool:
    """`APFloat(sem, text).bitwiseIsEqual(value)` for a finite `value`."""
    if sem is IEEE_DOUBLE:
        return float(text).hex() == value.hex()  # one correct rounding
    negative = text.startswith("-")
    parsed = _round_to_semantics(Fraction(text.lstrip("+-")), sem)
    if parsed is None:
        return False
    if parsed == 0 and sem.nan_encoding == "negative_zero":
        negative = False  # there is no -0 in these formats
    value_negative = math.copysign(1.0, value) < 0
    return parsed == Fraction(abs(value)) and negative == value_negative


def format_float(value: float, float_type: Attribute | None = None) -> str:
    """`value` as MLIR prints an APFloat: a port of AsmPrinter's `printFloatValue`.

    `float_type` None means IEEE double (per-layer / per-axis scales, calibrated
    bounds); otherwise `value` is first rounded into that builtin float type.
    """
    sem = semantics_of(float_type)
    value = round_double(float(value), sem)
    return _format_representable(value, sem)


def _format_representable(value: float, sem: FloatSemantics) -> str:
    if not math.isnan(value) and not math.isinf(value):
        text = apfloat_to_string(value, sem, 6, 0, False)
        if _parses_back_identical(text, value, sem):
            return text
        text = apfloat_to_string(value, sem)
        if "." in text:
            return text
    # APInt::toString(Radix=16, Signed=false, formatAsCLiteral=true).
    return f"0x{_bits(value, sem):X}"


# ----- whole arrays -----

# The semantics whose numpy casts from double round once, to nearest-even.
_VECTOR_DTYPES: dict[str, np.dtype] = {
    "f64": np.dtype(np.float64),
    "f32": np.dtype(np.float32),
    "f16": np.dtype(np.float16),
}
_UINT = {8: np.uint64, 4: np.uint32, 2: np.uint16}
_SMALL = 8  # below this many distinct values, numpy's set-up costs more than it saves


def format_floats(values: np.ndarray, float_type: Attribute | None = None) -> list[str]:
    """`format_float` of every element of `values` (any shape, read flat).

    Each distinct value is formatted once. For f64, f32 and f16 the digits are
    found with numpy on all of them at once; the rare values whose APFloat
    digits numpy cannot settle (a decimal tie, a carry, a digit count next to
    an integer) and every value of the other semantics go through
    `format_float`.
    """
    sem = semantics_of(float_type)
    flat = np.asarray(values).reshape(-1)
    dtype = _VECTOR_DTYPES.get(sem.name)
    if dtype is None:
        doubles = flat.astype(np.float64)
        unique_bits, inverse = np.unique(doubles.view(np.uint64), return_inverse=True)
        unique = unique_bits.view(np.float64)
        texts = [format_float(v, float_type) for v in unique.tolist()]
    else:
        # Distinct bit patterns: -0.0 and 0.0, and NaN payloads, stay apart.
        with np.errstate(over="ignore", invalid="ignore"):  # to inf / NaN
            typed = flat.astype(dtype)
        bits = typed.view(_UINT[dtype.itemsize])
        unique_bits, inverse = np.unique(bits, return_inverse=True)
        unique = unique_bits.view(dtype)
        if len(unique) < _SMALL:
            texts = [_format_representable(v, sem) for v in unique.tolist()]
        else:
            texts = _format_typed(unique, sem, dtype)
    if len(texts) == len(flat):
        order = inverse.reshape(-1)
        return [texts[i] for i in order.tolist()]
    table = np.array(texts, dtype=object)
    return table[inverse.reshape(-1)].tolist()


def _format_typed(
    unique: np.ndarray, sem: FloatSemantics, dtype: np.dtype
) -> list[str]:
    """`_format_representable` of each of `unique` (values of `dtype`), vectorized."""
    with np.errstate(invalid="ignore"):  # NaN payloads
        doubles = unique.astype(np.float64)
    finite = np.isfinite(doubles)
    nonzero = finite & (doubles != 0)
    texts: list[str | None] = [None] * len(doubles)
    magnitudes = np.abs(doubles[nonzero])
    negative = np.signbit(doubles[nonzero])
    index = np.flatnonzero(nonzero)
    natural_precision = 2 + sem.precision * 59 // 196
    expansion = _Expansion.of(magnitudes, natural_precision + _GUARD)

    # 1. Six digits, `%e`-like; kept where it parses back to the same bits.
    short = expansion.rounded(6)
    back, unparsed = _six_digit_values(short)
    back = np.where(negative, -back, back)
    same, unsure = _same_after_parse(back, doubles[nonzero], dtype)
    unsure |= short.unsure | unparsed
    same &= ~unsure
    kept = np.flatnonzero(same)
    candidates = _scientific_texts(short, negative, kept)
    for k, text in zip(kept.tolist(), candidates, strict=True):
        texts[index[k]] = text

    # 2. The natural form, with as many digits as the type can need.
    rest = np.flatnonzero(~same & ~unsure)
    if len(rest):
        digits = expansion.rounded(natural_precision)
        natural = _natural_texts(digits, negative, natural_precision, rest)
        for k, text in zip(rest.tolist(), natural, strict=True):
            if text is not None:
                texts[index[k]] = text

    # Zeros print as `0.000000e+00`, the rest (non-finite, hex, unsure) one by one.
    values = doubles.tolist()
    return [
        _format_representable(values[k], sem) if text is None else text
        for k, text in enumerate(texts)
    ]


_GUARD = 4  # decimal digits past the longest rounding, to tell ties and carries


@dataclass(frozen=True)
class _Digits:
    """APFloat's decimal digits of positive doubles, rounded to `precision` digits.

    `leading` holds them as integers of exactly `precision` digits (trailing
    zeros kept), `exponent` the power of ten of the first digit; `unsure`
    marks values numpy cannot settle (left to the exact path).
    """

    leading: np.ndarray
    exponent: np.ndarray
    unsure: np.ndarray


_LOG2_5 = np.log2(np.longdouble(5))


@dataclass(frozen=True)
class _Expansion:
    """The first `count` decimal digits of positive doubles (`%e`, correctly
    rounded), with what APFloat's digit truncation depends on.

    APFloat takes the exact decimal significand S of the value, truncates it
    to about `precision * log2(10)` bits (`AdjustToPrecision` on the APInt),
    then rounds half up at `precision` digits. So its result is S rounded half
    up, except when the truncation leaves exactly `precision` digits: then it
    is S truncated. Both come from the `%e` digits past `precision`, which
    decide it unless they read 5000... (a tie, or close to one) or 000... (a
    possible carry) -- those are `unsure`.
    """

    digits: np.ndarray  # (n, count) uint8
    exponent: np.ndarray  # power of ten of the first digit
    bits: np.ndarray  # bit length of S
    decimal_digits: np.ndarray  # decimal length of S
    unsure: np.ndarray
    exact: np.ndarray  # the digits are all of S's

    @staticmethod
    def of(magnitudes: np.ndarray, count: int) -> _Expansion:
        number = len(magnitudes)
        width = count + 8
        texts = [f"{v:.{count - 1}e}" for v in magnitudes.tolist()]
        chars = np.array(texts, dtype=f"S{width}").view(np.uint8).reshape(number, width)
        digits = chars[:, [0, *range(2, count + 1)]] - np.uint8(48)
        exponent_chars = chars[:, count + 2 :].astype(np.int64)
        present = exponent_chars != 0
        exponent_digits = np.where(present, exponent_chars - 48, 0)
        magnitude_exponent = np.where(
            present[:, 3],
            exponent_digits[:, 1] * 100
            + exponent_digits[:, 2] * 10
            + exponent_digits[:, 3],
            exponent_digits[:, 1] * 10 + exponent_digits[:, 2],
        )
        exponent = (
            np.where(exponent_chars[:, 0] == ord("-"), -1, 1) * magnitude_exponent
        )

        # The exact significand S = m * 2^e (e >= 0) or m * 5^-e (e < 0), m odd.
        fraction, binary_exponent = np.frexp(magnitudes)
        m = np.ldexp(fraction, 53).astype(np.int64)
        e = binary_exponent.astype(np.int64) - 53
        trailing = np.frexp((m & -m).astype(np.float64))[1].astype(np.int64) - 1
        m >>= trailing
        e += trailing
        m_bits = np.frexp(m.astype(np.float64))[1].astype(np.int64)
        fives = np.maximum(-e, 0)
        log2_s: np.ndarray = np.log2(m.astype(np.longdouble)) + fives * _LOG2_5
        bits = np.where(e >= 0, m_bits + e, np.floor(log2_s).astype(np.int64) + 1)
        near_integer = (e < 0) & (np.abs(log2_s - np.round(log2_s)) < 1e-9)
        # `%e` rounded up to a power of ten: the first digit's exponent is unsure.
        power_of_ten = (digits[:, 0] == 1) & ~digits[:, 1:].any(axis=1)
        decimal_digits = exponent + 1 + fives
        # All of S's digits are in the `%e` text (so it was not rounded):
        # nothing is unsure about it.
        exact = decimal_digits <= count
        unsure = (near_integer | power_of_ten) & ~exact
        return _Expansion(digits, exponent, bits, decimal_digits, unsure, exact)

    def rounded(self, precision: int) -> _Digits:
        """APFloat's `precision` digits (see the class docstring)."""
        guard = self.digits.shape[1] - precision
        leading: np.ndarray = _decimal_value(self.digits[:, :precision])
        tail = _decimal_value(self.digits[:, precision:])
        half = 5 * 10 ** (guard - 1)
        required = (precision * 196 + 58) // 59
        removable = np.where(
            self.bits > required, (self.bits - required) * 59 // 196, 0
        )
        left = self.decimal_digits - removable
        truncated = left <= precision
        leading = leading + (~truncated & (tail >= half))
        carry = leading == 10**precision
        leading = np.where(carry, leading // 10, leading)
        unsure = (
            self.unsure
            | ((removable > 0) & (left < precision))
            | (~self.exact & ~truncated & (tail == half))
            | (~self.exact & truncated & (tail == 0))
        )
        return _Digits(leading, self.exponent + carry, unsure)


def _decimal_value(digits: np.ndarray) -> np.ndarray:
    """Rows of decimal digits as int64 numbers, one column at a time (a matrix
    product would first widen the whole matrix to int64)."""
    value = np.zeros(len(digits), dtype=np.int64)
    for column in range(digits.shape[1]):
        value *= 10
        value += digits[:, column]
    return value


_EXACT_POWERS = 10.0 ** np.arange(23)  # 10^k is exact in a double up to k = 22


def _six_digit_values(digits: _Digits) -> tuple[np.ndarray, np.ndarray]:
    """The doubles `d.ddddd0e+XX` reads as (one correctly rounded product or
    quotient of exact doubles), and where that shortcut does not apply."""
    power = digits.exponent - 5
    usable = np.abs(power) <= 22
    scale = _EXACT_POWERS[np.where(usable, np.abs(power), 0)]
    leading = digits.leading.astype(np.float64)
    values = np.where(power >= 0, leading * scale, leading / scale)
    return values, ~usable


def _scientific_texts(
    digits: _Digits, negative: np.ndarray, which: np.ndarray
) -> list[str]:
    """`toString(6, 0, false)` of the values at `which`: `d.ddddd0e+XX` (the
    sixth decimal is always a pad 0)."""
    return [
        f"{'-' if neg else ''}{lead // 100000}.{lead % 100000:05d}0e{exp:+03d}"
        for lead, exp, neg in zip(
            digits.leading[which].tolist(),
            digits.exponent[which].tolist(),
            negative[which].tolist(),
        )
    ]


def _natural_texts(
    digits: _Digits, negative: np.ndarray, precision: int, which: np.ndarray
) -> list[str | None]:
    """`toString()` (max padding 3, truncated zeros) of the values at `which`;
    None where it has no `.` (those print as hex) or where the digits are unsure.

    A plain loop of string slicing: a numpy character-matrix layout of the
    same texts measured 2-4x slower (its temporaries are values x width).
    """
    out: list[str | None] = []
    for lead, exp, neg, unsure in zip(
        digits.leading[which].tolist(),
        digits.exponent[which].tolist(),
        negative[which].tolist(),
        digits.unsure[which].tolist(),
    ):
        if unsure:
            out.append(None)
            continue
        text = str(lead).rstrip("0")
        count = len(text)
        last = exp - count + 1  # power of ten of the last digit
        sign = "-" if neg else ""
        if last >= 0:
            if last > 3 or count + last > precision:
                out.append(f"{sign}{text[0]}.{text[1:] or '0'}E+{exp}")
            else:
                out.append(None)  # an integer without '.': hex
        elif exp < -3:
            out.append(f"{sign}{text[0]}.{text[1:] or '0'}E-{-exp}")
        elif exp >= 0:
            out.append(f"{sign}{text[: exp + 1]}.{text[exp + 1 :]}")
        else:
            out.append(f"{sign}0.{'0' * (-exp - 1)}{text}")
    return out


def _same_after_parse(
    back: np.ndarray, values: np.ndarray, dtype: np.dtype
) -> tuple[np.ndarray, np.ndarray]:
    """Whether each parsed-back double, rounded into `dtype`, has the bits of
    `values`; and where that cannot be told this way.

    Decimal -> double -> narrow rounds twice; that can differ from one correct
    rounding only when the double lands exactly halfway between two values of
    the type, or in the type's subnormal range: those are unsure.
    """
    if dtype == np.float64:
        same = back.view(np.uint64) == values.view(np.uint64)
        return same, np.zeros(len(back), dtype=bool)
    uint = _UINT[dtype.itemsize]
    same = back.astype(dtype).view(uint) == values.astype(dtype).view(uint)
    info = np.finfo(dtype)
    mantissa_bits = 52 - info.nmant
    low = back.view(np.uint64) & np.uint64((1 << mantissa_bits) - 1)
    halfway = low == np.uint64(1 << (mantissa_bits - 1))
    tiny = np.abs(back) < float(info.smallest_normal)
    return same, halfway | tiny


def llvm_double(value: float) -> str:
    """`value` as LLVM's `raw_ostream << double` writes it in diagnostics.

    That is `%e`, except that infinities are `INF` / `-INF` and NaN is `nan`
    (`llvm::write_double`), so verifier messages quote scales as upstream does.
    """
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "-INF" if value < 0 else "INF"
    return f"{value:e}"
