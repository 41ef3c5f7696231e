"""Differential tests: quantized StableHLO, after quant-to-math, and after the full pipeline to linalg.

For every module of `../shared/stablehlo-quantized` (skipped when absent)
and for the quantized reduction golden cases, the interpreter's results on
the original, after `stablehlo-legalize-quant-to-math`, after
`stablehlo-legalize-quant-to-math,stablehlo-legalize-to-linalg` and after
that plus `linalg-fuse-elementwise-ops` are equal (bit for bit, NaN equal to
NaN) and every check in the file still passes.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from tests.fetch_upstream_tests import SHARED_DIR, absent_reason
from xquant import apply_passes, parse_module, run
from xquant.dialects.stablehlo.type_utils import is_quantized
from xquant.interpreter.runner import run_with_checks
from xquant.tools.xquant_run import _chunks  # pyright: ignore[reportPrivateUsage]

CONFORMANCE_DIR = SHARED_DIR / "stablehlo-quantized"
MODULES = sorted(CONFORMANCE_DIR.glob("*.mlir")) if CONFORMANCE_DIR.is_dir() else []
QUANT_TO_MATH = "stablehlo-legalize-quant-to-math{exact=true}"
TO_LINALG = f"{QUANT_TO_MATH},stablehlo-legalize-to-linalg"
FUSED = f"{TO_LINALG},linalg-fuse-elementwise-ops"


def same(a: Any, b: Any) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    return bool(np.array_equal(a, b, equal_nan=a.dtype.kind == "f"))


def entry_functions(module: ModuleOp) -> list[str]:
    return [
        op.sym_name.data
        for op in module.walk()
        if isinstance(op, func.FuncOp)
        and op.body.blocks
        and not op.function_type.inputs.data
    ]


def has_quantized_types(module: ModuleOp) -> bool:
    return any(
        is_quantized(t)
        for op in module.walk()
        for t in (*op.operand_types, *op.result_types)
    )


def run_stages(text: str) -> dict[str, int]:
    """Run every argument-less function at the four stages; return counts per stage."""
    original = parse_module(text)
    lowered = apply_passes(parse_module(text), QUANT_TO_MATH)
    linalg = apply_passes(parse_module(text), TO_LINALG)
    fused = apply_passes(parse_module(text), FUSED)
    assert not has_quantized_types(lowered)
    counts = {"functions": 0, "checks": 0}
    for name in entry_functions(original):
        reference, checks = run_with_checks(original, name)
        assert all(c.passed for c in checks)
        for module in (lowered, linalg, fused):
            results, stage_checks = run_with_checks(module, name)
            assert len(stage_checks) == len(checks)
            failed = [c.message for c in stage_checks if not c.passed]
            assert not failed, failed
            assert all(same(a, b) for a, b in zip(results, reference, strict=True))
        counts["functions"] += 1
        counts["checks"] += len(checks)
    return counts


@pytest.mark.skipif(not MODULES, reason=absent_reason("stablehlo-quantized/"))
@pytest.mark.parametrize("path", MODULES, ids=[p.name[:80] for p in MODULES])
def test_conformance_module_agrees_at_every_stage(path: Path) -> None:
    chunks = [c for c in _chunks(path.read_text(), True) if "func.func" in c]
    total = sum(run_stages(chunk)["functions"] for chunk in chunks)
    assert total >= 1


@pytest.mark.skipif(not MODULES, reason=absent_reason("stablehlo-quantized/"))
def test_linalg_pipeline_leaves_only_unlowered_ops() -> None:
    """After the full pipeline only the checks (custom_call) and ops with no lowering yet
    (iota, and a reducer's return if its reduce stays) may be left in the stablehlo dialect.

    Convolution and gather are lowered: all 73 conformance functions keep
    nothing but their checks.
    """
    allowed = {
        "stablehlo.custom_call",
        "stablehlo.iota",
        "stablehlo.return",
    }
    fully_lowered = 0
    for path in MODULES:
        for chunk in _chunks(path.read_text(), True):
            if "func.func" not in chunk:
                continue
            module = apply_passes(parse_module(chunk), TO_LINALG)
            names = {
                op.name for op in module.walk() if op.name.startswith("stablehlo.")
            }
            assert names <= allowed, names
            fully_lowered += names <= {"stablehlo.custom_call"}
    assert fully_lowered >= 73


# ----------------------------------------------------------------------------------------
# quantized reductions with a wider accumulator (golden values from the spec's formulas)

Q8 = "!quant.uniform<i8:f32, 5.000000e-01:-3>"
Q32 = "!quant.uniform<i32:f32, 2.500000e-01:5>"
Z_IN, Z_ACC = -3, 5
BODIES = {
    "sum": "stablehlo.add",
    "max": "stablehlo.maximum",
    "min": "stablehlo.minimum",
}
IDENTITY_STORAGE = {"sum": Z_IN, "max": -128, "min": 127}


def to_accumulator(q: np.ndarray) -> np.ndarray:
    return np.rint((q.astype(np.int64) - Z_IN) * 0.5 / 0.25 + Z_ACC).astype(np.int64)


def combine(kind: str, values: np.ndarray, axis: tuple[int, ...] | int) -> np.ndarray:
    if kind == "sum":
        return Z_ACC + np.sum(values - Z_ACC, axis=axis)
    return np.max(values, axis=axis) if kind == "max" else np.min(values, axis=axis)


def all_stages(text: str, *args: np.ndarray) -> list[np.ndarray]:
    """Results of `main` on the original, after quant-to-math and after the linalg
    pipeline, unfused and fused (all equal)."""
    results = [run(parse_module(text), "main", *args)[0]]
    for pipeline in (QUANT_TO_MATH, TO_LINALG, FUSED):
        module = apply_passes(parse_module(text), pipeline)
        assert not has_quantized_types(module)
        results.append(run(module, "main", *args)[0])
    for r in results[1:]:
        assert same(r, results[0])
    return results


@pytest.mark.parametrize("kind", ["sum", "max", "min"])
@pytest.mark.parametrize("dims", [[1], [0], [0, 1]])
def test_reduce_i8_into_i32(kind: str, dims: list[int]) -> None:
    data = np.random.default_rng(7).integers(-128, 128, size=(4, 6), dtype=np.int8)
    kept = [n for d, n in enumerate(data.shape) if d not in dims]
    result_type = f"tensor<{''.join(f'{n}x' for n in kept)}{Q32}>"
    text = f"""
    func.func @main(%x: tensor<4x6x{Q8}>, %init: tensor<{Q8}>) -> {result_type} {{
      %r = stablehlo.reduce(%x init: %init) across dimensions = {dims} : (tensor<4x6x{Q8}>, tensor<{Q8}>) -> {result_type}
       reducer(%a: tensor<{Q32}>, %b: tensor<{Q32}>)  {{
        %s = {BODIES[kind]} %a, %b : tensor<{Q32}>
        stablehlo.return %s : tensor<{Q32}>
      }}
      func.return %r : {result_type}
    }}"""
    results = all_stages(text, data, np.array(IDENTITY_STORAGE[kind], np.int8))
    np.testing.assert_array_equal(
        results[-1], combine(kind, to_accumulator(data), tuple(dims))
    )


def window_golden(kind: str, q: np.ndarray) -> np.ndarray:
    converted = to_accumulator(q)
    init = int(to_accumulator(np.array(IDENTITY_STORAGE[kind]))[()])
    padded = np.pad(converted, [(1, 0), (1, 1)], constant_values=init)
    out_shape = [(padded.shape[0] - 2) // 2 + 1, (padded.shape[1] - 3) // 2 + 1]
    result = np.empty(out_shape, np.int64)
    for i, j in itertools.product(range(out_shape[0]), range(out_shape[1])):
        result[i, j] = combine(
            kind, padded[2 * i : 2 * i + 2, 2 * j : 2 * j + 3].reshape(-1), 0
        )
    return result


@pytest.mark.parametrize("kind", ["sum", "max", "min"])
def test_reduce_window_strides_and_padding(kind: str) -> None:
    q = np.random.default_rng(11).integers(-128, 128, size=(5, 7), dtype=np.int8)
    golden = window_golden(kind, q)
    result_type = f"tensor<{golden.shape[0]}x{golden.shape[1]}x{Q32}>"
    text = f"""
    func.func @main(%x: tensor<5x7x{Q8}>, %init: tensor<{Q8}>) -> {result_type} {{
      %r = "stablehlo.reduce_window"(%x, %init) ({{
        ^bb0(%a: tensor<{Q32}>, %b: tensor<{Q32}>):
          %s = {BODIES[kind]} %a, %b : tensor<{Q32}>
          stablehlo.return %s : tensor<{Q32}>
      }}) {{window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>,
          padding = dense<[[1, 0], [1, 1]]> : tensor<2x2xi64>}} : (tensor<5x7x{Q8}>, tensor<{Q8}>) -> {result_type}
      func.return %r : {result_type}
    }}"""
    results = all_stages(text, q, np.array(IDENTITY_STORAGE[kind], np.int8))
    np.testing.assert_array_equal(results[-1], golden)


def test_select_and_scatter_accumulates_in_i32() -> None:
    """quant-to-math makes the conversions explicit; stablehlo-legalize-to-linalg then lowers it."""
    rng = np.random.default_rng(5)
    operand = rng.integers(-128, 128, size=(4, 6), dtype=np.int8)
    source = rng.integers(-128, 128, size=(2, 3), dtype=np.int8)
    golden = np.full(operand.shape, Z_ACC, np.int64)
    converted = to_accumulator(source)
    for i, j in itertools.product(range(2), range(3)):
        block = operand[2 * i : 2 * i + 2, 2 * j : 2 * j + 2]
        r, c = np.unravel_index(int(np.argmax(block)), block.shape)
        golden[2 * i + r, 2 * j + c] += converted[i, j] - Z_ACC
    text = f"""
    func.func @main(%x: tensor<4x6x{Q8}>, %src: tensor<2x3x{Q8}>, %init: tensor<{Q8}>) -> tensor<4x6x{Q32}> {{
      %r = "stablehlo.select_and_scatter"(%x, %src, %init) ({{
        ^bb0(%a: tensor<{Q8}>, %b: tensor<{Q8}>):
          %p = stablehlo.compare  GE, %a, %b : (tensor<{Q8}>, tensor<{Q8}>) -> tensor<i1>
          stablehlo.return %p : tensor<i1>
      }}, {{
        ^bb0(%a: tensor<{Q32}>, %b: tensor<{Q32}>):
          %s = stablehlo.add %a, %b : tensor<{Q32}>
          stablehlo.return %s : tensor<{Q32}>
      }}) {{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}}
        : (tensor<4x6x{Q8}>, tensor<2x3x{Q8}>, tensor<{Q8}>) -> tensor<4x6x{Q32}>
      func.return %r : tensor<4x6x{Q32}>
    }}"""
    results = all_stages(text, operand, source, np.array(Z_IN, np.int8))
    np.testing.assert_array_equal(results[-1], golden)


def test_dot_general_per_axis_rhs_and_zero_points() -> None:
    """Integer dot_general with a per-axis rhs and result and a non-zero lhs zero point, vs the float reference."""
    rng = np.random.default_rng(3)
    lhs = rng.integers(-128, 128, size=(2, 3, 5), dtype=np.int8)
    rhs = rng.integers(-127, 128, size=(2, 5, 4), dtype=np.int8)
    lq = "!quant.uniform<i8:f32, 2.500000e-01:7>"
    rq = "!quant.uniform<i8:f32:2, {5.000000e-01, 1.250000e-01, 2.500000e-01, 1.000000e+00}>"
    oq = "!quant.uniform<i8:f32:2, {4.000000e+00:-2, 1.000000e+00:3, 2.000000e+00, 8.000000e+00:1}>"
    text = f"""
    func.func @main(%l: tensor<2x3x5x{lq}>, %r: tensor<2x5x4x{rq}>) -> tensor<2x3x4x{oq}> {{
      %0 = stablehlo.dot_general %l, %r, batching_dims = [0] x [0], contracting_dims = [2] x [1]
        : (tensor<2x3x5x{lq}>, tensor<2x5x4x{rq}>) -> tensor<2x3x4x{oq}>
      func.return %0 : tensor<2x3x4x{oq}>
    }}"""
    results = all_stages(text, lhs, rhs)
    real = np.einsum(
        "bik,bkj->bij",
        (lhs.astype(np.float64) - 7) * 0.25,
        rhs.astype(np.float64) * np.array([0.5, 0.125, 0.25, 1.0]),
    )
    scales, zps = np.array([4.0, 1.0, 2.0, 8.0]), np.array([-2, 3, 0, 1])
    golden = np.clip(np.rint(real / scales + zps), -128, 127)
    np.testing.assert_array_equal(results[-1], golden.astype(np.int8))


def test_integer_add_per_axis() -> None:
    """Per-axis add with equal scales and different zero points is exact integer math."""
    a = np.array([[1, 2, -128], [127, 0, 5]], np.int8)
    b = np.array([[3, -4, -128], [127, 9, -7]], np.int8)
    qa = (
        "!quant.uniform<i8:f32:1, {1.000000e-01:-30, 5.000000e-01:-20, 2.000000e-01:4}>"
    )
    qb = "!quant.uniform<i8:f32:1, {1.000000e-01:10, 5.000000e-01, 2.000000e-01:-4}>"
    qo = "!quant.uniform<i8:f32:1, {1.000000e-01:3, 5.000000e-01:-1, 2.000000e-01}>"
    text = f"""
    func.func @main(%a: tensor<2x3x{qa}>, %b: tensor<2x3x{qb}>) -> tensor<2x3x{qo}> {{
      %0 = stablehlo.add %a, %b : (tensor<2x3x{qa}>, tensor<2x3x{qb}>) -> tensor<2x3x{qo}>
      func.return %0 : tensor<2x3x{qo}>
    }}"""
    results = all_stages(text, a, b)
    expected = a.astype(np.int64) - [-30, -20, 4] + b - [10, 0, -4] + [3, -1, 0]
    np.testing.assert_array_equal(
        results[-1], np.clip(expected, -128, 127).astype(np.int8)
    )


def test_dot_general_rescale_is_exact_real_arithmetic_at_ties() -> None:
    """The original and both lowerings rescale an exact integer sum once; the golden is exact rational math.

    With scales 0.025, 0.05 and 2.0, a sum of 20000 is a tie in decimal
    (12.5) but not for the binary scales, which f32 dequantize-then-multiply
    arithmetic would round to the tie and then to even.
    """
    from fractions import Fraction

    rng = np.random.default_rng(0)
    lhs = rng.integers(-128, 128, size=(64, 128), dtype=np.int8)
    rhs = rng.integers(-128, 128, size=(128, 64), dtype=np.int8)
    lq, rq = (
        "!quant.uniform<i8:f32, 2.500000e-02:3>",
        "!quant.uniform<i8:f32, 5.000000e-02>",
    )
    oq = "!quant.uniform<i8:f32, 2.000000e+00:-5>"
    text = f"""
    func.func @main(%l: tensor<64x128x{lq}>, %r: tensor<128x64x{rq}>) -> tensor<64x64x{oq}> {{
      %0 = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0]
        : (tensor<64x128x{lq}>, tensor<128x64x{rq}>) -> tensor<64x64x{oq}>
      func.return %0 : tensor<64x64x{oq}>
    }}"""
    results = all_stages(text, lhs, rhs)
    acc = (lhs.astype(np.int64) - 3) @ rhs.astype(np.int64)
    multiplier = Fraction(0.025) * Fraction(0.05) / Fraction(2.0)
    golden = [
        max(-128, min(127, round(int(a) * multiplier - 5))) for a in acc.reshape(-1)
    ]
    np.testing.assert_array_equal(results[0].reshape(-1), golden)


def test_wide_sum_beyond_f32_mantissa_is_exact() -> None:
    """An i32 accumulator past 2**24 storage units: integer adds, not f32 (which would round)."""
    x = np.full((256, 256), 127, np.int8)
    result_type = f"tensor<{Q32}>"
    text = f"""
    func.func @main(%x: tensor<256x256x{Q8}>, %init: tensor<{Q8}>) -> {result_type} {{
      %r = stablehlo.reduce(%x init: %init) across dimensions = [0, 1] : (tensor<256x256x{Q8}>, tensor<{Q8}>) -> {result_type}
       reducer(%a: tensor<{Q32}>, %b: tensor<{Q32}>)  {{
        %s = stablehlo.add %a, %b : tensor<{Q32}>
        stablehlo.return %s : tensor<{Q32}>
      }}
      func.return %r : {result_type}
    }}"""
    results = all_stages(text, x, np.array(Z_IN, np.int8))
    golden = Z_ACC + 256 * 256 * (2 * (127 - Z_IN))
    assert golden > 2**24
    assert int(results[0]) == golden


# ----------------------------------------------------------------------------------------
# uniform_dequantize: the spec's `convert(x_storage - zero_point) * scale`, the
# difference exact in integers (golden values computed here in int64)

DEQUANTIZE_CASES = [
    # (storage, expressed, scale:zero point, storage values, the spec's results)
    ("i32", "f32", "1.0:3", [33554433, 123456789], [33554430, 123456784]),
    ("i16", "f16", "1.0:-3", [-32762], [-32752]),
    ("i16", "bf16", "1.0:-3", [-32706], [-32640]),
]
DTYPES = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}


def spec_dequantize(
    stored: np.ndarray, zero_points: Any, scales: Any, dtype: Any
) -> np.ndarray:
    """int64 difference, exact f64, one rounding (bf16 through an exact f32), product in `dtype`."""
    centred = stored.astype(np.int64) - np.asarray(zero_points, np.int64)
    as_float = centred.astype(np.float64)
    if dtype == ml_dtypes.bfloat16:
        assert np.abs(centred).max() < 2**24
        as_float = as_float.astype(np.float32)
    return as_float.astype(dtype) * np.asarray(scales, dtype)


@pytest.mark.parametrize(
    ("storage", "expressed", "params", "stored", "spec"), DEQUANTIZE_CASES
)
def test_uniform_dequantize_subtracts_zero_point_in_integers(
    storage: str, expressed: str, params: str, stored: list[int], spec: list[int]
) -> None:
    dtype = DTYPES[expressed]
    q = np.array(stored, f"int{storage[1:]}")
    zero_point = int(params.split(":")[1])
    golden = spec_dequantize(q, zero_point, 1.0, dtype)
    assert golden.astype(np.int64).tolist() == spec
    qt = f"tensor<{len(stored)}x!quant.uniform<{storage}:{expressed}, {params}>>"
    ft = f"tensor<{len(stored)}x{expressed}>"
    text = f"""
    func.func @main(%x: {qt}) -> {ft} {{
      %0 = stablehlo.uniform_dequantize %x : ({qt}) -> {ft}
      func.return %0 : {ft}
    }}"""
    for result in all_stages(text, q):
        assert result.dtype == dtype
        np.testing.assert_array_equal(result, golden)


def test_uniform_dequantize_per_axis_i32() -> None:
    q = np.array([[33554433, -2147483648, 7], [123456789, 2147483647, -5]], np.int32)
    scales, zero_points = [0.5, 1.0, 0.25], [3, -7, 0]
    pairs = ",".join(f"{s!r}:{z}" for s, z in zip(scales, zero_points))
    qt = f"tensor<2x3x!quant.uniform<i32:f32:1, {{{pairs}}}>>"
    text = f"""
    func.func @main(%x: {qt}) -> tensor<2x3xf32> {{
      %0 = stablehlo.uniform_dequantize %x : ({qt}) -> tensor<2x3xf32>
      func.return %0 : tensor<2x3xf32>
    }}"""
    golden = spec_dequantize(q, zero_points, scales, np.float32)
    assert golden[0, 0] == 0.5 * 33554430
    for result in all_stages(text, q):
        np.testing.assert_array_equal(result, golden)


def test_reshape_to_rank0_reads_the_one_element() -> None:
    """`tensor<1x1xf32> -> tensor<f32>` lowers to a zero-loop generic reading `() -> (0, 0)`."""
    text = """
    func.func @main(%x: tensor<1x1xf32>) -> tensor<f32> {
      %r = stablehlo.reshape %x : (tensor<1x1xf32>) -> tensor<f32>
      %s = stablehlo.add %r, %r : tensor<f32>
      func.return %s : tensor<f32>
    }"""
    results = all_stages(text, np.array([[1.5]], np.float32))
    assert results[-1].shape == () and float(results[-1]) == 3.0
