"""`arith.select` on big tensors: a condition that never / always fires gives that operand."""

from __future__ import annotations

import numpy as np
import pytest

import xquant

SOURCE = """
func.func @main(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %c = arith.cmpf uno, %x, %x : tensor<64x128xf32>
  %r = arith.select %c, %y, %x : tensor<64x128xf32>
  func.return %r : tensor<64x128xf32>
}
"""


@pytest.mark.parametrize("nans", ["none", "all", "some"])
def test_select_matches_where(nans: str) -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 128)).astype(np.float32)
    y = rng.normal(size=(64, 128)).astype(np.float32)
    if nans == "all":
        x[:] = np.nan
    elif nans == "some":
        x[3, 5] = np.nan
    (r,) = xquant.run(SOURCE, "main", x, y)
    np.testing.assert_array_equal(r, np.where(np.isnan(x), y, x))
