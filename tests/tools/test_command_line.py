"""`xquant-opt` reads mlir-opt's command lines: spellings, values, pass flags, errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from xquant.tools.command_line import (
    CommandLineError,
    parse_command_line,
    parse_mlir_pipeline,
)

PASSES = ["canonicalize", "cse", "lower-quant-ops", "stablehlo-legalize-to-linalg"]
TOOL = [
    sys.executable,
    "-c",
    "import sys; from xquant.tools.xquant_opt import main; sys.exit(main())",
]


def parse(*argv: str):
    return parse_command_line(list(argv), lambda: PASSES)


@pytest.mark.parametrize(
    "argv",
    [
        ["-split-input-file", "-verify-diagnostics", "f.mlir"],
        ["--split-input-file", "f.mlir", "--verify-diagnostics"],
        ["f.mlir", "-split-input-file=// -----", "-verify-diagnostics=all"],
    ],
)
def test_single_and_double_dash_in_any_order(argv: list[str]) -> None:
    options = parse(*argv)
    assert options.input == "f.mlir"
    assert options.split_input_file == "// -----"
    assert options.verify_diagnostics == "all"


def test_values_and_booleans() -> None:
    options = parse("-o", "out.mlir", "--verify-each=0", "-allow-unregistered-dialect")
    assert (options.output, options.verify_each, options.input) == (
        "out.mlir",
        False,
        "-",
    )
    assert options.allow_unregistered_dialect
    assert parse("-o=x", "--mlir-print-op-generic=true").output == "x"
    assert parse("--print-op-generic").print_op_generic  # xdsl-opt's spelling


def test_pass_flags_keep_command_line_order_and_options() -> None:
    options = parse(
        "--canonicalize=max-iterations=3 test-convergence",
        "f.mlir",
        "--lower-quant-ops=rounding=toward-zero",
        "-p",
        "cse,canonicalize",
    )
    names = [request.spec.name for request in options.passes]
    assert names == ["canonicalize", "lower-quant-ops", "cse", "canonicalize"]
    first = options.passes[0].spec.parameters
    assert first == {"max-iterations": (3,), "test-convergence": ()}
    assert options.passes[1].spec.parameters == {"rounding": ("toward-zero",)}


def test_mlir_pipeline_flattens_anchors() -> None:
    passes = parse_mlir_pipeline(
        "builtin.module(func.func(canonicalize{test-convergence max-iterations=2}), cse)"
    )
    assert [p.spec.name for p in passes] == ["canonicalize", "cse"]
    assert passes[0].spec.parameters == {"test-convergence": (), "max-iterations": (2,)}
    with pytest.raises(CommandLineError, match=r"can't run 'func\.func' pass manager"):
        parse_mlir_pipeline("func.func(cse)")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bogus-flag"], "Unknown command line argument '--bogus-flag'.  Try:"),
        (["--canonicalise"], "Did you mean '--canonicalize'?"),
        (["-o"], "for the -o option: requires a value!"),
        (["--verify-each=2"], "'2' is invalid value for boolean argument! Try 0 or 1"),
        (["a.mlir", "b.mlir"], "Too many positional arguments specified!"),
        (["-emit-bytecode"], "'-emit-bytecode' is not supported by xquant-opt"),
        (
            ["--pass-pipeline=builtin.module(cse)", "--cse"],
            "'-pass-pipeline' option can't be used with individual pass options",
        ),
    ],
)
def test_refused_like_mlir_opt(argv: list[str], message: str) -> None:
    with pytest.raises(CommandLineError) as info:
        parse(*argv)
    assert message in str(info.value)


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [*TOOL, *args], input=stdin, capture_output=True, text=True, check=False
    )
    assert "Traceback" not in result.stdout + result.stderr
    return result


def test_stdin_stdout_and_output_file(tmp_path: Path) -> None:
    text = "func.func private @f() -> !quant.uniform<i8:f32, 2.0>\n"
    result = run("-", stdin=text)
    assert (
        result.returncode == 0
        and "!quant.uniform<i8:f32, 2.000000e+00>" in result.stdout
    )
    out = tmp_path / "out.mlir"
    assert run("-o", str(out), stdin=text).stdout == ""
    assert "!quant.uniform<i8:f32, 2.000000e+00>" in out.read_text()


def test_unknown_pass_option_is_reported_before_reading_input() -> None:
    result = run("--lower-quant-ops=bogus=1", stdin="")
    assert result.returncode == 1
    assert "<Pass-Options-Parser>: no such option bogus" in result.stderr
    assert "failed to add `lower-quant-ops` with options `bogus=1`" in result.stderr


def test_upstream_canonicalize_options_that_hold_anyway() -> None:
    result = run(
        "--pass-pipeline=builtin.module(func.func(canonicalize{test-convergence}))",
        stdin="",
    )
    assert result.returncode == 0, result.stderr


def test_bare_boolean_pass_option_is_true() -> None:
    """`--pass=flag` sets a boolean option, as MLIR's pass options do (StableHLO's
    sparse.mlir runs `--stablehlo-legalize-to-linalg=enable-sparse-ops`)."""
    result = run(
        "--stablehlo-legalize-to-linalg=enable-primitive-ops capture-scalar-inputs=false",
        "--dump-pass-pipeline",
        stdin="",
    )
    assert result.returncode == 0, result.stderr
    assert "enable_primitive_ops=true capture_scalar_inputs=false" in result.stderr
    # A bare option that is not a boolean still needs its value.
    result = run("--lower-quant-ops=rounding", stdin="")
    assert result.returncode == 1
    assert "failed to add `lower-quant-ops` with options `rounding`" in result.stderr


def test_help_lists_xquant_passes_first_with_options() -> None:
    result = run("--help")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    first_pass = next(i for i, line in enumerate(lines) if line.startswith("  --"))
    assert lines[first_pass - 1] == "xquant passes:"
    quant_line = next(line for line in lines if line.startswith("  --lower-quant-ops"))
    assert "rounding=<str> (default " in quant_line
    assert any("canonicalize" in line for line in lines[first_pass + 20 :])


def test_empty_input_and_comment_only_chunks_are_empty_modules() -> None:
    result = run("-split-input-file", stdin="// only a comment\n// -----\n")
    assert result.returncode == 0
    assert result.stdout.count("// -----\n") == 1
    assert result.stdout.count("{\n}\n") == 2
