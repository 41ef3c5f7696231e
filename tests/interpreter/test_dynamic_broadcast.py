"""The interpreter on stablehlo.dynamic_broadcast_in_dim, and on the dynamic
`chlo.constant_like` expansion that builds it from `shape.shape_of`.

References are numpy broadcasts written from the spec (operand dimension i goes
to result dimension broadcast_dimensions[i]); shapes the operand cannot
broadcast to are located diagnostics.
"""

from __future__ import annotations

import numpy as np
import pytest

import xquant
from xquant.interpreter.errors import OpInterpretationError

CASES = [
    # operand shape, dims, output dimensions, index element
    ((3,), [1], [2, 3], "index"),
    ((3, 1), [0, 1], [3, 4], "i64"),
    ((), [], [2, 2], "i32"),
    ((2, 3), [1, 0], [3, 2], "index"),  # a transposing placement
]


def _text(shape: tuple[int, ...], dims: list[int], rank: int, index: str) -> str:
    operand = "tensor<" + "".join(f"{n}x" for n in shape) + "f32>"
    result = "tensor<" + "?x" * rank + "f32>"
    return f"""func.func @main(%x: {operand}, %s: tensor<{rank}x{index}>) -> {result} {{
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = {dims} : ({operand}, tensor<{rank}x{index}>) -> {result}
  func.return %0 : {result}
}}"""


@pytest.mark.parametrize(("shape", "dims", "out", "index"), CASES)
def test_dynamic_broadcast_in_dim(
    shape: tuple[int, ...], dims: list[int], out: list[int], index: str
) -> None:
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    placed = np.transpose(x, np.argsort(dims)) if dims else x
    expanded = [1] * len(out)
    for i, d in enumerate(dims):
        expanded[d] = shape[i]
    want = np.broadcast_to(placed.reshape(expanded), out)
    dtype = np.int64 if index != "i32" else np.int32
    (got,) = xquant.run(
        xquant.parse_module(_text(shape, dims, len(out), index)),
        "main",
        x,
        np.array(out, dtype),
    )
    np.testing.assert_array_equal(np.asarray(got), want)
    assert np.asarray(got).shape == tuple(out)


def test_dynamic_broadcast_in_dim_bad_shape() -> None:
    module = xquant.parse_module(_text((3,), [1], 2, "i64"))
    with pytest.raises(OpInterpretationError, match=r"output dimensions \[2, 4\]"):
        xquant.run(module, "main", np.zeros(3, np.float32), np.array([2, 4]))


def test_constant_like_dynamic_expansion_runs() -> None:
    text = """func.func @main(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = "chlo.constant_like"(%x) { value = 1.5 : f32 } : (tensor<?x?xf32>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}"""
    x = np.zeros((2, 3), np.float32)
    (got,) = xquant.run(xquant.parse_module(text), "main", x)
    np.testing.assert_array_equal(np.asarray(got), np.full((2, 3), 1.5, np.float32))
    lowered = xquant.parse_module(text)
    xquant.apply_passes(lowered, "chlo-legalize-to-stablehlo")
    names = [op.name for op in lowered.walk()]
    assert "shape.shape_of" in names and "stablehlo.dynamic_broadcast_in_dim" in names
    (got,) = xquant.run(lowered, "main", x)
    np.testing.assert_array_equal(np.asarray(got), np.full((2, 3), 1.5, np.float32))


def test_dynamic_reshape() -> None:
    text = """func.func @main(%x: tensor<2x3xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}"""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    (got,) = xquant.run(xquant.parse_module(text), "main", x, np.array([3, 2]))
    np.testing.assert_array_equal(np.asarray(got), x.reshape(3, 2))
    with pytest.raises(OpInterpretationError, match=r"output shape \[4, 2\]"):
        xquant.run(xquant.parse_module(text), "main", x, np.array([4, 2]))


def test_get_dimension_size() -> None:
    text = """func.func @main(%x: tensor<?x?xf32>) -> tensor<i32> {
  %0 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}"""
    (got,) = xquant.run(xquant.parse_module(text), "main", np.zeros((2, 7), np.float32))
    assert np.asarray(got).dtype == np.int32 and int(got) == 7


def test_constant_like_bounded_expansion_runs() -> None:
    text = """func.func @main(%x: tensor<2xi64>, %n: tensor<i32>) -> tensor<?xi32, #stablehlo.bounds<2>> {
  %0 = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<2xi64>, tensor<i32>) -> tensor<?xi64, #stablehlo.bounds<2>>
  %1 = "chlo.constant_like"(%0) <{value = 7 : i32}> : (tensor<?xi64, #stablehlo.bounds<2>>) -> tensor<?xi32, #stablehlo.bounds<2>>
  func.return %1 : tensor<?xi32, #stablehlo.bounds<2>>
}"""
    lowered = xquant.parse_module(text)
    xquant.apply_passes(lowered, "chlo-legalize-to-stablehlo")
    assert "stablehlo.broadcast_in_dim" in {op.name for op in lowered.walk()}
    args = (np.array([5, 6], np.int64), np.array(1, np.int32))
    for module in (xquant.parse_module(text), lowered):
        (got,) = xquant.run(module, "main", *args)
        np.testing.assert_array_equal(np.asarray(got), np.array([7], np.int32))


def test_erf_inv_bounded_matches_static() -> None:
    """chlo.erf_inv on a bounded shape (upstream's set_dimension_size'd constants)
    gives the static expansion's bits on the run-time rows."""
    bounded = "tensor<?x16xf32, #stablehlo.bounds<16, ?>>"
    text = f"""func.func @main(%x: tensor<16x16xf32>, %n: tensor<i32>) -> {bounded} {{
  %0 = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<16x16xf32>, tensor<i32>) -> {bounded}
  %1 = chlo.erf_inv %0 : {bounded} -> {bounded}
  func.return %1 : {bounded}
}}"""
    static = """func.func @main(%x: tensor<5x16xf32>) -> tensor<5x16xf32> {
  %1 = chlo.erf_inv %x : tensor<5x16xf32> -> tensor<5x16xf32>
  func.return %1 : tensor<5x16xf32>
}"""
    x = np.linspace(-1, 1, 256, dtype=np.float32).reshape(16, 16)
    (want,) = xquant.run(xquant.parse_module(static), "main", x[:5])
    lowered = xquant.parse_module(text)
    xquant.apply_passes(lowered, "chlo-legalize-to-stablehlo")
    names = {op.name for op in lowered.walk()}
    assert "stablehlo.set_dimension_size" in names and "chlo.erf_inv" not in names
    for module in (xquant.parse_module(text), lowered):
        (got,) = xquant.run(module, "main", x, np.array(5, np.int32))
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
