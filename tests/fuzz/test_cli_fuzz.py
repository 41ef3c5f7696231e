"""Mutated programs and mutated command lines never crash the command-line tools.

`xquant-opt` gets a mutant of a shipped program (`tests/fuzz/mutants.py`)
with a command line drawn from mlir-opt's and xdsl-opt's spellings (split
files, `-verify-diagnostics`, generic printing, the pass flags and textual
pipelines of the dialects the program uses, bad options and bogus flags);
`xquant-run` gets the mutant with a pipeline. Each must exit 0 or 1 with
nothing on stdout or stderr that is a Python traceback or an admission of a
bug of ours (`internal error`, `please report it`).

Runs in-process (`main(argv)` with stdout/stderr captured) so that hundreds
of command lines take seconds. Deterministic in CI; run it longer locally
with `XQUANT_FUZZ_EXAMPLES=2000 python -m pytest tests/fuzz/test_cli_fuzz.py`.
"""

from __future__ import annotations

import io
import os
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.mutants import KINDS, SEEDS, mutate, relevant_pipelines
from xquant.tools import xquant_opt, xquant_run

MAX_EXAMPLES = int(os.environ.get("XQUANT_FUZZ_EXAMPLES", "150"))
BUG_MARKERS = ("Traceback", "internal error", "please report it")

FLAGS = (
    "-split-input-file",
    "--split-input-file",
    "-verify-diagnostics",
    "--verify-diagnostics=only-expected",
    "-allow-unregistered-dialect",
    "--mlir-print-op-generic",
    "--print-op-generic",
    "--mlir-print-debuginfo",
    "--verify-each=0",
    "--verify-each=false",
    "--mlir-print-ir-after-all",
    "--mlir-print-elementsattrs-with-hex-if-larger=2",
    "--dump-pass-pipeline",
    "--no-implicit-module",
    "-o=-",
    # Bad ones, which must be refused cleanly.
    "--verify-each=2",
    "--bogus-flag",
    "-emit-bytecode",
    "--mlir-print-elementsattrs-with-hex-if-larger=x",
    "-o",
    "--canonicalize=max-iterations=3 test-convergence",
    "--lower-quant-ops=bogus=1",
    "--pass-pipeline=builtin.module(func.func(cse)",
    "--pass-pipeline=func.func(cse)",
    "-p",
    "-p=lower-quant-ops{",
)


def _pass_flag(pipeline: str) -> list[str]:
    """A pipeline of the mutant's dialects, spelled one of three ways."""
    return [f"--{pipeline.split(',')[0].replace('{', '=').rstrip('}')}"]


def _spellings(pipeline: str) -> list[list[str]]:
    return [
        _pass_flag(pipeline),
        ["-p", pipeline],
        [f"--pass-pipeline=builtin.module({pipeline})"],
    ]


def _run(main: object, argv: list[str], cwd: Path) -> tuple[int, str]:
    """`main(argv)` in `cwd` (where `-o NAME` writes), stdout and stderr captured."""
    out, err = io.StringIO(), io.StringIO()
    previous = Path.cwd()
    os.chdir(cwd)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(argv)  # type: ignore[operator]
    finally:
        os.chdir(previous)
    return code, out.getvalue() + err.getvalue()


def _check(tool: str, code: int, output: str, argv: list[str], text: str) -> None:
    assert code in (0, 1), f"{tool} {argv} exited {code}\n{text}"
    for marker in BUG_MARKERS:
        assert marker not in output, f"{tool} {argv}:\n{output}\n--- input ---\n{text}"


@st.composite
def _cases(draw: st.DrawFn) -> tuple[str, list[str]]:
    seed = draw(st.sampled_from(SEEDS))
    mutations = draw(
        st.lists(
            st.tuples(
                st.integers(0, len(KINDS) - 1),
                st.integers(0, 1 << 12),
                st.integers(0, 1 << 12),
            ),
            max_size=3,
        )
    )
    text = mutate(seed.text, mutations)
    argv = draw(st.lists(st.sampled_from(FLAGS), max_size=4))
    pipelines = relevant_pipelines(text)
    if pipelines and draw(st.booleans()):
        pipeline = draw(st.sampled_from(pipelines))
        argv += draw(st.sampled_from(_spellings(pipeline)))
    return text, draw(st.permutations(argv))


@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(case=_cases())
def test_xquant_opt_never_crashes(
    tmp_path_factory: pytest.TempPathFactory, case: tuple[str, list[str]]
) -> None:
    text, flags = case
    path = tmp_path_factory.mktemp("cli") / "mutant.mlir"
    path.write_text(text)
    argv = [str(path), *flags]
    code, output = _run(xquant_opt.main, argv, path.parent)
    _check("xquant-opt", code, output, argv, text)


@settings(
    max_examples=max(MAX_EXAMPLES // 3, 10),
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(case=_cases())
def test_xquant_run_never_crashes(
    tmp_path_factory: pytest.TempPathFactory, case: tuple[str, list[str]]
) -> None:
    text, _ = case
    path: Path = tmp_path_factory.mktemp("cli") / "mutant.mlir"
    path.write_text(text)
    argv = [str(path), "--split-input-file"]
    pipelines = relevant_pipelines(text)
    if pipelines:
        argv += ["-p", pipelines[0]]
    code, output = _run(xquant_run.main, argv, path.parent)
    _check("xquant-run", code, output, argv, text)
