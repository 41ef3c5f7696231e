"""Worked solutions of notebook 05's exercises (try them yourself first).

`python notebooks/solutions/05_solutions.py` runs the notebook with these three
functions substituted for the exercises (marimo's `app.run(defs=...)`), so every
step runs and every checker says "done"; tests/docs/test_notebooks.py does the same.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import IntegerType, f32, i32
from xdsl.utils.exceptions import VerifyException

NOTEBOOK = Path(__file__).resolve().parents[1] / "05_define_your_own_op.py"


def _storage_range(t: IntegerType) -> tuple[int, int]:
    width = t.width.data
    return -(2 ** (width - 1)), 2 ** (width - 1) - 1


# SOLUTION 1: the checks of RequantizeOp.verify_.
def exercise_verify(op):
    src, dst = op.input.type, op.result.type
    if src.get_shape() != dst.get_shape():
        raise VerifyException(
            f"input shape {list(src.get_shape())} and result shape "
            f"{list(dst.get_shape())} differ"
        )
    for what, t in (("input", src), ("result", dst)):
        if not isinstance(t.element_type, IntegerType):
            raise VerifyException(
                f"{what} element type must be an integer, not {t.element_type}"
            )
    for what, attr in (("in_scale", op.in_scale), ("out_scale", op.out_scale)):
        v = attr.value.data
        if not (np.isfinite(v) and v > 0):
            raise VerifyException(f"{what} must be positive and finite, got {v}")
    for what, attr, t in (
        ("in_zero_point", op.in_zero_point, src),
        ("out_zero_point", op.out_zero_point, dst),
    ):
        lo, hi = _storage_range(t.element_type)
        if not lo <= attr.value.data <= hi:
            raise VerifyException(
                f"{what} {attr.value.data} is outside [{lo}, {hi}] of {t.element_type}"
            )


# SOLUTION 2: the numpy arithmetic, in f32 and in the formula's order.
def exercise_requantize(q, in_scale, in_zp, out_scale, out_zp, lo, hi):
    real = (q.astype(np.int32) - np.int32(in_zp)).astype(np.float32) * np.float32(
        in_scale
    )
    v = real / np.float32(out_scale) + np.float32(out_zp)
    v = np.minimum(np.maximum(v, np.float32(lo)), np.float32(hi))
    return np.rint(v).astype(q.dtype)  # np.rint rounds half to even


# SOLUTION 3: the generic's scalar body, the same steps as IR.
def exercise_body(q, in_scale, in_zp, out_scale, out_zp, lo, hi, out_type):
    ops = [wide := arith.ExtSIOp(q, i32)]
    ops.append(centered := arith.SubiOp(wide, in_zp))
    ops.append(as_float := arith.SIToFPOp(centered, f32))
    ops.append(real := arith.MulfOp(as_float, in_scale))
    ops.append(scaled := arith.DivfOp(real, out_scale))
    ops.append(shifted := arith.AddfOp(scaled, out_zp))
    ops.append(above := arith.MaximumfOp(shifted, lo))
    ops.append(clamped := arith.MinimumfOp(above, hi))
    ops.append(rounded := math.RoundEvenOp(clamped))
    ops.append(arith.FPToSIOp(rounded, out_type))
    return ops


SOLUTIONS = {
    "exercise_verify": exercise_verify,
    "exercise_requantize": exercise_requantize,
    "exercise_body": exercise_body,
}


def load_notebook():
    """Notebook 05 as a module (its marimo `app`)."""
    spec = importlib.util.spec_from_file_location("notebook_05", NOTEBOOK)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_solved(answers=None):
    """Run the notebook with `answers` (default: these solutions) for the exercises;
    marimo's (outputs, definitions)."""
    return load_notebook().app.run(defs=dict(SOLUTIONS if answers is None else answers))


if __name__ == "__main__":
    _, defs = run_solved()
    done = all(
        defs[f"exercise_{n}_status"].startswith(f"exercise {n}: done")
        for n in (1, 2, 3)
    )
    sys.exit(0 if done and defs["lowered_ok"] and defs["same"] else 1)
