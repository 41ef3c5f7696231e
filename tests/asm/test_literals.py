"""Big literals: the whole-array paths print what mlir-opt prints and fail as the
token-by-token paths fail.

Expected text is upstream's: written out from mlir-opt 22.1.8's output for
the small cases, and compared with a live mlir-opt (skipped when absent) for
generated tensors and scale lists. The error cases check that a bad literal
is a located diagnostic (exit 1, no traceback), and that the fast scale-list
reader reports exactly what the token parser reports.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xdsl.utils.exceptions import ParseError

import xquant
from tests.upstream import mlir_opt
from xquant.asm.diagnostics import Diagnostic, Severity, SourceLocation
from xquant.asm.printer import module_to_mlir
from xquant.dialects.quant import syntax

TOOL = [
    sys.executable,
    "-c",
    "import sys; from xquant.tools.xquant_opt import main; sys.exit(main())",
]


def _xquant_opt(
    text: str, tmp_path: Path, *flags: str
) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "in.mlir"
    path.write_text(text)
    done = subprocess.run(
        [*TOOL, str(path), *flags], capture_output=True, text=True, check=False
    )
    assert "Traceback" not in done.stdout + done.stderr
    return done


# ----- error windows -----


def test_short_line_is_shown_whole() -> None:
    diagnostic = Diagnostic(
        Severity.ERROR, "bad", SourceLocation("f.mlir", 1, 5), "abcdefghij", 3
    )
    assert diagnostic.render() == "f.mlir:1:5: error: bad\nabcdefghij\n    ^~~\n"


def test_long_line_shows_a_window_around_the_caret() -> None:
    line = "x" * 500 + "BAD" + "y" * 500
    diagnostic = Diagnostic(
        Severity.ERROR, "bad", SourceLocation("f.mlir", 1, 501), line, 3
    )
    _, shown, caret, _ = diagnostic.render().split("\n")
    assert shown == "..." + "x" * 100 + "BAD" + "y" * 98 + "..."
    assert caret == " " * 103 + "^~~"


def test_window_at_the_line_start_has_no_leading_dots() -> None:
    line = "BAD" + "y" * 1000
    diagnostic = Diagnostic(Severity.ERROR, "bad", SourceLocation("f.mlir", 1, 1), line)
    _, shown, caret, _ = diagnostic.render().split("\n")
    assert shown == "BAD" + "y" * 98 + "..."
    assert caret == "^"


def test_error_in_a_long_literal_is_located_and_short(tmp_path: Path) -> None:
    values = [str(i % 100) for i in range(64 * 256)]
    values[5000] = "1x3"
    text = f"%c = arith.constant dense<[{', '.join(values)}]> : tensor<16384xi8>\n"
    done = _xquant_opt(text, tmp_path)
    assert done.returncode == 1
    first, shown, caret = done.stderr.splitlines()[:3]
    column = text.index("1x3") + 1 + 1  # just after the `1`: `x3` is unexpected
    assert first.startswith(f"{tmp_path / 'in.mlir'}:1:{column}: error:")
    assert len(shown) <= 210 and shown.startswith("...") and shown.endswith("...")
    assert shown[caret.index("^") - 1 : caret.index("^") + 2] == "1x3"


# ----- located errors -----


def test_malformed_hex_literal_is_located(tmp_path: Path) -> None:
    done = _xquant_opt('%c = arith.constant dense<"0x12ZZ"> : tensor<2xi8>\n', tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines()[0].endswith(
        "in.mlir:1:27: error: Hex string in denseAttr is invalid"
    )


def test_scale_list_with_the_wrong_count_is_located(tmp_path: Path) -> None:
    q = "!quant.uniform<i8:f32:{0:1, 1:4}, {{1.0, 2.0, 3.0}, {3.0, 4.0, 5.0}}>"
    text = (
        f"func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8x{q}> {{\n"
        f"  %q = quant.qcast %x : tensor<4x8xf32> to tensor<4x8x{q}>\n"
        f"  return %q : tensor<4x8x{q}>\n}}\n"
    )
    done = _xquant_opt(text, tmp_path)
    assert done.returncode == 1
    assert ":2:8: error: dimension size" in done.stderr.splitlines()[0]


BAD_SCALE_LISTS = [
    "!quant.uniform<i8:f32:1, {1.0, 2.0,}>",
    "!quant.uniform<i8:f32:1, {1.0, -2.0}>",
    "!quant.uniform<i8:f32:1, {1.0, 2}>",
    "!quant.uniform<i8:f32:1, {1.0, 1.0e39}>",
    "!quant.uniform<i8:f32:1, {1.0:1, 2.0:x}>",
    "!quant.uniform<i8:f32:1, {1.0:99999999999999999999, 2.0}>",
    "!quant.uniform<i8:f32:{0:1, 1:2}, {{1.0, 2.0}, {3.0}}>",
    "!quant.uniform<i8:f32:{0:1, 1:2}, {{1.0:200, 2.0}, {3.0, 4.0}}>",
    "!quant.uniform<i8:f32:{0:1, 1:2}, {{1.0, 2.0}, {3.0, 4.0}}}>",
    "!quant.uniform<i8:f32:{0:1}, {1.0, 2.0}:1>",
    "!quant.uniform<i8:f32:{0:1, 1:1}, {{1.0}, {2.0}:1}>",
    "!quant.uniform<i8:f32:{0:1}, {1.0}5>",
    "!quant.uniform<i8:f32:0, {1.0 2.0, 3.0}>",
]

GOOD_SCALE_LISTS = [
    "!quant.uniform<i8:f32:1, {1.0, 2.5:3, 0.125:-2}>",
    "!quant.uniform<i8:f16:{0:1, 1:2}, {{1.0:1, 2.0:2}, {3.0:3, 4.0:4}}>",
    "!quant.uniform<u8:f32:{0:1, 1:2}, {{1.0e-3, 2.0E+2}, {3.0, 4.}}>",
    "!quant.uniform<i8:f32:{0:1, 1:1, 2:1}, {{{1.0, 2.0}}, {{3.0, 4.0}}}>",
]


def _parse_type(text: str) -> str:
    try:
        module = xquant.parse_module(f"func.func private @f() -> {text}\n")
    except ParseError as err:
        return f"{err.span.start}: {err.msg}"
    return module_to_mlir(module)


@pytest.mark.parametrize("text", BAD_SCALE_LISTS + GOOD_SCALE_LISTS)
def test_scale_list_fast_path_agrees_with_the_token_parser(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = _parse_type(text)
    monkeypatch.setattr(syntax, "_fast_param_list", lambda parser, expressed: None)
    monkeypatch.setattr(syntax, "_CACHED_LENGTH", 1 << 60)
    assert _parse_type(text) == fast


def test_scale_list_fast_path_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: object) -> None:
        raise AssertionError("token parser used")

    monkeypatch.setattr(syntax, "_parse_param_list", forbidden)
    for text in GOOD_SCALE_LISTS:
        assert "quant.uniform" in _parse_type(text)


# ----- printing: upstream's text -----

DENSE = [
    (
        "dense<[[1.5, -2.0e-3], [0.1, 3]]> : tensor<2x2xf32>",
        "dense<[[1.500000e+00, -2.000000e-03], [1.000000e-01, 3.000000e+00]]> : tensor<2x2xf32>",
    ),
    (
        "dense<[0.7, 1.0e-5, 0x7FF0000000000000, -0.0]> : tensor<4xf64>",
        "dense<[0.69999999999999996, 1.000000e-05, 0x7FF0000000000000, -0.000000e+00]> : tensor<4xf64>",
    ),
    (
        "dense<[0.3, 123456792.0, 3.4028234663852886e38]> : tensor<3xf32>",
        "dense<[3.000000e-01, 0x4CEB79A3, 3.40282347E+38]> : tensor<3xf32>",
    ),
    (
        "dense<[0.1, 1.0e-5, 16777217.0]> : tensor<3xf32>",
        "dense<[1.000000e-01, 9.99999974E-6, 0x4B800000]> : tensor<3xf32>",
    ),
    (
        "dense<[65504.0, 0.1, 1.0e-7]> : tensor<3xf16>",
        "dense<[6.550400e+04, 9.997550e-02, 1.192090e-07]> : tensor<3xf16>",
    ),
    (
        "dense<[[1, -2], [3, 127]]> : tensor<2x2xi8>",
        "dense<[[1, -2], [3, 127]]> : tensor<2x2xi8>",
    ),
    ("dense<[true, false]> : tensor<2xi1>", "dense<[true, false]> : tensor<2xi1>"),
    ("dense<[1, 2, 3]> : tensor<3xindex>", "dense<[1, 2, 3]> : tensor<3xindex>"),
    ("dense<[2.0, 2.0]> : tensor<2xf32>", "dense<2.000000e+00> : tensor<2xf32>"),
]


@pytest.mark.parametrize(("text", "expected"), DENSE)
def test_dense_prints_as_upstream(text: str, expected: str) -> None:
    module = xquant.parse_module(f"%c = arith.constant {text}\n")
    assert f"arith.constant {expected}\n" in module_to_mlir(module)


def _generated_module(rng: np.random.Generator) -> str:
    f32 = rng.standard_normal((24, 40)).astype(np.float32)
    f32[0, :4] = [0.1, 1.0, 1.0e-5, 16777216.0]
    f64 = rng.standard_normal(300) * 10.0 ** rng.integers(-20, 20, 300)
    f16 = rng.standard_normal((7, 33)).astype(np.float16)
    i8 = rng.integers(-128, 128, (3, 5, 17))
    i1 = rng.integers(0, 2, 150).astype(bool)
    bf16 = rng.standard_normal(4).astype(ml_dtypes.bfloat16)

    def literal(values: np.ndarray) -> str:
        if values.dtype == bool:
            return (
                str(values.tolist()).replace("True", "true").replace("False", "false")
            )
        return str(np.asarray(values, dtype=object).tolist()).replace("'", "")

    def floats(values: np.ndarray) -> np.ndarray:
        return np.vectorize(lambda v: repr(float(v)))(values)

    return (
        "\n".join(
            [
                f"%a = arith.constant dense<{literal(floats(f32))}> : tensor<24x40xf32>",
                f"%b = arith.constant dense<{literal(floats(f64))}> : tensor<300xf64>",
                f"%c = arith.constant dense<{literal(floats(f16))}> : tensor<7x33xf16>",
                f"%d = arith.constant dense<{literal(i8)}> : tensor<3x5x17xi8>",
                f"%e = arith.constant dense<{literal(i1)}> : tensor<150xi1>",
                f"%f = arith.constant dense<{literal(floats(bf16))}> : tensor<4xbf16>",
            ]
        )
        + "\n"
    )


@pytest.mark.parametrize(
    "flags", [(), ("--mlir-print-elementsattrs-with-hex-if-larger=-1",)]
)
def test_generated_dense_matches_mlir_opt(
    tmp_path: Path, flags: tuple[str, ...]
) -> None:
    mlir_opt.require_mlir_opt()
    text = _generated_module(np.random.default_rng(3))
    upstream = mlir_opt.run_mlir_opt(text, *flags)
    assert upstream.returncode == 0, upstream.stderr
    ours = _xquant_opt(text, tmp_path, *flags)
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == upstream.stdout


def test_generated_scale_lists_match_mlir_opt(tmp_path: Path) -> None:
    mlir_opt.require_mlir_opt()
    rng = np.random.default_rng(11)
    scales = (rng.random((16, 24)) * 0.02 + 1.0e-4).astype(np.float32)
    zero_points = rng.integers(0, 20, (16, 24))
    rows = ", ".join(
        "{"
        + ", ".join(f"{float(s)!r}:{z}" for s, z in zip(srow, zrow, strict=True))
        + "}"
        for srow, zrow in zip(scales.tolist(), zero_points.tolist(), strict=True)
    )
    per_axis = ",".join(f"{v!r}" for v in (rng.random(300) * 0.1 + 1e-6).tolist())
    text = (
        f"func.func private @a() -> !quant.uniform<i8:f32:{{0:1, 1:8}}, {{{rows}}}>\n"
        f"func.func private @b() -> !quant.uniform<i8:f16:{{0:1, 1:8}}, {{{rows}}}>\n"
        f"func.func private @c() -> !quant.uniform<i8:f32:0, {{{per_axis}}}>\n"
    )
    upstream = mlir_opt.run_mlir_opt(text)
    assert upstream.returncode == 0, upstream.stderr
    ours = _xquant_opt(text, tmp_path)
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == upstream.stdout
