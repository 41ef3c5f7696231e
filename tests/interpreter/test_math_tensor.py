"""math and tensor dialects on the vectorized interpreter (golden values from numpy / Python)."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from xdsl.utils.exceptions import InterpretationError

from xquant.interpreter.runner import run

RNG = np.random.default_rng(7)


def unary_fn(op: str, t: str) -> str:
    return f"func.func @main(%a: {t}) -> {t} {{\n  %r = math.{op} %a : {t}\n  func.return %r : {t}\n}}"


def binary_fn(op: str, t: str) -> str:
    return f"func.func @main(%a: {t}, %b: {t}) -> {t} {{\n  %r = math.{op} %a, %b : {t}\n  func.return %r : {t}\n}}"


X = np.array([0.3, 1.7, -2.5, 0.5, -0.5, 2.5, 3.49, -0.0, 100.25, 7.0], np.float32)
POS = np.array([0.3, 1.7, 2.5, 0.5, 4.0, 9.0, 1e-3, 100.0], np.float32)

UNARY = [
    ("floor", np.floor, X),
    ("ceil", np.ceil, X),
    ("trunc", np.trunc, X),
    ("absf", np.abs, X),
    ("sqrt", np.sqrt, POS),
    ("rsqrt", lambda v: np.float32(1) / np.sqrt(v), POS),
    ("exp", np.exp, X),
    ("exp2", np.exp2, X),
    ("expm1", np.expm1, X),
    ("log", np.log, POS),
    ("log2", np.log2, POS),
    ("log10", np.log10, POS),
    ("log1p", np.log1p, POS),
    ("tanh", np.tanh, X),
    ("sin", np.sin, X),
    ("cos", np.cos, X),
    ("tan", np.tan, X),
    ("atan", np.arctan, X),
    ("cbrt", np.cbrt, X),
    ("erf", lambda v: np.array([math.erf(float(e)) for e in v]).astype(np.float32), X),
]


@pytest.mark.parametrize(("op", "ref", "x"), UNARY, ids=[u[0] for u in UNARY])
def test_math_unary_f32(op: str, ref, x: np.ndarray) -> None:
    t = f"tensor<{x.size}xf32>"
    (got,) = run(unary_fn(op, t), "main", x)
    assert got.dtype == np.float32
    with np.errstate(over="ignore"):  # the reference overflows to inf, as it should
        want = ref(x)
    np.testing.assert_array_equal(got, want)
    (s,) = run(unary_fn(op, "f32"), "main", float(x[1]))
    assert s.dtype == np.float32 and s == ref(x[1:2])[0]


def test_roundeven_and_round() -> None:
    x = np.array(
        [0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997, -0.3, 3.5, np.nan, -np.inf], np.float32
    )
    t = "tensor<10xf32>"
    (even,) = run(unary_fn("roundeven", t), "main", x)
    np.testing.assert_array_equal(
        even, [0, 2, 2, -0.0, -2, 0, -0.0, 4, np.nan, -np.inf]
    )
    assert np.signbit(even[3]) and np.signbit(even[6])
    (away,) = run(unary_fn("round", t), "main", x)
    np.testing.assert_array_equal(away, [1, 2, 3, -1, -3, 0, -0.0, 4, np.nan, -np.inf])
    assert np.signbit(away[6])
    (s,) = run(unary_fn("round", "f32"), "main", -2.5)
    assert s == -3.0


def test_math_bf16_computed_and_rounded() -> None:
    x = np.array([0.3, 1.7, -2.5, 2.5], ml_dtypes.bfloat16)
    (got,) = run(unary_fn("exp", "tensor<4xbf16>"), "main", x)
    assert got.dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(
        got, np.exp(x.astype(np.float32)).astype(ml_dtypes.bfloat16)
    )
    (got,) = run(unary_fn("roundeven", "tensor<4xbf16>"), "main", x)
    np.testing.assert_array_equal(got.astype(np.float32), [0, 2, -2, 2])


@pytest.mark.parametrize(
    ("op", "ref"),
    [("atan2", np.arctan2), ("powf", np.power), ("copysign", np.copysign)],
)
def test_math_binary(op: str, ref) -> None:
    a = np.abs(RNG.standard_normal(12)).astype(np.float32) + 0.1
    b = RNG.standard_normal(12).astype(np.float32)
    (got,) = run(binary_fn(op, "tensor<12xf32>"), "main", a, b)
    np.testing.assert_array_equal(got, ref(a, b))


def test_fma() -> None:
    a = np.array([1 + 2**-12, 3.0], np.float32)
    b = np.array([1 - 2**-12, 0.5], np.float32)
    c = np.array([-1.0, 1.0], np.float32)
    text = "func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2xf32>) -> tensor<2xf32> {\n %r = math.fma %a, %b, %c : tensor<2xf32>\n func.return %r : tensor<2xf32>\n}"
    (got,) = run(text, "main", a, b, c)
    # fused: the product is not rounded before the add (a*b-1 = -2^-24 exactly)
    np.testing.assert_array_equal(got, [np.float32(-(2.0**-24)), 2.5])


def test_absi_wraps() -> None:
    text = "func.func @main(%a: tensor<4xi4>) -> tensor<4xi4> {\n %r = math.absi %a : tensor<4xi4>\n func.return %r : tensor<4xi4>\n}"
    (got,) = run(text, "main", np.array([-8, -7, 3, 0], np.int8))
    np.testing.assert_array_equal(got, [-8, 7, 3, 0])


def test_ctpop_ctlz_cttz() -> None:
    vals = np.array([0, 1, -1, 64, 6], np.int8)
    for op, ref in [
        ("ctpop", [bin(v & 0xFF).count("1") for v in vals.tolist()]),
        ("ctlz", [8 - (v & 0xFF).bit_length() for v in vals.tolist()]),
        (
            "cttz",
            [
                8 if v == 0 else ((v & 0xFF) & -(v & 0xFF)).bit_length() - 1
                for v in vals.tolist()
            ],
        ),
    ]:
        text = f"func.func @main(%a: tensor<5xi8>) -> tensor<5xi8> {{\n %r = math.{op} %a : tensor<5xi8>\n func.return %r : tensor<5xi8>\n}}"
        (got,) = run(text, "main", vals)
        np.testing.assert_array_equal(got, ref, err_msg=op)


# ------------------------------------------------------------------------- tensor


def test_tensor_empty_splat_from_elements_dim() -> None:
    text = """
    func.func @main(%x: f32, %n: index, %t: tensor<?x3xi8>) -> (tensor<2x3xf32>, tensor<?xf32>, tensor<2x2xf32>, index, tensor<2xi8>) {
      %e = tensor.empty() : tensor<2x3xf32>
      %s = tensor.splat %x[%n] : tensor<?xf32>
      %c1 = arith.constant 1.0 : f32
      %f = tensor.from_elements %x, %c1, %c1, %x : tensor<2x2xf32>
      %c0 = arith.constant 0 : index
      %d = tensor.dim %t, %c0 : tensor<?x3xi8>
      %i1 = arith.constant 1 : index
      %a = tensor.extract %t[%i1, %i1] : tensor<?x3xi8>
      %b = tensor.from_elements %a, %a : tensor<2xi8>
      func.return %e, %s, %f, %d, %b : tensor<2x3xf32>, tensor<?xf32>, tensor<2x2xf32>, index, tensor<2xi8>
    }
    """
    t = np.arange(12, dtype=np.int8).reshape(4, 3)
    e, s, f, d, b = run(text, "main", 2.5, 3, t)
    assert e.shape == (2, 3) and e.dtype == np.float32
    np.testing.assert_array_equal(s, [2.5, 2.5, 2.5])
    np.testing.assert_array_equal(f, [[2.5, 1.0], [1.0, 2.5]])
    assert d == 4
    np.testing.assert_array_equal(b, [4, 4])


def test_tensor_insert_does_not_mutate_input() -> None:
    text = """
    func.func @main(%t: tensor<2x2xi32>, %v: i32) -> tensor<2x2xi32> {
      %i = arith.constant 1 : index
      %r = tensor.insert %v into %t[%i, %i] : tensor<2x2xi32>
      func.return %r : tensor<2x2xi32>
    }
    """
    t = np.zeros((2, 2), np.int32)
    (r,) = run(text, "main", t, 7)
    np.testing.assert_array_equal(r, [[0, 0], [0, 7]])
    np.testing.assert_array_equal(t, 0)


def test_extract_insert_slice_static_dynamic() -> None:
    text = """
    func.func @main(%t: tensor<6x8xf32>, %o: index, %n: index) -> (tensor<2x3xf32>, tensor<?x4xf32>, tensor<3xf32>, tensor<6x8xf32>) {
      %a = tensor.extract_slice %t[1, 2] [2, 3] [1, 1] : tensor<6x8xf32> to tensor<2x3xf32>
      %b = tensor.extract_slice %t[%o, 0] [%n, 4] [2, 2] : tensor<6x8xf32> to tensor<?x4xf32>
      %c = tensor.extract_slice %t[5, 1] [1, 3] [1, 2] : tensor<6x8xf32> to tensor<3xf32>
      %z = arith.constant dense<-1.0> : tensor<2x3xf32>
      %d = tensor.insert_slice %z into %t[%o, 4] [2, 3] [2, 1] : tensor<2x3xf32> into tensor<6x8xf32>
      func.return %a, %b, %c, %d : tensor<2x3xf32>, tensor<?x4xf32>, tensor<3xf32>, tensor<6x8xf32>
    }
    """
    t = np.arange(48, dtype=np.float32).reshape(6, 8)
    a, b, c, d = run(text, "main", t, 1, 3)
    np.testing.assert_array_equal(a, t[1:3, 2:5])
    np.testing.assert_array_equal(b, t[1:6:2, 0:8:2])
    np.testing.assert_array_equal(c, t[5, 1:6:2])
    e = t.copy()
    e[1:4:2, 4:7] = -1
    np.testing.assert_array_equal(d, e)
    np.testing.assert_array_equal(t, np.arange(48, dtype=np.float32).reshape(6, 8))


def test_reshapes_concat_cast_pad() -> None:
    text = """
    func.func @main(%t: tensor<2x3x4xi16>, %u: tensor<2x2x4xi16>) -> (tensor<6x4xi16>, tensor<2x3x2x2xi16>, tensor<2x5x4xi16>, tensor<?x3x4xi16>, tensor<4x5x4xi16>, tensor<24xi16>) {
      %a = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xi16> into tensor<6x4xi16>
      %b = tensor.expand_shape %t [[0], [1], [2, 3]] output_shape [2, 3, 2, 2] : tensor<2x3x4xi16> into tensor<2x3x2x2xi16>
      %c = tensor.concat dim(1) %t, %u : (tensor<2x3x4xi16>, tensor<2x2x4xi16>) -> tensor<2x5x4xi16>
      %d = tensor.cast %t : tensor<2x3x4xi16> to tensor<?x3x4xi16>
      %z = arith.constant 9 : i16
      %e = tensor.pad %t low[1, 0, 0] high[1, 2, 0] {
      ^bb0(%i: index, %j: index, %k: index):
        tensor.yield %z : i16
      } : tensor<2x3x4xi16> to tensor<4x5x4xi16>
      %shape = arith.constant dense<[24]> : tensor<1xindex>
      %f = tensor.reshape %t(%shape) : (tensor<2x3x4xi16>, tensor<1xindex>) -> tensor<24xi16>
      func.return %a, %b, %c, %d, %e, %f : tensor<6x4xi16>, tensor<2x3x2x2xi16>, tensor<2x5x4xi16>, tensor<?x3x4xi16>, tensor<4x5x4xi16>, tensor<24xi16>
    }
    """
    t = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    u = -np.arange(16, dtype=np.int16).reshape(2, 2, 4)
    a, b, c, d, e, f = run(text, "main", t, u)
    np.testing.assert_array_equal(a, t.reshape(6, 4))
    np.testing.assert_array_equal(b, t.reshape(2, 3, 2, 2))
    np.testing.assert_array_equal(c, np.concatenate([t, u], axis=1))
    np.testing.assert_array_equal(d, t)
    np.testing.assert_array_equal(
        e, np.pad(t, ((1, 1), (0, 2), (0, 0)), constant_values=9)
    )
    np.testing.assert_array_equal(f, t.reshape(24))


def test_tensor_extract_out_of_bounds_is_an_error_not_a_wrap() -> None:
    """numpy would read index -1 as the last element; tensor.extract out of bounds is an error."""
    text = """func.func @main(%t: tensor<3xi32>, %i: index) -> i32 {
  %0 = tensor.extract %t[%i] : tensor<3xi32>
  func.return %0 : i32
}"""
    t = np.array([1, 2, 3], np.int32)
    assert run(text, "main", t, 2)[0] == 3
    for bad in (-1, 3):
        with pytest.raises(
            InterpretationError, match=r"'tensor\.extract' op: index out of bounds"
        ):
            run(text, "main", t, bad)
