"""`lower-quant-ops` on float and `!quant.quantile` storage: lowered IR = interpreter, bit for bit.

Upstream MLIR does not lower these storage types, so both `rounding` options
use the contract's form (`quant_storage_emitters`). For each type, `qcast` of
floats (ordinary values, ties, out-of-range, +-inf, NaN) and `dcast` of every
allowed stored value run unlowered and lowered; the results must have the same
bits. The goldens of the contract itself are in
`tests/numerics/test_float_and_quantile_storage.py`.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xquant

NF4 = (
    "{-1.0,-0.6961928009986877,-0.5250730514526367,-0.39491748809814453,"
    "-0.28444138169288635,-0.18477343022823334,-0.09105003625154495,0.0,"
    "0.07958029955625534,0.16093020141124725,0.24611230194568634,"
    "0.33791524171829224,0.44070982933044434,0.5626170039176941,"
    "0.7229568362236023,1.0}"
)
SHUFFLED = "{0.5,-1.0,0.25,1.0,-0.25,0.0,-0.5,0.75}"

# (type, dtype of stored values, allowed stored values)
CASES = [
    ("!quant.uniform<f8E4M3FN:f32, 0.125:3>", ml_dtypes.float8_e4m3fn, None),
    ("!quant.uniform<f8E5M2<-1000:300>:f32, 2.0>", ml_dtypes.float8_e5m2, None),
    (
        "!quant.uniform<f4E2M1FN:f32:0, {0.5,1.5:-1,4.0,0.25}>",
        ml_dtypes.float4_e2m1fn,
        None,
    ),
    ("!quant.uniform<f4E2M1FN<-4:3>:f32, 0.25>", ml_dtypes.float4_e2m1fn, None),
    (f"!quant.uniform<!quant.quantile<ui4:f16, {NF4}>:f32, 0.5:1>", np.uint8, (0, 15)),
    (
        f"!quant.uniform<!quant.quantile<ui4:f32, {NF4}><3:12>:f32:0, {{0.5,2.0,0.75,1.0}}>",
        np.uint8,
        (3, 12),
    ),
    (
        f"!quant.uniform<!quant.quantile<si3:f32, {SHUFFLED}>:f32:{{0:2, 1:3}}, {{{{0.5, 1.0}}, {{2.0, 0.25}}}}>",
        np.int8,
        (-4, 3),
    ),
]


def _functions(qtype: str, shape: str) -> str:
    return (
        f"!q = {qtype}\n"
        f"func.func @q(%x: tensor<{shape}xf32>) -> tensor<{shape}x!q> {{\n"
        f"  %0 = quant.qcast %x : tensor<{shape}xf32> to tensor<{shape}x!q>\n"
        f"  return %0 : tensor<{shape}x!q>\n}}\n"
        f"func.func @d(%s: tensor<{shape}x!q>) -> tensor<{shape}xf32> {{\n"
        f"  %0 = quant.dcast %s : tensor<{shape}x!q> to tensor<{shape}xf32>\n"
        f"  return %0 : tensor<{shape}xf32>\n}}"
    )


def _bits(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    return a.view(f"u{a.dtype.itemsize}")


@pytest.mark.parametrize("rounding", ["toward-zero", "nearest-even"])
@pytest.mark.parametrize(("qtype", "dtype", "allowed"), CASES)
def test_lowered_equals_interpreter(
    qtype: str, dtype: type, allowed: tuple[int, int] | None, rounding: str
) -> None:
    rng = np.random.default_rng(7)
    shape = (4, 6)
    text = _functions(qtype, "4x6")
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    x.flat[:6] = [np.nan, np.inf, -np.inf, 1e30, 0.0625, -0.0625]
    if allowed is None:
        stored = rng.standard_normal(shape).astype(np.float32).astype(dtype)
    else:
        stored = rng.integers(allowed[0], allowed[1] + 1, shape).astype(dtype)
    reference = xquant.parse_module(text)
    lowered = xquant.apply_passes(
        xquant.parse_module(text), f"lower-quant-ops{{rounding={rounding}}}"
    )
    assert "quant.qcast" not in xquant.print_module(lowered)
    for name, arg in (("q", x), ("d", stored)):
        (want,) = xquant.run(reference, name, arg)
        (got,) = xquant.run(lowered, name, arg)
        assert want.dtype == got.dtype
        np.testing.assert_array_equal(_bits(got), _bits(want))


def test_strip_func_quant_types_keeps_float_storage() -> None:
    """`quant.scast` carries integer storage only: such signatures stay as they are."""
    qtype = "!quant.uniform<f8E4M3FN:f32, 0.5>"
    text = _functions(qtype, "4")
    module = xquant.apply_passes(xquant.parse_module(text), "strip-func-quant-types")
    printed = xquant.print_module(module)
    assert "quant.scast" not in printed
    assert printed.count("tensor<4x!quant.uniform<f8E4M3FN:f32, 5.000000e-01>>") >= 4
    stored = np.array([1.0, -2.0, 448.0, 0.25], np.float32).astype(
        ml_dtypes.float8_e4m3fn
    )
    (values,) = xquant.run(module, "d", stored)
    np.testing.assert_array_equal(values, stored.astype(np.float32) * 0.5)
