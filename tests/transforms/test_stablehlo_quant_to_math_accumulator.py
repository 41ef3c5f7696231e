"""The accumulator width of `stablehlo-legalize-quant-to-math` for integer dot_general / convolution.

The pass accumulates 8-bit storage in i32 only when a static bound on every
partial sum it builds (contraction size times the operands' largest
magnitudes, zero-point correction terms included) is below 2^31; otherwise
in i64. A long contraction whose exact sum exceeds 2^31 used to wrap in i32.

Each case runs in the interpreter on the original IR, after quant-to-math
and after the full pipeline to linalg, and is compared with a golden value
computed here in numpy from the formula (int64 sum of zero-centred products,
then `round_half_even(clamp(acc * s_lhs * s_rhs / s_out + z_out))` in
float64), independently of xquant's numerics. Where `mlir-opt` is installed
the linalg output must verify upstream.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

import xquant
from tests.upstream import mlir_opt

QUANT_TO_MATH = "stablehlo-legalize-quant-to-math{exact=true}"
TO_LINALG = f"{QUANT_TO_MATH},stablehlo-legalize-to-linalg"
STAGES = ("", QUANT_TO_MATH, TO_LINALG)


def rescale(
    acc: np.ndarray,
    s_lhs: float,
    s_rhs: float,
    s_out: float,
    z_out: int,
    lo: int,
    hi: int,
) -> np.ndarray:
    """The golden rescale of an exact int64 accumulator, in float64."""
    value = acc.astype(np.float64) * (s_lhs * s_rhs / s_out) + z_out
    return np.rint(np.clip(value, lo, hi)).astype(np.int64)


def dot_golden(lhs: np.ndarray, rhs: np.ndarray, z_lhs: int, z_rhs: int) -> np.ndarray:
    """`sum_k (lhs[m, k] - z_lhs) * (rhs[k, n] - z_rhs)` in int64."""
    return (lhs.astype(np.int64) - z_lhs) @ (rhs.astype(np.int64) - z_rhs)


def conv1d_golden(
    lhs: np.ndarray, rhs: np.ndarray, z_lhs: int, z_rhs: int, pad: tuple[int, int]
) -> np.ndarray:
    """Layout [b, 0, f] x [0, i, o] -> [b, 0, f], stride 1, zero padding after centring."""
    x = np.pad(lhs.astype(np.int64) - z_lhs, ((0, 0), pad, (0, 0)))
    w = rhs.astype(np.int64) - z_rhs
    window = w.shape[0]
    out = x.shape[1] - window + 1
    result = np.zeros((x.shape[0], out, w.shape[2]), np.int64)
    for position in range(out):
        patch = x[:, position : position + window, :]
        result[:, position, :] = np.einsum("bwi,wio->bo", patch, w)
    return result


def stages(
    text: str, *args: np.ndarray
) -> dict[str, tuple[ModuleOp, list[np.ndarray]]]:
    out: dict[str, tuple[ModuleOp, list[np.ndarray]]] = {}
    for pipeline in STAGES:
        module = xquant.parse_module(text)
        if pipeline:
            xquant.apply_passes(module, pipeline)
        results = xquant.run(module, "main", *args)
        out[pipeline] = (module, [np.asarray(r) for r in results])
    return out


def assert_matches(
    out: dict[str, tuple[ModuleOp, list[np.ndarray]]], golden: np.ndarray
) -> None:
    for pipeline, (_, results) in out.items():
        (result,) = results
        assert result.shape == golden.shape, pipeline
        np.testing.assert_array_equal(
            result.astype(np.int64), golden, err_msg=pipeline or "original"
        )


def accumulator_types(module: ModuleOp, op_name: str) -> list[str]:
    """Result element types of the integer contraction ops (`dot_general` / `convolution`)."""
    found = []
    for line in str(module).splitlines():
        if f"stablehlo.{op_name}" in line:
            match = re.search(r"->\s*tensor<[0-9x]*x(i\d+|f\d+)>\s*$", line)
            assert match, line
            found.append(match.group(1))
    return found


# ----------------------------------------------------------------------------------------
# dot_general


def dot_text(k: int, lhs_q: str, rhs_q: str, out_q: str) -> str:
    lhs_t, rhs_t, out_t = (
        f"tensor<1x{k}x{lhs_q}>",
        f"tensor<{k}x1x{rhs_q}>",
        f"tensor<1x1x{out_q}>",
    )
    return f"""func.func @main(%a: {lhs_t}, %b: {rhs_t}) -> {out_t} {{
  %y = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : ({lhs_t}, {rhs_t}) -> {out_t}
  func.return %y : {out_t}
}}"""


LONG_K = 70000
LHS_Q = "!quant.uniform<i8:f32, 1.000000e-03:-128>"
RHS_Q = "!quant.uniform<i8:f32, 1.000000e-03>"
OUT_Q = "!quant.uniform<i32:f32, 1.000000e-03>"
I32 = (-(2**31), 2**31 - 1)


def test_long_dot_general_accumulates_in_i64() -> None:
    """The audit repro: 255 * 127 * 70000 = 2,266,950,000 > 2^31 - 1."""
    lhs = np.full((1, LONG_K), 127, np.int8)
    rhs = np.full((LONG_K, 1), 127, np.int8)
    acc = dot_golden(lhs, rhs, -128, 0)
    assert int(acc[0, 0]) == 2_266_950_000
    golden = rescale(acc, 1e-3, 1e-3, 1e-3, 0, *I32)
    assert golden.tolist() == [[2266950]]
    out = stages(dot_text(LONG_K, LHS_Q, RHS_Q, OUT_Q), lhs, rhs)
    assert_matches(out, golden)
    assert accumulator_types(out[QUANT_TO_MATH][0], "dot_general") == ["i64"]


def test_long_dot_general_mixed_values() -> None:
    """Random storage values, non-zero lhs and result zero points, power-of-two scales (exact rescale)."""
    rng = np.random.default_rng(57)
    lhs = rng.integers(-128, 128, (2, LONG_K), dtype=np.int8)
    rhs = rng.integers(-128, 128, (LONG_K, 1), dtype=np.int8)
    lhs[1] = 127  # one row whose exact sum exceeds 2^31
    rhs[:] = rng.integers(120, 128, (LONG_K, 1), dtype=np.int8)
    lhs_q = "!quant.uniform<i8:f32, 0.25:-128>"
    rhs_q = "!quant.uniform<i8:f32, 0.5>"
    out_q = "!quant.uniform<i32:f32, 4.0:3>"
    text = dot_text(LONG_K, lhs_q, rhs_q, out_q).replace("tensor<1x", "tensor<2x")
    acc = dot_golden(lhs, rhs, -128, 0)
    assert abs(int(acc[1, 0])) >= 2**31
    golden = rescale(acc, 0.25, 0.5, 4.0, 3, *I32)
    out = stages(text, lhs, rhs)
    assert_matches(out, golden)
    assert accumulator_types(out[QUANT_TO_MATH][0], "dot_general") == ["i64"]


def test_short_dot_general_keeps_i32() -> None:
    rng = np.random.default_rng(5)
    k = 8
    lhs = rng.integers(-128, 128, (1, k), dtype=np.int8)
    rhs = rng.integers(-128, 128, (k, 1), dtype=np.int8)
    out = stages(dot_text(k, LHS_Q, RHS_Q, OUT_Q), lhs, rhs)
    assert_matches(
        out, rescale(dot_golden(lhs, rhs, -128, 0), 1e-3, 1e-3, 1e-3, 0, *I32)
    )
    assert accumulator_types(out[QUANT_TO_MATH][0], "dot_general") == ["i32"]


@pytest.mark.parametrize(
    ("k", "lhs_q", "rhs_q", "expected"),
    [
        # (128 + 0) * (128 + 0) per product: i32 up to K = 2^17 - 1.
        (
            2**17 - 1,
            "!quant.uniform<i8:f32, 1.0>",
            "!quant.uniform<i8:f32, 1.0>",
            "i32",
        ),
        (2**17, "!quant.uniform<i8:f32, 1.0>", "!quant.uniform<i8:f32, 1.0>", "i64"),
        # the zero-point corrections count: (128 + 128) * (128 + 0) per product.
        (
            2**16 - 1,
            "!quant.uniform<i8:f32, 1.0:-128>",
            "!quant.uniform<i8:f32, 1.0>",
            "i32",
        ),
        (
            2**16,
            "!quant.uniform<i8:f32, 1.0:-128>",
            "!quant.uniform<i8:f32, 1.0>",
            "i64",
        ),
        # unsigned storage: 255 * 255.
        (33025, "!quant.uniform<u8:f32, 1.0>", "!quant.uniform<u8:f32, 1.0>", "i32"),
        (33026, "!quant.uniform<u8:f32, 1.0>", "!quant.uniform<u8:f32, 1.0>", "i64"),
        # wider storage keeps i64 regardless.
        (4, "!quant.uniform<i16:f32, 1.0>", "!quant.uniform<i16:f32, 1.0>", "i64"),
    ],
)
def test_dot_general_accumulator_bound(
    k: int, lhs_q: str, rhs_q: str, expected: str
) -> None:
    module = xquant.parse_module(dot_text(k, lhs_q, rhs_q, OUT_Q))
    xquant.apply_passes(module, QUANT_TO_MATH)
    types = accumulator_types(module, "dot_general")
    assert types == [expected]
    reduces = [line for line in str(module).splitlines() if "stablehlo.reduce" in line]
    assert all(f"tensor<{expected}>" in line for line in reduces), reduces


def test_dot_general_at_i32_edge_is_exact() -> None:
    """All -128 with K = 2^17: the exact sum is 2^31, one past i32's maximum."""
    k = 2**17
    lhs = np.full((1, k), -128, np.int8)
    rhs = np.full((k, 1), -128, np.int8)
    q = "!quant.uniform<i8:f32, 1.0>"
    out_q = "!quant.uniform<i32:f32, 2.0>"
    golden = rescale(dot_golden(lhs, rhs, 0, 0), 1.0, 1.0, 2.0, 0, *I32)
    assert golden.tolist() == [[2**30]]
    out = stages(dot_text(k, q, q, out_q), lhs, rhs)
    assert_matches(out, golden)


# ----------------------------------------------------------------------------------------
# convolution

CONV_WINDOW, CONV_FEATURES = 280, 250  # 70000 products per full window


def conv_text(
    window: int, features: int, lhs_q: str, rhs_q: str, out_q: str, pad: int
) -> str:
    out_len = window + 2 * pad - window + 1
    lhs_t = f"tensor<1x{window}x{features}x{lhs_q}>"
    rhs_t = f"tensor<{window}x{features}x1x{rhs_q}>"
    out_t = f"tensor<1x{out_len}x1x{out_q}>"
    return f"""func.func @main(%a: {lhs_t}, %b: {rhs_t}) -> {out_t} {{
  %y = stablehlo.convolution(%a, %b) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {{pad = [[{pad}, {pad}]]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : ({lhs_t}, {rhs_t}) -> {out_t}
  func.return %y : {out_t}
}}"""


def test_long_convolution_accumulates_in_i64() -> None:
    lhs = np.full((1, CONV_WINDOW, CONV_FEATURES), 127, np.int8)
    lhs[0, 0] = -100  # the three windows (padding 1) differ
    rhs = np.full((CONV_WINDOW, CONV_FEATURES, 1), 127, np.int8)
    acc = conv1d_golden(lhs, rhs, -128, 0, (1, 1))
    assert int(acc.max()) >= 2**31
    golden = rescale(acc, 1e-3, 1e-3, 1e-3, 0, *I32)
    text = conv_text(CONV_WINDOW, CONV_FEATURES, LHS_Q, RHS_Q, OUT_Q, pad=1)
    out = stages(text, lhs, rhs)
    assert_matches(out, golden)
    assert accumulator_types(out[QUANT_TO_MATH][0], "convolution") == ["i64"]


def test_short_convolution_keeps_i32() -> None:
    rng = np.random.default_rng(7)
    lhs = rng.integers(-128, 128, (1, 5, 3), dtype=np.int8)
    rhs = rng.integers(-128, 128, (5, 3, 1), dtype=np.int8)
    golden = rescale(
        conv1d_golden(lhs, rhs, -128, 0, (1, 1)), 1e-3, 1e-3, 1e-3, 0, *I32
    )
    out = stages(conv_text(5, 3, LHS_Q, RHS_Q, OUT_Q, pad=1), lhs, rhs)
    assert_matches(out, golden)
    assert accumulator_types(out[QUANT_TO_MATH][0], "convolution") == ["i32"]


@pytest.mark.parametrize(("features", "expected"), [(65793, "i32"), (65794, "i64")])
def test_grouped_convolution_bound_counts_one_group(
    features: int, expected: str
) -> None:
    """feature_group_count = 2: each output sums over the kernel's `i` features (one group).

    Centred factors: |q - (-128)| <= 255 and |q| <= 128, so i32 holds up to
    2^31 / (255 * 128) = 65793.6 products per output.
    """
    lhs_t = f"tensor<1x1x{2 * features}x{LHS_Q}>"
    rhs_t = f"tensor<1x{features}x2x{RHS_Q}>"
    out_t = f"tensor<1x1x2x{OUT_Q}>"
    text = f"""func.func @main(%a: {lhs_t}, %b: {rhs_t}) -> {out_t} {{
  %y = stablehlo.convolution(%a, %b) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {{}} {{batch_group_count = 1 : i64, feature_group_count = 2 : i64}} : ({lhs_t}, {rhs_t}) -> {out_t}
  func.return %y : {out_t}
}}"""
    module = xquant.parse_module(text)
    xquant.apply_passes(module, QUANT_TO_MATH)
    assert accumulator_types(module, "convolution") == [expected]


# ----------------------------------------------------------------------------------------
# upstream


@pytest.mark.parametrize(
    "text",
    [
        dot_text(LONG_K, LHS_Q, RHS_Q, OUT_Q),
        conv_text(CONV_WINDOW, CONV_FEATURES, LHS_Q, RHS_Q, OUT_Q, pad=1),
    ],
    ids=["dot_general", "convolution"],
)
def test_i64_linalg_output_verifies_upstream(text: str) -> None:
    module = xquant.parse_module(text)
    xquant.apply_passes(module, TO_LINALG)
    printed = str(module)
    assert "stablehlo." not in printed
    assert "i64" in printed
    mlir_opt.assert_verifies_upstream(printed)
