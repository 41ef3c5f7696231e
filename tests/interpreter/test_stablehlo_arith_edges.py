"""StableHLO arithmetic at its edges, against the spec written out here: IEEE
maximum/minimum on signed zeros, remainder (dividend's sign; integer x % 0 = x
and MIN % -1 = 0 through `divide`'s XLA rules), shifts of 64-bit integers."""

from __future__ import annotations

import math

import numpy as np
import pytest

import xquant


def _run(body: str, t: str, *args: np.ndarray) -> tuple[np.ndarray, ...]:
    names = ", ".join(f"%a{i}: {t}" for i in range(len(args)))
    text = f"func.func @main({names}) -> {t} {{\n  {body}\n  return %r : {t}\n}}"
    return xquant.run(text, "main", *args)


@pytest.mark.parametrize(("op", "is_max"), [("maximum", True), ("minimum", False)])
@pytest.mark.parametrize(
    ("t", "dtype"), [("f32", np.float32), ("f16", np.float16), ("f64", np.float64)]
)
def test_max_min_order_signed_zeros(op: str, is_max: bool, t: str, dtype: type) -> None:
    a = np.array([0.0, -0.0, -0.0, 0.0, math.nan, 1.0], dtype)
    b = np.array([-0.0, 0.0, -0.0, 0.0, 1.0, math.nan], dtype)
    (got,) = _run(
        f"%r = stablehlo.{op} %a0, %a1 : tensor<6x{t}>", f"tensor<6x{t}>", a, b
    )
    zero_sign = [False, False, True, False] if is_max else [True, True, True, False]
    np.testing.assert_array_equal(np.signbit(got[:4]), zero_sign)
    assert np.isnan(got[4]) and np.isnan(got[5])


def test_float_remainder() -> None:
    a = np.array([7.5, -7.5, 7.5, 1.0, math.inf, 0.1], np.float32)
    b = np.array([2.0, 2.0, -2.0, 0.0, 1.0, 3.0], np.float32)
    (got,) = _run(
        "%r = stablehlo.remainder %a0, %a1 : tensor<6xf32>", "tensor<6xf32>", a, b
    )
    want = [
        math.fmod(float(x), float(y)) if y != 0 and math.isfinite(x) else math.nan
        for x, y in zip(a, b)
    ]
    np.testing.assert_array_equal(got, np.array(want, np.float32))


@pytest.mark.parametrize(
    ("t", "dtype"), [("i32", np.int32), ("i8", np.int8), ("i64", np.int64)]
)
def test_integer_remainder(t: str, dtype: type) -> None:
    info = np.iinfo(dtype)
    a = np.array([7, -7, 7, -7, 5, int(info.min), 9], dtype)
    b = np.array([3, 3, -3, -3, 0, -1, 1], dtype)
    (got,) = _run(
        f"%r = stablehlo.remainder %a0, %a1 : tensor<7x{t}>", f"tensor<7x{t}>", a, b
    )
    # truncated division: the sign of the dividend; x % 0 = x (divide gives -1); MIN % -1 = 0
    np.testing.assert_array_equal(got, np.array([1, -1, 1, -1, 5, 0, 0], dtype))


def test_shifts_of_64_bit_integers() -> None:
    a = np.array([1, -8, -(2**63), 7, -7, 1], np.int64)
    b = np.array([64, 1, -1, 0, 3, 63], np.int64)
    text = (
        "func.func @main(%a0: tensor<6xi64>, %a1: tensor<6xi64>) -> (tensor<6xi64>, tensor<6xi64>, tensor<6xi64>) {\n"
        "  %l = stablehlo.shift_left %a0, %a1 : tensor<6xi64>\n"
        "  %g = stablehlo.shift_right_logical %a0, %a1 : tensor<6xi64>\n"
        "  %s = stablehlo.shift_right_arithmetic %a0, %a1 : tensor<6xi64>\n"
        "  return %l, %g, %s : tensor<6xi64>, tensor<6xi64>, tensor<6xi64>\n}"
    )
    left, logical, arithmetic = xquant.run(text, "main", a, b)

    def wrap(v: int) -> int:
        return (v + 2**63) % 2**64 - 2**63

    def amount(s: int) -> int:
        return s % 2**64  # read unsigned

    want_left = [
        wrap(int(x) << amount(int(s))) if amount(int(s)) < 64 else 0
        for x, s in zip(a, b)
    ]
    want_logical = [
        wrap((int(x) % 2**64) >> amount(int(s))) if amount(int(s)) < 64 else 0
        for x, s in zip(a, b)
    ]
    want_arith = [
        int(x) >> amount(int(s)) if amount(int(s)) < 64 else (-1 if x < 0 else 0)
        for x, s in zip(a, b)
    ]
    np.testing.assert_array_equal(left, np.array(want_left, np.int64))
    np.testing.assert_array_equal(logical, np.array(want_logical, np.int64))
    np.testing.assert_array_equal(arithmetic, np.array(want_arith, np.int64))
