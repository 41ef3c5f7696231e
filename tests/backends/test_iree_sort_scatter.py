"""`stablehlo.sort` and `stablehlo.scatter` under IREE (handed to IREE's StableHLO input
conversion, `xquant.backends.iree_input`): sorts are stable, equal to numpy's stable
argsort (an independent reference) and to the interpreter; scatters equal numpy's
`np.add.at`/`np.maximum.at`/indexing and the interpreter."""

from __future__ import annotations

import numpy as np
import pytest

import xquant
from xquant.backends import iree
from xquant.backends.iree_input import stabilize_sorts

REASON = iree.available()
needs_iree = pytest.mark.skipif(REASON is not None, reason=REASON or "")


def _sort(shape: str, dimension: int, stable: bool, key: str, compare: str) -> str:
    """A sort of (keys, values) on the keys only: ties keep the values' order only if stable."""
    return f"""
func.func @main(%k: tensor<{shape}x{key}>, %v: tensor<{shape}xf32>) -> (tensor<{shape}x{key}>, tensor<{shape}xf32>) {{
  %0:2 = "stablehlo.sort"(%k, %v) <{{dimension = {dimension} : i64, is_stable = {str(stable).lower()}}}> ({{
  ^bb0(%a: tensor<{key}>, %b: tensor<{key}>, %c: tensor<f32>, %d: tensor<f32>):
    %1 = stablehlo.compare {compare}, %a, %b : (tensor<{key}>, tensor<{key}>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }}) : (tensor<{shape}x{key}>, tensor<{shape}xf32>) -> (tensor<{shape}x{key}>, tensor<{shape}xf32>)
  return %0#0, %0#1 : tensor<{shape}x{key}>, tensor<{shape}xf32>
}}
"""


def _reference(
    keys: np.ndarray, values: np.ndarray, axis: int, descending: bool
) -> tuple[np.ndarray, np.ndarray]:
    """numpy's stable sort (descending: of the negated keys, still stable)."""
    order = np.argsort(-keys if descending else keys, axis=axis, kind="stable")
    return np.take_along_axis(keys, order, axis), np.take_along_axis(
        values, order, axis
    )


CASES = {
    "1d_lt": ("16", 0, True, "i32", "LT"),
    "1d_gt": ("16", 0, True, "i32", "GT"),
    "2d_dim0": ("9x4", 0, True, "i32", "LT"),
    "2d_dim1_negative": ("4x9", -1, True, "i32", "LT"),
    "not_stable_flag": ("16", 0, False, "i32", "LT"),
    "f32_keys": ("16", 0, True, "f32", "LT"),
}


@needs_iree
@pytest.mark.parametrize("case", sorted(CASES))
def test_sort_is_stable_under_iree(case: str) -> None:
    shape, dimension, stable, key, compare = CASES[case]
    dims = [int(n) for n in shape.split("x")]
    rng = np.random.default_rng(7)
    keys = rng.integers(0, 3, dims).astype(np.int32 if key == "i32" else np.float32)
    values = np.arange(np.prod(dims), dtype=np.float32).reshape(dims)
    text = _sort(shape, dimension, stable, key, compare)
    want = _reference(keys, values, dimension, compare == "GT")
    interpreted = xquant.run(text, "main", keys, values)
    got = xquant.run(text, "main", keys, values, backend="iree")
    for g, i, w in zip(got, interpreted, want, strict=True):
        np.testing.assert_array_equal(g, w)
        assert g.tobytes() == np.asarray(i).tobytes()


def test_stabilize_sorts_adds_an_index_operand() -> None:
    """The rewrite itself: one extra i32 operand, a comparator with the tie-break, the
    original results unchanged for the interpreter."""
    text = _sort("16", 0, True, "i32", "LT")
    module = xquant.parse_module(text)
    assert stabilize_sorts(module) == 1
    sort = next(op for op in module.walk() if op.name == "stablehlo.sort")
    assert len(sort.operands) == 3 and str(sort.operands[2].type) == "tensor<16xi32>"
    ops = [op.name for op in sort.regions[0].block.ops]
    assert ops.count("stablehlo.compare") == 3
    assert ops[-4:] == [
        "stablehlo.not",
        "stablehlo.and",
        "stablehlo.or",
        "stablehlo.return",
    ]
    keys = np.array([2, 1, 2, 0, 1, 2, 0, 0, 1, 1, 2, 0, 2, 1, 0, 2], np.int32)
    values = np.arange(16, dtype=np.float32)
    module.verify()
    for got, want in zip(
        xquant.run(module, "main", keys, values),
        _reference(keys, values, 0, False),
        strict=True,
    ):
        np.testing.assert_array_equal(got, want)


def test_stabilize_sorts_reuses_an_iota_operand() -> None:
    """A sort that already carries an iota along its dimension (chlo.top_k's indices,
    JAX's argsort) breaks ties with it: a second iota would be CSE'd into the same
    value by IREE, which rejects a sort writing one value twice."""
    text = """
func.func @main(%x: tensor<2x8xf32>) -> tensor<2x8xi32> {
  %i = stablehlo.iota dim = 1 : tensor<2x8xi32>
  %0:2 = "stablehlo.sort"(%x, %i) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %1 = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) : (tensor<2x8xf32>, tensor<2x8xi32>) -> (tensor<2x8xf32>, tensor<2x8xi32>)
  return %0#1 : tensor<2x8xi32>
}
"""
    module = xquant.parse_module(text)
    assert stabilize_sorts(module) == 1
    sort = next(op for op in module.walk() if op.name == "stablehlo.sort")
    assert len(sort.operands) == 2
    x = np.array([[1, 3, 3, 0, 1, 3, 2, 1], [0, 0, 0, 5, 5, 0, 5, 0]], np.float32)
    want = np.argsort(-x, axis=1, kind="stable").astype(np.int32)
    (interpreted,) = xquant.run(module, "main", x)
    np.testing.assert_array_equal(interpreted, want)
    if REASON is None:
        (got,) = xquant.run(text, "main", x, backend="iree")
        np.testing.assert_array_equal(got, want)


SCATTER = """
func.func @main(%x: tensor<6x3xi32>, %i: tensor<5x1xi32>, %u: tensor<5x3xi32>) -> tensor<6x3xi32> {
  %0 = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %1 = stablehlo.BODY %a, %b : tensor<i32>
    stablehlo.return %1 : tensor<i32>
  }) : (tensor<6x3xi32>, tensor<5x1xi32>, tensor<5x3xi32>) -> tensor<6x3xi32>
  return %0 : tensor<6x3xi32>
}
"""


@needs_iree
@pytest.mark.parametrize("body", ["add", "maximum"])
def test_scatter_rows_under_iree(body: str) -> None:
    """Rows scattered with repeated indices: numpy's unbuffered `ufunc.at` is the reference."""
    rng = np.random.default_rng(3)
    x = rng.integers(-50, 50, (6, 3)).astype(np.int32)
    indices = np.array([[4], [0], [4], [2], [0]], np.int32)
    updates = rng.integers(-50, 50, (5, 3)).astype(np.int32)
    want = x.copy()
    getattr(np, body).at(want, indices[:, 0], updates)
    text = SCATTER.replace("BODY", body)
    (interpreted,) = xquant.run(text, "main", x, indices, updates)
    (got,) = xquant.run(text, "main", x, indices, updates, backend="iree")
    np.testing.assert_array_equal(interpreted, want)
    np.testing.assert_array_equal(got, want)


JAX_PROGRAMS = [
    "argsort",
    "sort",
    "sort_multi_operand",
    "top_k",
    "scatter_add",
    "scatter_max_int",
    "scatter_set_2d",
    "segment_sum",
]


@needs_iree
@pytest.mark.parametrize("name", JAX_PROGRAMS)
def test_jax_sort_scatter_bit_identical(name: str) -> None:
    """The JAX corpus's sort/scatter programs (tests/data/jax): IREE gives the
    interpreter's bits (test_jax_corpus checks both against JAX's outputs)."""
    from tests.examples.test_jax_corpus import CORPUS, load

    inputs, _ = load(name)
    text = (CORPUS / f"{name}.mlir").read_text()
    interpreted = xquant.run(text, "main", *inputs)
    native = xquant.run(text, "main", *inputs, backend="iree")
    for index, (a, b) in enumerate(zip(interpreted, native, strict=True)):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), f"{name} #{index}"
