"""Float-storage quant types and the equivalent `mx_tensor` layouts dequantize alike.

Where they coincide (power-of-two block scales, zero point 0), an MXFP4 tensor
(`f4E2M1FN` elements, an `f8E8M0FNU` scale per 32 elements) is a sub-channel
`!quant.uniform<f4E2M1FN:f32:{0:32}, {...}>`, and an MXFP8 tensor with one
block is a per-layer `!quant.uniform<f8E4M3FN:f32, scale>`: the same stored
values give the same floats through `mx_tensor.dequantize` and `quant.dcast`.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xquant


@pytest.mark.parametrize(
    ("element", "dtype", "exponents", "block"),
    [
        ("f4E2M1FN", ml_dtypes.float4_e2m1fn, [-1, 3], 32),
        ("f8E4M3FN", ml_dtypes.float8_e4m3fn, [2], 64),
        ("f8E5M2", ml_dtypes.float8_e5m2, [-3, 0, 5, -7], 16),
    ],
)
def test_mx_and_quant_dequantize_alike(
    element: str, dtype: type, exponents: list[int], block: int
) -> None:
    n = len(exponents)
    size = n * block
    mx = f"!mx_tensor.tensor<<{n}xf8E8M0FNU>, <{size}x{element}>>"
    scales = ", ".join(repr(2.0**e) for e in exponents)
    if n == 1:
        quant = f"!quant.uniform<{element}:f32, {scales}>"
    else:
        quant = f"!quant.uniform<{element}:f32:{{0:{block}}}, {{{scales}}}>"
    text = (
        f"func.func @mx(%s: tensor<{n}xf8E8M0FNU>, %d: tensor<{size}x{element}>) -> tensor<{size}xf32> {{\n"
        f"  %m = mx_tensor.construct %s, %d : {mx}\n"
        f"  %y = mx_tensor.dequantize %m : {mx} -> tensor<{size}xf32>\n"
        f"  return %y : tensor<{size}xf32>\n}}\n"
        f"func.func @q(%d: tensor<{size}x{quant}>) -> tensor<{size}xf32> {{\n"
        f"  %y = quant.dcast %d : tensor<{size}x{quant}> to tensor<{size}xf32>\n"
        f"  return %y : tensor<{size}xf32>\n}}"
    )
    module = xquant.parse_module(text)
    rng = np.random.default_rng(3)
    data = (rng.standard_normal(size) * 4).astype(np.float32).astype(dtype)
    scale_codes = np.array(exponents, np.float32)
    scale_values = np.exp2(scale_codes).astype(ml_dtypes.float8_e8m0fnu)
    (via_mx,) = xquant.run(module, "mx", scale_values, data)
    (via_quant,) = xquant.run(module, "q", data)
    np.testing.assert_array_equal(via_mx, via_quant)
    # And both are the plain product, written here.
    expected = data.astype(np.float32) * np.repeat(np.exp2(scale_codes), block)
    np.testing.assert_array_equal(via_quant, expected)
