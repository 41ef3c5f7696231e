"""A bad pass option value is an option error; `--help` describes every pass."""

from __future__ import annotations

import subprocess
import sys

import pytest
from xdsl.utils.exceptions import DiagnosticException

import xquant
from xquant.transforms.lower_quant_ops import LowerQuantOpsPass
from xquant.transforms.utils.pass_options import (
    check_option_values,
    description,
    option_choices,
)
from xquant.universe import PASSES

TOOL = [
    sys.executable,
    "-c",
    "import sys; from xquant.tools.xquant_opt import main; sys.exit(main())",
]


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TOOL, *argv], input="", capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--lower-quant-ops=rounding=nearst-even"],
            "for the --rounding option: 'nearst-even' is not a valid value "
            "(allowed: toward-zero, nearest-even)",
        ),
        (
            ["-p", "lower-quant-ops{rounding=up}"],
            "for the --rounding option: 'up' is not a valid value "
            "(allowed: toward-zero, nearest-even)",
        ),
        (
            [
                "--pass-pipeline=builtin.module(stablehlo-legalize-quant-to-math{exact=maybe})"
            ],
            "for the --exact option: 'maybe' is not a valid value (allowed: true, false)",
        ),
    ],
)
def test_bad_option_value_is_an_option_error(argv: list[str], message: str) -> None:
    result = run(*argv)
    assert result.returncode == 1
    assert f"<unknown>:0: error: <Pass-Options-Parser>: {message}" in result.stderr
    assert "failed to add `" in result.stderr
    assert "unexpectedly" not in result.stderr and "Traceback" not in result.stderr


def test_good_option_values_pass_the_check() -> None:
    assert (
        check_option_values(LowerQuantOpsPass, {"rounding": ("nearest-even",)}) is None
    )
    assert check_option_values(LowerQuantOpsPass, {"bogus": ("x",)}) is None  # xDSL's
    assert option_choices(LowerQuantOpsPass, "rounding") == (
        "toward-zero",
        "nearest-even",
    )


def test_help_has_a_description_per_pass() -> None:
    result = run("--help")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    for name in PASSES:
        at = next(i for i, line in enumerate(lines) if line.startswith(f"  --{name}"))
        text = description(PASSES[name]())
        assert text and lines[at + 1] == f"      {text}", name
    assert "one of toward-zero, nearest-even" in result.stdout


def test_the_api_reports_a_bad_value_as_a_pipeline_error() -> None:
    """`xquant.apply_passes` says what `xquant-opt` says: a `PipelineSpecError`
    (a `DiagnosticException`) naming the option and the allowed values."""
    module = xquant.parse_module("func.func @f() {\n  func.return\n}\n")
    with pytest.raises(DiagnosticException, match="allowed: toward-zero, nearest-even"):
        xquant.apply_passes(module, "lower-quant-ops{rounding=nearst-even}")
