"""`arith.extf` from one-byte floats (f8/f6/f4, E8M0) to f32/f64: every bit pattern as ml_dtypes."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xquant

CASES = [
    ("f8E4M3FN", ml_dtypes.float8_e4m3fn, 256),
    ("f8E5M2", ml_dtypes.float8_e5m2, 256),
    ("f8E8M0FNU", ml_dtypes.float8_e8m0fnu, 256),
    ("f6E2M3FN", ml_dtypes.float6_e2m3fn, 64),
    ("f6E3M2FN", ml_dtypes.float6_e3m2fn, 64),
    ("f4E2M1FN", ml_dtypes.float4_e2m1fn, 16),
]


@pytest.mark.parametrize(("element", "dtype", "patterns"), CASES)
@pytest.mark.parametrize(
    ("result", "result_dtype"), [("f32", np.float32), ("f64", np.float64)]
)
def test_every_pattern(
    element: str, dtype: type, patterns: int, result: str, result_dtype: type
) -> None:
    source = f"""
func.func @main(%x: tensor<{patterns}x{element}>) -> tensor<{patterns}x{result}> {{
  %y = arith.extf %x : tensor<{patterns}x{element}> to tensor<{patterns}x{result}>
  func.return %y : tensor<{patterns}x{result}>
}}
"""
    x = np.arange(patterns, dtype=np.uint8).view(dtype)
    (y,) = xquant.run(source, "main", x)
    expected = x.astype(result_dtype)
    assert y.dtype == np.dtype(result_dtype)
    np.testing.assert_array_equal(y.view(np.uint8), expected.view(np.uint8))
