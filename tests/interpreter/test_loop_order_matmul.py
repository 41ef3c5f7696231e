"""Float `linalg.matmul` accumulates in loop order (k = 0, 1, ...), one rounding per op.

Golden: a scalar Python loop over numpy f32 scalars, and the same matmul written
as a `linalg.generic` (the interpreter's general path).
"""

from __future__ import annotations

import numpy as np
import pytest

import xquant
from xquant.numerics.values import loop_order_matmul

NAMED = """
func.func @main(%a: tensor<3x6xf32>, %b: tensor<6x4xf32>, %c: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<3x6xf32>, tensor<6x4xf32>) outs(%c : tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}
"""

GENERIC = """
func.func @main(%a: tensor<3x6xf32>, %b: tensor<6x4xf32>, %c: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<3x6xf32>, tensor<6x4xf32>) outs(%c : tensor<3x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}
"""


def _operands(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    # wide magnitudes so that a different summation order changes the last bits
    a = (rng.normal(size=(3, 6)) * 10.0 ** rng.integers(-4, 5, (3, 6))).astype(
        np.float32
    )
    b = (rng.normal(size=(6, 4)) * 10.0 ** rng.integers(-4, 5, (6, 4))).astype(
        np.float32
    )
    c = rng.normal(size=(3, 4)).astype(np.float32)
    return a, b, c


def _scalar_loop(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    out = c.copy()
    for m in range(a.shape[0]):
        for n in range(b.shape[1]):
            acc = c[m, n]
            for k in range(a.shape[1]):
                acc = np.float32(acc + np.float32(a[m, k] * b[k, n]))
            out[m, n] = acc
    return out


@pytest.mark.parametrize("seed", range(5))
def test_named_matmul_is_the_scalar_loop(seed: int) -> None:
    a, b, c = _operands(seed)
    expected = _scalar_loop(a, b, c)
    np.testing.assert_array_equal(loop_order_matmul(a, b, c), expected)
    (named,) = xquant.run(NAMED, "main", a, b, c)
    (generic,) = xquant.run(GENERIC, "main", a, b, c)
    np.testing.assert_array_equal(named, expected)
    np.testing.assert_array_equal(generic, expected)


def test_empty_contraction_returns_the_init() -> None:
    c = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = loop_order_matmul(
        np.zeros((2, 0), np.float32), np.zeros((0, 3), np.float32), c
    )
    np.testing.assert_array_equal(out, c)
    assert out is not c
