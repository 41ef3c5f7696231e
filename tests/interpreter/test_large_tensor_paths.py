"""The interpreter's fast paths for big tensors give the same values as the plain ones.

Small tensors take the general code (the other arith tests); these sizes are above
the thresholds where a one-sided clamp becomes `np.clip`, a NaN test reads its
operand once, and a block scale broadcast over a short inner axis is repeated
(and cached when it is a constant). References are computed element by element
from the ops' definitions, not by the code under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import xquant

N = 8192  # above every fast-path threshold
SPECIALS = [math.nan, -0.0, 0.0, 1.0, -1.0, 3.5, -300.0, 300.0, math.inf, -math.inf]


def _ieee_max(x: float, y: float, is_max: bool) -> float:
    """IEEE 754-2019 maximum/minimum: NaN propagates, -0 < +0."""
    if x != x or y != y:
        return math.nan
    if x == y == 0:
        neg = math.copysign(1, x) < 0, math.copysign(1, y) < 0
        return (-0.0 if all(neg) else 0.0) if is_max else (-0.0 if any(neg) else 0.0)
    return max(x, y) if is_max else min(x, y)


def _elementwise(op: str, t: str, bound: str, operands: str) -> str:
    """`arith.<op>` over an N-element tensor and a scalar constant captured by the body
    (the shape of the clamps `lower-quant-ops` emits)."""
    return f"""
func.func @main(%x: tensor<{N}x{t}>) -> tensor<{N}x{t}> {{
  %k = arith.constant {bound} : {t}
  %e = tensor.empty() : tensor<{N}x{t}>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]}} ins(%x : tensor<{N}x{t}>) outs(%e : tensor<{N}x{t}>) {{
  ^bb0(%a: {t}, %o: {t}):
    %m = arith.{op} {operands} : {t}
    linalg.yield %m : {t}
  }} -> tensor<{N}x{t}>
  func.return %r : tensor<{N}x{t}>
}}"""


@pytest.mark.parametrize("op", ["maximumf", "minimumf"])
@pytest.mark.parametrize("bound", [-128.0, 127.0, 0.5, -0.0, 0.0])
@pytest.mark.parametrize("bound_first", [False, True])
def test_float_clamp_against_a_scalar(op: str, bound: float, bound_first: bool) -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(0, 200, N).astype(np.float32)
    x[: len(SPECIALS)] = SPECIALS
    operands = "%k, %a" if bound_first else "%a, %k"
    text = _elementwise(op, "f32", f"{bound!r}", operands)
    (got,) = xquant.run(text, "main", x)
    is_max = op == "maximumf"
    expected = np.array([_ieee_max(float(v), bound, is_max) for v in x], np.float32)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))


@pytest.mark.parametrize(
    ("op", "t", "dtype", "pick"),
    [
        ("maxsi", "i32", np.int32, max),
        ("minsi", "i32", np.int32, min),
        ("maxsi", "i8", np.int8, max),
        ("minsi", "i8", np.int8, min),
        ("maxui", "i8", np.int8, max),
        ("minui", "i8", np.int8, min),
    ],
)
@pytest.mark.parametrize("bound", [-5, 0, 100])
def test_integer_clamp_against_a_scalar(
    op: str, t: str, dtype: type[np.integer], pick: object, bound: int
) -> None:
    rng = np.random.default_rng(2)
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, N, endpoint=True).astype(dtype)
    x[:4] = [info.min, info.max, 0, -1]
    text = _elementwise(op, t, str(bound), "%a, %k")
    (got,) = xquant.run(text, "main", x)
    width = info.bits
    if op.endswith("ui"):  # compare the bit patterns as unsigned numbers
        u = [int(v) % (1 << width) for v in x]
        ub = bound % (1 << width)
        expected = [pick(v, ub) for v in u]  # type: ignore[operator]
        expected = [v - (1 << width) if v > info.max else v for v in expected]
    else:
        expected = [pick(int(v), bound) for v in x]  # type: ignore[operator]
    np.testing.assert_array_equal(got, np.array(expected, dtype))


@pytest.mark.parametrize(("pred", "nan_is"), [("uno", True), ("ord", False)])
def test_nan_test_of_one_operand(pred: str, nan_is: bool) -> None:
    text = f"""
func.func @main(%x: tensor<{N}xf32>) -> tensor<{N}xi1> {{
  %e = tensor.empty() : tensor<{N}xi1>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]}} ins(%x : tensor<{N}xf32>) outs(%e : tensor<{N}xi1>) {{
  ^bb0(%a: f32, %o: i1):
    %m = arith.cmpf {pred}, %a, %a : f32
    linalg.yield %m : i1
  }} -> tensor<{N}xi1>
  func.return %r : tensor<{N}xi1>
}}"""
    x = np.arange(N, dtype=np.float32)
    x[::7] = np.nan
    (got,) = xquant.run(text, "main", x)
    expected = [(v != v) == nan_is for v in x.tolist()]
    assert got.tolist() == expected


def _block_dequant(n: int, m: int, block: int, scales: str) -> str:
    """A sub-channel dequantize: one scale per `block` columns, by floordiv map."""
    st = f"tensor<{n}x{m // block}xf32>"
    return f"""
func.func @main(%q: tensor<{n}x{m}xi8>, %arg: {st}) -> tensor<{n}x{m}xf32> {{
  {scales}
  %e = tensor.empty() : tensor<{n}x{m}xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d0, d1 floordiv {block})>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}}
      ins(%q, %s : tensor<{n}x{m}xi8>, {st}) outs(%e : tensor<{n}x{m}xf32>) {{
  ^bb0(%a: i8, %k: f32, %o: f32):
    %f = arith.sitofp %a : i8 to f32
    %p = arith.mulf %f, %k : f32
    linalg.yield %p : f32
  }} -> tensor<{n}x{m}xf32>
  func.return %r : tensor<{n}x{m}xf32>
}}"""


@pytest.mark.parametrize("source", ["constant", "argument"])
def test_block_scales_over_a_short_inner_axis(source: str) -> None:
    n, m, block = 64, 512, 32
    rng = np.random.default_rng(3)
    q = rng.integers(-128, 128, (n, m)).astype(np.int8)
    s = rng.uniform(0.01, 0.1, (n, m // block)).astype(np.float32)
    if source == "constant":
        literal = ", ".join(
            "[" + ", ".join(f"{v:.9e}" for v in row) + "]" for row in s.tolist()
        )
        decl = f"%s = arith.constant dense<[{literal}]> : tensor<{n}x{m // block}xf32>"
        arg = np.zeros_like(s)
    else:
        decl = "%s = arith.addf %arg, %arg : " + f"tensor<{n}x{m // block}xf32>"
        arg, s = s / 2, s.copy()
        arg = arg.astype(np.float32)
        s = (arg + arg).astype(np.float32)
    module = xquant.parse_module(_block_dequant(n, m, block, decl))
    expected = np.array(
        [[np.float32(q[i, j]) * s[i, j // block] for j in range(m)] for i in range(n)],
        np.float32,
    )
    for _ in range(2):  # the second run reads the cached widened constant
        (got,) = xquant.run(module, "main", q, arg)
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize(
    ("low", "high"),
    [(-128.0, 127.0), (-0.0, 127.0), (-128.0, 0.0), (5.0, -5.0), (0.5, 0.5)],
)
def test_clamp_pair(low: float, high: float) -> None:
    """`minimumf(maximumf(x, low), high)`, the clamp of a lowered quantize."""
    text = f"""
func.func @main(%x: tensor<{N}xf32>) -> tensor<{N}xf32> {{
  %lo = arith.constant {low!r} : f32
  %hi = arith.constant {high!r} : f32
  %e = tensor.empty() : tensor<{N}xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
      iterator_types = ["parallel"]}} ins(%x : tensor<{N}xf32>) outs(%e : tensor<{N}xf32>) {{
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %lo : f32
    %n = arith.minimumf %m, %hi : f32
    linalg.yield %n : f32
  }} -> tensor<{N}xf32>
  func.return %r : tensor<{N}xf32>
}}"""
    rng = np.random.default_rng(4)
    x = rng.normal(0, 200, N).astype(np.float32)
    x[: len(SPECIALS)] = SPECIALS
    (got,) = xquant.run(text, "main", x)
    expected = np.array(
        [_ieee_max(_ieee_max(float(v), low, True), high, False) for v in x], np.float32
    )
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))


@pytest.mark.parametrize(
    ("op", "zp_first"), [("subi", False), ("addi", False), ("addi", True)]
)
@pytest.mark.parametrize("t", ["i32", "i4"])
@pytest.mark.parametrize("nonzero", [None, (0, 0), (1, 255)])
def test_zero_point_tensor_of_zeros(
    op: str, zp_first: bool, t: str, nonzero: tuple[int, int] | None
) -> None:
    """`x - zp` (or `x + zp`) with a block-broadcast zero-point tensor: all zeros is x
    itself, a single non-zero zero point is still applied where it belongs."""
    rows, cols, block = 64, 256, 32
    zp = np.zeros((rows // block, cols), np.int8 if t == "i4" else np.int32)
    if nonzero is not None:
        zp[nonzero] = 3
    operands = "%z, %a" if zp_first else "%a, %z"
    text = f"""
func.func @main(%x: tensor<{rows}x{cols}x{t}>, %zp: tensor<{rows // block}x{cols}x{t}>) -> tensor<{rows}x{cols}x{t}> {{
  %e = tensor.empty() : tensor<{rows}x{cols}x{t}>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d0 floordiv {block}, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}}
      ins(%x, %zp : tensor<{rows}x{cols}x{t}>, tensor<{rows // block}x{cols}x{t}>)
      outs(%e : tensor<{rows}x{cols}x{t}>) {{
  ^bb0(%a: {t}, %z: {t}, %o: {t}):
    %m = arith.{op} {operands} : {t}
    linalg.yield %m : {t}
  }} -> tensor<{rows}x{cols}x{t}>
  func.return %r : tensor<{rows}x{cols}x{t}>
}}"""
    rng = np.random.default_rng(2)
    low, high = (-8, 8) if t == "i4" else (-(2**31), 2**31)
    x = rng.integers(low, high, (rows, cols)).astype(zp.dtype)
    (got,) = xquant.run(text, "main", x, zp)
    full = np.repeat(zp.astype(np.int64), block, axis=0)
    wide = x.astype(np.int64) - full if op == "subi" else x.astype(np.int64) + full
    bits = 4 if t == "i4" else 32
    expected = (wide + 2 ** (bits - 1)) % 2**bits - 2 ** (bits - 1)
    np.testing.assert_array_equal(got.astype(np.int64), expected)
