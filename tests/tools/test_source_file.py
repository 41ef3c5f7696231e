"""Input files the tools cannot read as MLIR text: bytecode, bad UTF-8, missing files."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.upstream.mlir_opt import NOT_INSTALLED, find_mlir_opt
from xquant.tools import xquant_opt, xquant_run
from xquant.tools.source_file import bytecode_producer

# Hand-written headers: the magic, the version as MLIR's prefix varint, the producer.
VHLO_HEADER = b"ML\xefR\x0dStableHLO_v1.13.4\x00\x01\x17"
TWO_BYTE_VERSION = b"ML\xefR\x02\x01MLIR23.0.0git\x00"


def test_producer_of_bytecode_headers() -> None:
    assert bytecode_producer(VHLO_HEADER) == "StableHLO_v1.13.4"
    assert bytecode_producer(TWO_BYTE_VERSION) == "MLIR23.0.0git"
    assert bytecode_producer(b"ML\xefR") == ""
    assert bytecode_producer(b"module {}") is None


@pytest.mark.parametrize("tool", ["opt", "run"])
def test_bytecode_is_a_located_error_naming_the_producer(
    tool: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.mlirbc"
    path.write_bytes(VHLO_HEADER)
    main = xquant_opt.main if tool == "opt" else xquant_run.main
    assert main([str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:1:1: error: this is MLIR bytecode written by ")
    assert "'StableHLO_v1.13.4'" in err
    assert "stablehlo-translate --deserialize" in err
    assert "Traceback" not in err


def test_mlir_opt_bytecode_names_mlir_opt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Real bytecode, written by upstream mlir-opt (an independent writer)."""
    command = find_mlir_opt()
    if command is None:
        pytest.skip(NOT_INSTALLED)
    path = tmp_path / "f.mlirbc"
    subprocess.run(
        [*command, "--emit-bytecode", "-o", str(path)],
        input="func.func @f() { return }",
        text=True,
        check=True,
    )
    assert xquant_run.main([str(path)]) == 1
    err = capsys.readouterr().err
    assert "this is MLIR bytecode written by 'MLIR22." in err
    assert "`mlir-opt FILE`" in err


def test_xquant_run_bad_utf8_is_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.mlir"
    path.write_bytes(b'func.func @f() {\n  "x"() {s = "\xff"} : () -> ()\n}\n')
    assert xquant_run.main([str(path)]) == 1
    assert capsys.readouterr().err == (
        f"{path}:2:15: error: the input is not UTF-8 text (byte 0xff)\n"
    )


@pytest.mark.parametrize("tool", ["opt", "run"])
def test_missing_file(
    tool: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "absent.mlir"
    main = xquant_opt.main if tool == "opt" else xquant_run.main
    assert main([str(path)]) == 1
    assert capsys.readouterr().err == (
        f"cannot open input file '{path}': No such file or directory\n"
    )
