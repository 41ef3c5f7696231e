"""TOSA 1.0 RESCALE, on numpy arrays: the arithmetic of `tosa.rescale`.

`rescale` follows the specification's RESCALE pseudo-code exactly, in
int64 arithmetic on whole arrays:

    value  = extend(in) - extend(input_zp)          (zero-extend if input_unsigned, else sign-extend)
    result = apply_scale_32(value, multiplier[c], shift[c], rounding_mode == DOUBLE_ROUND)   if scale32
           = apply_scale_16(value, multiplier[c], shift[c])                                  otherwise
    result = result + extend(output_zp)             (zero-extend if output_unsigned)
    out    = clip(result, range of out_t, unsigned if output_unsigned) as the bits of out_t

    apply_scale_32(v, m, s, dr): round = 1 << (s - 1); if dr and s > 31: round += +-(1 << 30) by sign(v);
                                 (v * m + round) >> s      (arithmetic shift)
    apply_scale_16(v, m, s):     (v * m + (1 << (s - 1))) >> s

`c` is the index along the last dimension when `per_channel`, else 0.
INEXACT_ROUND is computed as SINGLE_ROUND, which the specification accepts
(its error bound is met by an exact single rounding).

It works on bit patterns: `input_unsigned` / `output_unsigned` decide how
they are read and written, as in TOSA 1.0 (where tensors are signless). The
specification's ERROR_IF conditions and the REQUIREs of apply_scale_*
(multiplier >= 0, 2 <= shift <= 62, the value range, no int32 overflow) raise `InterpretationError` instead of
producing an unpredictable result.

The interpreter (`xquant.interpreter.tosa`) runs `tosa.rescale` with it and
`tosa-rescale-legalize-to-stablehlo` checks the op's constants with
`RescaleParameters.check`, so both agree on what is legal.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.utils.exceptions import InterpretationError

from xquant.numerics.dtypes import integer_range

__all__ = [
    "RescaleParameters",
    "apply_scale_16",
    "apply_scale_32",
    "extend",
    "rescale",
]


def extend(bits: np.ndarray, width: int, unsigned: bool) -> np.ndarray:
    """The low `width` bits of `bits` as int64: zero-extended or sign-extended."""
    value = np.asarray(bits).astype(np.int64)
    if width >= 64:
        return value
    mask, half = (1 << width) - 1, 1 << (width - 1)
    value = value & mask
    return value if unsigned else (value ^ half) - half


def _scale_operands(
    value: np.ndarray, multiplier: np.ndarray, shift: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The operands of apply_scale_* as int64 arrays, after the REQUIREs both share."""
    value, multiplier, shift = (
        np.asarray(a, np.int64) for a in (value, multiplier, shift)
    )
    if np.any(multiplier < 0):
        raise InterpretationError("tosa.rescale: REQUIRE(multiplier >= 0) failed")
    if np.any((shift < 2) | (shift > 62)):
        raise InterpretationError("tosa.rescale: REQUIRE(2 <= shift <= 62) failed")
    return value, multiplier, shift


def apply_scale_32(
    value: np.ndarray, multiplier: np.ndarray, shift: np.ndarray, double_round: bool
) -> np.ndarray:
    """The specification's apply_scale_32 on int64 arrays (REQUIREs checked)."""
    value, multiplier, shift = _scale_operands(value, multiplier, shift)
    half = np.left_shift(np.int64(1), shift - 1)
    if np.any((value < -half) | (value >= half)):
        raise InterpretationError(
            "tosa.rescale: apply_scale_32 REQUIRE(-(1 << (shift - 1)) <= value < 1 << (shift - 1)) failed"
        )
    round_term = half
    if double_round:
        correction = np.where(shift > 31, np.int64(1 << 30), np.int64(0))
        round_term = round_term + np.where(value >= 0, correction, -correction)
    return (value * multiplier + round_term) >> shift


def apply_scale_16(
    value: np.ndarray, multiplier: np.ndarray, shift: np.ndarray
) -> np.ndarray:
    """The specification's apply_scale_16 on int64 arrays (REQUIREs checked)."""
    value, multiplier, shift = _scale_operands(value, multiplier, shift)
    result = (value * multiplier + np.left_shift(np.int64(1), shift - 1)) >> shift
    if np.any((result < -(1 << 31)) | (result > (1 << 31) - 1)):
        raise InterpretationError(
            "tosa.rescale: apply_scale_16 result exceeds the int32 range"
        )
    return result


@dataclass(frozen=True)
class RescaleParameters:
    """The attributes and element widths of one `tosa.rescale`."""

    in_width: int
    out_width: int
    scale32: bool
    rounding_mode: str
    per_channel: bool
    input_unsigned: bool
    output_unsigned: bool

    def check(self, rank: int, input_zp: int, output_zp: int) -> None:
        """The specification's ERROR_IF conditions (zero points already extended)."""
        i8, i16, i32, i48 = (self.in_width == w for w in (8, 16, 32, 48))
        o8, o16, o32 = (self.out_width == w for w in (8, 16, 32))
        failures = {
            "input type must be i8, i16, i32 or i48": not (i8 or i16 or i32 or i48),
            "output type must be i8, i16 or i32": not (o8 or o16 or o32),
            "input_zp must be 0 unless the input is i8 or unsigned i16": not i8
            and not (i16 and self.input_unsigned)
            and input_zp != 0,
            "output_zp must be 0 unless the output is i8 or unsigned i16": not o8
            and not (o16 and self.output_unsigned)
            and output_zp != 0,
            "an unsigned i16 input_zp must be 0 or 32768": i16
            and self.input_unsigned
            and input_zp not in (0, 32768),
            "an unsigned i16 output_zp must be 0 or 32768": o16
            and self.output_unsigned
            and output_zp not in (0, 32768),
            "scale32 is not allowed with an i48 input": self.scale32 and i48,
            "DOUBLE_ROUND needs scale32": not self.scale32
            and self.rounding_mode == "DOUBLE_ROUND",
            "input_unsigned and output_unsigned are exclusive": self.input_unsigned
            and self.output_unsigned,
            "input_unsigned is not allowed with an i32 output": o32
            and self.input_unsigned,
            "output_unsigned is not allowed with an i32 or i48 input": (i32 or i48)
            and self.output_unsigned,
            "input_unsigned is not allowed with an i32 or i48 input": (i32 or i48)
            and self.input_unsigned,
            "per_channel needs a rank >= 1 input": self.per_channel and rank < 1,
        }
        for message, failed in failures.items():
            if failed:
                raise InterpretationError(f"tosa.rescale: ERROR_IF: {message}")


def rescale(
    bits: np.ndarray,
    multiplier: np.ndarray,
    shift: np.ndarray,
    input_zp_bits: int,
    output_zp_bits: int,
    params: RescaleParameters,
) -> np.ndarray:
    """RESCALE on the input's bit patterns; returns the output values as int64 (before the cast to out_t).

    The result is in the range of out_t read as unsigned when `output_unsigned`,
    else as signed.
    """
    bits = np.asarray(bits)
    input_zp = int(
        extend(np.array(input_zp_bits), params.in_width, params.input_unsigned)
    )
    output_zp = int(
        extend(np.array(output_zp_bits), params.out_width, params.output_unsigned)
    )
    params.check(bits.ndim, input_zp, output_zp)
    channels = bits.shape[-1] if params.per_channel else 1
    multiplier = np.asarray(multiplier, np.int64).reshape(-1)
    shift = np.asarray(shift, np.int64).reshape(-1)
    if multiplier.size != channels or shift.size != channels:
        raise InterpretationError(
            f"tosa.rescale: expected {channels} multiplier and shift values, "
            f"got {multiplier.size} and {shift.size}"
        )
    if not params.per_channel:
        multiplier, shift = multiplier.reshape(()), shift.reshape(())
    value = extend(bits, params.in_width, params.input_unsigned) - input_zp
    if params.scale32:
        if np.any((value < -(1 << 31)) | (value > (1 << 31) - 1)):
            raise InterpretationError(
                "tosa.rescale: apply_scale_32 value exceeds int32"
            )
        result = apply_scale_32(
            value, multiplier, shift, params.rounding_mode == "DOUBLE_ROUND"
        )
    else:
        result = apply_scale_16(value, multiplier, shift)
    result = result + output_zp
    if np.any((result < -(1 << 31)) | (result > (1 << 31) - 1)):
        raise InterpretationError("tosa.rescale: adding output_zp overflows int32")
    width = params.out_width
    low, high = integer_range(width, not params.output_unsigned)
    return np.clip(result, low, high)
