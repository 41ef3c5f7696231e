"""chlo-legalize-to-stablehlo on dynamic shapes (upstream's
chlo_legalize_to_stablehlo_dynamic.mlir forms): `top_k` and mode-1 `ragged_dot`,
run before and after the pass against numpy references written from the ops'
definitions (top_k: the k largest, lower index first among ties; ragged_dot:
rows [start, start + size) of lhs against rhs's group)."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import ModuleOp

import xquant

TOP_K = """func.func @main(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xi32>) {
  %0:2 = chlo.top_k(%x, k=3) : tensor<?x?xf32> -> (tensor<?x?xf32>, tensor<?x?xi32>)
  func.return %0#0, %0#1 : tensor<?x?xf32>, tensor<?x?xi32>
}"""

RAGGED = """func.func @main(%lhs : tensor<?x?x?xf32>, %rhs : tensor<3x2x5x7xf32>, %group_sizes : tensor<3xi64>) -> tensor<?x?x?xf32> {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %group_sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<
      lhs_batching_dimensions = [0], rhs_batching_dimensions = [1],
      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]>
  } : (tensor<?x?x?xf32>, tensor<3x2x5x7xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  func.return %0 : tensor<?x?x?xf32>
}"""


def _lowered(text: str) -> ModuleOp:
    module = xquant.parse_module(text)
    xquant.apply_passes(module, "chlo-legalize-to-stablehlo")
    names = {op.name for op in module.walk()}
    assert not any(name.startswith("chlo.") for name in names), names
    return module


def test_top_k_dynamic() -> None:
    x = np.array([[3, 1, 4, 1, 5, 9, 2], [6, 5, 3, 5, 8, 9, 7]], np.float32)
    want_values = np.array([[9, 5, 4], [9, 8, 7]], np.float32)
    want_indices = np.array([[5, 4, 2], [5, 4, 6]], np.int32)
    module = _lowered(TOP_K)
    assert "stablehlo.real_dynamic_slice" in {op.name for op in module.walk()}
    for m in (xquant.parse_module(TOP_K), module):
        values, indices = xquant.run(m, "main", x)
        np.testing.assert_array_equal(np.asarray(values), want_values)
        np.testing.assert_array_equal(np.asarray(indices), want_indices)


def test_ragged_dot_dynamic() -> None:
    rng = np.random.default_rng(1)
    lhs = rng.integers(-3, 4, (2, 6, 5)).astype(np.float32)
    rhs = rng.integers(-3, 4, (3, 2, 5, 7)).astype(np.float32)
    sizes = np.array([1, 3, 2], np.int64)
    want = np.zeros((2, 6, 7), np.float32)
    start = 0
    for g, n in enumerate(sizes):
        rows = slice(start, start + int(n))
        want[:, rows] = np.einsum("bmk,bkn->bmn", lhs[:, rows], rhs[g])
        start += int(n)
    module = _lowered(RAGGED)
    assert "stablehlo.dynamic_iota" in {op.name for op in module.walk()}
    for m in (xquant.parse_module(RAGGED), module):
        (got,) = xquant.run(m, "main", lhs, rhs, sizes)
        np.testing.assert_array_equal(np.asarray(got), want)


def _ragged_text(lhs: str, rhs: str, sizes: str, result: str, numbers: str) -> str:
    types = f"(tensor<{lhs}>, tensor<{rhs}>, tensor<{sizes}>) -> tensor<{result}>"
    return f"""func.func @main(%l: tensor<{lhs}>, %r: tensor<{rhs}>, %g: tensor<{sizes}>) -> tensor<{result}> {{
  %0 = "chlo.ragged_dot"(%l, %r, %g) {{
    ragged_dot_dimension_numbers = #chlo.ragged_dot<{numbers}>
  }} : {types}
  func.return %0 : tensor<{result}>
}}"""


MODE_1 = (
    "lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], "
    "lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2], "
    "lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]"
)
MODE_2 = (
    "lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
    "lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1], "
    "lhs_ragged_dimensions = [2], rhs_group_dimensions = []"
)


def test_ragged_dot_mode_1_dynamic_rhs() -> None:
    rng = np.random.default_rng(3)
    lhs = rng.integers(-3, 4, (2, 11, 5)).astype(np.float32)
    rhs = rng.integers(-3, 4, (3, 2, 5, 4)).astype(np.float32)
    sizes = np.array([3, 5, 3], np.int64)
    want = np.zeros((2, 11, 4), np.float32)
    start = 0
    for g, n in enumerate(sizes):
        rows = slice(start, start + int(n))
        want[:, rows] = np.einsum("bmk,bkn->bmn", lhs[:, rows], rhs[g])
        start += int(n)
    text = _ragged_text("2x11x5xf32", "3x2x5x?xf32", "3xi64", "2x11x?xf32", MODE_1)
    module = _lowered(text)
    assert "stablehlo.dynamic_reshape" in {op.name for op in module.walk()}
    for m in (xquant.parse_module(text), module):
        (got,) = xquant.run(m, "main", lhs, rhs, sizes)
        np.testing.assert_array_equal(np.asarray(got), want)


def test_ragged_dot_mode_2_dynamic_lhs() -> None:
    rng = np.random.default_rng(4)
    lhs = rng.integers(-3, 4, (2, 6, 5)).astype(np.float32)
    rhs = rng.integers(-3, 4, (2, 5, 7)).astype(np.float32)
    sizes = np.array([[1, 2, 1, 1], [0, 5, 0, 0]], np.int64)  # per batch
    want = np.zeros((4, 2, 6, 7), np.float32)
    for b in range(2):
        start = 0
        for g, n in enumerate(sizes[b]):
            ks = slice(start, start + int(n))
            want[g, b] = lhs[b][:, ks] @ rhs[b][ks]
            start += int(n)
    text = _ragged_text("2x?x5xf32", "2x5x7xf32", "2x4xi64", "4x2x?x7xf32", MODE_2)
    module = _lowered(text)
    assert "stablehlo.dynamic_reshape" in {op.name for op in module.walk()}
    for m in (xquant.parse_module(text), module):
        (got,) = xquant.run(m, "main", lhs, rhs, sizes)
        np.testing.assert_array_equal(np.asarray(got), want)
