"""StableHLO's shifts in the interpreter, against values worked out by hand from the
spec (an amount outside [0, width), read unsigned, shifts everything out: 0, or the
sign for shift_right_arithmetic), and the same after stablehlo-legalize-to-linalg."""

from __future__ import annotations

import numpy as np
import pytest

import xquant
from xquant.interpreter.runner import run

SOURCE = """func.func @main(%a: tensor<6xi8>, %b: tensor<6xi8>) -> (tensor<6xi8>, tensor<6xi8>, tensor<6xi8>) {
  %0 = stablehlo.shift_left %a, %b : tensor<6xi8>
  %1 = stablehlo.shift_right_logical %a, %b : tensor<6xi8>
  %2 = stablehlo.shift_right_arithmetic %a, %b : tensor<6xi8>
  return %0, %1, %2 : tensor<6xi8>, tensor<6xi8>, tensor<6xi8>
}"""
A = np.array([-128, -3, 5, 100, 7, -1], np.int8)
B = np.array([1, 1, 2, 8, -1, 7], np.int8)
EXPECTED = (
    [0, -6, 20, 0, 0, -128],  # -128 << 1 wraps to 0; 100 << 8 and 7 << 255 shift out
    [64, 126, 1, 0, 0, 1],  # 0x80 >> 1, 0xFD >> 1, 5 >> 2, ..., 0xFF >> 7
    [-64, -2, 1, 0, 0, -1],  # the sign fills in; 7 >> 255 is the sign (0)
)


@pytest.mark.parametrize("lowered", [False, True], ids=["stablehlo", "linalg"])
def test_shifts(lowered: bool) -> None:
    text = SOURCE
    if lowered:
        text = str(
            xquant.apply_passes(
                xquant.parse_module(SOURCE), "stablehlo-legalize-to-linalg"
            )
        )
    results = run(text, "main", A, B)
    for got, want in zip(results, EXPECTED, strict=True):
        np.testing.assert_array_equal(np.asarray(got), np.array(want, np.int8))
