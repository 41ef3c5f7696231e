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
    "05_define_your_own_op.py": [
        "zero point out of range: in_zero_point 300 is outside [-128, 127] of i8",
        "exercise 1 not done yet",
        "FileCheck on the lowered IR: PASS",
        "op vs lowered, all 256 int8 inputs: identical = True",
    ],
}


def test_every_notebook_is_listed():
    assert [p.name for p in NOTEBOOKS] == sorted(EXPECTED)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_headless(notebook: Path):
    env = {**os.environ, "MPLBACKEND": "Agg"}
    proc = subprocess.run(
        [sys.executable, str(notebook)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    for line in EXPECTED[notebook.name]:
        assert line in proc.stdout, f"{line!r} not printed:\n{proc.stdout}"


def _load(notebook: Path):
    spec = importlib.util.spec_from_file_location(f"nb_{notebook.stem}", notebook)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# A learner's answers to notebook 05's exercises: right ones and wrong ones.
def _verify_right(op):
    op.verify_()  # the worked solution's verifier


def _verify_lax(op):
    pass  # accepts anything


def _requantize_right(q, in_scale, in_zp, out_scale, out_zp, lo, hi):
    real = (q.astype(np.int32) - np.int32(in_zp)).astype(np.float32) * np.float32(
        in_scale
    )
    v = np.clip(real / np.float32(out_scale) + np.float32(out_zp), lo, hi)
    return np.rint(v).astype(q.dtype)


def _requantize_truncating(q, in_scale, in_zp, out_scale, out_zp, lo, hi):
    real = (q.astype(np.int32) - in_zp).astype(np.float32) * np.float32(in_scale)
    v = np.clip(real / np.float32(out_scale) + np.float32(out_zp), lo, hi)
    return np.trunc(v).astype(q.dtype)


def _body_right(q, in_scale, in_zp, out_scale, out_zp, lo, hi, out_type):
    from xdsl.dialects import arith, math
    from xdsl.dialects.builtin import f32, i32

    ops = [wide := arith.ExtSIOp(q, i32)]
    ops.append(centered := arith.SubiOp(wide, in_zp))
    ops.append(fl := arith.SIToFPOp(centered, f32))
    ops.append(real := arith.MulfOp(fl, in_scale))
    ops.append(div := arith.DivfOp(real, out_scale))
    ops.append(add := arith.AddfOp(div, out_zp))
    ops.append(mx := arith.MaximumfOp(add, lo))
    ops.append(mn := arith.MinimumfOp(mx, hi))
    ops.append(r := math.RoundEvenOp(mn))
    ops.append(arith.FPToSIOp(r, out_type))
    return ops


def _body_no_clamp(q, in_scale, in_zp, out_scale, out_zp, lo, hi, out_type):
    return [
        op
        for op in _body_right(q, in_scale, in_zp, out_scale, out_zp, lo, hi, out_type)
        if op.name not in ("arith.maximumf", "arith.minimumf")
    ]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_notebook_05_exercise_checks(capsys: pytest.CaptureFixture[str]):
    """With the exercises solved the checks say so; with wrong answers they say that.

    The worked solution itself is checked by the headless run above (its asserts)."""
    nb = _load(ROOT / "notebooks" / "05_define_your_own_op.py")
    _, solved = nb.app.run(
        defs={
            "exercise_verify": _verify_right,
            "exercise_requantize": _requantize_right,
            "exercise_body": _body_right,
        }
    )
    assert solved["exercise_1_status"].endswith(
        "agrees with the solution on these cases"
    )
    assert solved["exercise_2_status"] == "exercise 2: matches the solution"
    assert solved["exercise_3_status"] == "exercise 3: same ops as the solution"
    assert solved["lowered_ok"] and solved["same"]

    _, wrong = nb.app.run(
        defs={
            "exercise_verify": _verify_lax,
            "exercise_requantize": _requantize_truncating,
            "exercise_body": _body_no_clamp,
        }
    )
    assert "accepts a bad out_scale" in wrong["exercise_1_status"]
    assert wrong["exercise_2_status"] == "exercise 2: DIFFERS from the solution"
    assert wrong["exercise_3_status"] == "exercise 3: different ops from the solution"
    capsys.readouterr()
