"""Float stablehlo.reduce / reduce_window sums follow the lowered IR's order by default.

`stablehlo-legalize-to-linalg` folds the init, then the reduced elements with
the reduced dimensions nested in the order `dimensions` lists them (upstream's
loop order), one f32 rounding per step. The goldens are that loop
written with numpy (`np.add.accumulate` from the init is a left-to-right
scan), on data over twelve decades so that numpy's pairwise `np.add.reduce`
gives other bits; inside `reassociate_fp_reductions` numpy's order is allowed
and is what the interpreter gives.
"""

from __future__ import annotations

import numpy as np
import pytest

import xquant

PASS = "stablehlo-legalize-to-linalg"

REDUCE = """
func.func @main(%x: tensor<3x5x64xf32>) -> tensor<5xf32> {
  %init = stablehlo.constant dense<0.5> : tensor<f32>
  %r = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [2, 0]
      : (tensor<3x5x64xf32>, tensor<f32>) -> tensor<5xf32>
  func.return %r : tensor<5xf32>
}
"""

CUMSUM = """
func.func @main(%x: tensor<4x96xf32>) -> tensor<4x96xf32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %init) <{padding = dense<[[0, 0], [95, 0]]> : tensor<2x2xi64>,
      window_dimensions = array<i64: 1, 96>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) : (tensor<4x96xf32>, tensor<f32>) -> tensor<4x96xf32>
  func.return %r : tensor<4x96xf32>
}
"""


def _spread(shape: tuple[int, ...], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.normal(size=shape) * 10.0 ** rng.integers(-6, 6, shape)).astype(
        np.float32
    )


def _in_order(rows: np.ndarray, init: float) -> np.ndarray:
    """Fold the last axis of `rows` into `init`, left to right, in f32."""
    start = np.full((*rows.shape[:-1], 1), init, np.float32)
    return np.add.accumulate(np.concatenate([start, rows], axis=-1), axis=-1)[..., -1]


def _lowered(text: str, x: np.ndarray) -> np.ndarray:
    module = xquant.apply_passes(xquant.parse_module(text), PASS)
    assert not any(op.name.startswith("stablehlo.") for op in module.walk())
    (out,) = xquant.run(module, "main", x)
    return np.asarray(out)


def test_reduce_sums_in_the_lowered_order() -> None:
    x = _spread((3, 5, 64), 0)
    rows = np.transpose(x, (1, 2, 0)).reshape(
        5, -1
    )  # dim 2 outer, dim 0 inner (as listed)
    want = _in_order(rows, 0.5)
    fast = np.float32(0.5) + np.add.reduce(rows, axis=-1)
    assert not np.array_equal(want, fast)
    (got,) = xquant.run(REDUCE, "main", x)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(_lowered(REDUCE, x), want)
    (reassociated,) = xquant.run(REDUCE, "main", x, reassociate_fp_reductions=True)
    np.testing.assert_array_equal(reassociated, fast)


@pytest.mark.parametrize("seed", [1, 2])
def test_reduce_window_cumsum_in_the_lowered_order(seed: int) -> None:
    x = _spread((4, 96), seed)
    padded = np.concatenate([np.zeros((4, 95), np.float32), x], axis=1)
    windows = np.stack([padded[:, j : j + 96] for j in range(96)], axis=1)
    want = _in_order(windows, 0.0)
    assert not np.array_equal(want, np.add.reduce(windows, axis=-1))
    (got,) = xquant.run(CUMSUM, "main", x)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(_lowered(CUMSUM, x), want)
