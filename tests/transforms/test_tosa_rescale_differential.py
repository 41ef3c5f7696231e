"""Differential tests: quantized StableHLO, after `stablehlo-quant-legalize-to-tosa-rescale`, and after
`tosa-rescale-legalize-to-stablehlo` as well.

1. Every module of `../shared/stablehlo-quantized` (skipped when absent) that
   the first pass changes: the three stages give the same results and every
   check passes at every stage.
2. Each pattern on random per-tensor types and data: the two lowered stages
   agree bit for bit; the original (the float contract of
   `xquant.numerics.uniform`: dequantize in f32, op, quantize with round half
   to even) and the rescaled form differ by at most one storage unit, only
   where the real result lies within a small distance of a rounding tie.
   Why: TOSA rounds half up in fixed point, the contract rounds half to even
   in f32; add/subtract/maximum/minimum round twice (operands to 2^20 or 2^15
   steps, then the result), and multipliers carry 31-bit mantissas. For
   compare, operands rescaled to a common 2^-20 grid can order values that
   are within about 2^-20 of each other differently from f32 dequantization.
3. The lowered `tosa.rescale` (StableHLO i64 math) and the interpreter's
   `tosa.rescale` agree exactly on random valid rescales and data.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

from tests.fetch_upstream_tests import absent_reason
from tests.interpreter.test_tosa_rescale import HOLDERS, Case, cases
from tests.transforms.test_stablehlo_differential import MODULES, entry_functions, same
from xquant import apply_passes, parse_module, run
from xquant.interpreter.runner import run_with_checks
from xquant.tools.xquant_run import _chunks  # pyright: ignore[reportPrivateUsage]

# `safe=true`: only the lowerings that keep the numbers (the default also lowers
# divide and unchecked ranges, as upstream).
TO_RESCALE = "stablehlo-quant-legalize-to-tosa-rescale{safe=true}"
UPSTREAM = "stablehlo-quant-legalize-to-tosa-rescale"
TO_STABLEHLO = f"{TO_RESCALE},tosa-rescale-legalize-to-stablehlo"


def _rescaled_chunks(path: Path) -> list[str]:
    chunks = [c for c in _chunks(path.read_text(), True) if "func.func" in c]
    return [
        c
        for c in chunks
        if "tosa.rescale" in str(apply_passes(parse_module(c), TO_RESCALE))
    ]


@pytest.mark.skipif(not MODULES, reason=absent_reason("stablehlo-quantized/"))
def test_conformance_modules_agree_and_checks_pass() -> None:
    """5 modules change (subtract x2, multiply, integer_pow, the per-tensor add of quantized_ops); all checks pass."""
    functions = checks = 0
    changed: list[str] = []
    for path in MODULES:
        for chunk in _rescaled_chunks(path):
            changed.append(path.name)
            original = parse_module(chunk)
            rescaled = apply_passes(parse_module(chunk), TO_RESCALE)
            lowered = apply_passes(parse_module(chunk), TO_STABLEHLO)
            assert "tosa." not in str(lowered)
            for name in entry_functions(original):
                reference, reference_checks = run_with_checks(original, name)
                assert all(c.passed for c in reference_checks)
                for module in (rescaled, lowered):
                    results, stage_checks = run_with_checks(module, name)
                    assert len(stage_checks) == len(reference_checks)
                    failed = [c.message for c in stage_checks if not c.passed]
                    assert not failed, (path.name, failed)
                    assert all(
                        same(a, b) for a, b in zip(results, reference, strict=True)
                    )
                functions += 1
                checks += len(reference_checks)
    assert len(changed) >= 5, changed
    assert functions >= 5 and checks >= 5


# ----------------------------------------------------------------------------------------
# each pattern on random types and data


def _qtype(scale: float, zp: int, width: int = 8) -> str:
    return f"!quant.uniform<i{width}:f32, {scale!r}:{zp}>"


def _random_type(rng: np.random.Generator, width: int) -> tuple[float, int]:
    scale = float(np.exp(rng.uniform(np.log(1e-2), np.log(1e-1))))
    zp = int(rng.integers(-100, 100)) if width == 8 else 0
    return scale, zp


BINARY = ["add", "subtract", "multiply", "maximum", "minimum"]


def _real(op: str, a: Fraction, b: Fraction) -> Fraction:
    return {
        "add": a + b,
        "subtract": a - b,
        "multiply": a * b,
        "maximum": max(a, b),
        "minimum": min(a, b),
        "abs": abs(a),
    }[op]


def _three_stages(text: str, *args: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    original = run(parse_module(text), "main", *args)[0]
    rescaled_module = apply_passes(parse_module(text), TO_RESCALE)
    assert "tosa.rescale" in str(rescaled_module)
    rescaled = run(rescaled_module, "main", *args)[0]
    lowered = run(apply_passes(parse_module(text), TO_STABLEHLO), "main", *args)[0]
    assert same(rescaled, lowered)
    return np.asarray(original), np.asarray(rescaled)


def _check_off_by_one_near_ties(
    op: str,
    original: np.ndarray,
    rescaled: np.ndarray,
    operands: list[tuple[np.ndarray, float, int]],
    result: tuple[float, int],
    width: int,
) -> int:
    """At most one storage unit apart, and only where the exact result is near a rounding tie."""
    diff = np.abs(original.astype(np.int64) - rescaled.astype(np.int64))
    assert int(diff.max(initial=0)) <= 1
    low, high = -(1 << (width - 1)), (1 << (width - 1)) - 1
    for index in zip(*np.nonzero(diff)):
        reals = [Fraction(float(s)) * (int(q[index]) - z) for q, s, z in operands]
        exact = _real(op, *reals) / Fraction(result[0]) + result[1]
        if low <= exact <= high:
            distance = abs(
                exact - (exact.numerator // exact.denominator) - Fraction(1, 2)
            )
            # 8-bit: 2^-12 units; 16-bit: f32 dequantization of values up to 2^15 units
            # alone is off by up to ~2^-9 units, and operands are rescaled to 2^15 steps
            tolerance = Fraction(1, 1 << 12) if width == 8 else Fraction(1, 1 << 6)
            assert distance < tolerance, (op, index, float(exact))
    return int(np.count_nonzero(diff))


PATTERN_CASES = [
    (op, width)
    for width in (8, 16)
    for op in (*BINARY, "abs")
    if not (
        width == 16 and op in ("maximum", "minimum")
    )  # untouched, see test_untouched_ops
]


@pytest.mark.parametrize(("op", "width"), PATTERN_CASES)
def test_pattern_against_float_contract(op: str, width: int) -> None:
    rng = np.random.default_rng(BINARY.index(op) if op in BINARY else 9)
    dtype = HOLDERS[width]
    info = np.iinfo(dtype)
    mismatches = elements = 0
    for _ in range(6):
        lhs_t, rhs_t, out_t = (_random_type(rng, width) for _ in range(3))
        if op == "multiply":  # keep products inside the result range most of the time
            out_t = (
                lhs_t[0]
                * rhs_t[0]
                * float(rng.uniform(50, 400 if width == 8 else 40000)),
                out_t[1],
            )
        shape = (8, 16)
        a = rng.integers(info.min, info.max + 1, size=shape, dtype=dtype)
        b = rng.integers(info.min, info.max + 1, size=shape, dtype=dtype)
        ql, qr, qo = (_qtype(s, z, width) for s, z in (lhs_t, rhs_t, out_t))
        if op == "abs":
            text = f"""
            func.func @main(%a: tensor<8x16x{ql}>) -> tensor<8x16x{qo}> {{
              %0 = stablehlo.abs %a : (tensor<8x16x{ql}>) -> tensor<8x16x{qo}>
              func.return %0 : tensor<8x16x{qo}>
            }}"""
            original, rescaled = _three_stages(text, a)
            operands = [(a, *lhs_t)]
        else:
            text = f"""
            func.func @main(%a: tensor<8x16x{ql}>, %b: tensor<8x16x{qr}>) -> tensor<8x16x{qo}> {{
              %0 = stablehlo.{op} %a, %b : (tensor<8x16x{ql}>, tensor<8x16x{qr}>) -> tensor<8x16x{qo}>
              func.return %0 : tensor<8x16x{qo}>
            }}"""
            original, rescaled = _three_stages(text, a, b)
            operands = [(a, *lhs_t), (b, *rhs_t)]
        mismatches += _check_off_by_one_near_ties(
            op, original, rescaled, operands, out_t, width
        )
        elements += a.size
    assert mismatches <= elements // 20, (mismatches, elements)


def test_equal_scales_add_is_exact() -> None:
    """Equal scales: operands rescale by exactly 2^19 and the sum back by 2^-19, so no rounding at all."""
    rng = np.random.default_rng(1)
    q = _qtype(0.05, -3)
    qo = _qtype(0.05, 7)
    a = rng.integers(-128, 128, size=(16, 16), dtype=np.int8)
    b = rng.integers(-128, 128, size=(16, 16), dtype=np.int8)
    text = f"""
    func.func @main(%a: tensor<16x16x{q}>, %b: tensor<16x16x{q}>) -> tensor<16x16x{qo}> {{
      %0 = stablehlo.add %a, %b : (tensor<16x16x{q}>, tensor<16x16x{q}>) -> tensor<16x16x{qo}>
      func.return %0 : tensor<16x16x{qo}>
    }}"""
    original, rescaled = _three_stages(text, a, b)
    np.testing.assert_array_equal(original, rescaled)
    expected = np.clip(a.astype(np.int64) + 3 + b + 3 + 7, -128, 127)
    np.testing.assert_array_equal(rescaled, expected)


@pytest.mark.parametrize("direction", ["EQ", "NE", "GE", "GT", "LE", "LT"])
def test_compare_against_float_contract(direction: str) -> None:
    """Boolean results differ from f32 dequantization only for values within 2^-18 (relative) of each other."""
    rng = np.random.default_rng(4)
    lhs_t, rhs_t = (0.025, -1), (0.075, 2)
    a = rng.integers(-128, 128, size=(32, 32), dtype=np.int8)
    b = rng.integers(-128, 128, size=(32, 32), dtype=np.int8)
    b[:4] = ((a[:4].astype(np.int64) + 1) // 3 + 2).astype(
        np.int8
    )  # many exactly equal reals
    ql, qr = _qtype(*lhs_t), _qtype(*rhs_t)
    text = f"""
    func.func @main(%a: tensor<32x32x{ql}>, %b: tensor<32x32x{qr}>) -> tensor<32x32xi1> {{
      %0 = stablehlo.compare {direction}, %a, %b : (tensor<32x32x{ql}>, tensor<32x32x{qr}>) -> tensor<32x32xi1>
      func.return %0 : tensor<32x32xi1>
    }}"""
    original, rescaled = _three_stages(text, a, b)
    for index in zip(*np.nonzero(original != rescaled)):
        left = Fraction(0.025) * (int(a[index]) + 1)
        right = Fraction(0.075) * (int(b[index]) - 2)
        assert abs(left - right) <= abs(right) / (1 << 18) + Fraction(1, 1 << 30)
    # exactly equal reals compare equal in the rescaled form
    equal = (a.astype(np.int64) + 1) == 3 * (b.astype(np.int64) - 2)
    expected = {
        "EQ": True,
        "NE": False,
        "GE": True,
        "LE": True,
        "GT": False,
        "LT": False,
    }
    assert np.all(rescaled[equal] == expected[direction])


def test_untouched_ops() -> None:
    """divide, per-axis and unsigned types, narrow storage ranges, i16 zero points and
    rescales that would break a REQUIRE stay as they are."""
    cases_text = [
        ("divide", _qtype(0.1, 3), _qtype(0.2, -1), _qtype(0.3, 0)),
        (
            "add",
            "!quant.uniform<i8:f32:0, {0.1:1, 0.2:2}>",
            "!quant.uniform<i8:f32:0, {0.1:1, 0.2:2}>",
            "!quant.uniform<i8:f32:0, {0.1:1, 0.2:2}>",
        ),
        (
            "add",
            "!quant.uniform<i8<-127:127>:f32, 0.1>",
            _qtype(0.1, 0),
            _qtype(0.1, 0),
        ),
        ("add", _qtype(0.1, 5, 16), _qtype(0.1, 0, 16), _qtype(0.1, 0, 16)),
        (
            "add",
            "!quant.uniform<u8:f32, 0.1:128>",
            "!quant.uniform<u8:f32, 0.1:128>",
            "!quant.uniform<u8:f32, 0.1:128>",
        ),
        # i16 max/min: the larger-scale operand is rescaled by 2^15 (shift 15: only |q| < 2^14 allowed)
        ("maximum", _qtype(0.1, 0, 16), _qtype(0.3, 0, 16), _qtype(0.2, 0, 16)),
        ("minimum", _qtype(0.1, 0, 16), _qtype(0.1, 0, 16), _qtype(0.2, 0, 16)),
        # i16 multiply with s_lhs * s_rhs / s_result >= 0.5: products up to 2^30 break shift 30's range
        ("multiply", _qtype(0.5, 0, 16), _qtype(0.5, 0, 16), _qtype(0.25, 0, 16)),
    ]
    for op, ql, qr, qo in cases_text:
        text = f"""
        func.func @main(%a: tensor<2x{ql}>, %b: tensor<2x{qr}>) -> tensor<2x{qo}> {{
          %0 = stablehlo.{op} %a, %b : (tensor<2x{ql}>, tensor<2x{qr}>) -> tensor<2x{qo}>
          func.return %0 : tensor<2x{qo}>
        }}"""
        assert "tosa." not in str(apply_passes(parse_module(text), TO_RESCALE)), (
            op,
            ql,
        )


# ----------------------------------------------------------------------------------------
# the lowered tosa.rescale vs the interpreter's


@settings(max_examples=120, deadline=None)
@given(cases())
def test_lowered_rescale_matches_interpreter(drawn: tuple[Case, np.ndarray]) -> None:
    case, bits = drawn
    text = case.module(bits.shape)
    data = bits.astype(HOLDERS[case.in_width])
    interpreted = run(parse_module(text), "main", data)[0]
    lowered_module = apply_passes(
        parse_module(text), "tosa-rescale-legalize-to-stablehlo"
    )
    assert "tosa." not in str(lowered_module)
    lowered = run(lowered_module, "main", data)[0]
    assert same(interpreted, lowered), (case, bits, interpreted, lowered)
    np.testing.assert_array_equal(interpreted.astype(np.int64), case.reference(bits))


def test_lowered_rescale_quantized_in_and_out() -> None:
    """Quantized input and output are bridged with bitcast_convert; per-channel DOUBLE_ROUND on all i8 values."""
    q_in, q_out = _qtype(0.1, -3), _qtype(0.3, 4)
    text = f"""
    func.func @main(%x: tensor<64x4x{q_in}>) -> tensor<64x4x{q_out}> {{
      %m = "tosa.const"() <{{values = dense<[1431655765, 1073741824, 2147483647, 1048576]> : tensor<4xi32>}}> : () -> tensor<4xi32>
      %s = "tosa.const"() <{{values = dense<[33, 40, 31, 10]> : tensor<4xi8>}}> : () -> tensor<4xi8>
      %izp = "tosa.const"() <{{values = dense<-3> : tensor<1xi8>}}> : () -> tensor<1xi8>
      %ozp = "tosa.const"() <{{values = dense<4> : tensor<1xi8>}}> : () -> tensor<1xi8>
      %0 = tosa.rescale %x, %m, %s, %izp, %ozp {{input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = DOUBLE_ROUND, scale32 = true}} : (tensor<64x4x{q_in}>, tensor<4xi32>, tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<64x4x{q_out}>
      func.return %0 : tensor<64x4x{q_out}>
    }}"""
    data = np.stack(
        [np.arange(-128, 128, 4, dtype=np.int8) + k for k in range(4)], axis=1
    )
    interpreted = run(parse_module(text), "main", data)[0]
    lowered = run(
        apply_passes(parse_module(text), "tosa-rescale-legalize-to-stablehlo"),
        "main",
        data,
    )[0]
    assert same(interpreted, lowered)
    case = Case(
        8,
        8,
        (1431655765, 1073741824, 2147483647, 1 << 20),
        (33, 40, 31, 10),
        -3,
        4,
        rounding_mode="DOUBLE_ROUND",
        per_channel=True,
    )
    np.testing.assert_array_equal(interpreted.astype(np.int64), case.reference(data))


def test_i16_compare_is_untouched() -> None:
    """Upstream rescales i16 compare operands by up to 2^15 (shift 15), which breaks RESCALE's value REQUIRE."""
    ql, qr = _qtype(0.025, 0, 16), _qtype(0.075, 0, 16)
    text = f"""
    func.func @main(%a: tensor<4x{ql}>, %b: tensor<4x{qr}>) -> tensor<4xi1> {{
      %0 = stablehlo.compare LT, %a, %b : (tensor<4x{ql}>, tensor<4x{qr}>) -> tensor<4xi1>
      func.return %0 : tensor<4xi1>
    }}"""
    assert "tosa." not in str(apply_passes(parse_module(text), TO_RESCALE))


def test_exact_ties_round_half_up_not_half_even() -> None:
    """abs into twice the scale: every odd |q - z| is a tie. The float contract rounds it to
    even, TOSA's RESCALE up, so they differ by one exactly where |q - z| % 4 == 1."""
    q_in, q_out = _qtype(0.5, 3), _qtype(1.0, -2)
    a = np.arange(-128, 128, dtype=np.int8)
    text = f"""
    func.func @main(%a: tensor<256x{q_in}>) -> tensor<256x{q_out}> {{
      %0 = stablehlo.abs %a : (tensor<256x{q_in}>) -> tensor<256x{q_out}>
      func.return %0 : tensor<256x{q_out}>
    }}"""
    original, rescaled = _three_stages(text, a)
    magnitude = np.abs(a.astype(np.int64) - 3)
    np.testing.assert_array_equal(
        original, np.clip(np.rint(magnitude / 2) - 2, -128, 127)
    )
    np.testing.assert_array_equal(
        rescaled, np.clip((magnitude + 1) // 2 - 2, -128, 127)
    )
    differs = original != rescaled
    np.testing.assert_array_equal(differs, magnitude % 4 == 1)
    assert int(np.abs(original.astype(np.int64) - rescaled).max()) == 1


# ----------------------------------------------------------------------------------------
# the default: upstream's patterns, upstream's arithmetic


def _tosa_apply_scale_32(value: np.ndarray, multiplier: int, shift: int) -> np.ndarray:
    """TOSA's apply_scale_32, SINGLE_ROUND: `(v * m + 2^(shift-1)) >> shift`."""
    return (value.astype(np.int64) * multiplier + (1 << (shift - 1))) >> shift


def test_default_divide_is_upstreams() -> None:
    """Upstream's divide: `q - z` at scale 1 (multiplier 2^30, shift 30), a truncating i32
    division, the quotient rescaled by the multiply scale s_lhs * s_rhs / s_result: for
    0.025, 0.075 -> 0.15 that is multiplier 1717986918, shift 37 (upstream's CHECK lines).
    `safe=true` leaves the op alone, the default lowers it."""
    ql, qr, qo = _qtype(0.025, -1), _qtype(0.075, -2), _qtype(0.15, -3)
    text = f"""
    func.func @main(%a: tensor<256x{ql}>, %b: tensor<256x{qr}>) -> tensor<256x{qo}> {{
      %0 = stablehlo.divide %a, %b : (tensor<256x{ql}>, tensor<256x{qr}>) -> tensor<256x{qo}>
      func.return %0 : tensor<256x{qo}>
    }}"""
    assert "tosa." not in str(apply_passes(parse_module(text), TO_RESCALE))
    lowered = apply_passes(parse_module(text), UPSTREAM)
    assert "tosa.rescale" in str(lowered)
    a = np.arange(-128, 128, dtype=np.int8)
    b = np.roll(a, 7)
    b = np.where(b == -2, np.int8(5), b)  # no division by zero
    result = run(lowered, "main", a, b)[0]
    quotient = np.trunc((a.astype(np.int64) + 1) / (b.astype(np.int64) + 2)).astype(
        np.int64
    )
    expected = np.clip(_tosa_apply_scale_32(quotient, 1717986918, 37) - 3, -128, 127)
    np.testing.assert_array_equal(np.asarray(result).astype(np.int64), expected)
    # and the contract's quotient is a different number (why `safe` exists)
    contract = run(parse_module(text), "main", a, b)[0]
    assert np.any(np.asarray(contract) != np.asarray(result))


def test_default_lowers_what_upstream_matches() -> None:
    """Without `safe`, the range checks are off: i16 compare (operands shifted by 2^15)
    and i16 maximum are lowered, as upstream's pass does; per-axis types are not."""
    q1, q2, q3 = _qtype(0.025, 0, 16), _qtype(0.075, 0, 16), _qtype(0.15, 0, 16)
    compare = f"""
    func.func @main(%a: tensor<4x{q1}>, %b: tensor<4x{q2}>) -> tensor<4xi1> {{
      %0 = stablehlo.compare LT, %a, %b : (tensor<4x{q1}>, tensor<4x{q2}>) -> tensor<4xi1>
      func.return %0 : tensor<4xi1>
    }}"""
    maximum = f"""
    func.func @main(%a: tensor<4x{q1}>, %b: tensor<4x{q2}>) -> tensor<4x{q3}> {{
      %0 = stablehlo.maximum %a, %b : (tensor<4x{q1}>, tensor<4x{q2}>) -> tensor<4x{q3}>
      func.return %0 : tensor<4x{q3}>
    }}"""
    per_axis = "!quant.uniform<i8:f32:0, {0.1:1, 0.2:2}>"
    untouched = f"""
    func.func @main(%a: tensor<2x{per_axis}>) -> tensor<2x{per_axis}> {{
      %0 = stablehlo.add %a, %a : tensor<2x{per_axis}>
      func.return %0 : tensor<2x{per_axis}>
    }}"""
    for text in (compare, maximum):
        assert "tosa." not in str(apply_passes(parse_module(text), TO_RESCALE))
        assert "tosa.rescale" in str(apply_passes(parse_module(text), UPSTREAM))
    assert "tosa." not in str(apply_passes(parse_module(untouched), UPSTREAM))
