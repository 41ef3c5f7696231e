"""The IREE backend's pieces: the boundary pass, the API, the CLI and their diagnostics."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.utils.exceptions import DiagnosticException

import xquant
from xquant.backends import iree
from xquant.tools.xquant_run import main as xquant_run

ROOT = Path(__file__).resolve().parents[2]
REASON = iree.available()
needs_iree = pytest.mark.skipif(REASON is not None, reason=REASON or "")

BOUNDARY = """
func.func @main(%a: tensor<4xi4>, %b: tensor<2x2xf4E2M1FN>, %c: f8E8M0FNU, %d: tensor<3xf32>,
                %e: bf16, %f: i8, %g: tensor<2xf6E3M2FN>)
    -> (tensor<4xi4>, tensor<2x2xf4E2M1FN>, f8E8M0FNU, tensor<3xf32>, bf16, i8, tensor<2xf6E3M2FN>) {
  return %a, %b, %c, %d, %e, %f, %g : tensor<4xi4>, tensor<2x2xf4E2M1FN>, f8E8M0FNU, tensor<3xf32>, bf16, i8, tensor<2xf6E3M2FN>
}
"""


def _signature(module: object) -> list[str]:
    fn = next(op for op in module.walk() if isinstance(op, func.FuncOp))  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownVariableType]
    return [str(t) for t in fn.function_type.inputs.data]  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]


def test_widen_boundary_types_signature() -> None:
    module = xquant.apply_passes(xquant.parse_module(BOUNDARY), "widen-boundary-types")
    assert _signature(module) == [
        "tensor<4xi8>",
        "tensor<2x2xi8>",
        "i32",
        "tensor<3xf32>",
        "f32",
        "i32",
        "tensor<2xi8>",
    ]


def test_widen_boundary_types_keeps_the_values() -> None:
    """The interpreter on the widened module, fed and read as the doc says, gives the inputs back."""
    a = np.array([-8, -1, 0, 7], np.int8)
    b = np.array([[0.5, -6.0], [1.5, 0.0]], ml_dtypes.float4_e2m1fn)
    c = ml_dtypes.float8_e8m0fnu(0.25)
    d = np.array([1.0, -2.0, np.nan], np.float32)
    e = ml_dtypes.bfloat16(-3.5)
    f = np.int8(-100)
    g = np.array([28.0, -0.0625], ml_dtypes.float6_e3m2fn)
    module = xquant.apply_passes(xquant.parse_module(BOUNDARY), "widen-boundary-types")
    # By hand: i4 sign-extended to i8, float bits zero-extended, scalars in 32 bits.
    carried = (
        a,
        b.view(np.uint8).astype(np.int8),
        np.int32(np.array(c).view(np.uint8)),
        d,
        np.float32(e),
        np.int32(f),
        g.view(np.uint8).astype(np.int8),
    )
    out = xquant.run(module, "main", *carried)
    np.testing.assert_array_equal(out[0], a)
    np.testing.assert_array_equal(out[1].astype(np.uint8), b.view(np.uint8))
    assert int(out[2]) == int(np.array(c).view(np.uint8))
    np.testing.assert_array_equal(out[3].view(np.uint32), d.view(np.uint32))
    assert np.float32(out[4]) == np.float32(e)
    assert int(out[5]) == -100
    np.testing.assert_array_equal(out[6].astype(np.uint8), g.view(np.uint8))


def test_unknown_backend_is_a_diagnostic() -> None:
    with pytest.raises(DiagnosticException, match="unknown backend 'gpu'"):
        xquant.run("func.func @main() {\n  return\n}", "main", backend="gpu")


def test_missing_iree_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(iree, "available", lambda: "IREE is not installed (test)")
    text = (ROOT / "examples" / "subchannel.mlir").read_text()
    with pytest.raises(iree.IreeNotInstalledError, match="not installed"):
        xquant.run(text, "main", backend="iree")
    assert (
        xquant_run([str(ROOT / "examples" / "subchannel.mlir"), "--backend", "iree"])
        == 1
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error: IREE is not installed (test)" in err


@needs_iree
def test_cli_prints_what_the_interpreter_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(ROOT / "examples" / "subchannel.mlir")
    assert xquant_run([path]) == 0
    interpreted = capsys.readouterr().out
    assert xquant_run([path, "--backend", "iree"]) == 0
    assert capsys.readouterr().out == interpreted


UNLOWERED = """func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  check.expect_eq_const %x, dense<[1.0, 2.0]> : tensor<2xf32>
  return %x : tensor<2xf32>
}
"""

REJECTED = """func.func @main(%x: tensor<4xf32>) -> tensor<4xf6E2M3FN> {
  %e = tensor.empty() : tensor<4xf6E2M3FN>
  %q = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf6E2M3FN>) {
  ^bb0(%a: f32, %b: f6E2M3FN):
    %t = arith.truncf %a : f32 to f6E2M3FN
    linalg.yield %t : f6E2M3FN
  } -> tensor<4xf6E2M3FN>
  return %q : tensor<4xf6E2M3FN>
}
"""


@needs_iree
def test_unlowered_op_is_located_in_the_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(
        iree.IreeUnsupportedOpError, match=r"'check\.expect_eq_const' op"
    ):
        xquant.run(UNLOWERED, "main", np.zeros(2, np.float32), backend="iree")
    path = tmp_path / "unlowered.mlir"
    path.write_text(UNLOWERED)
    arg = "dense<[1.0, 2.0]> : tensor<2xf32>"
    assert xquant_run([str(path), "--arg", arg, "--backend", "iree"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"{path}:2:3: error: 'check.expect_eq_const' op is not lowered"
    )


@needs_iree
def test_iree_error_is_located_in_the_printed_ir(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(iree.IreeCompileError) as caught:
        xquant.run(REJECTED, "main", np.zeros(4, np.float32), backend="iree")
    assert isinstance(caught.value, DiagnosticException)
    location = caught.value.diagnostic.location
    assert location is not None and location.file == iree.INPUT_NAME
    line = caught.value.text.splitlines()[location.line - 1]
    assert "arith.truncf" in line  # the failing op, in the IR IREE was given
    path = tmp_path / "rejected.mlir"
    path.write_text(REJECTED)
    arg = "dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>"
    assert xquant_run([str(path), "--arg", arg, "--backend", "iree"]) == 1
    err = capsys.readouterr().err
    assert (
        err.splitlines()[0] == f"{path}: error: IREE cannot compile the lowered module"
    )
    assert err.splitlines()[1].startswith(f"{iree.INPUT_NAME}:{location.line}:")
    assert "arith.truncf" in err.splitlines()[2]


@needs_iree
def test_compiler_failure_shows_no_crash_dump() -> None:
    """mx_tiling.mlir's scf.parallel, given to IREE as it is (without the backend's
    scf-parallel-to-for), makes iree-compile crash (signal 11) or fail, depending
    on the run: the error is one located diagnostic, never a crash dump."""
    module = xquant.parse_module((ROOT / "examples" / "mx_tiling.mlir").read_text())
    xquant.apply_passes(module, "lower-mx-tensor,widen-boundary-types")
    with pytest.raises(iree.IreeCompileError) as caught:
        iree.compile_for_iree(iree.print_for_iree(module))
    text = str(caught.value)
    assert "PrintStackTrace" not in text and "#0 0x" not in text
    assert len(text.splitlines()) < 12


@needs_iree
def test_mx_tiling_runs_through_iree_as_interpreted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The scf.parallel with a tensor scf.reduce becomes nested scf.for (the
    interpreter's order): IREE compiles it and prints the interpreter's lines."""
    path = str(ROOT / "examples" / "mx_tiling.mlir")
    assert xquant_run([path]) == 0
    interpreted = capsys.readouterr()
    assert xquant_run([path, "--backend", "iree"]) == 0
    native = capsys.readouterr()
    assert native == interpreted
    assert native.out.startswith("0 : i32\n")
