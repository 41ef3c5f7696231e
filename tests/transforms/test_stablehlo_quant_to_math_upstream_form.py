"""`stablehlo-legalize-quant-to-math` in upstream's form: chlo broadcasting ops, dynamic shapes, same numbers.

Each program runs in the interpreter before and after the pass on the same
inputs; the storage integers must agree bit for bit (the contract), while the
lowered IR uses upstream's ops (`chlo.broadcast_*`, rank-0 parameters, 1-D
per-axis parameters with `broadcast_dimensions`). Also: the `chlo` ops'
broadcasting semantics, and where upstream's merged-scale requantize is (and
is not) taken because it is exact.
"""

from __future__ import annotations

import numpy as np
import pytest

import xquant
from xquant.dialects.chlo import broadcast_shape
from xquant.dialects.quant.types import UniformQuantizedType
from xquant.interpreter.chlo import align
from xquant.transforms.chlo_legalize_to_stablehlo import legalize_chlo
from xquant.transforms.utils.stablehlo_emitters import merged_requantize

PASS = "stablehlo-legalize-quant-to-math{exact=true}"


def before_and_after(
    text: str, *args: np.ndarray
) -> tuple[str, list[np.ndarray], list[np.ndarray]]:
    """(lowered text, results before the pass, results after it)."""
    module = xquant.parse_module(text)
    before = [np.asarray(r) for r in xquant.run(module, "main", *args)]
    xquant.apply_passes(module, PASS)
    after = [np.asarray(r) for r in xquant.run(module, "main", *args)]
    return xquant.print_module(module), before, after


def assert_same(before: list[np.ndarray], after: list[np.ndarray]) -> None:
    assert len(before) == len(after)
    for b, a in zip(before, after, strict=True):
        np.testing.assert_array_equal(np.asarray(b), np.asarray(a))


def test_broadcast_shape():
    assert broadcast_shape((2, 3), (), None) == (2, 3)
    assert broadcast_shape((2, 3), (3,), None) == (2, 3)
    assert broadcast_shape((2, 3), (2,), (0,)) == (2, 3)
    assert broadcast_shape((2, 3), (2,), None) is None
    assert broadcast_shape((-1, 3), (1, 3), None) == (-1, 3)


def test_align_places_the_lower_rank_operand():
    lhs = np.zeros((2, 3, 4))
    rhs = np.arange(3)
    aligned_lhs, aligned_rhs = align(lhs, rhs, (1,))
    assert aligned_lhs.shape == (2, 3, 4) and aligned_rhs.shape == (1, 3, 1)


def test_chlo_ops_run_with_numpy_broadcasting():
    text = """
    func.func @main(%a: tensor<2x3xi32>, %b: tensor<2xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>) {
      %s = stablehlo.constant dense<5> : tensor<i32>
      %0 = chlo.broadcast_subtract %a, %s : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
      %1 = chlo.broadcast_multiply %a, %b {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
      return %0, %1 : tensor<2x3xi32>, tensor<2x3xi32>
    }
    """
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    b = np.array([10, -1], dtype=np.int32)
    first, second = xquant.run(text, "main", a, b)
    np.testing.assert_array_equal(first, a - 5)
    np.testing.assert_array_equal(second, a * b[:, None])


def test_chlo_integer_ops_wrap():
    text = """
    func.func @main(%a: tensor<2xi8>) -> tensor<2xi8> {
      %s = stablehlo.constant dense<100> : tensor<i8>
      %0 = chlo.broadcast_add %a, %s : (tensor<2xi8>, tensor<i8>) -> tensor<2xi8>
      return %0 : tensor<2xi8>
    }
    """
    (result,) = xquant.run(text, "main", np.array([100, -100], dtype=np.int8))
    np.testing.assert_array_equal(result, np.array([-56, 0], dtype=np.int8))


DYNAMIC_ROUND_TRIP = """
func.func @main(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<?x?xf32>) -> tensor<?x?x!quant.uniform<i8:f32, 0.37:3>>
  %1 = stablehlo.add %0, %0 : (tensor<?x?x!quant.uniform<i8:f32, 0.37:3>>, tensor<?x?x!quant.uniform<i8:f32, 0.37:3>>) -> tensor<?x?x!quant.uniform<i8:f32, 0.37:3>>
  %2 = stablehlo.uniform_dequantize %1 : (tensor<?x?x!quant.uniform<i8:f32, 0.37:3>>) -> tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}
"""


def test_dynamic_shapes_lower_with_chlo_and_keep_the_numbers():
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((3, 5)) * 40).astype(np.float32)
    x[0, :3] = [np.inf, -np.inf, np.nan]
    lowered, before, after = before_and_after(DYNAMIC_ROUND_TRIP, x)
    assert "quant.uniform" not in lowered
    assert "chlo.broadcast_divide %arg0" in lowered
    assert "chlo.broadcast_subtract" in lowered
    assert_same(before, after)


PER_AXIS = """
func.func @main(%arg0: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = stablehlo.uniform_quantize %arg0 : (tensor<4x3xf32>) -> tensor<4x3x!quant.uniform<i8:f32:1, {0.1:-3, 0.5:2, 0.2}>>
  %1 = stablehlo.uniform_quantize %0 : (tensor<4x3x!quant.uniform<i8:f32:1, {0.1:-3, 0.5:2, 0.2}>>) -> tensor<4x3x!quant.uniform<i8:f32:1, {0.05:1, 0.25, 0.1:-4}>>
  %2 = stablehlo.uniform_dequantize %1 : (tensor<4x3x!quant.uniform<i8:f32:1, {0.05:1, 0.25, 0.1:-4}>>) -> tensor<4x3xf32>
  return %2 : tensor<4x3xf32>
}
"""


def test_per_axis_parameters_use_broadcast_dimensions():
    x = np.linspace(-30, 30, 12, dtype=np.float32).reshape(4, 3)
    lowered, before, after = before_and_after(PER_AXIS, x)
    assert "broadcast_dimensions = array<i64: 1>" in lowered
    # Every scale halves: upstream's exact merged-scale requantize (factor 2).
    assert "dense<2.000000e+00> : tensor<3xf32>" in lowered
    assert_same(before, after)


def _q(text: str) -> UniformQuantizedType:
    module = xquant.parse_module(
        f'"test.op"() {{t = !quant.uniform<{text}>}} : () -> ()'
    )
    op = next(iter(module.ops))
    attr = op.attributes["t"]
    assert isinstance(attr, UniformQuantizedType)
    return attr


@pytest.mark.parametrize(
    ("source", "target", "width", "expected"),
    [
        ("i8:f32, 10.0:3", "i8:f32, 5.0:1", 8, True),  # factor 2, offset -5
        ("i8:f32, 5.0:2", "i8:f32, 10.0:1", 8, False),  # factor 1/2: rounds
        ("i32:f32, 1.0:3", "i32:f32, 1.0:1", 32, False),  # i32 values are not all f32
        ("i8:f16, 10.0:3", "i8:f16, 5.0:1", 8, False),  # upstream is f32 only
    ],
)
def test_merged_requantize_only_where_exact(
    source: str, target: str, width: int, expected: bool
):
    found = merged_requantize(_q(source), _q(target), width)
    assert (found is not None) == expected


def test_add_of_i32_storage_keeps_the_exact_sum():
    """Upstream adds i32 storage in i32 (wrapping); the contract clamps the exact sum."""
    text = """
    func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {
      %0 = stablehlo.bitcast_convert %a : (tensor<2xi32>) -> tensor<2x!quant.uniform<i32:f32, 1.0:3>>
      %1 = stablehlo.add %0, %0 : (tensor<2x!quant.uniform<i32:f32, 1.0:3>>, tensor<2x!quant.uniform<i32:f32, 1.0:3>>) -> tensor<2x!quant.uniform<i32:f32, 1.0:3>>
      %2 = stablehlo.bitcast_convert %1 : (tensor<2x!quant.uniform<i32:f32, 1.0:3>>) -> tensor<2xi32>
      return %2 : tensor<2xi32>
    }
    """
    a = np.array([2**31 - 10, -(2**31) + 10], dtype=np.int32)
    lowered, before, after = before_and_after(text, a)
    assert "tensor<2xi64>" in lowered
    assert_same(before, after)
    np.testing.assert_array_equal(after[0], [2**31 - 1, -(2**31)])


def test_requantize_while_changing_axis_is_upstreams_error():
    text = """
    func.func @main(%arg0: tensor<2x2x!quant.uniform<i8:f32:0, {1.0:3, 5.0:2}>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {5.0:1, 10.0:-1}>> {
      %0 = stablehlo.uniform_quantize %arg0 : (tensor<2x2x!quant.uniform<i8:f32:0, {1.0:3, 5.0:2}>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {5.0:1, 10.0:-1}>>
      return %0 : tensor<2x2x!quant.uniform<i8:f32:1, {5.0:1, 10.0:-1}>>
    }
    """
    module = xquant.parse_module(text)
    with pytest.raises(
        Exception, match="Cannot requantize while changing quantization_axis"
    ):
        xquant.apply_passes(module, PASS)


def test_unlowered_op_is_upstreams_legality_error():
    text = """
    func.func @main(%arg0: tensor<2x!quant.uniform<i8:f32, 1.0:17>>) -> tensor<2xi1> {
      %0 = stablehlo.is_finite %arg0 : (tensor<2x!quant.uniform<i8:f32, 1.0:17>>) -> tensor<2xi1>
      return %0 : tensor<2xi1>
    }
    """
    module = xquant.parse_module(text)
    with pytest.raises(
        Exception,
        match=r"failed to legalize operation 'stablehlo\.is_finite' that was explicitly marked illegal",
    ):
        xquant.apply_passes(module, PASS)


def test_quantized_resource_constant_is_the_legality_error():
    """A `dense_resource` constant of a quantized type is not converted (only
    dense literals are): the legality check reports it, the pass does not crash."""
    text = """
    func.func @main() -> tensor<2x!quant.uniform<i8:f32, 0.5>> {
      %0 = stablehlo.constant dense_resource<blob1> : tensor<2x!quant.uniform<i8:f32, 0.5>>
      return %0 : tensor<2x!quant.uniform<i8:f32, 0.5>>
    }
    {-#
      dialect_resources: {
        builtin: {
          blob1: "0x010000000102"
        }
      }
    #-}
    """
    module = xquant.parse_module(text)
    with pytest.raises(
        Exception,
        match=r"failed to legalize operation 'stablehlo\.constant' that was explicitly marked illegal",
    ):
        xquant.apply_passes(module, PASS)


def test_legalize_chlo_gives_stablehlo_with_the_same_numbers():
    """`chlo-legalize-to-stablehlo` (static shapes): broadcast_in_dim + element-wise ops."""
    module = xquant.parse_module(PER_AXIS)
    x = np.linspace(-30, 30, 12, dtype=np.float32).reshape(4, 3)
    (before,) = xquant.run(module, "main", x)
    xquant.apply_passes(module, PASS)
    legalize_chlo(module)
    lowered = xquant.print_module(module)
    assert "chlo." not in lowered and "broadcast_in_dim" in lowered
    (after,) = xquant.run(module, "main", x)
    np.testing.assert_array_equal(np.asarray(before), np.asarray(after))
