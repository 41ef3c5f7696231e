"""strip-func-quant-types and normalize-quant-types change types, never numbers.

Each module runs in the interpreter before and after the pass (and after the
full `... ,lower-quant-ops` pipeline) on the same inputs; the outputs must be
identical bit for bit. A `!quant` value holds its storage integers in the
interpreter, so a quantized argument is passed as those integers either way.
"""

from __future__ import annotations

import numpy as np
import pytest

import xquant

STRIP = """
!q = !quant.uniform<u8:f32, 0.5:128>
!p = !quant.uniform<i8:f32:1, {0.25:1,2.0:-3,1.0}>
func.func @requant(%a: tensor<4x3x!p>, %x: tensor<4x3xf32>) -> (tensor<4x3x!q>, tensor<4x3xf32>) {
  %d = quant.dcast %a : tensor<4x3x!p> to tensor<4x3xf32>
  %s = arith.addf %d, %x : tensor<4x3xf32>
  %q = quant.qcast %s : tensor<4x3xf32> to tensor<4x3x!q>
  %y = func.call @back(%q) : (tensor<4x3x!q>) -> tensor<4x3xf32>
  return %q, %y : tensor<4x3x!q>, tensor<4x3xf32>
}
func.func @back(%q: tensor<4x3x!q>) -> tensor<4x3xf32> {
  %y = quant.dcast %q : tensor<4x3x!q> to tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}
"""

NORMALIZE = """
!layer = !quant.uniform<i8:f32:{0:3, 1:6}, {{0.75:5}}>
!axis = !quant.uniform<u8<0:200>:f32:{0:1}, {{0.5:7}, {3.0:9}, {0.125:100}}>
!blocked = !quant.uniform<i8:f32:{1:2}, {{2.0:1, 0.5:2, 4.0:-3}}>
func.func @main(%x: tensor<3x6xf32>) -> (tensor<3x6xf32>, tensor<3x6xf32>, tensor<3x6xf32>) {
  %a = quant.qcast %x : tensor<3x6xf32> to tensor<3x6x!layer>
  %b = quant.qcast %x : tensor<3x6xf32> to tensor<3x6x!axis>
  %c = quant.qcast %x : tensor<3x6xf32> to tensor<3x6x!blocked>
  %ya = quant.dcast %a : tensor<3x6x!layer> to tensor<3x6xf32>
  %yb = quant.dcast %b : tensor<3x6x!axis> to tensor<3x6xf32>
  %yc = quant.dcast %c : tensor<3x6x!blocked> to tensor<3x6xf32>
  return %ya, %yb, %yc : tensor<3x6xf32>, tensor<3x6xf32>, tensor<3x6xf32>
}
"""


def _outputs(
    text: str, pipeline: str | None, function: str, *args: np.ndarray
) -> tuple[np.ndarray, ...]:
    module = xquant.parse_module(text)
    if pipeline:
        module = xquant.apply_passes(module, pipeline)
    return tuple(np.asarray(r) for r in xquant.run(module, function, *args))


def _assert_same(
    expected: tuple[np.ndarray, ...], actual: tuple[np.ndarray, ...]
) -> None:
    assert len(expected) == len(actual)
    for e, a in zip(expected, actual):
        assert e.shape == a.shape
        np.testing.assert_array_equal(
            e.view(np.uint8), a.astype(e.dtype).view(np.uint8)
        )


@pytest.mark.parametrize(
    "pipeline", ["strip-func-quant-types", "strip-func-quant-types,lower-quant-ops"]
)
def test_strip_func_quant_types_keeps_numbers(pipeline: str) -> None:
    rng = np.random.default_rng(1)
    a = rng.integers(-128, 128, size=(4, 3)).astype(np.int8)
    x = rng.normal(0, 20, size=(4, 3)).astype(np.float32)
    x[0, 0], x[1, 1] = np.nan, np.inf
    before = _outputs(STRIP, None, "requant", a, x)
    after = _outputs(STRIP, pipeline, "requant", a, x)
    assert before[0].dtype == np.uint8  # the quantized result, as storage
    _assert_same(before, after)
    stripped = str(
        xquant.apply_passes(xquant.parse_module(STRIP), "strip-func-quant-types")
    )
    assert (
        "func.func @requant(%a : tensor<4x3xi8>, %x : tensor<4x3xf32>) -> (tensor<4x3xi8>, tensor<4x3xf32>)"
        in (stripped.replace("%a: ", "%a : ").replace("%x: ", "%x : "))
    )


@pytest.mark.parametrize(
    "pipeline", ["normalize-quant-types", "normalize-quant-types,lower-quant-ops"]
)
def test_normalize_quant_types_keeps_numbers(pipeline: str) -> None:
    x = (np.arange(18, dtype=np.float32).reshape(3, 6) - 9) * np.float32(0.8)
    x[2, 5] = np.nan
    before = _outputs(NORMALIZE, None, "main", x)
    after = _outputs(NORMALIZE, pipeline, "main", x)
    _assert_same(before, after)
    normalized = str(
        xquant.apply_passes(xquant.parse_module(NORMALIZE), "normalize-quant-types")
    )
    assert "!quant.uniform<i8:f32, 7.500000e-01:5>" in normalized
    assert (
        "!quant.uniform<u8<0:200>:f32:0, {5.000000e-01:7,3.000000e+00:9,1.250000e-01:100}>"
        in normalized
    )
    assert "{1:2}" in normalized  # a blocked axis stays sub-channel
