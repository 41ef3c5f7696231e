"""linalg.generic (vectorized, combiner and per-element paths) and named linalg ops.

Golden values are computed in the tests with numpy or plain Python loops."""

from __future__ import annotations

import numpy as np
import pytest

from xquant.interpreter import generic
from xquant.interpreter.runner import run

RNG = np.random.default_rng(99)


def seq_reduce(x: np.ndarray, init: np.ndarray, fn, axis: int = -1) -> np.ndarray:
    """A sequential (loop-order) fold along `axis`, element type preserved."""
    x = np.moveaxis(x, axis, -1)
    acc = np.array(init, copy=True)
    for k in range(x.shape[-1]):
        acc = fn(x[..., k], acc).astype(init.dtype)
    return acc


QUANT = """
#map = affine_map<(d0, d1) -> (d0, d1)>
#smap = affine_map<(d0, d1) -> (d0, d1 floordiv 32)>
func.func @main(%x: tensor<8x96xf32>, %s: tensor<8x3xf32>) -> tensor<8x96xi8> {
  %e = tensor.empty() : tensor<8x96xi8>
  %zp = arith.constant 3.0 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %r = linalg.generic {indexing_maps = [#map, #smap, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<8x96xf32>, tensor<8x3xf32>) outs(%e : tensor<8x96xi8>) {
  ^bb0(%a: f32, %b: f32, %o: i8):
    %0 = arith.divf %a, %b : f32
    %1 = arith.addf %0, %zp : f32
    %2 = arith.maximumf %1, %lo : f32
    %3 = arith.minimumf %2, %hi : f32
    %4 = math.roundeven %3 : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  } -> tensor<8x96xi8>
  func.return %r : tensor<8x96xi8>
}
"""


def test_quantize_block_scales() -> None:
    x = (RNG.standard_normal((8, 96)) * 50).astype(np.float32)
    s = (RNG.random((8, 3)) + 0.25).astype(np.float32)
    (got,) = run(QUANT, "main", x, s)
    scale = np.repeat(s, 32, axis=1)
    expected = np.rint(np.clip(x / scale + np.float32(3), -128, 127)).astype(np.int8)
    np.testing.assert_array_equal(got, expected)


def test_floordiv_not_divisible_and_mod_maps() -> None:
    text = """
    func.func @main(%x: tensor<3x10xi32>, %s: tensor<3x3xi32>, %m: tensor<4xi32>) -> tensor<3x10xi32> {
      %e = tensor.empty() : tensor<3x10xi32>
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1 floordiv 4)>,
                                            affine_map<(d0, d1) -> ((d1 + d0) mod 4)>, affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}
          ins(%x, %s, %m : tensor<3x10xi32>, tensor<3x3xi32>, tensor<4xi32>) outs(%e : tensor<3x10xi32>) {
      ^bb0(%a: i32, %b: i32, %c: i32, %o: i32):
        %0 = arith.muli %a, %b : i32
        %1 = arith.addi %0, %c : i32
        linalg.yield %1 : i32
      } -> tensor<3x10xi32>
      func.return %r : tensor<3x10xi32>
    }
    """
    x = RNG.integers(-50, 50, (3, 10)).astype(np.int32)
    s = RNG.integers(-5, 5, (3, 3)).astype(np.int32)
    m = np.array([100, 200, 300, 400], np.int32)
    (got,) = run(text, "main", x, s, m)
    expected = np.empty((3, 10), np.int32)
    for i in range(3):
        for j in range(10):
            expected[i, j] = x[i, j] * s[i, j // 4] + m[(i + j) % 4]
    np.testing.assert_array_equal(got, expected)


def test_permutation_broadcast_constant_index_multi_output() -> None:
    text = """
    func.func @main(%a: tensor<5x4xf32>, %b: tensor<4xf32>, %c: tensor<3x5xf32>) -> (tensor<4x5xf32>, tensor<4x5xi64>) {
      %e = tensor.empty() : tensor<4x5xf32>
      %f = tensor.empty() : tensor<4x5xi64>
      %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>,
                                              affine_map<(d0, d1) -> (2, d1)>,
                                              affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                             iterator_types = ["parallel", "parallel"]}
          ins(%a, %b, %c : tensor<5x4xf32>, tensor<4xf32>, tensor<3x5xf32>) outs(%e, %f : tensor<4x5xf32>, tensor<4x5xi64>) {
      ^bb0(%x: f32, %y: f32, %z: f32, %o: f32, %p: i64):
        %0 = arith.addf %x, %y : f32
        %1 = arith.mulf %0, %z : f32
        %i = linalg.index 0 : index
        %j = linalg.index 1 : index
        %c10 = arith.constant 10 : index
        %2 = arith.muli %i, %c10 : index
        %3 = arith.addi %2, %j : index
        %4 = arith.index_cast %3 : index to i64
        linalg.yield %1, %4 : f32, i64
      } -> tensor<4x5xf32>, tensor<4x5xi64>
      func.return %r#0, %r#1 : tensor<4x5xf32>, tensor<4x5xi64>
    }
    """
    a = RNG.standard_normal((5, 4)).astype(np.float32)
    b = RNG.standard_normal(4).astype(np.float32)
    c = RNG.standard_normal((3, 5)).astype(np.float32)
    r0, r1 = run(text, "main", a, b, c)
    np.testing.assert_array_equal(r0, (a.T + b[:, None]) * c[2][None, :])
    np.testing.assert_array_equal(
        r1, np.arange(4)[:, None] * 10 + np.arange(5)[None, :]
    )
    assert r1.dtype == np.int64


def reduction_text(
    body: str,
    elem: str,
    in_elem: str | None = None,
    n_out: int = 1,
    out_elem2: str | None = None,
) -> str:
    in_elem = in_elem or elem
    outs = [elem] + ([out_elem2 or elem] if n_out == 2 else [])
    out_ts = [f"tensor<6x{e}>" for e in outs]
    params = ", ".join(
        [f"%x: tensor<6x7x{in_elem}>"] + [f"%i{k}: {t}" for k, t in enumerate(out_ts)]
    )
    maps = "affine_map<(d0, d1) -> (d0, d1)>, " + ", ".join(
        ["affine_map<(d0, d1) -> (d0)>"] * n_out
    )
    bb = ", ".join([f"%a: {in_elem}"] + [f"%o{k}: {e}" for k, e in enumerate(outs)])
    res = f"%r:{n_out}" if n_out > 1 else "%r"
    rets = ", ".join(f"%r#{k}" for k in range(n_out)) if n_out > 1 else "%r"
    return f"""
    func.func @main({params}) -> ({", ".join(out_ts)}) {{
      {res} = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel", "reduction"]}}
          ins(%x : tensor<6x7x{in_elem}>) outs({", ".join(f"%i{k}" for k in range(n_out))} : {", ".join(out_ts)}) {{
      ^bb0({bb}):
        {body}
      }} -> {", ".join(out_ts)}
      func.return {rets} : {", ".join(out_ts)}
    }}
    """


@pytest.fixture(params=["combiner", "sliced"])
def path(request, monkeypatch):
    if request.param == "sliced":
        monkeypatch.setattr(generic, "COMBINER_MAX_POINTS", 0)
    return request.param


def test_float_sum_is_sequential(path: str) -> None:
    x = (RNG.standard_normal((6, 7)) * np.logspace(0, 8, 7)).astype(np.float32)
    init = RNG.standard_normal(6).astype(np.float32)
    text = reduction_text(
        "%s = arith.addf %a, %o0 : f32\n        linalg.yield %s : f32", "f32"
    )
    (got,) = run(text, "main", x, init)
    np.testing.assert_array_equal(got, seq_reduce(x, init, np.add))


def test_sum_of_squares_with_elementwise_prefix(path: str) -> None:
    x = RNG.standard_normal((6, 7)).astype(np.float32)
    init = np.zeros(6, np.float32)
    text = reduction_text(
        "%q = arith.mulf %a, %a : f32\n        %s = arith.addf %o0, %q : f32\n        linalg.yield %s : f32",
        "f32",
    )
    (got,) = run(text, "main", x, init)
    np.testing.assert_array_equal(got, seq_reduce(x * x, init, np.add))


def test_int_sum_wraps_i8(path: str) -> None:
    x = RNG.integers(-128, 128, (6, 7)).astype(np.int8)
    init = RNG.integers(-128, 128, 6).astype(np.int8)
    text = reduction_text(
        "%s = arith.addi %a, %o0 : i8\n        linalg.yield %s : i8", "i8"
    )
    (got,) = run(text, "main", x, init)
    expected = [
        ((int(init[i]) + sum(int(v) for v in x[i]) + 128) % 256) - 128 for i in range(6)
    ]
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize(
    ("op", "ref"), [("maxui", max), ("minui", min), ("maxsi", max), ("minsi", min)]
)
def test_unsigned_reductions_i4(path: str, op: str, ref) -> None:
    x = RNG.integers(-8, 8, (6, 7)).astype(np.int8)
    init = np.array([0, -8, 7, -1, 3, 1], np.int8)
    text = reduction_text(
        f"%s = arith.{op} %a, %o0 : i4\n        linalg.yield %s : i4", "i4"
    )
    (got,) = run(text, "main", x, init)
    key = (lambda v: v & 0xF) if op.endswith("ui") else (lambda v: v)
    expected = [ref([int(init[i])] + [int(v) for v in x[i]], key=key) for i in range(6)]
    np.testing.assert_array_equal(got, expected)


def test_multi_output_reduction(path: str) -> None:
    x = RNG.standard_normal((6, 7)).astype(np.float32)
    x[2, 3] = -0.0
    i0 = np.zeros(6, np.float32)
    i1 = np.full(6, -np.inf, np.float32)
    body = "%s = arith.addf %a, %o0 : f32\n        %m = arith.maximumf %o1, %a : f32\n        linalg.yield %s, %m : f32, f32"
    s, m = run(reduction_text(body, "f32", n_out=2), "main", x, i0, i1)
    np.testing.assert_array_equal(s, seq_reduce(x, i0, np.add))
    np.testing.assert_array_equal(m, x.max(axis=1))


def test_unrecognized_reduction_body(path: str) -> None:
    # out = out * 0.5 + x : not a plain combiner, runs sliced over the reduction dim
    x = RNG.standard_normal((6, 7)).astype(np.float32)
    init = RNG.standard_normal(6).astype(np.float32)
    body = "%h = arith.constant 0.5 : f32\n        %t = arith.mulf %o0, %h : f32\n        %s = arith.addf %t, %a : f32\n        linalg.yield %s : f32"
    (got,) = run(reduction_text(body, "f32"), "main", x, init)
    np.testing.assert_array_equal(
        got, seq_reduce(x, init, lambda v, acc: acc * np.float32(0.5) + v)
    )


def test_per_element_fallback_with_region_in_body() -> None:
    # scf.if inside the body is not elementwise-vectorizable: exact per-element loop
    x = RNG.standard_normal((6, 7)).astype(np.float32)
    init = np.zeros(6, np.float32)
    body = """%z = arith.constant 0.0 : f32
        %p = arith.cmpf ogt, %a, %z : f32
        %v = scf.if %p -> (f32) {
          %d = arith.addf %o0, %a : f32
          scf.yield %d : f32
        } else {
          scf.yield %o0 : f32
        }
        linalg.yield %v : f32"""
    (got,) = run(reduction_text(body, "f32"), "main", x, init)
    np.testing.assert_array_equal(
        got, seq_reduce(np.where(x > 0, x, np.float32(0)), init, np.add)
    )


def test_reduction_with_index_and_transposed_output() -> None:
    text = """
    func.func @main(%x: tensor<4x3x5xi32>, %init: tensor<5x4xi32>) -> tensor<5x4xi32> {
      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2, d0)>],
                           iterator_types = ["parallel", "reduction", "parallel"]}
          ins(%x : tensor<4x3x5xi32>) outs(%init : tensor<5x4xi32>) {
      ^bb0(%a: i32, %o: i32):
        %j = linalg.index 1 : index
        %ji = arith.index_cast %j : index to i32
        %w = arith.muli %a, %ji : i32
        %s = arith.addi %w, %o : i32
        linalg.yield %s : i32
      } -> tensor<5x4xi32>
      func.return %r : tensor<5x4xi32>
    }
    """
    x = RNG.integers(-9, 9, (4, 3, 5)).astype(np.int32)
    init = RNG.integers(-9, 9, (5, 4)).astype(np.int32)
    (got,) = run(text, "main", x, init)
    expected = init + np.einsum("ijk,j->ki", x, np.arange(3, dtype=np.int32))
    np.testing.assert_array_equal(got, expected)


def test_generic_input_not_mutated_and_writes_own_outputs() -> None:
    text = """
    func.func @main(%a: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
      %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                             iterator_types = ["parallel"]}
          ins(%a : tensor<4xi32>) outs(%a, %a : tensor<4xi32>, tensor<4xi32>) {
      ^bb0(%x: i32, %o: i32, %p: i32):
        %c = arith.constant 1 : i32
        %y = arith.addi %x, %c : i32
        %z = arith.subi %x, %c : i32
        linalg.yield %y, %z : i32, i32
      } -> tensor<4xi32>, tensor<4xi32>
      func.return %r#0, %r#1 : tensor<4xi32>, tensor<4xi32>
    }
    """
    a = np.arange(4, dtype=np.int32)
    r0, r1 = run(text, "main", a)
    np.testing.assert_array_equal(r0, a + 1)
    np.testing.assert_array_equal(r1, a - 1)
    np.testing.assert_array_equal(a, np.arange(4))


# ------------------------------------------------------------------- named ops


def named(op: str, ins: list[str], out: str, extra: str = "") -> str:
    params = ", ".join(f"%a{k}: {t}" for k, t in enumerate(ins)) + f", %o: {out}"
    names = ", ".join(f"%a{k}" for k in range(len(ins)))
    return f"""
    func.func @main({params}) -> {out} {{
      %r = linalg.{op} {extra} ins({names} : {", ".join(ins)}) outs(%o : {out}) -> {out}
      func.return %r : {out}
    }}
    """


@pytest.mark.parametrize(
    ("op", "ref"),
    [
        ("add", np.add),
        ("sub", np.subtract),
        ("mul", np.multiply),
        ("max", np.maximum),
        ("min", np.minimum),
    ],
)
@pytest.mark.parametrize("elem", ["f32", "i16"])
def test_named_elementwise_binary(op: str, ref, elem: str) -> None:
    dt = np.float32 if elem == "f32" else np.int16
    a = (RNG.standard_normal((3, 4)) * 1000).astype(dt)
    b = (RNG.standard_normal((3, 4)) * 1000).astype(dt)
    t = f"tensor<3x4x{elem}>"
    (got,) = run(named(op, [t, t], t), "main", a, b, np.zeros((3, 4), dt))
    np.testing.assert_array_equal(got, ref(a, b))


@pytest.mark.parametrize(
    ("op", "ref"), [("exp", np.exp), ("log", np.log), ("sqrt", np.sqrt)]
)
def test_named_elementwise_unary(op: str, ref) -> None:
    a = (RNG.random((2, 5)) + 0.1).astype(np.float32)
    t = "tensor<2x5xf32>"
    (got,) = run(named(op, [t], t), "main", a, np.zeros((2, 5), np.float32))
    np.testing.assert_array_equal(got, ref(a))


def test_named_copy_select_fill_transpose_broadcast() -> None:
    a = RNG.standard_normal((2, 3)).astype(np.float32)
    (got,) = run(
        named("copy", ["tensor<2x3xf32>"], "tensor<2x3xf32>"),
        "main",
        a,
        np.zeros((2, 3), np.float32),
    )
    np.testing.assert_array_equal(got, a)
    c = np.array([[True, False, True], [False, False, True]])
    b = -a
    text = named(
        "select",
        ["tensor<2x3xi1>", "tensor<2x3xf32>", "tensor<2x3xf32>"],
        "tensor<2x3xf32>",
    )
    (got,) = run(text, "main", c, a, b, np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(got, np.where(c, a, b))
    text = """
    func.func @main(%v: f32, %o: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %r = linalg.fill ins(%v : f32) outs(%o : tensor<2x3xf32>) -> tensor<2x3xf32>
      func.return %r : tensor<2x3xf32>
    }
    """
    (got,) = run(text, "main", 1.25, np.ones((2, 3), np.float32))
    np.testing.assert_array_equal(got, np.full((2, 3), 1.25, np.float32))
    text = """
    func.func @main(%a: tensor<2x3x4xi8>, %o: tensor<4x2x3xi8>) -> tensor<4x2x3xi8> {
      %r = linalg.transpose ins(%a : tensor<2x3x4xi8>) outs(%o : tensor<4x2x3xi8>) permutation = [2, 0, 1]
      func.return %r : tensor<4x2x3xi8>
    }
    """
    t = np.arange(24, dtype=np.int8).reshape(2, 3, 4)
    (got,) = run(text, "main", t, np.zeros((4, 2, 3), np.int8))
    np.testing.assert_array_equal(got, t.transpose(2, 0, 1))
    text = """
    func.func @main(%a: tensor<3xf32>, %o: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
      %r = linalg.broadcast ins(%a : tensor<3xf32>) outs(%o : tensor<2x3x4xf32>) dimensions = [0, 2]
      func.return %r : tensor<2x3x4xf32>
    }
    """
    v = np.array([1.0, 2.0, 3.0], np.float32)
    (got,) = run(text, "main", v, np.zeros((2, 3, 4), np.float32))
    np.testing.assert_array_equal(got, np.broadcast_to(v[None, :, None], (2, 3, 4)))


@pytest.mark.parametrize("elem", ["f32", "i32", "f16"])
def test_matmul_exact_loop_order(path: str, elem: str) -> None:
    dt = {"f32": np.float32, "i32": np.int32, "f16": np.float16}[elem]
    a = (RNG.standard_normal((5, 9)) * 30).astype(dt)
    b = (RNG.standard_normal((9, 4)) * 30).astype(dt)
    c = (RNG.standard_normal((5, 4)) * 30).astype(dt)
    text = named(
        "matmul", [f"tensor<5x9x{elem}>", f"tensor<9x4x{elem}>"], f"tensor<5x4x{elem}>"
    )
    (got,) = run(text, "main", a, b, c)
    expected = np.array(c, copy=True)
    with np.errstate(over="ignore"):
        for k in range(9):
            expected = (expected + a[:, k : k + 1] * b[k : k + 1, :]).astype(dt)
    np.testing.assert_array_equal(got, expected)


def test_linalg_reduce() -> None:
    text = """
    func.func @main(%x: tensor<3x4x5xf32>, %init: tensor<3x5xf32>) -> tensor<3x5xf32> {
      %r = linalg.reduce ins(%x : tensor<3x4x5xf32>) outs(%init : tensor<3x5xf32>) dimensions = [1]
        (%a: f32, %b: f32) {
          %s = arith.addf %a, %b : f32
          linalg.yield %s : f32
        }
      func.return %r : tensor<3x5xf32>
    }
    """
    x = RNG.standard_normal((3, 4, 5)).astype(np.float32)
    init = RNG.standard_normal((3, 5)).astype(np.float32)
    (got,) = run(text, "main", x, init)
    np.testing.assert_array_equal(got, seq_reduce(x, init, np.add, axis=1))


def test_pooling_and_conv() -> None:
    text = """
    func.func @main(%x: tensor<1x2x5x5xf32>, %w: tensor<2x2xf32>, %o: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
      %r = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
          ins(%x, %w : tensor<1x2x5x5xf32>, tensor<2x2xf32>) outs(%o : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
      func.return %r : tensor<1x2x2x2xf32>
    }
    """
    x = RNG.standard_normal((1, 2, 5, 5)).astype(np.float32)
    init = np.full((1, 2, 2, 2), -np.inf, np.float32)
    (got,) = run(text, "main", x, np.zeros((2, 2), np.float32), init)
    expected = np.empty((1, 2, 2, 2), np.float32)
    for c in range(2):
        for i in range(2):
            for j in range(2):
                expected[0, c, i, j] = x[
                    0, c, 2 * i : 2 * i + 2, 2 * j : 2 * j + 2
                ].max()
    np.testing.assert_array_equal(got, expected)
    text = """
    func.func @main(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x2x2xf32>, %o: tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32> {
      %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%x, %w : tensor<1x2x4x4xf32>, tensor<3x2x2x2xf32>) outs(%o : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
      func.return %r : tensor<1x3x3x3xf32>
    }
    """
    x = RNG.integers(-3, 3, (1, 2, 4, 4)).astype(np.float32)
    w = RNG.integers(-3, 3, (3, 2, 2, 2)).astype(np.float32)
    (got,) = run(text, "main", x, w, np.zeros((1, 3, 3, 3), np.float32))
    expected = np.zeros((1, 3, 3, 3), np.float32)
    for f in range(3):
        for i in range(3):
            for j in range(3):
                expected[0, f, i, j] = (x[0, :, i : i + 2, j : j + 2] * w[f]).sum()
    np.testing.assert_array_equal(got, expected)


def test_named_div_float_and_signed_int() -> None:
    """`linalg.div` (project-defined, upstream's BinaryFn::div): divf, or divsi toward zero."""
    a = np.array([7.0, -7.0, 1.0, 0.0], np.float32)
    b = np.array([2.0, 2.0, 0.0, 0.0], np.float32)
    t = "tensor<4xf32>"
    with np.errstate(all="ignore"):
        expected = a / b
    (got,) = run(named("div", [t, t], t), "main", a, b, np.zeros(4, np.float32))
    np.testing.assert_array_equal(got, expected)
    ai = np.array([7, -7, 7, -7, -128], np.int8)
    bi = np.array([2, 2, -2, -2, 3], np.int8)
    t = "tensor<5xi8>"
    (got,) = run(named("div", [t, t], t), "main", ai, bi, np.zeros(5, np.int8))
    np.testing.assert_array_equal(got, [3, -3, -3, 3, -42])  # truncating, like C


@pytest.mark.parametrize("elem", ["f32", "i32"])
def test_batch_matmul_exact_loop_order(path: str, elem: str) -> None:
    dt = {"f32": np.float32, "i32": np.int32}[elem]
    a = (RNG.standard_normal((3, 5, 7)) * 30).astype(dt)
    b = (RNG.standard_normal((3, 7, 4)) * 30).astype(dt)
    c = (RNG.standard_normal((3, 5, 4)) * 30).astype(dt)
    text = named(
        "batch_matmul",
        [f"tensor<3x5x7x{elem}>", f"tensor<3x7x4x{elem}>"],
        f"tensor<3x5x4x{elem}>",
    )
    (got,) = run(text, "main", a, b, c)
    expected = np.array(c, copy=True)
    for k in range(7):
        expected = (expected + a[:, :, k : k + 1] * b[:, k : k + 1, :]).astype(dt)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("op", ["matmul", "batch_matmul"])
def test_matmul_i8_into_i32_sign_extends(op: str) -> None:
    """Mixed-width operands verify (the body casts with extsi) and sum exactly, wrapping at i32."""
    batch = (2,) if op == "batch_matmul" else ()
    dims = "2x" if batch else ""
    a = RNG.integers(-128, 128, (*batch, 3, 300)).astype(np.int8)
    b = RNG.integers(-128, 128, (*batch, 300, 4)).astype(np.int8)
    c = np.full((*batch, 3, 4), 2**31 - 5, np.int32)
    text = named(
        op,
        [f"tensor<{dims}3x300xi8>", f"tensor<{dims}300x4xi8>"],
        f"tensor<{dims}3x4xi32>",
    )
    (got,) = run(text, "main", a, b, c)
    exact = c.astype(np.int64) + np.matmul(a.astype(np.int64), b.astype(np.int64))
    wrapped = ((exact + 2**31) % 2**32 - 2**31).astype(np.int32)
    np.testing.assert_array_equal(got, wrapped)


MULTI_RESULT = """
#map = affine_map<(d0) -> (d0)>
func.func @main(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%e, %e : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%x: f32, %o1: f32, %o2: f32):
    %n = arith.negf %x : f32
    linalg.yield %x, %n : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}
"""


def test_multi_result_parenthesised_types() -> None:
    """Results written `-> (t1, t2)`, as upstream MLIR and xDSL print them, parse and run."""
    a = np.array([1.0, -2.0, 3.5, 0.0], np.float32)
    r0, r1 = run(MULTI_RESULT, "main", a)
    np.testing.assert_array_equal(r0, a)
    np.testing.assert_array_equal(r1, -a)


def test_multi_result_printed_form_reads_back_and_verifies_upstream() -> None:
    from tests.upstream.mlir_opt import assert_verifies_upstream
    from xquant import parse_module

    printed = str(parse_module(MULTI_RESULT))
    assert "} -> (tensor<4xf32>, tensor<4xf32>)" in printed
    assert str(parse_module(printed)) == printed
    assert_verifies_upstream(printed)


def test_rank0_generic_runs_body_once_with_result_dtypes() -> None:
    """Zero loops: scalar operands, rank-0 tensors, an init read back; results keep their dtypes."""
    text = """
    func.func @main(%a: tensor<i8>, %s: i32, %init: tensor<i64>) -> (tensor<i32>, tensor<i64>) {
      %e = tensor.empty() : tensor<i32>
      %r:2 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>,
          affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
          ins(%a, %s : tensor<i8>, i32) outs(%e, %init : tensor<i32>, tensor<i64>) {
      ^bb0(%x: i8, %y: i32, %o: i32, %acc: i64):
        %w = arith.extsi %x : i8 to i32
        %m = arith.muli %w, %y : i32
        linalg.yield %m, %acc : i32, i64
      } -> (tensor<i32>, tensor<i64>)
      func.return %r#0, %r#1 : tensor<i32>, tensor<i64>
    }"""
    product, kept = run(
        text, "main", np.array(-100, np.int8), 300, np.array(7, np.int64)
    )
    assert product.shape == () and product.dtype == np.int32 and int(product) == -30000
    assert kept.shape == () and kept.dtype == np.int64 and int(kept) == 7


def test_zero_loop_generic_applies_constant_index_maps() -> None:
    """No loops, but fixed positions of ranked tensors (`() -> (2)`): read and write there."""
    read = """
    func.func @main(%a: tensor<4xf32>) -> tensor<f32> {
      %e = tensor.empty() : tensor<f32>
      %r = linalg.generic {indexing_maps = [affine_map<() -> (2)>, affine_map<() -> ()>], iterator_types = []}
          ins(%a : tensor<4xf32>) outs(%e : tensor<f32>) {
      ^bb0(%x: f32, %o: f32):
        %y = arith.addf %x, %x : f32
        linalg.yield %y : f32
      } -> tensor<f32>
      func.return %r : tensor<f32>
    }"""
    a = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    (got,) = run(read, "main", a)
    assert got.shape == () and float(got) == 2 * a[2]
    write = """
    func.func @main(%a: tensor<f32>, %o: tensor<3xf32>) -> tensor<3xf32> {
      %r = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> (2)>], iterator_types = []}
          ins(%a : tensor<f32>) outs(%o : tensor<3xf32>) {
      ^bb0(%x: f32, %out: f32):
        %y = arith.addf %x, %x : f32
        linalg.yield %y : f32
      } -> tensor<3xf32>
      func.return %r : tensor<3xf32>
    }"""
    o = np.array([1.0, 2.0, 3.0], np.float32)
    (got,) = run(write, "main", np.array(5.0, np.float32), o)
    np.testing.assert_array_equal(got, [1.0, 2.0, 10.0])
