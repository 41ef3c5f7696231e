"""`xquant-opt`: located diagnostics and exit code 1 on bad input, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TOOL = [
    sys.executable,
    "-c",
    "import sys; from xquant.tools.xquant_opt import main; sys.exit(main())",
]


def run(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [*TOOL, str(path), *args], capture_output=True, text=True, check=False
    )
    assert "Traceback" not in result.stdout + result.stderr
    return result


def test_good_input_prints_canonical_form(tmp_path: Path) -> None:
    f = tmp_path / "ok.mlir"
    f.write_text("func.func private @f() -> !quant.uniform<i8:f32, 2.0:-3>\n")
    result = run(f)
    assert result.returncode == 0
    assert "!quant.uniform<i8:f32, 2.000000e+00:-3>" in result.stdout


def test_parse_error_points_at_the_token(tmp_path: Path) -> None:
    f = tmp_path / "bad.mlir"
    f.write_text("func.func private @f() -> !quant.uniform<i8:f32, 1.0e999>\n")
    result = run(f)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"{f}:1:") and "error:" in lines[0]
    assert lines[1] == "func.func private @f() -> !quant.uniform<i8:f32, 1.0e999>"
    assert lines[2].strip() == "^" or lines[2].strip().startswith("^")


def test_verify_error_names_the_op_line(tmp_path: Path) -> None:
    f = tmp_path / "verify.mlir"
    f.write_text(
        "func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i8:f32:1, {1.0, 2.0}>>\n"
        "  return %x : tensor<4xf32>\n"
        "}\n"
    )
    result = run(f)
    assert result.returncode == 1
    # As mlir-opt: located at the op name, the hand-written check's text without an op prefix.
    assert result.stderr.startswith(
        f"{f}:2:8: error: quantized dimension must be less than tensor rank\n"
    )


def test_pass_diagnostic_is_located(tmp_path: Path) -> None:
    f = tmp_path / "any.mlir"
    f.write_text(
        "func.func @g(%x: tensor<4xf32>) -> tensor<4x!quant.any<i8:f32>> {\n"
        "  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.any<i8:f32>>\n"
        "  return %q : tensor<4x!quant.any<i8:f32>>\n"
        "}\n"
    )
    result = run(f, "-p", "lower-quant-ops")
    assert result.returncode == 1
    assert result.stderr.startswith(f"{f}:2:") and "error:" in result.stderr


def test_split_input_file_reports_every_bad_chunk(tmp_path: Path) -> None:
    f = tmp_path / "split.mlir"
    f.write_text(
        "func.func private @a() -> memref<4x!quant.uniform<i8:f32, 1.0>>\n"
        "// -----\n"
        "func.func private @b() -> vector<4xf32>\n"
        "// -----\n"
        "func.func private @c() -> vector<2x!quant.any<i8:f32>>\n"
    )
    result = run(f, "--split-input-file")
    assert result.returncode == 1
    assert "func.func private @b() -> vector<4xf32>" in result.stdout
    assert f"{f}:1:" in result.stderr and "invalid memref element type" in result.stderr
    assert f"{f}:5:" in result.stderr and "VectorElementTypeInterface" in result.stderr


def test_split_input_file_pass_errors_count_lines_from_the_file_start(
    tmp_path: Path,
) -> None:
    """A pass error in the second chunk points at its line in the file, not in the chunk."""
    f = tmp_path / "split.mlir"
    f.write_text(
        "func.func private @a() -> i8\n"
        "// -----\n"
        "\n"
        "func.func @b(%x: f32) -> !quant.any<i8:f32> {\n"
        "  %0 = quant.qcast %x : f32 to !quant.any<i8:f32>\n"
        "  func.return %0 : !quant.any<i8:f32>\n"
        "}\n"
    )
    result = run(f, "--split-input-file", "-p", "lower-quant-ops")
    assert result.returncode == 1
    assert result.stderr.startswith(
        f"{f}:5:8: error: 'quant.qcast' op cannot lower !quant.any<i8:f32>"
    )


@pytest.mark.parametrize("args", [["--no-such-flag"], ["-p", "no-such-pass"]])
def test_bad_options_exit_nonzero_without_traceback(
    tmp_path: Path, args: list[str]
) -> None:
    f = tmp_path / "ok.mlir"
    f.write_text("func.func private @f() -> i8\n")
    assert run(f, *args).returncode != 0


def test_wide_integer_dense_is_a_located_error(tmp_path: Path) -> None:
    """xDSL cannot pack i65 data; mlir-opt accepts it. Ours: an error at the attribute."""
    f = tmp_path / "i65.mlir"
    f.write_text(
        "func.func @f() -> tensor<1xi65> {\n"
        "  %0 = arith.constant dense<14> : tensor<1xi65>\n"
        "  return %0 : tensor<1xi65>\n"
        "}\n"
    )
    result = run(f)
    assert result.returncode == 1
    assert result.stderr.startswith(f"{f}:2:23: error: not supported by xDSL:")


def test_undefined_value_is_reported_at_its_first_use(tmp_path: Path) -> None:
    f = tmp_path / "undef.mlir"
    f.write_text(
        "func.func @f() {\n"
        '  %1 = "arith.addi"(%0, %0) : (i32, i32) -> i32\n'
        "  return\n"
        "}\n"
    )
    result = run(f)
    assert result.returncode == 1
    assert result.stderr.startswith(
        f"{f}:2:21: error: use of undeclared SSA value name"
    )


def test_of_two_undefined_values_the_first_use_is_reported(tmp_path: Path) -> None:
    f = tmp_path / "undef2.mlir"
    f.write_text(
        "func.func @f() {\n"
        '  %1 = "arith.addi"(%b, %a) : (i32, i32) -> i32\n'
        "  return\n"
        "}\n"
    )
    result = run(f)
    assert result.returncode == 1
    assert result.stderr.startswith(
        f"{f}:2:21: error: use of undeclared SSA value name"
    )


def test_use_before_definition_is_a_dominance_error(tmp_path: Path) -> None:
    f = tmp_path / "dom.mlir"
    f.write_text(
        "func.func @f() {\n"
        '  "test.op"(%x) : (i32) -> ()\n'
        '  %x = "test.def"() : () -> i32\n'
        "  return\n"
        "}\n"
    )
    result = run(f, "-allow-unregistered-dialect")
    assert result.returncode == 1
    assert f"{f}:2:3: error: " in result.stderr
    assert "operand #0 does not dominate this use" in result.stderr


def test_mlir_opt_output_layout(tmp_path: Path) -> None:
    """Modules as mlir-opt prints them, an empty line after each, markers between."""
    f = tmp_path / "split.mlir"
    f.write_text(
        "// -----\n"
        "func.func @f(%a: i32) -> i32 {\n  func.return %a : i32\n}\n"
        "// -----\n"
        "func.func private @bad() -> !quant.uniform<i8:f32, -1.0>\n"
    )
    result = run(f, "-split-input-file")
    assert result.returncode == 1
    assert result.stdout == (
        "module {\n}\n\n// -----\n"
        "module {\n  func.func @f(%arg0: i32) -> i32 {\n    return %arg0 : i32\n  }\n}\n\n"
        "// -----\n"
    )


def test_print_ir_after_all_as_mlir_opt(tmp_path: Path) -> None:
    f = tmp_path / "f.mlir"
    f.write_text("func.func @f() {\n  return\n}\n")
    result = run(f, "--canonicalize", "--cse", "--mlir-print-ir-after-all", "-o", "-")
    module = "module {\n  func.func @f() {\n    return\n  }\n}\n\n\n"
    assert result.stderr == (
        "// -----// IR Dump After Canonicalizer (canonicalize) //----- //\n"
        + module
        + "// -----// IR Dump After CSE (cse) //----- //\n"
        + module
    )


def test_unknown_test_ops_parse_as_upstreams_test_dialect(tmp_path: Path) -> None:
    """MLIR's test dialect allows unknown ops, and upstream's tests use them
    (`"test.custom_op"` in normalize-quant-types.mlir): xquant-opt prints them back
    in generic form and runs passes around them, without a flag."""
    f = tmp_path / "t.mlir"
    f.write_text(
        "func.func @f(%x: tensor<2x!quant.uniform<i8:f32:{0:1}, {{2.0:1}, {2.0:1}}>>)"
        " -> tensor<2x!quant.uniform<i8:f32:{0:1}, {{2.0:1}, {2.0:1}}>> {\n"
        '  %0 = "test.custom_op"(%x) {k = 3 : i32} : '
        "(tensor<2x!quant.uniform<i8:f32:{0:1}, {{2.0:1}, {2.0:1}}>>) -> "
        "tensor<2x!quant.uniform<i8:f32:{0:1}, {{2.0:1}, {2.0:1}}>>\n"
        "  func.return %0 : tensor<2x!quant.uniform<i8:f32:{0:1}, {{2.0:1}, {2.0:1}}>>\n"
        "}\n"
    )
    result = run(f, "--normalize-quant-types")
    assert result.returncode == 0, result.stderr
    per_axis = "tensor<2x!quant.uniform<i8:f32:0, {2.000000e+00:1,2.000000e+00:1}>>"
    assert (
        f'%0 = "test.custom_op"(%arg0) {{k = 3 : i32}} : ({per_axis}) -> {per_axis}'
        in result.stdout
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '"foo.custom_op"() : () -> ()\n',
            "1:16: error: operation being parsed with an unregistered dialect",
        ),
        ("test.custom_op\n", "1:1: error: custom op 'test.custom_op' is unknown"),
    ],
)
def test_other_unknown_ops_stay_errors(tmp_path: Path, text: str, message: str) -> None:
    """Only generic-form ops of the `test` dialect: any other dialect still needs
    `--allow-unregistered-dialect`, and a custom form has no parser."""
    f = tmp_path / "u.mlir"
    f.write_text(text)
    result = run(f)
    assert result.returncode == 1
    assert result.stderr.startswith(f"{f}:{message}"), result.stderr


def test_allow_unregistered_dialect_admits_unknown_dialects_only(
    tmp_path: Path,
) -> None:
    """As mlir-opt's verifier: the flag admits ops of unknown dialects; an unknown op
    of a registered dialect (`quant.region`, removed upstream) is still an error."""
    f = tmp_path / "u.mlir"
    f.write_text(
        'func.func @f() {\n  "foo.bar"() : () -> ()\n  "quant.region"() : () -> ()\n'
        "  return\n}\n"
    )
    result = run(f, "--allow-unregistered-dialect")
    assert result.returncode == 1
    assert result.stderr.startswith(
        f"{f}:3:3: error: unregistered operation 'quant.region' found in dialect "
        "('quant') that does not allow unknown operations\n"
    ), result.stderr
    f.write_text('func.func @f() {\n  "foo.bar"() : () -> ()\n  return\n}\n')
    result = run(f, "--allow-unregistered-dialect")
    assert result.returncode == 0, result.stderr
    assert '"foo.bar"() : () -> ()' in result.stdout
