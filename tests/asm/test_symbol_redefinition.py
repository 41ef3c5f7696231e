"""A symbol defined twice is a located error at the second definition, as mlir-opt
reports it (TensorFlow's IR dumps concatenate one `func.func @main` per pass run;
xDSL alone reported `<unknown>:0: error: Redefinition of symbol "main"`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.utils.exceptions import VerifyException

import xquant
from tests.upstream.mlir_opt import require_mlir_opt, run_mlir_opt

TEXT = """\
func.func @main() {
  return
}
func.func @f() {
  return
}
func.func @main() {
  return
}
"""
FIRST_LINE = "7:1: error: redefinition of symbol named 'main'"


def _first_error(stderr: str) -> str:
    return next(line for line in stderr.splitlines() if ": error: " in line)


@pytest.mark.parametrize("tool", ["xquant-opt", "xquant-run"])
def test_tools_locate_the_second_definition(
    tool: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from xquant.tools.xquant_opt import main as xquant_opt
    from xquant.tools.xquant_run import main as xquant_run

    path = tmp_path / "dup.mlir"
    path.write_text(TEXT)
    assert {"xquant-opt": xquant_opt, "xquant-run": xquant_run}[tool]([str(path)]) == 1
    assert _first_error(capsys.readouterr().err) == f"{path}:{FIRST_LINE}"


def test_api_message() -> None:
    with pytest.raises(VerifyException, match=r"^redefinition of symbol named 'main'$"):
        xquant.parse_module(TEXT)


def test_same_as_mlir_opt() -> None:
    require_mlir_opt()
    done = run_mlir_opt(TEXT)
    assert done.returncode == 1
    assert _first_error(done.stderr) == f"<stdin>:{FIRST_LINE}"
