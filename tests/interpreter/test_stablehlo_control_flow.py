"""while, case, sort, scatter, composite, bitwise ops and chlo math: the StableHLO spec's
examples (docs/spec.md, its `// %result:` lines are the goldens), interpreted and after
`stablehlo-legalize-composite-to-call,stablehlo-legalize-control-flow,stablehlo-legalize-to-linalg`."""

from __future__ import annotations

import math

import numpy as np
import pytest

import xquant

LOWERING = (
    "stablehlo-legalize-composite-to-call,stablehlo-legalize-control-flow,"
    "stablehlo-legalize-to-linalg"
)

SCATTER = """
func.func @main(%input: tensor<2x3x4x2xi64>, %indices: tensor<2x2x3x2xi64>,
                %update: tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64> {
  %result = "stablehlo.scatter"(%input, %indices, %update) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%0) : (tensor<i64>) -> ()
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<
      update_window_dims = [3, 4],
      inserted_window_dims = [1],
      input_batching_dims = [0],
      scatter_indices_batching_dims = [1],
      scatter_dims_to_operand_dims = [2, 1],
      index_vector_dim = 3>,
    indices_are_sorted = false,
    unique_indices = false
  } : (tensor<2x3x4x2xi64>, tensor<2x2x3x2xi64>, tensor<2x2x3x2x2xi64>) -> tensor<2x3x4x2xi64>
  func.return %result : tensor<2x3x4x2xi64>
}
"""


def _both(text: str, *args: np.ndarray) -> list[tuple[np.ndarray, ...]]:
    interpreted = xquant.run(xquant.parse_module(text), "main", *args)
    lowered = xquant.run(
        xquant.apply_passes(xquant.parse_module(text), LOWERING), "main", *args
    )
    return [tuple(np.asarray(v) for v in r) for r in (interpreted, lowered)]


def test_scatter_spec_example() -> None:
    operand = np.arange(1, 49, dtype=np.int64).reshape(2, 3, 4, 2)
    indices = np.array(
        [
            [[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]],
            [[[0, 0], [2, 1], [2, 2]], [[1, 2], [0, 1], [1, 0]]],
        ],
        np.int64,
    )
    update = np.ones((2, 2, 3, 2, 2), np.int64)
    want = np.array(
        [
            [
                [[3, 4], [6, 7], [6, 7], [7, 8]],
                [[9, 10], [11, 12], [15, 16], [17, 18]],
                [[17, 18], [19, 20], [22, 23], [24, 25]],
            ],
            [
                [[25, 26], [28, 29], [30, 31], [31, 32]],
                [[35, 36], [38, 39], [38, 39], [39, 40]],
                [[41, 42], [44, 45], [46, 47], [47, 48]],
            ],
        ],
        np.int64,
    )
    for (result,) in _both(SCATTER, operand, indices, update):
        np.testing.assert_array_equal(result, want)


SORT = """
func.func @main(%input0: tensor<2x3xi64>, %input1: tensor<2x3xi64>) -> (tensor<2x3xi64>, tensor<2x3xi64>) {
  %result0, %result1 = "stablehlo.sort"(%input0, %input1) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>, %arg2: tensor<i64>, %arg3: tensor<i64>):
      %predicate = "stablehlo.compare"(%arg0, %arg1) {
        comparison_direction = #stablehlo<comparison_direction GT>
      } : (tensor<i64>, tensor<i64>) -> tensor<i1>
      "stablehlo.return"(%predicate) : (tensor<i1>) -> ()
  }) {dimension = 0 : i64, is_stable = true} : (tensor<2x3xi64>, tensor<2x3xi64>) -> (tensor<2x3xi64>, tensor<2x3xi64>)
  func.return %result0, %result1 : tensor<2x3xi64>, tensor<2x3xi64>
}
"""


def test_sort_spec_example() -> None:
    input0 = np.array([[1, 2, 3], [3, 2, 1]], np.int64)
    input1 = np.array([[3, 2, 1], [1, 2, 3]], np.int64)
    for result0, result1 in _both(SORT, input0, input1):
        np.testing.assert_array_equal(result0, [[3, 2, 3], [1, 2, 1]])
        np.testing.assert_array_equal(result1, [[1, 2, 1], [3, 2, 3]])


def test_sort_is_stable_among_equal_keys() -> None:
    """Keys compared only on their first operand: equal keys keep their input order."""
    keys = np.array([2, 1, 2, 1, 2, 0], np.int64)
    values = np.arange(6, dtype=np.int64)
    text = SORT.replace("2x3xi64", "6xi64").replace("GT", "LT")
    for sorted_keys, sorted_values in _both(text, keys, values):
        np.testing.assert_array_equal(sorted_keys, [0, 1, 1, 2, 2, 2])
        np.testing.assert_array_equal(sorted_values, [5, 1, 3, 0, 2, 4])


CASE = """
func.func @main(%index: tensor<i32>, %b0: tensor<2xi64>, %b1: tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>) {
  %result0, %result1 = "stablehlo.case"(%index) ({
    "stablehlo.return"(%b0, %b0) : (tensor<2xi64>, tensor<2xi64>) -> ()
  }, {
    "stablehlo.return"(%b1, %b1) : (tensor<2xi64>, tensor<2xi64>) -> ()
  }) : (tensor<i32>) -> (tensor<2xi64>, tensor<2xi64>)
  func.return %result0, %result1 : tensor<2xi64>, tensor<2xi64>
}
"""


@pytest.mark.parametrize(("index", "want"), [(-1, 1), (0, 0), (1, 1), (7, 1)])
def test_case_spec_example(index: int, want: int) -> None:
    """Out-of-range indices (the spec's -1) run the last branch."""
    b0, b1 = np.zeros(2, np.int64), np.ones(2, np.int64)
    for result0, result1 in _both(CASE, np.array(index, np.int32), b0, b1):
        np.testing.assert_array_equal(result0, [want, want])
        np.testing.assert_array_equal(result1, [want, want])


WHILE = """
func.func @main(%init_i: tensor<i64>, %init_sum: tensor<i64>) -> (tensor<i64>, tensor<i64>) {
  %one = stablehlo.constant dense<1> : tensor<i64>
  %ten = stablehlo.constant dense<10> : tensor<i64>
  %results0, %results1 = "stablehlo.while"(%init_i, %init_sum) ({
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %cond = "stablehlo.compare"(%arg0, %ten) {
        comparison_direction = #stablehlo<comparison_direction LT>
      } : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %cond : tensor<i1>
    }, {
    ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
      %new_sum = stablehlo.add %arg1, %one : tensor<i64>
      %new_i = stablehlo.add %arg0, %one : tensor<i64>
      stablehlo.return %new_i, %new_sum : tensor<i64>, tensor<i64>
  }) : (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
  func.return %results0, %results1 : tensor<i64>, tensor<i64>
}
"""


def test_while_spec_example() -> None:
    for i, total in _both(WHILE, np.array(1, np.int64), np.array(0, np.int64)):
        assert (int(i), int(total)) == (10, 9)


BITWISE = """
func.func @main(%a: tensor<4xi64>, %b: tensor<2x2xi64>, %c: tensor<2x2xi32>, %p: tensor<2xi1>,
                %u: tensor<3xui4>) -> (tensor<4xi64>, tensor<2x2xi64>, tensor<2x2xi32>, tensor<2xi1>, tensor<3xui4>) {
  %0 = stablehlo.popcnt %a : tensor<4xi64>
  %1 = stablehlo.count_leading_zeros %b : tensor<2x2xi64>
  %2 = stablehlo.not %c : tensor<2x2xi32>
  %3 = stablehlo.not %p : tensor<2xi1>
  %4 = stablehlo.not %u : tensor<3xui4>
  func.return %0, %1, %2, %3, %4 : tensor<4xi64>, tensor<2x2xi64>, tensor<2x2xi32>, tensor<2xi1>, tensor<3xui4>
}
"""


def test_bitwise_spec_examples() -> None:
    args = (
        np.array([0, 1, 2, 127], np.int64),
        np.array([[0, 1], [128, -1]], np.int64),
        np.array([[1, 2], [3, 4]], np.int32),
        np.array([True, False]),
        np.array([0, 7, 15], np.uint8),  # upstream's interpret/not.mlir, ui4
    )
    for popcnt, clz, inverted, negated, inverted_u4 in _both(BITWISE, *args):
        np.testing.assert_array_equal(popcnt, [0, 1, 1, 7])
        np.testing.assert_array_equal(clz, [[64, 63], [56, 0]])
        np.testing.assert_array_equal(inverted, [[-2, -3], [-4, -5]])
        np.testing.assert_array_equal(negated, [False, True])
        np.testing.assert_array_equal(inverted_u4, [15, 8, 0])


CHLO = """
func.func @main(%x: tensor<7xf32>) -> (tensor<7xf32>, tensor<7xf32>, tensor<7xf32>) {
  %0 = chlo.erf %x : tensor<7xf32> -> tensor<7xf32>
  %1 = chlo.erfc %x : tensor<7xf32> -> tensor<7xf32>
  %2 = chlo.sinh %x : tensor<7xf32> -> tensor<7xf32>
  func.return %0, %1, %2 : tensor<7xf32>, tensor<7xf32>, tensor<7xf32>
}
"""


def test_chlo_math_against_libm() -> None:
    """Upstream's f32 approximations are within a few ulps of the correctly rounded values
    (Python's math, in f64), and the lowered IR computes the same bits."""
    x = np.array([-3.0, -1.5, -0.5, 0.0, 1e-3, 0.75, 2.5], np.float32)
    interpreted, lowered = _both(CHLO, x)
    for got, again in zip(interpreted, lowered, strict=True):
        assert got.tobytes() == again.tobytes()
    for got, function in zip(
        interpreted, (math.erf, math.erfc, math.sinh), strict=True
    ):
        want = np.array([function(float(v)) for v in x])
        np.testing.assert_allclose(got, want, rtol=4e-7, atol=1e-30)


@pytest.mark.parametrize("limit", [1 << 22, 3000, 100])
def test_sort_paths_agree_with_a_stable_sort(
    limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """All pairs at once, in chunks of rows, and the per-pair merge sort (the golden:
    numpy's stable argsort)."""
    from xquant.interpreter.stablehlo import control_flow

    monkeypatch.setattr(control_flow, "PAIRWISE_LIMIT", limit)
    keys = np.random.default_rng(0).integers(0, 5, (3, 50)).astype(np.int64)
    values = np.arange(150, dtype=np.int64).reshape(3, 50)
    text = (
        SORT.replace("2x3xi64", "3x50xi64")
        .replace("GT", "LT")
        .replace("dimension = 0", "dimension = 1")
    )
    sorted_keys, sorted_values = xquant.run(
        xquant.parse_module(text), "main", keys, values
    )
    order = np.argsort(keys, axis=1, kind="stable")
    np.testing.assert_array_equal(sorted_keys, np.take_along_axis(keys, order, 1))
    np.testing.assert_array_equal(sorted_values, np.take_along_axis(values, order, 1))
