"""The numeric contract (xquant.numerics.uniform) against hand-computed values.

Every expected value below is written out by hand from the formula
`q = rne(clamp(x / scale + zp, qmin, qmax))`, `x = (q - zp) * scale`.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xdsl.parser import Parser

import xquant
from xquant.dialects.quant.types import UniformQuantizedType
from xquant.numerics import uniform


def qtype(text: str) -> UniformQuantizedType:
    t = Parser(xquant.make_context(), text).parse_attribute()
    assert isinstance(t, UniformQuantizedType)
    return t


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        (0.0, 0),
        (0.25, 0),  # 0.5 -> tie -> 0 (even)
        (0.75, 2),  # 1.5 -> tie -> 2
        (1.25, 2),  # 2.5 -> tie -> 2
        (-0.25, 0),  # -0.5 -> tie -> -0
        (-0.75, -2),  # -1.5 -> -2
        (63.5, 127),
        (63.75, 127),  # 127.5 clamps to 127 before rounding
        (1000.0, 127),
        (-64.0, -128),
        (-1000.0, -128),
        (float("inf"), 127),
        (float("-inf"), -128),
        (float("nan"), 0),
    ],
)
def test_per_layer_ties_clamp_specials(x: float, expected: int) -> None:
    t = qtype("!quant.uniform<i8:f32, 0.5>")
    assert uniform.quantize(np.array([x], dtype=np.float32), t).tolist() == [expected]


@pytest.mark.parametrize(
    "storage", ["i8", "u8", "i16", "u16", "i32", "u4", "i4<-7:7>", "u8<1:200>"]
)
def test_nan_quantizes_to_storage_zero(storage: str) -> None:
    """Storage 0 for every width and signedness, a zero point notwithstanding (x86
    casts NaN to INT_MIN, whose low byte happens to be 0: i32 and u16 tell)."""
    t = qtype(f"!quant.uniform<{storage}:f32, 0.5:3>")
    x = np.array([np.nan, -np.nan, 1.0], dtype=np.float32)
    assert uniform.quantize(x, t).tolist()[:2] == [0, 0]


@pytest.mark.parametrize("x", [1.3, float("nan"), -1e9])
def test_rank0_values(x: float) -> None:
    """A scalar (rank-0) value quantizes and dequantizes like a one-element tensor."""
    t = qtype("!quant.uniform<i8:f32, 0.5:3>")
    got = uniform.quantize(np.array(x, dtype=np.float32), t)
    one = uniform.quantize(np.array([x], dtype=np.float32), t)
    assert got.shape == () and got.tolist() == one.tolist()[0]
    assert uniform.dequantize(got, t).tolist() == uniform.dequantize(one, t).tolist()[0]


def test_zero_point_is_added_before_rounding() -> None:
    # x / s = 0.5, + zp 3 = 3.5 -> 4 (even); ONNX would round 0.5 -> 0 first and give 3.
    t = qtype("!quant.uniform<i8:f32, 1.0:3>")
    assert uniform.quantize(
        np.array([0.5, 1.5, -0.5], dtype=np.float32), t
    ).tolist() == [4, 4, 2]


def test_narrow_bounds_and_unsigned() -> None:
    t = qtype("!quant.uniform<u4<1:14>:f32, 2.0:8>")
    x = np.array([-100.0, -15.0, -14.0, 0.0, 3.0, 11.0, 12.0, 100.0], dtype=np.float32)
    # x/2 + 8 = [-42, 0.5, 1, 8, 9.5, 13.5, 14, 58]
    assert uniform.quantize(x, t).tolist() == [1, 1, 1, 8, 10, 14, 14, 14]
    assert uniform.quantize(x, t).dtype == np.uint8
    q = np.array([1, 8, 14], dtype=np.uint8)
    assert uniform.dequantize(q, t).tolist() == [-14.0, 0.0, 12.0]


def test_per_axis() -> None:
    t = qtype("!quant.uniform<i8:f32:1, {0.5:1,2.0:-2,0.1}>")
    x = np.array([[1.0, 1.0, 1.0], [-3.0, 9.0, 12.75]], dtype=np.float32)
    # column 0: x/0.5+1, column 1: x/2-2, column 2: x/0.1 (f32 division)
    c2 = [min(127, round(float(np.float32(v) / np.float32(0.1)))) for v in (1.0, 12.75)]
    assert uniform.quantize(x, t).tolist() == [[3, -2, c2[0]], [-5, 2, c2[1]]]
    q = np.array([[3, -2, 10], [-5, 2, 127]], dtype=np.int8)
    expected = [
        [1.0, 0.0, float(np.float32(10) * np.float32(0.1))],
        [-3.0, 8.0, float(np.float32(127) * np.float32(0.1))],
    ]
    assert uniform.dequantize(q, t).tolist() == expected


def test_sub_channel_blocks() -> None:
    t = qtype("!quant.uniform<i8:f32:{0:1, 1:2}, {{1.0:1, 2.0}, {0.5, 4.0:-3}}>")
    x = np.array([[1.0, 2.0, 4.0, 5.0], [1.0, -1.0, 8.0, 2.0]], dtype=np.float32)
    # row 0: [1+1, 2+1, 4/2, 5/2=2.5->2]; row 1: [2, -2, 8/4-3, 2/4-3=-2.5->-2]
    assert uniform.quantize(x, t).tolist() == [[2, 3, 2, 2], [2, -2, -1, -2]]
    assert uniform.dequantize(
        np.array([[2, 3, 2, 2], [2, -2, -1, -2]]), t
    ).tolist() == [
        [1.0, 2.0, 4.0, 4.0],
        [1.0, -1.0, 8.0, 4.0],
    ]


def test_block_shape_mismatch_is_an_error_not_a_wrong_number() -> None:
    t = qtype("!quant.uniform<i8:f32:{0:1, 1:2}, {{1.0, 2.0}, {0.5, 4.0}}>")
    with pytest.raises(ValueError, match="dimension 1 of size 6"):
        uniform.quantize(np.zeros((2, 6), dtype=np.float32), t)


def test_f16_math_happens_in_f16() -> None:
    t = qtype("!quant.uniform<i8:f16, 0.1>")
    x = np.array([1.0, 2.5, -7.3], dtype=np.float16)
    s = np.float16(0.1)
    expected = [int(np.rint(np.float16(v) / s)) for v in x]
    assert uniform.quantize(x, t).tolist() == expected
    assert uniform.dequantize(np.array(expected, dtype=np.int8), t).dtype == np.float16


def test_bf16_expressed_type() -> None:
    t = qtype("!quant.uniform<i8:bf16, 0.5:1>")
    x = np.array([1.0, -2.25, 300.0], dtype=ml_dtypes.bfloat16)
    # 1/0.5+1 = 3; -2.25/0.5+1 = -3.5 -> -4 (even); 300 clamps
    assert uniform.quantize(x, t).tolist() == [3, -4, 127]


def test_i32_in_f32_clamps_without_overflow() -> None:
    # 2**31 - 1 is not representable in f32; the bound rounds toward zero to 2147483520.
    t = qtype("!quant.uniform<i32:f32, 1.0>")
    q = uniform.quantize(np.array([3e9, -3e9, 5.5], dtype=np.float32), t)
    assert q.dtype == np.int32
    assert q.tolist() == [2147483520, -2147483648, 6]


def test_requantize() -> None:
    src = qtype("!quant.uniform<i8:f32, 0.5:10>")
    dst = qtype("!quant.uniform<i16:f32, 0.125:-3>")
    q = np.array([-128, 10, 11, 127], dtype=np.int8)
    # values: (-138, 0, 1, 117) * 0.5 = -69, 0, 0.5, 58.5 -> /0.125 - 3
    assert uniform.requantize(q, src, dst).tolist() == [-555, -3, 1, 465]


# ----- dequantize subtracts the zero point in integers (StableHLO spec, ONNX)


def spec_dequantize(
    q: np.ndarray, zero_point: int, scale: float, dtype: type
) -> np.ndarray:
    """`convert(q - zp) * scale`: the difference in int64, one rounding, then the product in `dtype`."""
    centred = q.astype(np.int64) - zero_point
    as_float = centred.astype(np.float64)  # exact below 2^53
    if (
        dtype == ml_dtypes.bfloat16
    ):  # ml_dtypes rounds f64 through f32: keep that step exact
        assert np.abs(centred).max() < 2**24
        as_float = as_float.astype(np.float32)
    return as_float.astype(dtype) * dtype(scale)  # numpy rounds f64 -> f32/f16 once


# (type, storage values, the spec's results, xquant's results before the change)
SPEC_DEQUANTIZE = [
    (
        "!quant.uniform<i32:f32, 1.0:3>",
        [33554433, 123456789],
        [33554430, 123456784],
        [33554428, 123456792],
    ),
    ("!quant.uniform<i16:f16, 1.0:-3>", [-32762], [-32752], [-32768]),
    ("!quant.uniform<i16:bf16, 1.0:-3>", [-32706], [-32640], [-32768]),
]


@pytest.mark.parametrize(("text", "stored", "spec", "float_first"), SPEC_DEQUANTIZE)
def test_dequantize_subtracts_zero_point_in_integers(
    text: str, stored: list[int], spec: list[int], float_first: list[int]
) -> None:
    t = qtype(text)
    dtype = uniform.expressed_dtype(t).type
    q = np.array(stored, uniform.storage_numpy_dtype(t))
    golden = spec_dequantize(q, t.zero_point, t.scale, dtype)
    assert golden.astype(np.int64).tolist() == spec
    float_formula = (q.astype(dtype) - dtype(t.zero_point)) * dtype(t.scale)
    assert float_formula.astype(np.int64).tolist() == float_first != spec
    got = uniform.dequantize(q, t)
    assert got.dtype == dtype
    assert got.astype(np.int64).tolist() == spec


def test_dequantize_i32_beyond_f32_significand() -> None:
    # int64 difference, then float64 (exact below 2^53) -> f32 rounds once.
    t = qtype("!quant.uniform<i32:f32:0, {0.5:3, 1.0:-7}>")
    q = np.array([[33554433, -2147483648], [123456789, 2147483647]], np.int32)
    zero_points = np.array([[3], [-7]], np.int64)
    scales = np.array([[0.5], [1.0]], np.float32)
    golden = (q.astype(np.int64) - zero_points).astype(np.float64).astype(np.float32)
    np.testing.assert_array_equal(uniform.dequantize(q, t), golden * scales)
    assert golden[0, 0] == 33554430 and golden[1, 0] == 123456800


def test_dequantize_of_narrow_storage_is_unchanged() -> None:
    # Storage and zero points exact in the expressed type: the float subtraction rounded once too.
    for text in (
        "!quant.uniform<i8:f32, 0.1:-128>",
        "!quant.uniform<u8:bf16, 0.1:255>",
        "!quant.uniform<i16:f32, 0.01:1000>",
        "!quant.uniform<u4:f16, 0.3:15>",
    ):
        t = qtype(text)
        dtype = uniform.expressed_dtype(t).type
        info = np.iinfo(uniform.storage_numpy_dtype(t))
        low, high = max(info.min, t.storage_min), min(info.max, t.storage_max)
        q = np.arange(low, high + 1).astype(uniform.storage_numpy_dtype(t))
        float_formula = (q.astype(dtype) - dtype(t.zero_point)) * dtype(t.scale)
        np.testing.assert_array_equal(uniform.dequantize(q, t), float_formula)
        want = spec_dequantize(q, t.zero_point, t.scale, dtype)
        np.testing.assert_array_equal(uniform.dequantize(q, t), want)


# ----- integer forms of quantized contractions and add/subtract


def test_contraction_rescale_multiplier_per_channel() -> None:
    lhs = qtype("!quant.uniform<i8:f32, 5.000000e-01:3>")
    rhs = qtype("!quant.uniform<i8:f32:1, {2.500000e-01,1.000000e+00}>")
    result = qtype("!quant.uniform<i8:f32, 2.000000e+00:-1>")
    multiplier, axis = uniform.contraction_rescale(lhs, rhs, result, 1) or (None, None)
    np.testing.assert_array_equal(multiplier, [0.0625, 0.25])
    assert axis == 1


@pytest.mark.parametrize(
    ("lhs", "rhs", "result", "rhs_axis_in_result"),
    [
        # per-axis lhs
        (
            "!quant.uniform<i8:f32:0, {1.0,2.0}>",
            "!quant.uniform<i8:f32, 1.0>",
            "!quant.uniform<i8:f32, 1.0>",
            None,
        ),
        # 32-bit storage could overflow the int64 sum
        (
            "!quant.uniform<i32:f32, 1.0>",
            "!quant.uniform<i8:f32, 1.0>",
            "!quant.uniform<i8:f32, 1.0>",
            None,
        ),
        # per-axis result on another dimension than the rhs channels
        (
            "!quant.uniform<i8:f32, 1.0>",
            "!quant.uniform<i8:f32:1, {1.0,2.0}>",
            "!quant.uniform<i8:f32:0, {1.0,2.0}>",
            1,
        ),
    ],
)
def test_contraction_rescale_does_not_apply(
    lhs: str, rhs: str, result: str, rhs_axis_in_result: int | None
) -> None:
    assert (
        uniform.contraction_rescale(
            qtype(lhs), qtype(rhs), qtype(result), rhs_axis_in_result
        )
        is None
    )


def test_rescale_accumulator_clamps_then_rounds_half_even() -> None:
    result = qtype("!quant.uniform<i8:f32, 1.0:1>")
    acc = np.array([3, 5, -5, 1000, -1000], np.int64)
    got = uniform.rescale_accumulator(acc, np.array([0.5]), None, result)
    # 1.5+1 -> 2.5 -> 2; 2.5+1 -> 3.5 -> 4; -2.5+1 -> -1.5 -> -2; clamps
    np.testing.assert_array_equal(got, [2, 4, -2, 127, -128])
    assert got.dtype == np.int8


def test_integer_add_correction() -> None:
    a = qtype("!quant.uniform<i8:f32:1, {1.0:2,5.000000e-01:-3}>")
    b = qtype("!quant.uniform<i8:f32:1, {1.0:4,5.000000e-01}>")
    out = qtype("!quant.uniform<i8:f32:1, {1.0:-1,5.000000e-01:6}>")
    add, axis = uniform.integer_add_correction(a, b, out, False) or (None, None)
    np.testing.assert_array_equal(add, [-1 - 2 - 4, 6 + 3 - 0])
    assert axis == 1
    sub, _ = uniform.integer_add_correction(a, b, out, True) or (None, None)
    np.testing.assert_array_equal(sub, [-1 - 2 + 4, 6 + 3 + 0])
    other_scale = qtype("!quant.uniform<i8:f32, 2.500000e-01>")
    assert uniform.integer_add_correction(a, other_scale, out, False) is None
