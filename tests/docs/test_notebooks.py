"""Every notebook in notebooks/ runs headless, and notebook 05's exercises are checked.

Each notebook runs as `python notebooks/NN_name.py` in a subprocess with
MPLBACKEND=Agg (that is how a newcomer runs it without a browser); the
notebooks assert their own claims (bit-identical runs, error ordering), so a
run that exits 0 is a passing check. Skipped, with one reason, when marimo or
matplotlib is not installed (`pip install -e '.[notebooks]'`).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
MISSING = [m for m in ("marimo", "matplotlib") if importlib.util.find_spec(m) is None]

pytestmark = pytest.mark.skipif(
    bool(MISSING),
    reason=f"needs {' and '.join(MISSING)}: pip install -e '.[notebooks]'",
)

# What each notebook must print (its key claims), beyond exiting 0.
EXPECTED = {
    "01_quantized_types.py": ["per-tensor: relative MSE", "8: relative MSE"],
    "02_lowering.py": [
        "quant ops vs lowered (nearest-even): bit-identical = True",
        "row 0 (ties):  nearest-even [ 4 -2  0]  toward-zero [ 3 -1  0]",
    ],
    "03_microscaling.py": [
        "scale byte 121 (= 0x79), scale 2^-6 = 0.015625",
        "hand computation == mx_tensor.quantize: True",
        "5.000  01  1010  0 11 010    5.000    5.000",
    ],
    "04_stablehlo.py": [
        "mismatching results over 50 random inputs x 4 stages: 0",
        "after fusion: dot [-0.97999996  0.45999998  0.69       -1.88      ]",
    ],
    # Unsolved, as a learner first opens it: every exercise says so, the rest skips.
    "05_define_your_own_op.py": [
        "exercise 1: not done yet (fill in exercise_verify)",
        "exercise 2: not done yet (fill in exercise_requantize)",
        "exercise 3: not done yet (fill in exercise_body)",
        "op vs lowered: skipped until exercises 2 and 3 are done",
    ],
}
SOLUTIONS = ROOT / "notebooks" / "solutions" / "05_solutions.py"
# Notebook 05 with the worked solutions substituted for its exercises.
EXPECTED_SOLVED = [
    "exercise 1: done: your verifier accepts the valid op and rejects all 9 broken ones",
    "zero point out of range: in_zero_point 300 is outside [-128, 127] of i8",
    "exercise 2: done: matches the contract on all 256 int8 inputs x 3 parameter sets",
    "q = -128 gives -54 (by hand: -54)",
    "exercise 3: done: your body computes the contract on all 256 int8 inputs x 3 "
    "parameter sets, with no poison",
    "FileCheck on the lowered IR: PASS",
    "a wrong CHECK line fails: True",
    "op vs lowered, all 256 int8 inputs: identical = True",
]


def test_every_notebook_is_listed():
    assert [p.name for p in NOTEBOOKS] == sorted(EXPECTED)


def _run_headless(script: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MPLBACKEND": "Agg"}
    return subprocess.run(
        [sys.executable, str(script)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_headless(notebook: Path):
    proc = _run_headless(notebook)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    for line in EXPECTED[notebook.name]:
        assert line in proc.stdout, f"{line!r} not printed:\n{proc.stdout}"


def test_notebook_05_runs_headless_with_the_solutions():
    """notebooks/solutions/05_solutions.py runs the notebook with its answers
    substituted in: every checker says done and every later step runs."""
    proc = _run_headless(SOLUTIONS)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    for line in EXPECTED_SOLVED:
        assert line in proc.stdout, f"{line!r} not printed:\n{proc.stdout}"
    assert "not done yet" not in proc.stdout and "skipped" not in proc.stdout


def _load(notebook: Path):
    spec = importlib.util.spec_from_file_location(f"nb_{notebook.stem}", notebook)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Wrong answers to notebook 05's exercises; each must fail its checker.
def _solutions():
    return _load(SOLUTIONS)


def _verify_without_shape_check(op):
    """The solution's verifier with its first check (shapes) missing."""
    sol = _solutions()
    result_shape = op.input.type.get_shape()
    if op.result.type.get_shape() != result_shape:
        return  # the missing check: accept whatever shapes
    sol.exercise_verify(op)


def _verify_without_nan_check(op):
    """Every check, but scales only `> 0`: inf passes (NaN > 0 is false)."""
    from xdsl.dialects.builtin import IntegerType
    from xdsl.utils.exceptions import VerifyException

    src, dst = op.input.type, op.result.type
    if src.get_shape() != dst.get_shape():
        raise VerifyException("shapes differ")
    if not all(isinstance(t.element_type, IntegerType) for t in (src, dst)):
        raise VerifyException("not integers")
    if not all(a.value.data > 0 for a in (op.in_scale, op.out_scale)):
        raise VerifyException("scale must be positive")
    for attr, t in ((op.in_zero_point, src), (op.out_zero_point, dst)):
        half = 2 ** (t.element_type.width.data - 1)
        if not -half <= attr.value.data < half:
            raise VerifyException("zero point out of range")


def _requantize_truncating(q, in_scale, in_zp, out_scale, out_zp, lo, hi):
    real = (q.astype(np.int32) - in_zp).astype(np.float32) * np.float32(in_scale)
    v = np.clip(real / np.float32(out_scale) + np.float32(out_zp), lo, hi)
    return np.trunc(v).astype(q.dtype)


def _body_with(transform):
    def body(q, in_scale, in_zp, out_scale, out_zp, lo, hi, out_type):
        ops = _solutions().exercise_body(
            q, in_scale, in_zp, out_scale, out_zp, lo, hi, out_type
        )
        return transform(ops)

    return body


def _swap_subi_operands(ops):
    from xdsl.dialects import arith

    sub = next(op for op in ops if isinstance(op, arith.SubiOp))
    lhs, rhs = sub.operands
    sub.operands = [rhs, lhs]
    return ops


def _swap_divf_operands(ops):
    from xdsl.dialects import arith

    div = next(op for op in ops if isinstance(op, arith.DivfOp))
    lhs, rhs = div.operands
    div.operands = [rhs, lhs]
    return ops


def _drop_clamp(ops):
    from xdsl.dialects import arith

    kept = [op for op in ops if not isinstance(op, arith.MaximumfOp | arith.MinimumfOp)]
    add = next(op for op in kept if isinstance(op, arith.AddfOp))
    rnd = next(op for op in kept if op.name == "math.roundeven")
    rnd.operands = [add.results[0]]
    return kept


def _statuses(answers: dict[str, object]) -> dict[str, object]:
    _, defs = _solutions().run_solved(answers)
    return defs


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize(
    ("exercise", "answer", "status"),
    [
        (
            "exercise_verify",
            _verify_without_shape_check,
            "exercise 1: your verifier accepts a bad op: shapes differ",
        ),
        (
            "exercise_verify",
            _verify_without_nan_check,
            "exercise 1: your verifier accepts a bad op: in_scale inf",
        ),
        (
            "exercise_requantize",
            _requantize_truncating,
            "exercise 2: differs from the contract for (0.05, 3, 0.125, -2) at q = -126: "
            "got -53, want -54",
        ),
        (
            "exercise_body",
            _body_with(_swap_subi_operands),
            "exercise 3: differs from the contract for (0.05, 3, 0.125, -2) at q = -128",
        ),
        (
            "exercise_body",
            _body_with(_swap_divf_operands),
            "exercise 3: differs from the contract for (0.05, 3, 0.125, -2) at q = -128",
        ),
        (
            "exercise_body",
            _body_with(_drop_clamp),
            "exercise 3: arith.fptosi of ",
        ),
    ],
    ids=[
        "verify-missing-shape-check",
        "verify-missing-nan-check",
        "requantize-truncates",
        "body-swapped-subi",
        "body-swapped-divf",
        "body-no-clamp",
    ],
)
def test_notebook_05_checkers_reject_wrong_answers(
    exercise: str, answer: object, status: str, capsys: pytest.CaptureFixture[str]
):
    """A wrong answer (a missing check, swapped operands, truncation, no clamp)
    fails its exercise's checker, and the steps that need it do not claim success."""
    answers = {**_solutions().SOLUTIONS, exercise: answer}
    defs = _statuses(answers)
    number = {"exercise_verify": 1, "exercise_requantize": 2, "exercise_body": 3}[
        exercise
    ]
    got = defs[f"exercise_{number}_status"]
    assert isinstance(got, str) and got.startswith(status), got
    assert not defs[f"exercise_{number}_done"]
    for other in {1, 2, 3} - {number}:  # the other answers are the solutions
        assert defs[f"exercise_{other}_done"], defs[f"exercise_{other}_status"]
    if number in (2, 3):
        assert defs["same"] is None  # step 5 skipped, not passed
    capsys.readouterr()
