"""LLVM main's float storage and `!quant.quantile` tables: goldens from independent sources.

- float storage (`f8E4M3FN`, `f8E5M2`, `f4E2M1FN`): quantize is ml_dtypes'
  conversion of `clip(x / scale + zp)` (the clip bounds written here from the
  formats' largest finite values), dequantize is ml_dtypes' widening;
- quantile storage: a numpy table lookup (`table[s - min]`) and a vectorized
  `argmin` of the distance to each entry, written here (the code under test
  scans entries one by one), with the table rounded to the quantile type;
- NF4 in a sub-channel type (a table value times a per-block scale).

Every case runs through the interpreter on the parsed IR (`quant.qcast` /
`quant.dcast`), so parser, types and numerics are all on the path.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xquant

RNG = np.random.default_rng(28)
NF4 = [
    -1.0,
    -0.6961928009986877,
    -0.5250730514526367,
    -0.39491748809814453,
    -0.28444138169288635,
    -0.18477343022823334,
    -0.09105003625154495,
    0.0,
    0.07958029955625534,
    0.16093020141124725,
    0.24611230194568634,
    0.33791524171829224,
    0.44070982933044434,
    0.5626170039176941,
    0.7229568362236023,
    1.0,
]


def _run(qtype: str, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    shape = "x".join(str(n) for n in x.shape)
    text = (
        f"!q = {qtype}\n"
        f"func.func @main(%x: tensor<{shape}xf32>) -> (tensor<{shape}x!q>, tensor<{shape}xf32>) {{\n"
        f"  %q = quant.qcast %x : tensor<{shape}xf32> to tensor<{shape}x!q>\n"
        f"  %d = quant.dcast %q : tensor<{shape}x!q> to tensor<{shape}xf32>\n"
        f"  return %q, %d : tensor<{shape}x!q>, tensor<{shape}xf32>\n}}"
    )
    q, d = xquant.run(xquant.parse_module(text), "main", x)
    return q, d


def _inputs(n: int, spread: float) -> np.ndarray:
    x = (RNG.standard_normal(n) * spread).astype(np.float32)
    return np.concatenate(
        [x, np.array([0.0, -0.0, 1e30, -1e30, np.inf, -np.inf], np.float32)]
    )


@pytest.mark.parametrize(
    ("name", "dtype", "largest", "has_nan"),
    [
        ("f8E4M3FN", ml_dtypes.float8_e4m3fn, 448.0, True),
        ("f8E5M2", ml_dtypes.float8_e5m2, 57344.0, True),
        ("f4E2M1FN", ml_dtypes.float4_e2m1fn, 6.0, False),
    ],
)
@pytest.mark.parametrize(("scale", "zp"), [(0.5, 0), (0.03125, 3), (4.0, -2)])
def test_float_storage_against_ml_dtypes(
    name: str, dtype: type, largest: float, has_nan: bool, scale: float, zp: int
) -> None:
    x = _inputs(300, 8.0 * largest * scale)
    suffix = f":{zp}" if zp else ""
    q, d = _run(f"!quant.uniform<{name}:f32, {scale!r}{suffix}>", x)
    assert q.dtype == np.dtype(dtype)
    scaled = x / np.float32(scale) + np.float32(zp)
    want = np.clip(scaled, -largest, largest).astype(dtype)
    np.testing.assert_array_equal(q.view(np.uint8), want.view(np.uint8))
    widened = want.astype(np.float32)
    np.testing.assert_array_equal(d, (widened - np.float32(zp)) * np.float32(scale))
    nan = _run(f"!quant.uniform<{name}:f32, {scale!r}>", np.array([np.nan], np.float32))
    assert np.isnan(nan[0].astype(np.float32)[0]) == has_nan
    if not has_nan:
        assert nan[0].astype(np.float32)[0] == 0.0


def test_float_storage_bounds_move_inward() -> None:
    # 101 is not an f8E4M3FN value (96, 104 are): the bound clamps to 96.
    x = np.array([1000.0, 100.0, 97.0, -1000.0, -5.0], np.float32)
    q, _ = _run("!quant.uniform<f8E4M3FN<-3:101>:f32, 1.0>", x)
    np.testing.assert_array_equal(q.astype(np.float32), [96.0, 96.0, 96.0, -3.0, -3.0])


def _lookup_golden(
    x: np.ndarray,
    table: np.ndarray,
    first: int,
    low: int,
    high: int,
    scale: float,
    zp: float,
) -> tuple[np.ndarray, np.ndarray]:
    target = (x / np.float32(scale) + np.float32(zp)).astype(np.float64)
    allowed = table[low - first : high - first + 1]
    distance = np.abs(target[:, None] - allowed[None, :])
    stored = np.argmin(np.where(np.isnan(distance), np.inf, distance), axis=1) + low
    values = table[stored - first].astype(np.float32)
    return stored, (values - np.float32(zp)) * np.float32(scale)


@pytest.mark.parametrize(
    ("storage", "table", "bounds", "first"),
    [
        ("ui4", NF4, None, 0),
        ("si4", sorted(RNG.standard_normal(16).tolist()), None, -8),
        ("ui3", RNG.permutation(np.linspace(-1, 1, 8)).tolist(), None, 0),  # unsorted
        ("si8", np.linspace(-2, 2, 5).tolist(), (-2, 2), -2),
    ],
)
@pytest.mark.parametrize("zp", [0, 1])
def test_quantile_against_numpy_lookup(
    storage: str,
    table: list[float],
    bounds: tuple[int, int] | None,
    first: int,
    zp: int,
) -> None:
    values = ",".join(repr(float(v)) for v in table)
    rng = f", <{bounds[0]}:{bounds[1]}>" if bounds else ""
    quantile = f"!quant.quantile<{storage}:f32, {{{values}}}{rng}>"
    suffix = f":{zp}" if zp else ""
    x = _inputs(200, 1.5)[:200]
    q, d = _run(f"!quant.uniform<{quantile}:f32, 0.75{suffix}>", x)
    entries = np.asarray(table, np.float32).astype(np.float64)  # rounded to f32
    low, high = first, first + len(table) - 1
    stored, deq = _lookup_golden(x, entries, first, low, high, 0.75, zp)
    np.testing.assert_array_equal(q.astype(np.int64), stored)
    np.testing.assert_array_equal(d, deq)


def test_quantile_table_rounds_to_quantile_type_and_bounds_restrict() -> None:
    quantile = "!quant.quantile<ui4:f16, {" + ",".join(repr(v) for v in NF4) + "}>"
    x = np.linspace(-3, 3, 61, dtype=np.float32)
    q, d = _run(f"!quant.uniform<{quantile}<2:13>:f32, 2.0>", x)
    entries = np.asarray(NF4, np.float16).astype(np.float64)
    stored, deq = _lookup_golden(x, entries, 0, 2, 13, 2.0, 0)
    np.testing.assert_array_equal(q.astype(np.int64), stored)
    np.testing.assert_array_equal(d, deq)
    assert q.min() >= 2 and q.max() <= 13


def test_nf4_sub_channel() -> None:
    """NF4's layout: blocks of 64 along the last axis, one scale (absmax) per block."""
    w = RNG.standard_normal((4, 128)).astype(np.float32)
    absmax = np.abs(w.reshape(4, 2, 64)).max(axis=2)
    scales = (
        "{"
        + ", ".join(
            "{" + ", ".join(repr(float(s)) for s in row) + "}" for row in absmax
        )
        + "}"
    )
    quantile = "!quant.quantile<ui4:f32, {" + ",".join(repr(v) for v in NF4) + "}>"
    q, d = _run(f"!quant.uniform<{quantile}:f32:{{0:1, 1:64}}, {scales}>", w)
    block_scale = np.repeat(absmax, 64, axis=1)
    normalized = (w / block_scale).astype(np.float64)
    table = np.asarray(NF4, np.float32).astype(np.float64)
    stored = np.argmin(np.abs(normalized[..., None] - table), axis=-1)
    np.testing.assert_array_equal(q.astype(np.int64), stored)
    np.testing.assert_array_equal(d, table[stored].astype(np.float32) * block_scale)
