"""`linalg.generic` contractions run as a matmul keep the loop's arithmetic.

A body `acc = acc + lhs * rhs` whose factors come from disjoint sides of the
inputs (a matmul with a fused weight decode, as `lower-mx-tensor` makes it) is
run as one loop-order matmul of the two factors. These tests check it against a
scalar loop written here from the body's definition, on data where the order of
the sum changes the result (so BLAS, or any other order, fails them), and check
which generics take the path and which keep the general one.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.linalg import ops as linalg

import xquant
from xquant.interpreter.generic import spec_for_generic
from xquant.numerics.values import reassociating_fp_reductions

M, N, K, BLOCK = 3, 5, 64, 32


def _module(body: str, maps: str, ins: str, iters: str, out: str, args: str) -> str:
    return f"""
func.func @main({args}) -> {out} {{
  %zero = arith.constant dense<0.0> : {out}
  %r = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iters}]}}
      ins({ins}) outs(%zero : {out}) {{
{body}
  }} -> {out}
  func.return %r : {out}
}}
"""


MX_LIKE = _module(
    body="""  ^bb0(%x: f32, %s: f32, %w: f32, %acc: f32):
    %d = arith.mulf %w, %s : f32
    %p = arith.mulf %x, %d : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32""",
    maps="affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k floordiv 32, n)>, "
    "affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>",
    ins=f"%X, %S, %W : tensor<{M}x{K}xf32>, tensor<{K // BLOCK}x{N}xf32>, tensor<{K}x{N}xf32>",
    iters='"parallel", "parallel", "reduction"',
    out=f"tensor<{M}x{N}xf32>",
    args=f"%X: tensor<{M}x{K}xf32>, %S: tensor<{K // BLOCK}x{N}xf32>, %W: tensor<{K}x{N}xf32>",
)


def _order_sensitive(shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Values over 12 decades with both signs: partial sums cancel and round, so any
    other summation order gives other bits."""
    mant = rng.normal(size=shape)
    return (mant * 10.0 ** rng.integers(-6, 6, size=shape)).astype(np.float32)


@np.errstate(all="ignore")
def _mx_loop(x: np.ndarray, s: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The body's definition, one f32 rounding per op, k in order."""
    out = np.zeros((M, N), np.float32)
    for m in range(M):
        for n in range(N):
            acc = np.float32(0.0)
            for k in range(K):
                d = np.float32(w[k, n] * s[k // BLOCK, n])
                acc = np.float32(acc + np.float32(x[m, k] * d))
            out[m, n] = acc
    return out


def _generic(text: str) -> linalg.GenericOp:
    module = xquant.parse_module(text)
    return next(op for op in module.walk() if isinstance(op, linalg.GenericOp))


def _data(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return (
        _order_sensitive((M, K), rng),
        _order_sensitive((K // BLOCK, N), rng),
        _order_sensitive((K, N), rng),
    )


def test_the_data_is_order_sensitive() -> None:
    x, s, w = _data(0)
    decoded = w * np.repeat(s, BLOCK, axis=0)
    assert not np.array_equal(x @ decoded, _mx_loop(x, s, w))


def test_block_scaled_contraction_is_the_loop() -> None:
    assert spec_for_generic(_generic(MX_LIKE)).contraction is not None
    for seed in range(3):
        x, s, w = _data(seed)
        (got,) = xquant.run(MX_LIKE, "main", x, s, w)
        np.testing.assert_array_equal(
            got.view(np.uint32), _mx_loop(x, s, w).view(np.uint32)
        )


def test_specials_propagate_as_in_the_loop() -> None:
    x, s, w = _data(3)
    x[0, 5] = np.nan
    w[7, 2] = np.inf
    s[1, 4] = 0.0
    w[40, 4] = np.inf  # inf * 0 in the decode: NaN in column 4 from k = 40
    x[2, 9] = -np.inf
    (got,) = xquant.run(MX_LIKE, "main", x, s, w)
    want = _mx_loop(x, s, w)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(got[~np.isnan(got)], want[~np.isnan(want)])


def test_transposed_output_and_rhs_first_product() -> None:
    """`out[n, m] += w[k, n] * x[m, k]`: the factor of the (k, n) side comes first."""
    text = _module(
        body="""  ^bb0(%x: f32, %w: f32, %acc: f32):
    %p = arith.mulf %w, %x : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32""",
        maps="affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, "
        "affine_map<(m, n, k) -> (n, m)>",
        ins=f"%X, %W : tensor<{M}x{K}xf32>, tensor<{K}x{N}xf32>",
        iters='"parallel", "parallel", "reduction"',
        out=f"tensor<{N}x{M}xf32>",
        args=f"%X: tensor<{M}x{K}xf32>, %W: tensor<{K}x{N}xf32>",
    )
    assert spec_for_generic(_generic(text)).contraction is not None
    x, _, w = _data(4)
    want = np.zeros((N, M), np.float32)
    for m in range(M):
        for n in range(N):
            acc = np.float32(0.0)
            for k in range(K):
                acc = np.float32(acc + np.float32(w[k, n] * x[m, k]))
            want[n, m] = acc
    (got,) = xquant.run(text, "main", x, w)
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize(
    ("dtype", "name", "bits"),
    [(np.float16, "f16", np.uint16), (np.float64, "f64", np.uint64)],
)
def test_other_float_widths(dtype: type, name: str, bits: type) -> None:
    text = _module(
        body=f"""  ^bb0(%x: {name}, %w: {name}, %acc: {name}):
    %p = arith.mulf %x, %w : {name}
    %sum = arith.addf %acc, %p : {name}
    linalg.yield %sum : {name}""",
        maps="affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, "
        "affine_map<(m, n, k) -> (m, n)>",
        ins=f"%X, %W : tensor<{M}x{K}x{name}>, tensor<{K}x{N}x{name}>",
        iters='"parallel", "parallel", "reduction"',
        out=f"tensor<{M}x{N}x{name}>",
        args=f"%X: tensor<{M}x{K}x{name}>, %W: tensor<{K}x{N}x{name}>",
    )
    rng = np.random.default_rng(5)
    x = (rng.normal(size=(M, K)) * 10.0 ** rng.integers(-2, 3, (M, K))).astype(dtype)
    w = (rng.normal(size=(K, N)) * 10.0 ** rng.integers(-2, 3, (K, N))).astype(dtype)
    want = np.zeros((M, N), dtype)
    for m in range(M):
        for n in range(N):
            acc = dtype(0.0)
            for k in range(K):
                acc = dtype(acc + dtype(x[m, k] * w[k, n]))
            want[m, n] = acc
    (got,) = xquant.run(text, "main", x, w)
    np.testing.assert_array_equal(got.view(bits), want.view(bits))


@pytest.mark.parametrize(
    ("why", "body", "maps"),
    [
        (
            "sum first, accumulator second",
            "%p = arith.mulf %x, %w : f32\n    %sum = arith.addf %p, %acc : f32",
            "affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>",
        ),
        (
            "both factors read the same side",
            "%p = arith.mulf %x, %x : f32\n    %sum = arith.addf %acc, %p : f32",
            "affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>",
        ),
        (
            "a factor mixes both sides",
            "%xw = arith.addf %x, %w : f32\n    %p = arith.mulf %xw, %w : f32\n"
            "    %sum = arith.addf %acc, %p : f32",
            "affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>",
        ),
        (
            "an index in a factor",
            "%i = linalg.index 2 : index\n    %ii = arith.index_cast %i : index to i32\n"
            "    %f = arith.sitofp %ii : i32 to f32\n    %xi = arith.mulf %x, %f : f32\n"
            "    %p = arith.mulf %xi, %w : f32\n    %sum = arith.addf %acc, %p : f32",
            "affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>",
        ),
    ],
)
def test_other_bodies_keep_the_general_path(why: str, body: str, maps: str) -> None:
    text = _module(
        body=f"""  ^bb0(%x: f32, %w: f32, %acc: f32):
    {body}
    linalg.yield %sum : f32""",
        maps=maps + ", affine_map<(m, n, k) -> (m, n)>",
        ins=f"%X, %W : tensor<{M}x{K}xf32>, tensor<{K}x{N}xf32>",
        iters='"parallel", "parallel", "reduction"',
        out=f"tensor<{M}x{N}xf32>",
        args=f"%X: tensor<{M}x{K}xf32>, %W: tensor<{K}x{N}xf32>",
    )
    assert spec_for_generic(_generic(text)).contraction is None, why


def test_reassociation_is_opt_in_and_blas() -> None:
    """Inside `reassociating_fp_reductions()` the same generic sums with BLAS."""
    x, s, w = _data(6)
    decoded = w * np.repeat(s, BLOCK, axis=0)
    with reassociating_fp_reductions():
        (fast,) = xquant.run(MX_LIKE, "main", x, s, w)
    np.testing.assert_array_equal(fast, x @ decoded)
    (exact,) = xquant.run(MX_LIKE, "main", x, s, w)
    np.testing.assert_array_equal(exact, _mx_loop(x, s, w))
