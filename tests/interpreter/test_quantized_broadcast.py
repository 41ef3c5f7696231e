"""broadcast_in_dim of a per-axis quantized value moves its quantized dimension.

The StableHLO spec (broadcast_in_dim, C6): the result's quantization dimension
is `broadcast_dimensions[quantization_dimension(operand)]`, and the op only
moves data, so the result holds the operand's storage integers broadcast, and
dequantizes to the operand's real values broadcast. The goldens are written
here with numpy from that text; the lowered program must give the same bits.
"""

from __future__ import annotations

import numpy as np
import pytest

import xquant

SCALES = [0.5, 0.25, 2.0]
ZPS = [1, -2, 3]
Q0 = "!quant.uniform<i8:f32:0, {5.000000e-01:1,2.500000e-01:-2,2.000000e+00:3}>"
Q1 = "!quant.uniform<i8:f32:1, {5.000000e-01:1,2.500000e-01:-2,2.000000e+00:3}>"
Q2 = "!quant.uniform<i8:f32:2, {5.000000e-01:1,2.500000e-01:-2,2.000000e+00:3}>"

CASES = {
    # (3) axis 0 -> (2x3) axis 1
    "vector_to_columns": (
        f"tensor<3x{Q0}>",
        f"tensor<2x3x{Q1}>",
        "[1]",
        (3,),
        (2, 3),
        lambda v: np.broadcast_to(v, (2, 3)),
    ),
    # (3x2) axis 0 -> (2x4x3) axis 2, with a transpose (dims = [2, 0])
    "transposed": (
        f"tensor<3x2x{Q0}>",
        f"tensor<2x4x3x{Q2}>",
        "[2, 0]",
        (3, 2),
        (2, 4, 3),
        lambda v: np.broadcast_to(v.T[:, None, :], (2, 4, 3)),
    ),
}


def _program(src: str, dst: str, dims: str) -> str:
    return f"""
func.func @main(%x: tensor<{{shape}}xi8>) -> tensor<{{out}}xf32> {{
  %q = stablehlo.bitcast_convert %x : (tensor<{{shape}}xi8>) -> {src}
  %b = stablehlo.broadcast_in_dim %q, dims = {dims} : ({src}) -> {dst}
  %f = stablehlo.uniform_dequantize %b : ({dst}) -> tensor<{{out}}xf32>
  func.return %f : tensor<{{out}}xf32>
}}
"""


@pytest.mark.parametrize("name", sorted(CASES))
def test_per_axis_broadcast_keeps_the_real_values(name: str) -> None:
    src, dst, dims, shape, out, place = CASES[name]
    text = (
        _program(src, dst, dims)
        .replace("{shape}", "x".join(map(str, shape)))
        .replace("{out}", "x".join(map(str, out)))
    )
    rng = np.random.default_rng(0)
    storage = rng.integers(-128, 128, shape).astype(np.int8)
    axis_shape = [1] * len(shape)
    axis_shape[0] = 3
    real = (storage.astype(np.int32) - np.array(ZPS).reshape(axis_shape)).astype(
        np.float32
    ) * np.array(SCALES, np.float32).reshape(axis_shape)
    want = place(real)
    (got,) = xquant.run(text, "main", storage)
    np.testing.assert_array_equal(got, want)
    lowered = xquant.apply_passes(
        xquant.parse_module(text),
        "stablehlo-legalize-quant-to-math{exact=true},stablehlo-legalize-to-linalg",
    )
    (again,) = xquant.run(lowered, "main", storage)
    np.testing.assert_array_equal(again, want)
