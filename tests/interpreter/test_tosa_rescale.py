"""`tosa.rescale` in the interpreter vs a scalar pure-Python reference of TOSA 1.0's RESCALE.

The reference below is written from the specification's pseudo-code
(`RESCALE.tosac`, `apply_scale_32` / `apply_scale_16` in `scale_helpers.tosac`)
with Python ints, one element at a time; the interpreter is vectorized int64
numpy. Python's `>>` on ints is the arithmetic (floor) shift the spec uses.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.utils.exceptions import InterpretationError

from xquant import parse_module, run

# ----------------------------------------------------------------------------------------
# the scalar reference


def ref_apply_scale_32(
    value: int, multiplier: int, shift: int, double_round: bool
) -> int:
    assert multiplier >= 0 and 2 <= shift <= 62
    assert -(1 << (shift - 1)) <= value < (1 << (shift - 1))
    round_term = 1 << (shift - 1)
    if double_round and shift > 31:
        round_term += (1 << 30) if value >= 0 else -(1 << 30)
    return (value * multiplier + round_term) >> shift


def ref_apply_scale_16(value: int, multiplier: int, shift: int) -> int:
    assert multiplier >= 0 and 2 <= shift <= 62
    result = (value * multiplier + (1 << (shift - 1))) >> shift
    assert -(1 << 31) <= result < (1 << 31)
    return result


def extend(bits: int, width: int, unsigned: bool) -> int:
    bits &= (1 << width) - 1
    if unsigned or bits < (1 << (width - 1)):
        return bits
    return bits - (1 << width)


@dataclass(frozen=True)
class Case:
    """One rescale: element widths, parameters (zero points as out_t/in_t bit patterns) and flags."""

    in_width: int
    out_width: int
    multiplier: tuple[int, ...]
    shift: tuple[int, ...]
    input_zp: int
    output_zp: int
    scale32: bool = True
    rounding_mode: str = "SINGLE_ROUND"
    per_channel: bool = False
    input_unsigned: bool = False
    output_unsigned: bool = False

    def reference(self, bits: np.ndarray) -> np.ndarray:
        """RESCALE element by element; the output as out_t bit patterns (signed holder)."""
        out = np.empty(bits.shape, dtype=np.int64)
        in_zp = extend(self.input_zp, self.in_width, self.input_unsigned)
        out_zp = extend(self.output_zp, self.out_width, self.output_unsigned)
        for index in np.ndindex(bits.shape):
            value = extend(int(bits[index]), self.in_width, self.input_unsigned) - in_zp
            c = index[-1] if self.per_channel else 0
            if self.scale32:
                result = ref_apply_scale_32(
                    value,
                    self.multiplier[c],
                    self.shift[c],
                    self.rounding_mode == "DOUBLE_ROUND",
                )
            else:
                result = ref_apply_scale_16(value, self.multiplier[c], self.shift[c])
            result += out_zp
            assert -(1 << 31) <= result < (1 << 31)
            if self.output_unsigned:
                low, high = 0, (1 << self.out_width) - 1
            else:
                low, high = (
                    -(1 << (self.out_width - 1)),
                    (1 << (self.out_width - 1)) - 1,
                )
            out[index] = extend(min(max(result, low), high), self.out_width, False)
        return out

    def module(self, shape: tuple[int, ...]) -> str:
        dims = "".join(f"{n}x" for n in shape)
        in_t, out_t = f"i{self.in_width}", f"i{self.out_width}"
        m_t = "i32" if self.scale32 else "i16"
        n = len(self.multiplier)

        def const(name: str, values: tuple[int, ...], element: str) -> str:
            body = ", ".join(str(v) for v in values)
            t = f"tensor<{len(values)}x{element}>"
            return f'%{name} = "tosa.const"() <{{values = dense<[{body}]> : {t}}}> : () -> {t}'

        flags = (
            f"input_unsigned = {str(self.input_unsigned).lower()}, "
            f"output_unsigned = {str(self.output_unsigned).lower()}, "
            f"per_channel = {str(self.per_channel).lower()}, "
            f"rounding_mode = {self.rounding_mode}, scale32 = {str(self.scale32).lower()}"
        )
        in_zp = extend(self.input_zp, self.in_width, False)
        out_zp = extend(self.output_zp, self.out_width, False)
        return f"""
        func.func @main(%x: tensor<{dims}{in_t}>) -> tensor<{dims}{out_t}> {{
          {const("m", self.multiplier, m_t)}
          {const("s", self.shift, "i8")}
          {const("izp", (in_zp,), in_t)}
          {const("ozp", (out_zp,), out_t)}
          %0 = tosa.rescale %x, %m, %s, %izp, %ozp {{{flags}}} : (tensor<{dims}{in_t}>, tensor<{n}x{m_t}>, tensor<{n}xi8>, tensor<1x{in_t}>, tensor<1x{out_t}>) -> tensor<{dims}{out_t}>
          func.return %0 : tensor<{dims}{out_t}>
        }}"""


HOLDERS = {8: np.int8, 16: np.int16, 32: np.int32, 48: np.int64}


def interpret(case: Case, bits: np.ndarray) -> np.ndarray:
    module = parse_module(case.module(bits.shape))
    (result,) = run(module, "main", bits.astype(HOLDERS[case.in_width]))
    assert result.dtype == HOLDERS[case.out_width]
    return result.astype(np.int64)


def check(case: Case, bits: np.ndarray) -> np.ndarray:
    result = interpret(case, bits)
    np.testing.assert_array_equal(result, case.reference(bits))
    return result


# ----------------------------------------------------------------------------------------
# golden values


def test_upstream_example_to_i32() -> None:
    """StableHLO's legalize_tosa_rescale_to_stablehlo.mlir parameters: scale 1431655765 * 2^-13."""
    case = Case(8, 32, (1431655765,), (13,), -1, 0)
    bits = np.array([[-128, -1], [0, 127]])
    result = check(case, bits)
    # (q + 1) * 174762.67, rounded half up
    np.testing.assert_array_equal(result, [[-22194859, 0], [174763, 22369621]])


def test_unit_scale_is_identity_with_zero_point_shift() -> None:
    case = Case(8, 8, (1 << 30,), (30,), 5, -7)
    bits = np.arange(-128, 128).reshape(16, 16)
    result = check(case, bits)
    np.testing.assert_array_equal(result, np.clip(bits - 5 - 7, -128, 127))


def test_single_round_is_half_up() -> None:
    """Ties round towards +infinity: -1.5 -> -1, 1.5 -> 2, -0.5 -> 0, 0.5 -> 1."""
    case = Case(8, 8, (1 << 30,), (31,), 0, 0)  # scale 0.5
    result = check(case, np.array([-3, 3, -1, 1, -4, 4]))
    np.testing.assert_array_equal(result, [-1, 2, 0, 1, -2, 2])


def test_double_round_differs_from_single_round() -> None:
    """shift > 31: DOUBLE_ROUND adds +-(1 << 30) by the sign of the value: +-3 * 0.4603 -> +-2, not +-1.

    (Two roundings, at 31 bits then at 1 bit: +-2.76 -> +-3 -> +-1.5 -> +-2.)
    """
    single = Case(8, 32, (1976912426,), (32,), 0, 0)
    double = Case(8, 32, (1976912426,), (32,), 0, 0, rounding_mode="DOUBLE_ROUND")
    bits = np.array([-3, 3])
    np.testing.assert_array_equal(check(single, bits), [-1, 1])
    np.testing.assert_array_equal(check(double, bits), [-2, 2])


def test_double_round_is_single_round_below_shift_32() -> None:
    bits = np.arange(-128, 128)
    single = Case(8, 16, (1431655765,), (31,), 3, 0)
    double = Case(8, 16, (1431655765,), (31,), 3, 0, rounding_mode="DOUBLE_ROUND")
    np.testing.assert_array_equal(check(single, bits), check(double, bits))


def test_inexact_round_is_computed_as_single_round() -> None:
    bits = np.arange(-128, 128)
    single = Case(8, 8, (1717986918,), (33,), -4, 9)
    inexact = Case(8, 8, (1717986918,), (33,), -4, 9, rounding_mode="INEXACT_ROUND")
    np.testing.assert_array_equal(check(single, bits), check(inexact, bits))


def test_unsigned_input_zero_extends_bits_and_zero_point() -> None:
    """u8 data in signless i8: bits 0x80 (-128) read as 128, zero point 128 (bits -128)."""
    case = Case(8, 8, (1 << 30,), (30,), 128, 0, input_unsigned=True)
    bits = np.array([-128, -1, 0, 127])  # u8: 128, 255, 0, 127
    np.testing.assert_array_equal(check(case, bits), [0, 127, -128, -1])


def test_unsigned_output_clamps_to_0_255_and_wraps_into_i8_bits() -> None:
    case = Case(8, 8, (1 << 30,), (30,), 0, 128, output_unsigned=True)
    bits = np.array([-128, -1, 0, 127])  # + 128 -> 0, 127, 128, 255
    np.testing.assert_array_equal(check(case, bits), [0, 127, -128, -1])


def test_unsigned_i16_zero_point_32768() -> None:
    case = Case(16, 8, (1 << 30,), (38,), 32768, 0, input_unsigned=True)  # scale 2^-8
    bits = np.array([0, -32768, -1, 32767])  # u16: 0, 32768, 65535, 32767
    np.testing.assert_array_equal(check(case, bits), [-128, 0, 127, 0])


def test_per_channel_uses_the_last_dimension() -> None:
    case = Case(
        8, 32, (1 << 30, 1 << 30, 1610612736), (30, 31, 30), 0, 0, per_channel=True
    )  # scales 1, 0.5, 1.5
    bits = np.array([[10, 10, 10], [-3, -3, -3]])
    np.testing.assert_array_equal(check(case, bits), [[10, 5, 15], [-3, -1, -4]])


def test_scale16_on_i48_input() -> None:
    case = Case(48, 32, (1 << 14,), (20,), 0, 0, scale32=False)  # scale 2^-6
    bits = np.array([(1 << 36) + 31, -(1 << 36) - 32, 95, -96])
    np.testing.assert_array_equal(check(case, bits), [1 << 30, -(1 << 30), 1, -1])


def test_shift_capped_multiplier() -> None:
    """The largest shift (62) with a small multiplier: 2^30 * 2^-62 = 2^-32."""
    case = Case(32, 32, (1 << 30,), (62,), 0, 0)
    bits = np.array([(1 << 31) - 1, -(1 << 31)])
    np.testing.assert_array_equal(check(case, bits), [0, 0])


@pytest.mark.parametrize(
    ("case", "message"),
    [
        (Case(16, 8, (1 << 30,), (30,), 3, 0), "input_zp must be 0"),
        (Case(8, 32, (1 << 30,), (30,), 0, 3), "output_zp must be 0"),
        (
            Case(
                8,
                8,
                (1 << 14,),
                (14,),
                0,
                0,
                scale32=False,
                rounding_mode="DOUBLE_ROUND",
            ),
            "DOUBLE_ROUND needs scale32",
        ),
        (
            Case(
                8, 8, (1 << 30,), (30,), 0, 0, input_unsigned=True, output_unsigned=True
            ),
            "exclusive",
        ),
        (Case(8, 32, (1 << 30,), (30,), 0, 0, input_unsigned=True), "i32 output"),
        (Case(48, 32, (1 << 30,), (30,), 0, 0), "scale32 is not allowed"),
        (Case(16, 16, (1 << 30,), (30,), 5, 0, input_unsigned=True), "0 or 32768"),
    ],
)
def test_error_if_conditions_raise(case: Case, message: str) -> None:
    with pytest.raises(InterpretationError, match=message):
        interpret(case, np.array([1, 2]))


@pytest.mark.parametrize(
    ("case", "message"),
    [
        (Case(8, 8, (-5,), (30,), 0, 0), "multiplier >= 0"),
        (Case(8, 8, (1 << 30,), (1,), 0, 0), "2 <= shift <= 62"),
        (Case(8, 8, (1 << 30,), (63,), 0, 0), "2 <= shift <= 62"),
        (Case(32, 32, (1 << 30,), (20,), 0, 0), "value"),
    ],
)
def test_require_violations_raise(case: Case, message: str) -> None:
    with pytest.raises(InterpretationError, match=message):
        interpret(case, np.array([1 << 20, 2]))


# ----------------------------------------------------------------------------------------
# property tests


@st.composite
def cases(draw: st.DrawFn) -> tuple[Case, np.ndarray]:
    """Random valid rescales (ERROR_IF-free, REQUIRE-satisfying) and input bit patterns."""
    scale32 = draw(st.booleans())
    in_width = draw(st.sampled_from([8, 16, 32] if scale32 else [8, 16, 32, 48]))
    out_width = draw(st.sampled_from([8, 16, 32]))
    input_unsigned = in_width in (8, 16) and out_width != 32 and draw(st.booleans())
    output_unsigned = (
        not input_unsigned
        and in_width in (8, 16)
        and out_width != 32
        and draw(st.booleans())
    )
    rounding_mode = draw(
        st.sampled_from(
            ["SINGLE_ROUND", "INEXACT_ROUND", "DOUBLE_ROUND"]
            if scale32
            else ["SINGLE_ROUND", "INEXACT_ROUND"]
        )
    )

    def zero_point(width: int, unsigned: bool) -> int:
        if width == 8:
            return draw(st.integers(0, 255) if unsigned else st.integers(-128, 127))
        if width == 16 and unsigned:
            return draw(st.sampled_from([0, 32768]))
        return 0

    input_zp = zero_point(in_width, input_unsigned)
    output_zp = zero_point(out_width, output_unsigned)
    rank = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank)))
    per_channel = draw(st.booleans())
    channels = shape[-1] if per_channel else 1
    multiplier_max = (1 << 31) - 1 if scale32 else (1 << 15) - 1
    multiplier = tuple(
        draw(
            st.lists(
                st.integers(0, multiplier_max), min_size=channels, max_size=channels
            )
        )
    )
    # shift large enough that |value| < 2^(shift-1) and results stay in int32
    in_bits = 48 if in_width == 48 else in_width + 1
    min_shift = max(2, in_bits + (31 if scale32 else 15) - 30)
    shift = tuple(
        draw(st.lists(st.integers(min_shift, 62), min_size=channels, max_size=channels))
    )
    case = Case(
        in_width,
        out_width,
        multiplier,
        shift,
        input_zp,
        output_zp,
        scale32,
        rounding_mode,
        per_channel,
        input_unsigned,
        output_unsigned,
    )
    size = int(np.prod(shape))
    low, high = -(1 << (in_width - 1)), (1 << (in_width - 1)) - 1
    if in_width == 32:  # the zero point is 0; keep `value` inside int32
        low, high = -(1 << 31), (1 << 31) - 1
    if in_width == 48:
        low, high = -(1 << 46), (1 << 46) - 1
    data = draw(st.lists(st.integers(low, high), min_size=size, max_size=size))
    return case, np.array(data, dtype=np.int64).reshape(shape)


@settings(max_examples=150, deadline=None)
@given(cases())
def test_interpreter_matches_scalar_reference(drawn: tuple[Case, np.ndarray]) -> None:
    case, bits = drawn
    check(case, bits)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(-128, 127), min_size=1, max_size=16),
    st.integers(1 << 30, (1 << 31) - 1),
    st.integers(32, 45),
)
def test_double_round_negative_values(
    values: list[int], multiplier: int, shift: int
) -> None:
    """Negative i8 values with shifts above 31, where DOUBLE_ROUND's correction applies."""
    bits = np.array(values)
    case = Case(8, 32, (multiplier,), (shift,), 0, 0, rounding_mode="DOUBLE_ROUND")
    check(case, bits)
