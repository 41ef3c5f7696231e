"""`xquant-run --arg FILE.npz`: one array per function argument, in numeric name order."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xquant.tools.xquant_run import main

SOURCE = """
func.func @main(%a: tensor<2xf32>, %b: f32) -> (tensor<2xf32>, f32) {
  func.return %a, %b : tensor<2xf32>, f32
}
"""

EXPECTED = "dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf32>\n2.000000e+00 : f32\n"


@pytest.fixture
def source(tmp_path: Path) -> Path:
    p = tmp_path / "f.mlir"
    p.write_text(SOURCE)
    return p


def test_named_arguments_in_numeric_order(source: Path, tmp_path: Path, capsys) -> None:
    npz = tmp_path / "a.npz"
    np.savez(npz, arg1=np.float32(2.0), arg0=np.array([1.0, 2.5], np.float32))
    assert main([str(source), "--arg", str(npz)]) == 0
    assert capsys.readouterr().out == EXPECTED


def test_positional_savez(source: Path, tmp_path: Path, capsys) -> None:
    npz = tmp_path / "a.npz"
    np.savez(npz, np.array([1.0, 2.5], np.float32), np.float32(2.0))
    assert main([str(source), "--arg", str(npz)]) == 0
    assert capsys.readouterr().out == EXPECTED


def test_npz_mixes_with_literals(source: Path, tmp_path: Path, capsys) -> None:
    npz = tmp_path / "a.npz"
    np.savez(npz, arg0=np.array([1.0, 2.5], np.float32))
    assert main([str(source), "--arg", str(npz), "--arg", "2.0 : f32"]) == 0
    assert capsys.readouterr().out == EXPECTED


def test_gap_in_names_is_an_error(source: Path, tmp_path: Path, capsys) -> None:
    npz = tmp_path / "a.npz"
    np.savez(npz, arg0=np.zeros(2, np.float32), arg2=np.float32(1))
    assert main([str(source), "--arg", str(npz)]) == 1
    assert "expected arg0 to arg1" in capsys.readouterr().err


def test_unreadable_npz_is_an_error(source: Path, tmp_path: Path, capsys) -> None:
    npz = tmp_path / "bad.npz"
    npz.write_text("not a zip")
    assert main([str(source), "--arg", str(npz)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: cannot load --arg")
    assert "Traceback" not in err


ML_SOURCE = """
func.func @main(%a: tensor<3xbf16>, %b: tensor<2xf8E4M3FN>) -> (tensor<3xbf16>, tensor<2xf8E4M3FN>) {
  func.return %a, %b : tensor<3xbf16>, tensor<2xf8E4M3FN>
}
"""


def test_ml_dtypes_arrays_saved_by_numpy(tmp_path: Path, capsys) -> None:
    """numpy saves bf16 / f8 arrays as raw `V2` / `V1` (.npy cannot name them):
    they are read as the argument's type, byte for byte."""
    import ml_dtypes

    src = tmp_path / "m.mlir"
    src.write_text(ML_SOURCE)
    a, b = tmp_path / "a.npy", tmp_path / "b.npy"
    np.save(a, np.array([1.5, -0.1, 256.0], ml_dtypes.bfloat16))
    np.save(b, np.array([0.4375, -448.0], ml_dtypes.float8_e4m3fn))
    assert np.load(a).dtype == np.dtype("V2")
    assert main([str(src), "--arg", str(a), "--arg", str(b)]) == 0
    assert capsys.readouterr().out == (
        "dense<[1.500000e+00, -1.000980e-01, 2.560000e+02]> : tensor<3xbf16>\n"
        "dense<[4.375000e-01, -4.480000e+02]> : tensor<2xf8E4M3FN>\n"
    )


def test_raw_bytes_of_another_width_are_refused(tmp_path: Path, capsys) -> None:
    src = tmp_path / "m.mlir"
    src.write_text(ML_SOURCE)
    a, b = tmp_path / "a.npy", tmp_path / "b.npy"
    np.save(a, np.zeros(3, "V4"))
    np.save(b, np.zeros(2, "V1"))
    assert main([str(src), "--arg", str(a), "--arg", str(b)]) == 1
    err = capsys.readouterr().err
    assert "argument #0: expected tensor<3xbf16> (numpy dtype bfloat16)" in err
    assert "got an array of dtype |V4" in err
