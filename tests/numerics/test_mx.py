"""Golden tests of `xquant.numerics.mx` against an independent transcription of OCP MX v1.0.

The reference below works one block at a time in Python floats: floor(log2)
from `math.frexp`, the scale as an exact power of two, the clamp to the max
normal, then the element rounding by xDSL's `encode_bits` (its own RNE
implementation, independent of ml_dtypes) -- never by calling the code under
test. Hand-written literal cases pin the famous edge cases.
"""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import (
    Float4E2M1FNType,
    IntegerType,
    Signedness,
    bf16,
    f4E2M1FN,
    f6E2M3FN,
    f6E3M2FN,
    f8E4M3FN,
    f8E5M2,
    f8E8M0FNU,
    f16,
    f32,
    i8,
)
from xdsl.ir import Attribute

from xquant.numerics import mx

I2, I4, I3 = IntegerType(2), IntegerType(4), IntegerType(3)

# (type, emax, max normal) straight from the OCP MX v1.0 format table.
SPEC: dict[str, tuple[Attribute, int, float]] = {
    "e4m3": (f8E4M3FN, 8, 448.0),
    "e5m2": (f8E5M2, 15, 57344.0),
    "e2m3": (f6E2M3FN, 2, 7.5),
    "e3m2": (f6E3M2FN, 4, 28.0),
    "e2m1": (f4E2M1FN, 2, 6.0),
    "int8": (i8, 0, 127 / 64),
}
FP_FORMATS = ["e4m3", "e5m2", "e2m3", "e3m2", "e2m1"]


# ---------------------------------------------------------------------------------------
# the independent reference


def ref_shared_exp(
    block: list[float], emax: int, max_normal: float, algorithm: str
) -> int | None:
    """The clamped shared exponent, or None for a block with NaN/Inf (scale 0xFF)."""
    if any(math.isnan(v) or math.isinf(v) for v in block):
        return None
    amax = max(abs(v) for v in block)
    if amax == 0:
        return -127
    if algorithm == "floor":
        _, exponent = math.frexp(amax)
        e = (exponent - 1) - emax
    else:  # rceil: the smallest e with amax <= max_normal * 2^e, exactly
        e = -400
        while Fraction(amax) > Fraction(max_normal) * Fraction(2) ** e:
            e += 1
    return max(-127, min(127, e))


def ref_element_code(value: float, name: str) -> int:
    """Round an exactly scaled value to the element format (clamp first), as a bit pattern."""
    elem, _, max_normal = SPEC[name]
    if name == "int8":
        fixed = max(-127.0, min(127.0, value * 64))
        return round(fixed) & 0xFF  # Python's round is half to even
    clamped = max(-max_normal, min(max_normal, value))
    return elem.encode_bits(clamped)  # pyright: ignore[reportAttributeAccessIssue]


def ref_quantize_blocks(
    x: np.ndarray, scale_shape: tuple[int, ...], name: str, algorithm: str = "floor"
):
    """Reference scale bytes and element codes for every block of `x` (float32, any rank)."""
    _, emax, max_normal = SPEC[name]
    blocks = tuple(n // s for n, s in zip(x.shape, scale_shape))
    scales = np.zeros(scale_shape, dtype=np.int64)
    codes = np.zeros(x.shape, dtype=np.int64)
    for index in np.ndindex(*scale_shape):
        region = tuple(slice(i * b, (i + 1) * b) for i, b in zip(index, blocks))
        block = [float(v) for v in x[region].reshape(-1)]
        e = ref_shared_exp(block, emax, max_normal, algorithm)
        if e is None:
            scales[index] = 0xFF
            codes[region] = 0  # the dialect's rule: elements of a NaN block are +0
            continue
        scales[index] = e + 127
        scaled = [
            math.ldexp(v, -e) for v in block
        ]  # exact in binary64, keeps the sign of zero
        codes[region] = np.array([ref_element_code(v, name) for v in scaled]).reshape(
            x[region].shape
        )
    return scales, codes


def our_codes(name: str, data: np.ndarray) -> np.ndarray:
    fmt = mx.element_format(SPEC[name][0])
    return mx.element_codes(data, fmt).astype(np.int64)


def check_against_reference(
    x: np.ndarray, scale_shape: tuple[int, ...], name: str, algorithm: str = "floor"
) -> None:
    x = x.astype(np.float32)
    bytes_, data = mx.quantize(x, scale_shape, SPEC[name][0], mx.Algorithm(algorithm))
    ref_scales, ref_codes = ref_quantize_blocks(x, scale_shape, name, algorithm)
    np.testing.assert_array_equal(bytes_.astype(np.int64), ref_scales)
    np.testing.assert_array_equal(our_codes(name, data), ref_codes)


# ---------------------------------------------------------------------------------------
# quantize: reference comparisons


def _random_blocks(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Values over many binades per block, with per-block magnitudes from 2^-30 to 2^30."""
    mantissas = rng.uniform(-2, 2, size=shape)
    exponents = rng.integers(-12, 12, size=shape)
    block_gain = 2.0 ** rng.integers(-30, 30, size=(shape[0], 1))
    return (mantissas * 2.0**exponents * block_gain).astype(np.float32)


@pytest.mark.parametrize("algorithm", ["floor", "rceil"])
@pytest.mark.parametrize("name", list(SPEC))
def test_ordinary_blocks_match_reference(name: str, algorithm: str) -> None:
    rng = np.random.default_rng(hash((name, algorithm)) % 2**32)
    x = _random_blocks(rng, (16, 32))
    check_against_reference(x, (16, 1), name, algorithm)


@pytest.mark.parametrize("name", list(SPEC))
def test_2d_tiles_256x256_blocks(name: str) -> None:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((512, 512)).astype(np.float32) * np.float32(3.0)
    x[:256, 256:] *= np.float32(2.0**-20)  # one tile with a very different scale
    check_against_reference(x, (2, 2), name)


@pytest.mark.parametrize("name", ["e4m3", "e2m3", "int8"])
def test_column_blocks(name: str) -> None:
    """The note's `<32x1>` scale over `<1024x1024>`, shrunk: each scale covers 32 rows of a column slab."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal((128, 64)).astype(np.float32)
    check_against_reference(x, (4, 1), name)
    check_against_reference(x, (128, 2), name)


@pytest.mark.parametrize("name", list(SPEC))
def test_scale_clamps_at_minus_127(name: str) -> None:
    # amax 2^-140 (an f32 subnormal) wants shared_exp -140 - emax; it clamps to -127 (byte 0).
    x = np.array([2.0**-140, -(2.0**-141), 2.0**-149, 0.0] * 8, dtype=np.float32)
    bytes_, _ = mx.quantize(x, (1,), SPEC[name][0])
    assert int(bytes_[0]) == 0
    check_against_reference(x, (1,), name)


@pytest.mark.parametrize("name", list(SPEC))
def test_huge_blocks_and_flt_max(name: str) -> None:
    x = np.array(
        [np.finfo(np.float32).max, 3.0e38, -1.0, 2.0**127] * 8, dtype=np.float32
    )
    check_against_reference(x, (1,), name)
    check_against_reference(x, (1,), name, "rceil")


@pytest.mark.parametrize("name", list(SPEC))
def test_all_zero_block(name: str) -> None:
    x = np.zeros(64, dtype=np.float32)
    x[32] = -0.0
    x[40:] = 1.5
    bytes_, data = mx.quantize(x, (2,), SPEC[name][0])
    assert int(bytes_[0]) == 0x00
    assert not np.any(our_codes(name, data[:32]))
    check_against_reference(x, (2,), name)


@pytest.mark.parametrize("name", list(SPEC))
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nan_and_inf_make_the_scale_nan(name: str, bad: float) -> None:
    x = np.linspace(-3, 3, 64, dtype=np.float32)
    x[5] = bad
    bytes_, data = mx.quantize(x, (2,), SPEC[name][0])
    assert int(bytes_[0]) == 0xFF
    assert int(bytes_[1]) != 0xFF
    assert not np.any(our_codes(name, data[:32]))
    check_against_reference(x, (2,), name)
    values = mx.dequantize(
        mx.scale_from_bytes(bytes_, f8E8M0FNU), f8E8M0FNU, data, SPEC[name][0]
    )
    assert np.isnan(values[:32]).all()
    assert np.isfinite(values[32:]).all()


@pytest.mark.parametrize("name", list(SPEC))
def test_every_binade_and_every_code(name: str) -> None:
    """Scaled values at every representable code and half-way between neighbours (ties)."""
    elem, emax, _ = SPEC[name]
    fmt = mx.element_format(elem)
    if fmt.is_int:
        codes = np.arange(-127, 128, dtype=np.int8)
        values = codes.astype(np.float64) / 64
    else:
        all_codes = np.arange(1 << fmt.bits, dtype=np.uint8)
        values = mx.elements_from_codes(all_codes, fmt).astype(np.float64)
        values = np.unique(values[np.isfinite(values)])
    mids = (values[:-1] + values[1:]) / 2
    x = np.concatenate([values, mids])
    # blocks of 31 values plus the format's max normal, so every scale is 2^0
    pad = (-len(x)) % 31
    x = np.concatenate([x, np.zeros(pad)]).reshape(-1, 31)
    x = (
        np.concatenate([np.full((len(x), 1), fmt.max_normal), x], axis=1)
        .reshape(-1)
        .astype(np.float32)
    )
    bytes_, _ = mx.quantize(x, (len(x) // 32,), elem)
    assert set(np.unique(bytes_)) <= {127}, (
        "every block has amax in [2^emax, 2^(emax+1))"
    )
    check_against_reference(x, (len(x) // 32,), name)
    del emax
    # values at every code of the element: the elements reproduce them exactly
    _, data = mx.quantize(x, (len(x) // 32,), elem)
    exact = np.isin(x, values.astype(np.float32))
    np.testing.assert_array_equal(mx.decode_elements(data, fmt)[exact], x[exact])


# ---------------------------------------------------------------------------------------
# quantize: literal cases from the spec and from known confusions


def _one_block(
    values: list[float], elem: Attribute, algorithm: str = "floor"
) -> tuple[int, list[float]]:
    x = np.array(values + [0.0] * (32 - len(values)), dtype=np.float32)
    bytes_, data = mx.quantize(x, (1,), elem, mx.Algorithm(algorithm))
    fmt = mx.element_format(elem)
    decoded = mx.decode_elements(data, fmt)
    return int(bytes_[0]), [float(v) for v in decoded[: len(values)]]


def test_e2m1_ties_round_half_to_even() -> None:
    # amax 6 -> floor(log2 6) - 2 = 0: scale 2^0; RNE ties go to the even code.
    byte, elements = _one_block([6.0, 1.25, 2.5, 5.0, 0.25, 0.75, -1.75, 3.5], f4E2M1FN)
    assert byte == 127
    assert elements == [6.0, 1.0, 2.0, 4.0, 0.0, 1.0, -2.0, 4.0]


def test_e2m1_block_max_saturates_under_floor_but_not_rceil() -> None:
    assert _one_block([7.0, 1.0], f4E2M1FN) == (127, [6.0, 1.0])
    byte, elements = _one_block([7.0, 1.0], f4E2M1FN, "rceil")
    assert byte == 128  # X = 2: 7 / 2 = 3.5 -> 4 (tie to even), 0.5
    assert elements == [4.0, 0.5]


def test_e4m3_957_is_quantized_as_896() -> None:
    # microxcaling#4: amax 960 -> X = 2, 957 / 2 = 478.5 -> clamped to 448 (a plain cast would give NaN).
    byte, elements = _one_block([957.0, 960.0, 1.0], f8E4M3FN)
    assert byte == 128
    assert elements == [448.0, 448.0, 0.5]


def test_e4m3_subnormal_results() -> None:
    # scale 2^0 (amax 448): 2^-9 is the smallest subnormal, 2^-10 ties to 0, 3*2^-10 ties up to 2^-8.
    byte, elements = _one_block(
        [448.0, 2.0**-9, 2.0**-10, 3 * 2.0**-10, 2.0**-7 + 2.0**-9], f8E4M3FN
    )
    assert byte == 127
    assert elements == [448.0, 2.0**-9, 0.0, 2.0**-8, 2.0**-7 + 2.0**-9]


def test_mxint8_literals() -> None:
    # amax 1.5 -> X = 2^0; elements rne(v * 64) / 64, clamped to +-127/64.
    byte, elements = _one_block([1.5, 0.5 / 64, 1.5 / 64, -2.5 / 64, 1.99], i8)
    assert byte == 127
    assert elements == [1.5, 0.0, 2 / 64, -2 / 64, 127 / 64]


def test_rceil_boundary_is_exact() -> None:
    # E4M3: amax exactly 448 * 2^k keeps X = 2^k; one ulp more needs 2^(k+1).
    assert _one_block([448.0], f8E4M3FN, "rceil")[0] == 127
    above = float(np.nextafter(np.float32(448.0), np.float32(1000)))
    assert _one_block([above], f8E4M3FN, "rceil")[0] == 128


# ---------------------------------------------------------------------------------------
# dequantize


@pytest.mark.parametrize("name", list(SPEC))
@pytest.mark.filterwarnings("ignore:overflow encountered")
def test_dequantize_matches_spec_formula(name: str) -> None:
    elem = SPEC[name][0]
    fmt = mx.element_format(elem)
    rng = np.random.default_rng(3)
    codes = rng.integers(0, 1 << fmt.bits, size=(4, 64))
    data = mx.elements_from_codes(codes, fmt)
    scale_bytes = np.array([[0, 1, 127, 200], [254, 255, 100, 60]], dtype=np.uint8)
    for scale_type in (f8E8M0FNU, i8, IntegerType(8, Signedness.UNSIGNED)):
        scale = mx.scale_from_bytes(
            scale_bytes.reshape(2, 4)[:, :2].reshape(2, 2), scale_type
        )
        got = mx.dequantize(scale, scale_type, data, elem)
        for (r, c), value in np.ndenumerate(got):
            b = int(scale_bytes.reshape(2, 4)[:, :2].reshape(2, 2)[r // 2, c // 32])
            if name == "int8":
                element = float(np.int8(data[r, c])) / 64
            else:
                element = float(elem.decode_bits(int(codes[r, c])))  # pyright: ignore[reportAttributeAccessIssue]
            expected = (
                math.nan if b == 0xFF else float(np.float32(element * 2.0 ** (b - 127)))
            )  # may overflow to inf
            if math.isnan(expected):
                assert math.isnan(value)
            else:
                assert value == expected or (
                    math.isnan(value) and math.isnan(element)
                ), (r, c, b, element)


def test_dequantize_scale_zero_byte_is_2_pow_minus_127_not_zero() -> None:
    data = np.array([1.0, 6.0], dtype=ml_dtypes.float4_e2m1fn)
    got = mx.dequantize(
        np.array([0], dtype=np.uint8).view(ml_dtypes.float8_e8m0fnu),
        f8E8M0FNU,
        data,
        f4E2M1FN,
    )
    assert got.tolist() == [2.0**-127, 6 * 2.0**-127]


def test_dequantize_float_scale_is_a_plain_multiplier_and_result_type_rounds_once() -> (
    None
):
    data = np.array([[1.0, 3.0], [0.5, -2.0]], dtype=ml_dtypes.bfloat16)
    scale = np.array([[0.1]], dtype=np.float16)
    got = mx.dequantize(scale, f16, data, bf16, np.float16)
    expected = (data.astype(np.float32) * np.float32(np.float16(0.1))).astype(
        np.float16
    )
    np.testing.assert_array_equal(got, expected)


def test_round_trip_quantize_dequantize_is_close() -> None:
    rng = np.random.default_rng(5)
    x = rng.standard_normal((64, 64)).astype(np.float32)
    for elem, tolerance in (
        (f8E4M3FN, 2**-3),
        (f6E2M3FN, 2**-2),
        (f4E2M1FN, 0.5),
        (i8, 2**-5),
    ):
        bytes_, data = mx.quantize(x, (2, 64), elem)
        y = mx.dequantize(mx.scale_from_bytes(bytes_, f8E8M0FNU), f8E8M0FNU, data, elem)
        block_max = np.abs(x).reshape(2, 32, 64, 1).max(axis=(1, 3), keepdims=True)
        error = np.abs(y - x).reshape(2, 32, 64, 1) / block_max
        assert float(error.max()) <= tolerance, elem


# ---------------------------------------------------------------------------------------
# codes and split storage


@pytest.mark.parametrize("name", FP_FORMATS)
def test_every_code_round_trips(name: str) -> None:
    fmt = mx.element_format(SPEC[name][0])
    codes = np.arange(1 << fmt.bits, dtype=np.uint8)
    elements = mx.elements_from_codes(codes, fmt)
    np.testing.assert_array_equal(mx.element_codes(elements, fmt), codes)
    for code in codes:
        expected = SPEC[name][0].decode_bits(int(code))  # pyright: ignore[reportAttributeAccessIssue]
        got = float(elements[code])
        assert got == expected or (math.isnan(got) and math.isnan(expected))


def test_fp6_split_into_i2_high_and_i4_low() -> None:
    fmt = mx.element_format(f6E2M3FN)
    codes = np.arange(64, dtype=np.uint8)
    hi, lo = mx.split_storage(codes, [I2, I4])
    assert hi.dtype == np.int8
    assert lo.dtype == np.int8
    # 0b110101: high bits 0b11 (held sign-extended: -1), low bits 0b0101.
    assert (int(hi[0b110101]), int(lo[0b110101])) == (-1, 5)
    np.testing.assert_array_equal(mx.join_storage([hi, lo], [I2, I4]), codes)
    data = mx.elements_from_codes(mx.join_storage([hi, lo], [I2, I4]), fmt)
    np.testing.assert_array_equal(mx.element_codes(data, fmt), codes)


def test_three_way_and_unsigned_split() -> None:
    codes = np.arange(256, dtype=np.uint8)
    u3 = IntegerType(3, Signedness.UNSIGNED)
    parts = mx.split_storage(codes, [I3, u3, IntegerType(2)])
    assert parts[1].dtype == np.uint8
    assert int(parts[1].max()) == 7
    np.testing.assert_array_equal(
        mx.join_storage(parts, [I3, u3, IntegerType(2)]), codes
    )


def test_element_format_table() -> None:
    for name, (elem, emax, max_normal) in SPEC.items():
        fmt = mx.element_format(elem)
        assert (fmt.emax, fmt.max_normal) == (emax, max_normal), name
    assert isinstance(f4E2M1FN, Float4E2M1FNType)
    assert mx.element_format(f32).emax == 127
    with pytest.raises(ValueError, match="not an MX element type"):
        mx.element_format(f8E8M0FNU)
    with pytest.raises(ValueError, match="MXINT8 is i8"):
        mx.element_format(IntegerType(4))


# ---------------------------------------------------------------------------------------
# NVFP4: the edge cases of the recipe, with hand-computed expectations (the bulk of the
# checks is the torchao golden vectors in tests/dialects/mx_tensor/test_nvfp4.py)


def _nvfp4_block(values: list[float], g: float | None = None):
    x = np.zeros((1, 16), np.float32)
    x[0, : len(values)] = values
    scale, elements = mx.quantize_nvfp4(x, (1, 1), g)
    return int(scale.view(np.uint8)[0, 0]), elements.astype(np.float32)[0]


def test_nvfp4_all_zero_block_gets_the_smallest_normal_e4m3_scale() -> None:
    byte, elements = _nvfp4_block([])
    assert byte == 0x08  # 2^-6: exponent field 1, mantissa 0
    assert not elements.any()


def test_nvfp4_amax_exactly_six_times_an_e4m3_value() -> None:
    byte, elements = _nvfp4_block([7.5, -3.75, 1.25])  # amax 7.5 = 6 * 1.25
    assert byte == 0x3A  # 1.25 = 2^0 * (1 + 2/8): field 7, mantissa 2
    np.testing.assert_array_equal(elements[:3], [6.0, -3.0, 1.0])


def test_nvfp4_scale_saturates_at_448_and_tiny_scales_clamp_up() -> None:
    byte, elements = _nvfp4_block([6 * 448 * 2, 6 * 448])
    assert byte == 0x7E
    np.testing.assert_array_equal(elements[:2], [6.0, 6.0])
    byte, _ = _nvfp4_block([6 * 2.0**-8])  # amax / 6 = 2^-8 would be an E4M3 subnormal
    assert byte == 0x08


def test_nvfp4_nan_and_inf_blocks() -> None:
    byte, elements = _nvfp4_block([1.0, np.nan, 3.0])
    assert byte == 0x7F
    assert not elements.view(np.uint32).any()  # +0 everywhere
    byte, elements = _nvfp4_block([-np.inf, 3.0])
    assert byte == 0x7E
    assert elements[0] == -6.0 and elements[1] == 0.0  # 3 / 448 rounds to 0


def test_nvfp4_tensor_scale_and_two_level_dequantize() -> None:
    g = mx.nvfp4_tensor_scale(2688.0)
    assert g == np.float32(1.0)
    g = np.float32(0.5)
    byte, elements = _nvfp4_block([6.0, 1.5], float(g))  # 6 / 6 / 0.5 = 2
    assert byte == 0x40  # 2.0: field 8
    np.testing.assert_array_equal(elements[:2], [6.0, 1.5])
    scale = np.array([[0x40]], np.uint8).view(ml_dtypes.float8_e4m3fn)
    data = np.array([[6.0] + [0.0] * 15], np.float32).astype(ml_dtypes.float4_e2m1fn)
    values = mx.dequantize(scale, f8E4M3FN, data, f4E2M1FN, np.float32, g)
    assert values[0, 0] == 6.0  # 6 * (0.5 * 2)
