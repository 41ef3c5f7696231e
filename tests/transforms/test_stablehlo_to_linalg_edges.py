"""`stablehlo-legalize-to-linalg` on the element types where lowerings go wrong easily.

Each program runs in the interpreter before and after the pass; both must
give the golden values written here from the StableHLO spec (booleans order
false < true; float -> integer converts truncate, saturate and map NaN to 0;
sign keeps the sign of zero). Where `mlir-opt` is installed the lowered text
must also parse and verify upstream.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

import xquant
from tests.upstream import mlir_opt

I64_MAX, I64_MIN = 2**63 - 1, -(2**63)
F, T = False, True

CASES: dict[str, tuple[str, tuple[Any, ...], list[Any]]] = {
    "bool_compare_is_unsigned": (
        """func.func @main(%a: tensor<4xi1>, %b: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = stablehlo.compare LT, %a, %b, UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = stablehlo.compare GT, %a, %b, UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = stablehlo.compare LE, %a, %b, UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %3 = stablehlo.compare GE, %a, %b, UNSIGNED : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  func.return %0, %1, %2, %3 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}""",
        (np.array([F, F, T, T]), np.array([F, T, F, T])),
        [[F, T, F, F], [F, F, T, F], [T, T, F, T], [T, F, T, T]],
    ),
    "bool_clamp": (
        """func.func @main(%lo: tensor<i1>, %a: tensor<4xi1>, %hi: tensor<i1>) -> tensor<4xi1> {
  %0 = stablehlo.clamp %lo, %a, %hi : (tensor<i1>, tensor<4xi1>, tensor<i1>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}""",
        (np.array(F), np.array([F, T, F, T]), np.array(T)),
        [[F, T, F, T]],
    ),
    "bf16_to_f16": (
        """func.func @main(%a: tensor<4xbf16>) -> tensor<4xf16> {
  %0 = stablehlo.convert %a : (tensor<4xbf16>) -> tensor<4xf16>
  func.return %0 : tensor<4xf16>
}""",
        (np.array([1.5, 1e5, -3e-8, 7.0], ml_dtypes.bfloat16),),
        # 1e5 (bf16 99840) overflows f16 to inf; bf16(-3e-8) is just above half
        # of f16's smallest subnormal 2^-24, so it rounds to -2^-24.
        [np.array([1.5, np.inf, -(2.0**-24), 7.0], np.float16)],
    ),
    "f16_to_i16_and_i64_saturate": (
        """func.func @main(%a: tensor<5xf16>) -> (tensor<5xi16>, tensor<5xi64>) {
  %0 = stablehlo.convert %a : (tensor<5xf16>) -> tensor<5xi16>
  %1 = stablehlo.convert %a : (tensor<5xf16>) -> tensor<5xi64>
  func.return %0, %1 : tensor<5xi16>, tensor<5xi64>
}""",
        (np.array([40000, 65504, -65504, np.inf, 32752], np.float16),),
        [
            [32767, 32767, -32768, 32767, 32752],
            [40000, 65504, -65504, I64_MAX, 32752],
        ],
    ),
    "f32_f64_to_i64_saturate": (
        """func.func @main(%a: tensor<4xf32>, %b: tensor<4xf64>) -> (tensor<4xi64>, tensor<4xi64>) {
  %0 = stablehlo.convert %a : (tensor<4xf32>) -> tensor<4xi64>
  %1 = stablehlo.convert %b : (tensor<4xf64>) -> tensor<4xi64>
  func.return %0, %1 : tensor<4xi64>, tensor<4xi64>
}""",
        (
            np.array([1e30, -1e30, 2.0**62, np.nan], np.float32),
            np.array([2.0**63, -1e300, 2.0**63 - 1024, -np.inf]),
        ),
        [[I64_MAX, I64_MIN, 2**62, 0], [I64_MAX, I64_MIN, 2**63 - 1024, I64_MIN]],
    ),
    "reduce_promotes_i8_to_i32": (
        """func.func @main(%x: tensor<3x4xi8>, %z: tensor<i8>) -> tensor<3xi32> {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<3x4xi8>, tensor<i8>) -> tensor<3xi32>
   reducer(%a: tensor<i32>, %b: tensor<i32>)  {
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }
  func.return %0 : tensor<3xi32>
}""",
        (
            np.array([[127] * 4, [-128] * 4, [1, 2, 3, 4]], np.int8),
            np.array(100, np.int8),
        ),
        [[608, -412, 110]],  # summed in i32: no i8 wrap
    ),
    "sign_keeps_signed_zero": (
        """func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.sign %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}""",
        (np.array([-0.0, 0.0, -2, np.nan], np.float32),),
        [np.array([-0.0, 0.0, -1.0, np.nan], np.float32)],
    ),
    "i32_divide_by_zero_and_overflow": (
        """func.func @main(%a: tensor<5xi32>, %b: tensor<5xi32>) -> tensor<5xi32> {
  %0 = stablehlo.divide %a, %b : tensor<5xi32>
  func.return %0 : tensor<5xi32>
}""",
        (
            np.array([7, -7, 5, -(2**31), -(2**31)], np.int32),
            np.array([2, 2, 0, -1, 1], np.int32),
        ),
        # truncating; x / 0 = -1; MIN / -1 = MIN (XLA's semantics, upstream's lowering)
        [np.array([3, -3, -1, -(2**31), -(2**31)], np.int32)],
    ),
    "bitcast_convert_expand_and_contract": (
        """func.func @main(%a: tensor<2xi32>, %b: tensor<2x2xi8>) -> (tensor<2x4xi8>, tensor<2xi16>) {
  %0 = stablehlo.bitcast_convert %a : (tensor<2xi32>) -> tensor<2x4xi8>
  %1 = stablehlo.bitcast_convert %b : (tensor<2x2xi8>) -> tensor<2xi16>
  func.return %0, %1 : tensor<2x4xi8>, tensor<2xi16>
}""",
        (
            np.array([0x01020304, -2], np.int32),
            np.array([[1, 2], [-1, -128]], np.int8),
        ),
        # little-endian, as numpy views
        [
            np.array([[4, 3, 2, 1], [-2, -1, -1, -1]], np.int8),
            np.array([0x0201, -32513], np.int16),
        ],
    ),
    "reduce_window_captured_constant_unit_window_dim": (
        """func.func @main(%a: tensor<2x4xf32>, %z: tensor<f32>) -> tensor<2x3xf32> {
  %c = stablehlo.constant dense<5.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%a, %z) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.maximum %x, %y : tensor<f32>
    %m = stablehlo.minimum %s, %c : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2>} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}""",
        (np.array([[1, 2, 3, 4], [5, 6, 7, 8]], np.float32), np.array(0, np.float32)),
        # the window's maximum clamped to the captured 5 (associative, so the
        # interpreter's and the lowering's reduction orders agree)
        [np.array([[2, 3, 4], [5, 5, 5]], np.float32)],
    ),
    "reduce_window_base_dilation": (
        """func.func @main(%a: tensor<3xi32>, %z: tensor<i32>) -> tensor<4xi32> {
  %0 = "stablehlo.reduce_window"(%a, %z) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %s = stablehlo.add %x, %y : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 2>, base_dilations = array<i64: 2>} : (tensor<3xi32>, tensor<i32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}""",
        (np.array([1, 2, 3], np.int32), np.array(10, np.int32)),
        # the dilated input [1, 10, 2, 10, 3] (holes are the init), windows of two, plus the init
        [np.array([21, 22, 22, 23], np.int32)],
    ),
    # Unsigned tensors go through signless ones (unrealized casts) and unsigned arith ops.
    "unsigned_divide_max_convert_compare": (
        """func.func @main(%a: tensor<4xui32>, %b: tensor<4xui32>) -> (tensor<4xui32>, tensor<4xui32>, tensor<4xui64>, tensor<4xi1>) {
  %0 = stablehlo.divide %a, %b : tensor<4xui32>
  %1 = stablehlo.maximum %a, %b : tensor<4xui32>
  %2 = stablehlo.convert %a : (tensor<4xui32>) -> tensor<4xui64>
  %3 = stablehlo.compare LT, %a, %b, UNSIGNED : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  func.return %0, %1, %2, %3 : tensor<4xui32>, tensor<4xui32>, tensor<4xui64>, tensor<4xi1>
}""",
        (
            np.array([7, 5, 4000000000, 9], np.uint32),
            np.array([2, 1, 3, 4000000000], np.uint32),
        ),
        # 4000000000 is above the i32 range: signed ops would get these wrong.
        [
            np.array([3, 5, 1333333333, 0], np.uint32),
            np.array([7, 5, 4000000000, 4000000000], np.uint32),
            np.array([7, 5, 4000000000, 9], np.uint64),
            [F, F, F, T],
        ],
    ),
    # f32 NHWC windows become linalg.pooling_nhwc_{max,sum,min}, as upstream.
    "reduce_window_nhwc_pooling": (
        """func.func @main(%x: tensor<1x4x4x1xf32>) -> (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %pinf = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %ninf) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x4x4x1xf32>, tensor<f32>) -> tensor<1x2x2x1xf32>
  %1 = "stablehlo.reduce_window"(%x, %zero) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %b, %a : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x4x4x1xf32>, tensor<f32>) -> tensor<1x2x2x1xf32>
  %2 = "stablehlo.reduce_window"(%x, %pinf) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.minimum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 1, 1, 1>, window_dilations = array<i64: 1, 2, 2, 1>} : (tensor<1x4x4x1xf32>, tensor<f32>) -> tensor<1x2x2x1xf32>
  func.return %0, %1, %2 : tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>
}""",
        (np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1),),
        # x[i, j] = 4i + j. Strided 2x2 windows: {0,1,4,5}, {2,3,6,7},
        # {8,9,12,13}, {10,11,14,15}; dilated ones start at (i, j) and take
        # (i, j), (i, j+2), (i+2, j), (i+2, j+2): their minimum is 4i + j.
        [
            np.array([5, 7, 13, 15], np.float32).reshape(1, 2, 2, 1),
            np.array([10, 18, 42, 50], np.float32).reshape(1, 2, 2, 1),
            np.array([0, 1, 4, 5], np.float32).reshape(1, 2, 2, 1),
        ],
    ),
    "reduce_window_ndhwc_pooling": (
        """func.func @main(%x: tensor<1x2x2x2x1xf32>, %init: tensor<f32>) -> tensor<1x1x1x1x1xf32> {
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 2, 1>} : (tensor<1x2x2x2x1xf32>, tensor<f32>) -> tensor<1x1x1x1x1xf32>
  func.return %0 : tensor<1x1x1x1x1xf32>
}""",
        (
            np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2, 1),
            np.array(100, np.float32),
        ),
        [np.array(128, np.float32).reshape(1, 1, 1, 1, 1)],
    ),
}


def same_bits(got: Any, want: Any) -> bool:
    got, want = np.asarray(got), np.asarray(want, dtype=np.asarray(got).dtype)
    if got.dtype.kind == "f" or got.dtype == ml_dtypes.bfloat16:
        return got.tobytes() == want.tobytes() or (
            np.array_equal(np.isnan(got), np.isnan(want))
            and np.array_equal(
                np.signbit(got[~np.isnan(got)]), np.signbit(want[~np.isnan(want)])
            )
            and np.array_equal(got[~np.isnan(got)], want[~np.isnan(want)])
        )
    return np.array_equal(got, want)


@pytest.mark.parametrize("name", sorted(CASES))
def test_original_and_lowered_give_the_golden_values(name: str) -> None:
    text, args, golden = CASES[name]
    lowered = xquant.apply_passes(
        xquant.parse_module(text), "stablehlo-legalize-to-linalg"
    )
    assert not any(op.name.startswith("stablehlo.") for op in lowered.walk())
    for module in (xquant.parse_module(text), lowered):
        results = xquant.run(module, "main", *args)
        assert len(results) == len(golden)
        for got, want in zip(results, golden, strict=True):
            assert same_bits(got, want), (name, got, want)


@pytest.mark.parametrize("name", sorted(CASES))
def test_primitive_ops_give_the_golden_values(name: str) -> None:
    """`enable-primitive-ops` (linalg.map, variadic linalg.reduce) keeps the numbers."""
    text, args, golden = CASES[name]
    lowered = xquant.apply_passes(
        xquant.parse_module(text),
        "stablehlo-legalize-to-linalg{enable-primitive-ops=true}",
    )
    assert not any(op.name.startswith("stablehlo.") for op in lowered.walk())
    results = xquant.run(xquant.parse_module(str(lowered)), "main", *args)
    for got, want in zip(results, golden, strict=True):
        assert same_bits(got, want), (name, got, want)


@pytest.mark.parametrize("name", sorted(CASES))
def test_lowered_text_verifies_upstream(name: str) -> None:
    module = xquant.parse_module(CASES[name][0])
    lowered = xquant.apply_passes(module, "stablehlo-legalize-to-linalg")
    mlir_opt.assert_verifies_upstream(str(lowered))
    primitive = xquant.apply_passes(
        xquant.parse_module(CASES[name][0]),
        "stablehlo-legalize-to-linalg{enable-primitive-ops=true}",
    )
    mlir_opt.assert_verifies_upstream(str(primitive))


REDUCE_PRECISION = """func.func @main(%x: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %0 = stablehlo.reduce_precision %x, format = e5m10 : tensor<6xf32>
  %1 = stablehlo.reduce_precision %x, format = e8m7 : tensor<6xf32>
  func.return %0, %1 : tensor<6xf32>, tensor<6xf32>
}"""


@pytest.mark.parametrize("options", ["", "{enable-primitive-ops=true}"])
def test_reduce_precision_rounds_like_narrow_floats(options: str) -> None:
    """e5m10 is float16's format and e8m7 bfloat16's: on values in their normal
    range (or beyond it: infinity) the lowering rounds as ml_dtypes' casts do;
    below the smallest normal it flushes to zero (XLA's reduce_precision has no
    subnormals). The interpreter does not run `stablehlo.reduce_precision`."""
    x = np.array(
        [1 + 2.0**-11 + 2.0**-20, -3.14159, 65520.0, 1e-8, np.nan, 3.0e38], np.float32
    )
    lowered = xquant.apply_passes(
        xquant.parse_module(REDUCE_PRECISION), "stablehlo-legalize-to-linalg" + options
    )
    assert not any(op.name.startswith("stablehlo.") for op in lowered.walk())
    half, bf16 = xquant.run(lowered, "main", x)
    with np.errstate(over="ignore"):  # 65520 and 3e38 overflow float16 to inf
        want_half = x.astype(np.float16).astype(np.float32)
    want_half[3] = 0.0  # 1e-8 is below float16's smallest normal 2^-14
    want_bf16 = x.astype(ml_dtypes.bfloat16).astype(np.float32)
    assert same_bits(half, want_half), half
    assert same_bits(bf16, want_bf16), bf16


@pytest.mark.parametrize(
    ("config", "lhs_shape", "rhs_shape"),
    [("ijk,ikm->ijm", (2, 3, 4), (2, 4, 5)), ("ij,kj->ik", (3, 4), (2, 4))],
)
def test_einsum_matches_numpy(
    config: str, lhs_shape: tuple[int, ...], rhs_shape: tuple[int, ...]
) -> None:
    """einsum lowers to one generic; numpy's einsum is the golden (the
    interpreter does not run `stablehlo.einsum`)."""
    lhs = np.arange(np.prod(lhs_shape), dtype=np.int32).reshape(lhs_shape) - 7
    rhs = np.arange(np.prod(rhs_shape), dtype=np.int32).reshape(rhs_shape) % 5
    want = np.einsum(config, lhs, rhs).astype(np.int32)

    def tensor(shape: tuple[int, ...]) -> str:
        return "tensor<" + "x".join(map(str, shape)) + "xi32>"

    text = f"""func.func @main(%a: {tensor(lhs_shape)}, %b: {tensor(rhs_shape)}) -> {tensor(want.shape)} {{
  %0 = "stablehlo.einsum"(%a, %b) {{einsum_config = "{config}"}} : ({tensor(lhs_shape)}, {tensor(rhs_shape)}) -> {tensor(want.shape)}
  func.return %0 : {tensor(want.shape)}
}}"""
    lowered = xquant.apply_passes(
        xquant.parse_module(text), "stablehlo-legalize-to-linalg"
    )
    assert not any(op.name.startswith("stablehlo.") for op in lowered.walk())
    (got,) = xquant.run(lowered, "main", lhs, rhs)
    assert np.array_equal(got, want)


def test_resource_constant_in_a_reducer_is_left_unlowered() -> None:
    """A `dense_resource` constant in a reducer body has no scalar lowering
    here: the reduce stays as it is (it used to fail with an internal error)."""
    text = """func.func @main(%a: tensor<4xf32>) -> tensor<f32> {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%a init: %init) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   reducer(%x: tensor<f32>, %y: tensor<f32>) {
    %c = stablehlo.constant dense_resource<blob1> : tensor<f32>
    %s = stablehlo.add %x, %c : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  func.return %r : tensor<f32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x0400000000000040"
    }
  }
#-}"""
    lowered = xquant.apply_passes(
        xquant.parse_module(text), "stablehlo-legalize-to-linalg"
    )
    assert any(op.name == "stablehlo.reduce" for op in lowered.walk())
