"""The interpreter's fast paths for JAX-sized programs compute what the IR says.

- batched `dot_general` sums every batch at once, in row panels
  when big: each element must still be the scalar loop's k-ordered sum (one
  f32 rounding per product and per add), equal before and after lowering; the
  reassociating mode is numpy's matmul of each batch;
- a float `maximum`/`minimum` reduce is one numpy reduce: NaN propagates and
  the zeros order -0 < +0, as the body's IEEE maximum does.

References are written here as plain loops, not the interpreter's routines.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import xquant
from xquant.interpreter.stablehlo import kernels

PIPELINE = "stablehlo-legalize-to-linalg"


def _spread(shape: tuple[int, ...], seed: int) -> np.ndarray:
    """Values over twelve decades: any other summation order gives other bits."""
    rng = np.random.default_rng(seed)
    return (rng.normal(size=shape) * 10.0 ** rng.integers(-6, 6, shape)).astype(
        np.float32
    )


def _loop_batch_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(B, M, K) x (B, K, N): acc = acc + a * b in f32, k = 0, 1, ..., per element."""
    out = np.zeros((a.shape[0], a.shape[1], b.shape[2]), np.float32)
    for i in range(a.shape[0]):
        for k in range(a.shape[2]):
            # Vectorized over (m, n) only: each element is its own sequential sum.
            out[i] = out[i] + np.multiply.outer(a[i, :, k], b[i, k])
    return out


# q: (B, M, K) as (M, B, K) and k: (B, N, K), as JAX's attention scores.
SCORES = """
func.func @main(%q: tensor<{m}x{b}x{k}xf32>, %kk: tensor<{b}x{n}x{k}xf32>)
    -> tensor<{b}x{m}x{n}xf32> {{
  %r = stablehlo.dot_general %q, %kk, batching_dims = [1] x [0],
      contracting_dims = [2] x [2]
      : (tensor<{m}x{b}x{k}xf32>, tensor<{b}x{n}x{k}xf32>) -> tensor<{b}x{m}x{n}xf32>
  func.return %r : tensor<{b}x{m}x{n}xf32>
}}
"""


@pytest.mark.parametrize(
    ("b", "m", "k", "n"),
    [
        (3, 5, 40, 7),  # small: one panel, no threads
        (2, 160, 48, 512),  # 64 rows per panel: 3 panels, threaded
    ],
)
def test_batched_dot_general_is_the_loop(b: int, m: int, k: int, n: int) -> None:
    q, keys = _spread((m, b, k), 1), _spread((b, n, k), 2)
    text = SCORES.format(b=b, m=m, k=k, n=n)
    a = np.transpose(q, (1, 0, 2))
    bt = np.transpose(keys, (0, 2, 1))
    want = _loop_batch_matmul(a, bt)
    blas = np.matmul(np.ascontiguousarray(a), np.ascontiguousarray(bt))
    assert not np.array_equal(want, blas)  # the data tell the orders apart
    (got,) = xquant.run(text, "main", q, keys)
    np.testing.assert_array_equal(got, want)
    lowered = xquant.apply_passes(xquant.parse_module(text), PIPELINE)
    (after,) = xquant.run(lowered, "main", q, keys)
    assert np.asarray(after).tobytes() == np.asarray(got).tobytes()
    (fast,) = xquant.run(text, "main", q, keys, reassociate_fp_reductions=True)
    np.testing.assert_array_equal(fast, blas)


def test_panels_do_not_change_the_bits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    a, b = _spread((2, 96, 64), 3), _spread((2, 64, 80), 4)
    want = _loop_batch_matmul(a, b)
    for panel in (1 << 30, 1000, 1):
        monkeypatch.setattr(kernels, "_PANEL_ELEMENTS", panel)
        np.testing.assert_array_equal(kernels.loop_order_batch_matmul(a, b), want)


REDUCE = """
func.func @main(%x: tensor<6x5xf32>) -> tensor<6xf32> {{
  %init = stablehlo.constant dense<{init}> : tensor<f32>
  %r = stablehlo.reduce(%x init: %init) applies stablehlo.{op} across dimensions = [1]
      : (tensor<6x5xf32>, tensor<f32>) -> tensor<6xf32>
  func.return %r : tensor<6xf32>
}}
"""

ROWS = np.array(
    [
        [-0.0, 0.0, -0.0, -3.0, -1.0],  # max: +0 (one +0 among -0s)
        [-0.0, -0.0, -0.0, -3.0, -1.0],  # max: -0 (all zeros are -0)
        [0.0, 0.0, -0.0, 3.0, 1.0],  # min: -0
        [0.0, 0.0, 0.0, 3.0, 1.0],  # min: +0
        [1.0, np.nan, 2.0, -7.0, 0.0],  # NaN propagates
        [2.5, -1.5, 7.25, -9.0, 0.5],
    ],
    np.float32,
)


def _ieee_fold(rows: np.ndarray, init: float, is_max: bool) -> np.ndarray:
    """The body run element by element: IEEE maximum/minimum (NaN wins, -0 < +0)."""

    def key(v: float) -> tuple[float, bool]:
        return (v, not np.signbit(v))  # +0 above -0

    out = []
    for row in rows:
        acc = np.float32(init)
        for v in row:
            if np.isnan(acc) or np.isnan(v):
                acc = np.float32(np.nan)
            elif (key(v) > key(acc)) == is_max and key(v) != key(acc):
                acc = v
        out.append(acc)
    return np.array(out, np.float32)


@pytest.mark.parametrize(
    ("op", "init"), [("maximum", "0xFF800000"), ("minimum", "0x7F800000")]
)
def test_max_min_reduce_orders_zeros_and_propagates_nan(op: str, init: str) -> None:
    is_max = op == "maximum"
    want = _ieee_fold(ROWS, -np.inf if is_max else np.inf, is_max)
    text = REDUCE.format(op=op, init=init)
    for reassociate in (False, True):
        (got,) = xquant.run(text, "main", ROWS, reassociate_fp_reductions=reassociate)
        assert got.tobytes() == want.tobytes(), (op, reassociate, got, want)
    lowered = xquant.apply_passes(xquant.parse_module(text), PIPELINE)
    (after,) = xquant.run(lowered, "main", ROWS)
    np.testing.assert_array_equal(np.signbit(after), np.signbit(want))
    np.testing.assert_array_equal(after, want)


OVERFLOW = """
func.func @main(%a: tensor<256x64xf32>, %b: tensor<64x1024xf32>) -> tensor<256x1024xf32> {
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
      : (tensor<256x64xf32>, tensor<64x1024xf32>) -> tensor<256x1024xf32>
  func.return %r : tensor<256x1024xf32>
}
"""


def test_panels_keep_the_callers_numpy_error_state() -> None:
    """The run ignores float errors (inf is a value): the panels' error state (set
    with their buffer size) must not turn an overflow into a warning."""
    a = np.full((256, 64), 3e38, np.float32)
    b = np.full((64, 1024), 3e38, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (got,) = xquant.run(OVERFLOW, "main", a, b)
    assert np.all(np.isposinf(got))
