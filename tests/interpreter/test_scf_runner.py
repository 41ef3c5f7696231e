"""scf (tiled code equals untiled), the runner's argument checks and the dense literal helpers."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from xquant.interpreter.runner import format_dense_literal, load_dense_literal, run

RNG = np.random.default_rng(5)

UNTILED = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: tensor<8x12xf32>) -> tensor<8x12xf32> {
  %e = tensor.empty() : tensor<8x12xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x12xf32>) outs(%e : tensor<8x12xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.25 : f32
    %m = arith.mulf %a, %c : f32
    %r0 = math.roundeven %m : f32
    linalg.yield %r0 : f32
  } -> tensor<8x12xf32>
  func.return %r : tensor<8x12xf32>
}
"""

TILE_BODY = """
      %t = tensor.extract_slice %x[%i, %j] [4, 6] [1, 1] : tensor<8x12xf32> to tensor<4x6xf32>
      %e = tensor.empty() : tensor<4x6xf32>
      %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%t : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
      ^bb0(%a: f32, %o: f32):
        %c = arith.constant 0.25 : f32
        %m = arith.mulf %a, %c : f32
        %r0 = math.roundeven %m : f32
        linalg.yield %r0 : f32
      } -> tensor<4x6xf32>
"""

TILED_FOR = f"""
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: tensor<8x12xf32>) -> tensor<8x12xf32> {{
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %init = tensor.empty() : tensor<8x12xf32>
  %res = scf.for %i = %c0 to %c8 step %c4 iter_args(%acc = %init) -> (tensor<8x12xf32>) {{
    %inner = scf.for %j = %c0 to %c12 step %c6 iter_args(%acc2 = %acc) -> (tensor<8x12xf32>) {{
{TILE_BODY}
      %u = tensor.insert_slice %r into %acc2[%i, %j] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<8x12xf32>
      scf.yield %u : tensor<8x12xf32>
    }}
    scf.yield %inner : tensor<8x12xf32>
  }}
  func.return %res : tensor<8x12xf32>
}}
"""

TILED_PARALLEL = f"""
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: tensor<8x12xf32>) -> tensor<8x12xf32> {{
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c12 = arith.constant 12 : index
  %zero = arith.constant dense<0.0> : tensor<8x12xf32>
  %res = "scf.parallel"(%c0, %c0, %c8, %c12, %c4, %c6, %zero) <{{operandSegmentSizes = array<i32: 2, 2, 2, 1>}}> ({{
    ^bb0(%i: index, %j: index):
{TILE_BODY}
      %u = tensor.insert_slice %r into %zero[%i, %j] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<8x12xf32>
      "scf.reduce"(%u) ({{
      ^bb1(%lhs: tensor<8x12xf32>, %rhs: tensor<8x12xf32>):
        %s = arith.addf %lhs, %rhs : tensor<8x12xf32>
        "scf.reduce.return"(%s) : (tensor<8x12xf32>) -> ()
      }}) : (tensor<8x12xf32>) -> ()
  }}) : (index, index, index, index, index, index, tensor<8x12xf32>) -> tensor<8x12xf32>
  func.return %res : tensor<8x12xf32>
}}
"""


def test_tiled_equals_untiled() -> None:
    x = (RNG.standard_normal((8, 12)) * 10).astype(np.float32)
    expected = np.rint(x * np.float32(0.25))
    (untiled,) = run(UNTILED, "main", x)
    np.testing.assert_array_equal(untiled, expected)
    (tiled,) = run(TILED_FOR, "main", x)
    np.testing.assert_array_equal(tiled, expected)
    (par,) = run(TILED_PARALLEL, "main", x)
    np.testing.assert_array_equal(par, expected)
    np.testing.assert_array_equal(x, x.copy())


def test_scf_if_and_for_scalars() -> None:
    text = """
    func.func @main(%n: index, %flag: i1) -> i32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z = arith.constant 0 : i32
      %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i32) {
        %ii = arith.index_cast %i : index to i32
        %v = scf.if %flag -> (i32) {
          %a = arith.addi %acc, %ii : i32
          scf.yield %a : i32
        } else {
          %b = arith.subi %acc, %ii : i32
          scf.yield %b : i32
        }
        scf.yield %v : i32
      }
      func.return %s : i32
    }
    """
    assert run(text, "main", 5, True)[0] == 10
    assert run(text, "main", 5, False)[0] == -10


ADD = """
func.func @main(%a: tensor<2x3xf32>, %s: i8) -> (tensor<2x3xf32>, i8) {
  func.return %a, %s : tensor<2x3xf32>, i8
}
"""


def test_argument_checks() -> None:
    a = np.ones((2, 3), np.float32)
    _r, s = run(ADD, "main", a, 5)
    assert s.dtype == np.int8 and s == 5
    with pytest.raises(
        ValueError,
        match=r"argument #0: expected tensor<2x3xf32>, got an array of shape \[3, 2\]",
    ):
        run(ADD, "main", a.T.copy(), 1)
    with pytest.raises(
        ValueError, match=r"argument #0: .*float32.*got an array of dtype float64"
    ):
        run(ADD, "main", a.astype(np.float64), 1)
    with pytest.raises(ValueError, match=r"argument #1: 300 does not fit in i8"):
        run(ADD, "main", a, 300)
    with pytest.raises(ValueError, match="takes 2 argument"):
        run(ADD, "main", a)
    with pytest.raises(ValueError, match="no function named 'other'"):
        run(ADD, "other", a, 1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("dense<[1.0, 2.0]> : tensor<2xf32>", np.array([1.0, 2.0], np.float32)),
        (
            "dense<[[1, -2], [3, 4]]> : tensor<2x2xi8>",
            np.array([[1, -2], [3, 4]], np.int8),
        ),
        ("dense<7> : tensor<3xi4>", np.array([7, 7, 7], np.int8)),
        ("dense<[true, false]> : tensor<2xi1>", np.array([True, False])),
        ("dense<1.5> : tensor<2xbf16>", np.array([1.5, 1.5], ml_dtypes.bfloat16)),
    ],
)
def test_dense_literal_roundtrip(text: str, expected: np.ndarray) -> None:
    got = load_dense_literal(text)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
    typ = text.split(" : ", 1)[1]
    again = load_dense_literal(format_dense_literal(got, typ))
    np.testing.assert_array_equal(again, expected)


def test_format_dense_literal_forms() -> None:
    assert (
        format_dense_literal(np.array([[1, 2], [3, 4]], np.int32), "tensor<2x2xi32>")
        == "dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>"
    )
    assert (
        format_dense_literal(np.full((2, 2), 0.5, np.float32), "tensor<2x2xf32>")
        == "dense<5.000000e-01> : tensor<2x2xf32>"
    )
    assert (
        format_dense_literal(np.array([0.1, np.nan], np.float32), "tensor<2xf32>")
        == "dense<[1.000000e-01, 0x7FC00000]> : tensor<2xf32>"
    )
    assert (
        format_dense_literal(np.array([True, False]), "tensor<2xi1>")
        == "dense<[true, false]> : tensor<2xi1>"
    )
    assert (
        format_dense_literal(np.zeros((0,), np.float32), "tensor<0xf32>")
        == "dense<> : tensor<0xf32>"
    )
    assert (
        format_dense_literal(np.array([1.0, 2.0], np.float32), "tensor<?xf32>")
        == "dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>"
    )
    v = load_dense_literal("3 : i32")
    assert v == 3 and v.dtype == np.int32
