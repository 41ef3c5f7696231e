"""`linalg-convert-to-dps` and `linalg-specialize-generic-ops` keep the numbers and the form.

The lowered `quant.qcast` / `quant.dcast` (`-lower-quant-ops`) runs in the
interpreter before and after the two passes with bit-identical results, and
the passes produce the ops upstream's `lower-quant-ops-to-dps.mlir` checks
(one shared `tensor.empty`, `linalg.div`, `linalg.add`, cast generics).
"""

from __future__ import annotations

import numpy as np
import pytest

import xquant

TEXT = """
func.func @main(%x: tensor<6xf32>) -> (tensor<6xi8>, tensor<6xf32>) {
  %q = quant.qcast %x : tensor<6xf32> to tensor<6x!quant.uniform<i8<-100:100>:f32, 0.25:3>>
  %s = quant.scast %q : tensor<6x!quant.uniform<i8<-100:100>:f32, 0.25:3>> to tensor<6xi8>
  %d = quant.dcast %q : tensor<6x!quant.uniform<i8<-100:100>:f32, 0.25:3>> to tensor<6xf32>
  return %s, %d : tensor<6xi8>, tensor<6xf32>
}
"""

DPS = "lower-quant-ops,linalg-convert-to-dps,linalg-specialize-generic-ops,cse"


def test_dps_pipeline_keeps_numbers() -> None:
    x = np.array([-40.0, -1.125, 0.0, 0.3, 7.9, 1e9], dtype=np.float32)
    lowered = xquant.apply_passes(xquant.parse_module(TEXT), "lower-quant-ops")
    dps = xquant.apply_passes(xquant.parse_module(TEXT), DPS)
    before = xquant.run(lowered, "main", x)
    after = xquant.run(dps, "main", x)
    for a, b in zip(before, after, strict=True):
        np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))
    # Independent of the code under test: upstream's lowering truncates
    # (`arith.fptosi`) x/0.25 + 3, clamped to the bounds first.
    expected = np.trunc(np.clip(x / np.float32(0.25) + 3, -100, 100)).astype(np.int8)
    np.testing.assert_array_equal(after[0], expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("arith.addf", "linalg.add"),
        ("arith.subf", "linalg.sub"),
        ("arith.mulf", "linalg.mul"),
        ("arith.divf", "linalg.div"),
        ("arith.maximumf", "linalg.generic"),  # not specialized here
    ],
)
def test_binary_ops_specialize(text: str, expected: str) -> None:
    module = xquant.parse_module(
        "func.func @main(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {\n"
        f"  %0 = {text} %a, %b : tensor<3xf32>\n"
        "  return %0 : tensor<3xf32>\n}"
    )
    a = np.array([1.5, -2.0, 3.0], dtype=np.float32)
    b = np.array([0.5, 4.0, -3.0], dtype=np.float32)
    before = xquant.run(module.clone(), "main", a, b)
    xquant.apply_passes(module, "linalg-convert-to-dps,linalg-specialize-generic-ops")
    printed = xquant.print_module(module)
    assert expected in printed and "tensor.empty" in printed
    np.testing.assert_array_equal(before[0], xquant.run(module, "main", a, b)[0])
