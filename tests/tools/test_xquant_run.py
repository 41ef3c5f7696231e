"""`xquant-run` end to end: results as MLIR literals on stdout, clean located errors, exit codes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xquant.tools.xquant_run import main

SCALE = """
func.func @main(%a: tensor<2xf32>, %b: f32) -> (tensor<2xf32>, f32) {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<2xf32>) outs(%a : tensor<2xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %b : f32
    linalg.yield %y : f32
  } -> tensor<2xf32>
  func.return %r, %b : tensor<2xf32>, f32
}
"""


@pytest.fixture
def scale_file(tmp_path: Path) -> Path:
    p = tmp_path / "scale.mlir"
    p.write_text(SCALE)
    return p


def test_runs_and_prints_literals(scale_file: Path, capsys) -> None:
    rc = main(
        [
            str(scale_file),
            "--arg",
            "dense<[1.0, 2.5]> : tensor<2xf32>",
            "--arg",
            "2.0 : f32",
        ]
    )
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert out.out.splitlines() == [
        "dense<[2.000000e+00, 5.000000e+00]> : tensor<2xf32>",
        "2.000000e+00 : f32",
    ]


def test_npy_argument(scale_file: Path, tmp_path: Path, capsys) -> None:
    npy = tmp_path / "a.npy"
    np.save(npy, np.array([3.0, 3.0], np.float32))
    rc = main([str(scale_file), "--arg", str(npy), "--arg", "0.5 : f32"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert out.out.splitlines()[0] == "dense<1.500000e+00> : tensor<2xf32>"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--arg", "dense<[1.0, 2.5, 3.0]> : tensor<3xf32>", "--arg", "2.0 : f32"],
            "argument #0: expected tensor<2xf32>, got an array of shape [3]",
        ),
        (
            ["--arg", "dense<[1.0, 2.5]> : tensor<2xf64>", "--arg", "2.0 : f32"],
            "got an array of dtype float64",
        ),
        (
            ["--arg", "dense<[1.0, 2.5]> : tensor<2xf32>"],
            "function 'main' takes 2 argument(s), got 1",
        ),
        (["--function", "nope"], "no function named 'nope'"),
        (["--arg", "dense<[1.0, 2.5> : tensor<2xf32>"], "bad --arg"),
        (["--arg", "missing.npy"], "cannot load --arg"),
    ],
)
def test_argument_errors(
    scale_file: Path, capsys, args: list[str], message: str
) -> None:
    rc = main([str(scale_file), *args])
    err = capsys.readouterr().err
    assert rc == 1
    assert message in err
    assert "Traceback" not in err


def test_parse_and_verify_errors_are_located(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text(
        "func.func @main() -> i32 {\n  %0 = arith.constant 1 : i32\n  %1 = arith.addi %0, %0 : i64\n  func.return %1 : i32\n}\n"
    )
    assert main([str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:3:19: error: ")
    assert "\n                  ^\n" in err  # MLIR's caret under the column
    bad.write_text(
        "func.func @main() -> i32 {\n  %0 = arith.constant 1 : i64\n  func.return %0 : i64\n}\n"
    )
    assert main([str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:3:3: error:" in err or f"{bad}:1:1: error:" in err
    assert "Traceback" not in err


def test_missing_file(capsys) -> None:
    assert main(["/nonexistent/x.mlir"]) == 1
    assert "cannot open input file" in capsys.readouterr().err


def test_split_input_file_and_pipeline(tmp_path: Path, capsys) -> None:
    p = tmp_path / "split.mlir"
    p.write_text(
        "func.func @main() -> i8 {\n  %0 = arith.constant 7 : i8\n  func.return %0 : i8\n}\n"
        "// -----\n"
        "func.func @main() -> i8 {\n  %0 = arith.constant 300 : i16\n  %1 = arith.trunci %0 : i16 to i8\n  func.return %1 : i8\n}\n"
        "// -----\n"
        "func.func @main() -> i8 {\n  %0 = arith.constant 1 : i8\n  func.return %0 : i16\n}\n"
    )
    rc = main([str(p), "--split-input-file", "-p", "canonicalize"])
    out = capsys.readouterr()
    assert rc == 1
    assert out.out.splitlines()[:3] == ["7 : i8", "// -----", "44 : i8"]
    # the third chunk's error keeps the file's line numbers
    assert f"{p}:14:15: error:" in out.err


def test_interpretation_error_is_clean(tmp_path: Path, capsys) -> None:
    p = tmp_path / "slice.mlir"
    p.write_text(
        "func.func @main(%t: tensor<4xf32>, %o: index) -> tensor<2xf32> {\n"
        "  %r = tensor.extract_slice %t[%o] [2] [1] : tensor<4xf32> to tensor<2xf32>\n"
        "  func.return %r : tensor<2xf32>\n}\n"
    )
    rc = main([str(p), "--arg", "dense<1.0> : tensor<4xf32>", "--arg", "3 : index"])
    err = capsys.readouterr().err
    assert rc == 1
    # Located at the op that failed, with the interpreter's message.
    assert err.startswith(f"{p}:2:8: error: 'tensor.extract_slice' op: ")
    assert "Traceback" not in err


QUANT_RESULTS = """
!u = !quant.uniform<u8:f32, 0.5:10>
func.func @main(%x: tensor<3xf32>, %a: tensor<2xi4>) -> (tensor<3x!u>, tensor<*xf32>, !quant.uniform<i4:f32, 1.0>, tensor<?xi4>) {
  %q = quant.qcast %x : tensor<3xf32> to tensor<3x!u>
  %u = tensor.cast %x : tensor<3xf32> to tensor<*xf32>
  %s = arith.constant 3.0 : f32
  %qs = quant.qcast %s : f32 to !quant.uniform<i4:f32, 1.0>
  %d = tensor.cast %a : tensor<2xi4> to tensor<?xi4>
  func.return %q, %u, %qs, %d : tensor<3x!u>, tensor<*xf32>, !quant.uniform<i4:f32, 1.0>, tensor<?xi4>
}
"""


def test_quantized_unranked_and_dynamic_results_print(tmp_path: Path, capsys) -> None:
    p = tmp_path / "q.mlir"
    p.write_text(QUANT_RESULTS)
    rc = main(
        [
            str(p),
            *("--arg", "dense<[1.0, 60.0, -100.0]> : tensor<3xf32>"),
            *("--arg", "dense<[7, -8]> : tensor<2xi4>"),
        ]
    )
    out = capsys.readouterr()
    assert rc == 0, out.err
    # u8 storage: 1/0.5+10 = 12, 60/0.5+10 = 130 (above i8's range), -100/0.5+10 clamps to 0.
    assert out.out.splitlines() == [
        "dense<[12, 130, 0]> : tensor<3xui8>  // storage of tensor<3x!quant.uniform<u8:f32, 5.000000e-01:10>>",
        "dense<[1.000000e+00, 6.000000e+01, -1.000000e+02]> : tensor<3xf32>",
        "3 : i4  // storage of !quant.uniform<i4:f32, 1.000000e+00>",
        "dense<[7, -8]> : tensor<2xi4>",
    ]


def test_npy_argument_must_fit_a_narrow_integer_type(tmp_path: Path, capsys) -> None:
    p = tmp_path / "q.mlir"
    p.write_text(QUANT_RESULTS)
    x, a = tmp_path / "x.npy", tmp_path / "a.npy"
    np.save(x, np.zeros(3, np.float32))
    np.save(a, np.array([-9, 7], np.int8))  # int8 holds i4 values, but -9 is not one
    assert main([str(p), "--arg", str(x), "--arg", str(a)]) == 1
    assert "argument #1: -9 does not fit in i4" in capsys.readouterr().err


ONE_BIT = """
!q = !quant.uniform<i1:f32, 1.0>
func.func @main(%x: tensor<3xf32>) -> tensor<3x!q> {
  %q = quant.qcast %x : tensor<3xf32> to tensor<3x!q>
  func.return %q : tensor<3x!q>
}
func.func @back(%q: tensor<3x!q>) -> tensor<3xf32> {
  %d = quant.dcast %q : tensor<3x!q> to tensor<3xf32>
  func.return %d : tensor<3xf32>
}
"""


def test_one_bit_storage_literal_reads_back(tmp_path: Path, capsys) -> None:
    # Signed i1 storage holds -1 / 0: printed as true / false, read back as -1 / 0.
    p = tmp_path / "q1.mlir"
    p.write_text(ONE_BIT)
    assert main([str(p), "--arg", "dense<[-1.0, 0.0, 3.0]> : tensor<3xf32>"]) == 0
    printed = capsys.readouterr().out.split("  //")[0]
    assert printed == "dense<[true, false, false]> : tensor<3xi1>"
    assert main([str(p), "--function", "back", "--arg", printed]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "dense<[-1.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<3xf32>"
    ]
    storage = tmp_path / "q1.npy"  # the interpreter's own holder dtype
    np.save(storage, np.array([-1, 0, -1], np.int8))
    assert main([str(p), "--function", "back", "--arg", str(storage)]) == 0
    assert "-1.000000e+00, 0.000000e+00, -1.000000e+00" in capsys.readouterr().out
