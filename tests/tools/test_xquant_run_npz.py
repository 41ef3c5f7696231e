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
