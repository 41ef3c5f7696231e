"""`xquant-run --backend iree` on modules with StableHLO's checks: IREE computes, the host compares.

The checks are taken out of the compiled module (`xquant.backends.iree_checks`)
and run by the interpreter on IREE's values, so a module prints the same
lines under both backends. StableHLO's quantized conformance modules (their
expected values come from StableHLO's reference, not from xquant) must pass
through IREE as they pass in the interpreter: a sample of them by default
(compiling is seconds per module), every module with
`XQUANT_IREE_CHECKS=full`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.backends.cases import CONFORMANCE_DIR
from xquant.backends.iree import available
from xquant.tools.xquant_run import main

REASON = available()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")

FULL = os.environ.get("XQUANT_IREE_CHECKS", "sample") == "full"
MODULES = sorted(CONFORMANCE_DIR.glob("*.mlir")) if CONFORMANCE_DIR.is_dir() else []
SAMPLED = MODULES if FULL else MODULES[::12]

CHECKS = """
func.func @main() -> (tensor<i1>, tensor<2xf32>) {
  %q = stablehlo.constant() {value = dense<[10, -3]> : tensor<2xi8>} : () -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01:1>>
  %f = stablehlo.uniform_dequantize %q : (tensor<2x!quant.uniform<i8:f32, 5.000000e-01:1>>) -> tensor<2xf32>
  %want = stablehlo.constant dense<[4.5, WANT]> : tensor<2xf32>
  %ok = stablehlo.custom_call @check.eq(%f, %want) : (tensor<2xf32>, tensor<2xf32>) -> tensor<i1>
  check.expect_almost_eq_const %f, dense<[4.5, -2.0]> : tensor<2xf32>
  return %ok, %f : tensor<i1>, tensor<2xf32>
}
"""


def _run(
    path: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, str, str]:
    code = main([str(path), "--split-input-file", *extra])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("want", ["-2.0", "-1.5"], ids=["passing", "failing"])
def test_checks_print_the_same_lines_under_both_backends(
    want: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "checks.mlir"
    src.write_text(CHECKS.replace("WANT", want))
    interpreted = _run(src, capsys)
    native = _run(src, capsys, "--backend", "iree")
    assert native == interpreted
    code, out, err = native
    if want == "-2.0":
        assert code == 0 and err == ""
        assert "dense<true> : tensor<i1>" in out
        assert out.count(": passed") == 2
    else:
        assert code == 1
        assert "custom_call @check.eq at line 6: FAILED" in out
        assert f"{src}:6:" in err and "Traceback" not in err


@pytest.mark.skipif(not MODULES, reason="../shared/stablehlo-quantized is absent")
@pytest.mark.parametrize("path", SAMPLED, ids=[p.stem[:60] for p in SAMPLED])
def test_conformance_module_passes_through_iree(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(path, capsys, "--checks-only", "--backend", "iree")
    assert code == 0, err
    assert ": passed" in out and "FAILED" not in out
