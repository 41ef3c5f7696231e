"""`xquant.bind_weights`: numpy weights become `dense_resource` blobs, run and printed."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xdsl.utils.exceptions import DiagnosticException

import xquant

SOURCE = """
func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant dense<0.0> : tensor<2x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x2xf32>) outs(%zero : tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %y : tensor<2x2xf32>
}
"""

X = np.arange(6, dtype=np.float32).reshape(2, 3)
W = np.array([[0.5, -1.0], [2.0, 0.25], [-3.0, 1.5]], np.float32)


def test_argument_becomes_a_resource_constant() -> None:
    module = xquant.bind_weights(xquant.parse_module(SOURCE), {"w": W})
    printed = xquant.print_module(module)
    # printed as mlir-opt prints it (xquant's one printer)
    assert "func.func @main(%arg0: tensor<2x3xf32>) -> tensor<2x2xf32>" in printed
    assert "%cst = arith.constant dense_resource<w" in printed  # w, or w_N once taken
    blob = "0x04000000" + W.astype("<f4").tobytes().hex().upper()
    assert blob in printed
    (y,) = xquant.run(module, "main", X)
    np.testing.assert_array_equal(y, X @ W)
    # the printed form parses back to the same function
    (again,) = xquant.run(xquant.parse_module(printed), "main", X)
    np.testing.assert_array_equal(again, X @ W)


def test_existing_resource_is_rebound() -> None:
    text = """
func.func @main() -> tensor<4xi4> {
  %0 = arith.constant dense_resource<rebind_me> : tensor<4xi4>
  func.return %0 : tensor<4xi4>
}
"""
    module = xquant.parse_module(text)
    xquant.bind_weights(module, {"rebind_me": np.array([1, -2, 7, -8])})
    assert xquant.run(module, "main")[0].tolist() == [1, -2, 7, -8]
    # MLIR's layout: one zero-extended byte per i4 (mlir-opt prints -2 as 0x0E)
    assert '"0x01000000010E0708"' in xquant.print_module(module)
    xquant.bind_weights(module, {"rebind_me": np.array([0, 1, 2, 3])})
    assert xquant.run(module, "main")[0].tolist() == [0, 1, 2, 3]


def test_floats_are_rounded_once_into_the_element_type() -> None:
    text = SOURCE.replace("3x2xf32", "3x2xbf16").replace(
        "ins(%x, %w : tensor<2x3xf32>, tensor<3x2xbf16>)",
        "ins(%x, %w : tensor<2x3xf32>, tensor<3x2xbf16>)",
    )
    module = xquant.bind_weights(xquant.parse_module(text), {"w": W + 1e-3})
    (y,) = xquant.run(module, "main", X)
    expected = X.astype(np.float64) @ (W + 1e-3).astype(ml_dtypes.bfloat16).astype(
        np.float64
    )
    np.testing.assert_allclose(y, expected, rtol=1e-6)


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ({"nope": W}, "no function argument or dense_resource named 'nope'"),
        ({"w": W.T}, "weight 'w' has shape (2, 3), but tensor<3x2xf32> needs (3, 2)"),
    ],
)
def test_bad_bindings_are_diagnostics(weights: dict, message: str) -> None:
    with pytest.raises(DiagnosticException) as info:
        xquant.bind_weights(xquant.parse_module(SOURCE), weights)
    assert message in str(info.value)
