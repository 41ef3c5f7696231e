"""`dense_resource` constants: blobs decoded per element type, kept by passes, bad blobs located.

Golden blobs are built here with numpy/ml_dtypes bytes (little-endian, after a
4-byte alignment word; one byte per i1 / sub-byte element, as MLIR lays them
out), independently of `xquant.interpreter.resources`.
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xdsl.utils.exceptions import InterpretationError

import xquant
from xquant.tools.xquant_run import main


def _module(element: str, shape: str, blob: str, name: str = "w") -> str:
    return f"""func.func @main() -> tensor<{shape}x{element}> {{
  %0 = arith.constant dense_resource<{name}> : tensor<{shape}x{element}>
  func.return %0 : tensor<{shape}x{element}>
}}

{{-#
  dialect_resources: {{
    builtin: {{
      {name}: "{blob}"
    }}
  }}
#-}}
"""


def _blob(data: bytes, alignment: int = 4) -> str:
    return "0x" + (alignment.to_bytes(4, "little") + data).hex().upper()


FLOAT_CASES = [
    ("f32", np.float32),
    ("f64", np.float64),
    ("f16", np.float16),
    ("bf16", ml_dtypes.bfloat16),
    ("f8E4M3FN", ml_dtypes.float8_e4m3fn),
    ("f8E5M2", ml_dtypes.float8_e5m2),
    ("f6E2M3FN", ml_dtypes.float6_e2m3fn),
    ("f6E3M2FN", ml_dtypes.float6_e3m2fn),
    ("f4E2M1FN", ml_dtypes.float4_e2m1fn),
    ("f8E8M0FNU", ml_dtypes.float8_e8m0fnu),
]


@pytest.mark.parametrize(("element", "dtype"), FLOAT_CASES)
def test_float_blobs(element: str, dtype: type) -> None:
    values = np.array([0.5, -1.5, 2.0, 0.25, 4.0, 1.0], dtype=np.float32)
    if element == "f8E8M0FNU":
        values = np.abs(values)  # powers of two, no sign
    typed = values.astype(dtype)
    data = typed.astype(np.dtype(dtype).newbyteorder("<")).tobytes()
    (out,) = xquant.run(_module(element, "2x3", _blob(data)), "main")
    assert out.dtype == np.dtype(dtype)
    assert out.shape == (2, 3)
    np.testing.assert_array_equal(
        out.astype(np.float64), typed.astype(np.float64).reshape(2, 3)
    )


@pytest.mark.parametrize(
    ("element", "dtype", "values"),
    [
        ("i8", "<i1", [-128, 127, 0, -1]),
        ("i16", "<i2", [-32768, 32767, 5, -1]),
        ("i32", "<i4", [-(2**31), 2**31 - 1, 7, -7]),
        ("i64", "<i8", [-(2**63), 2**63 - 1, 1, -2]),
        ("ui8", "<u1", [0, 255, 128, 1]),
    ],
)
def test_integer_blobs(element: str, dtype: str, values: list[int]) -> None:
    data = np.array(values, dtype=dtype).tobytes()
    (out,) = xquant.run(_module(element, "4", _blob(data)), "main")
    assert out.tolist() == values


def test_i4_one_byte_each_low_bits() -> None:
    # mlir-opt 22 writes dense<[1, -2, 7, -8]> : tensor<4xi4> as "0x010E0708";
    # a sign-extended byte (0xFE) reads the same.
    (out,) = xquant.run(_module("i4", "5", _blob(bytes([1, 0x0E, 7, 8, 0xFE]))), "main")
    assert out.tolist() == [1, -2, 7, -8, -2]


def test_i1_one_byte_each() -> None:
    (out,) = xquant.run(_module("i1", "4", _blob(bytes([1, 0, 1, 1]))), "main")
    assert out.dtype == np.bool_
    assert out.tolist() == [True, False, True, True]


def test_a_second_parse_keeps_its_blob() -> None:
    text = _module("i32", "2", _blob(np.array([3, 4], "<i4").tobytes()), "twice")
    first = xquant.parse_module(text)
    second = xquant.parse_module(text)
    assert xquant.run(first, "main")[0].tolist() == [3, 4]
    assert xquant.run(second, "main")[0].tolist() == [3, 4]


@pytest.mark.parametrize(
    ("blob", "message"),
    [
        ("0x0400", "is truncated: 2 bytes"),
        ("0x04000000010000", "holds 3 bytes, but tensor<2xi32> needs 8"),
        ("0x0400000001000000020000000", "odd number of hex digits (25)"),
    ],
)
def test_bad_blobs_are_located(blob: str, message: str, tmp_path: Path, capsys) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text(_module("i32", "2", blob))
    assert main([str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:2:8: error: 'arith.constant' op: " in err
    assert message in err
    assert "Traceback" not in err
    with pytest.raises(InterpretationError, match=r"'arith\.constant' op"):
        xquant.run(xquant.parse_module(path.read_text()), "main")


def test_missing_blob_is_located(tmp_path: Path, capsys) -> None:
    path = tmp_path / "missing.mlir"
    path.write_text(
        "func.func @main() -> tensor<2xi32> {\n"
        "  %0 = arith.constant dense_resource<nowhere> : tensor<2xi32>\n"
        "  func.return %0 : tensor<2xi32>\n}\n"
    )
    assert main([str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:2:8: error:" in err
    assert "has no blob in the file's dialect_resources section" in err


def test_blobs_survive_passes_and_printing(tmp_path: Path) -> None:
    data = np.array([1.5, -2.0], "<f4").tobytes()
    text = _module("f32", "2", _blob(data), "kept").replace(
        "func.return %0", "%1 = arith.addf %0, %0 : tensor<2xf32>\n  func.return %1"
    )
    module = xquant.parse_module(text)
    xquant.apply_passes(module, "canonicalize,cse")
    printed = xquant.print_module(module)
    assert "dense_resource<kept" in printed
    assert _blob(data) in printed
    (out,) = xquant.run(xquant.parse_module(printed), "main")
    assert out.tolist() == [3.0, -4.0]


@pytest.mark.parametrize("pipeline", ["", "stablehlo-legalize-to-linalg"])
def test_stablehlo_constant_reads_its_blob(pipeline: str) -> None:
    data = np.array([7, -9], "<i4").tobytes()
    text = _module("i32", "2", _blob(data), "shlo_blob").replace(
        "arith.constant", "stablehlo.constant"
    )
    module = xquant.parse_module(text)
    if pipeline:
        xquant.apply_passes(module, pipeline)
    assert "dense_resource<shlo_blob" in xquant.print_module(module)
    assert xquant.run(module, "main")[0].tolist() == [7, -9]
