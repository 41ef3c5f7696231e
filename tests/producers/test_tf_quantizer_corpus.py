"""TensorFlow 2.21's StableHLO quantizer: its quantized modules run with TF's numbers.

`tests/data/tf_quantizer/generate.py` (run by hand with TensorFlow) wrote each
module the quantizer builds (`quantize_model` with `op_set=STABLEHLO`;
static-range int8 per tensor and per channel, weight-only int8; dense,
conv, conv + pooling, MLP, residual), an input and the output of the
quantized SavedModel in TF (XLA running TF's own integer lowering). Each must
parse, run equal to TF's output, lower with no StableHLO op left, and the
lowered program must give the interpreter's bits.

Tolerance against TF: static-range modules end in an int8 requantization, so
one step of the output's quantized type is allowed (TF's integer module
rescales with f32 arithmetic, the interpreter exactly; on the checked-in data
the difference is 0). Weight-only modules compute in f32 with dequantized
weights: 1e-5 relative, 1e-6 absolute (XLA may sum in another order).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import xquant

DATA = Path(__file__).resolve().parents[1] / "data" / "tf_quantizer"
CASES = sorted(p.stem for p in DATA.glob("*.mlir"))
LOWER = "stablehlo-legalize-quant-to-math{exact=true},stablehlo-legalize-to-linalg"
LEFT_AS_IS = {"stablehlo.optimization_barrier"}
"""The op the lowering keeps: an identity that stops XLA's optimizations, which
TF puts around dequantized weights; upstream's linalg lowering has no pattern
for it (IREE turns it into `util.optimization_barrier`)."""


def _tolerance(stem: str, text: str) -> tuple[float, float]:
    """(rtol, atol) against TF's output, as the module docstring says."""
    if stem.endswith("weight_only_int8"):
        return 1e-5, 1e-6
    dequantized = re.findall(
        r"stablehlo.uniform_dequantize %\S+ : \(tensor<[0-9x]*!quant.uniform<i8:f32, ([0-9.eE+-]+):",
        text,
    )
    assert dequantized, "a static-range module dequantizes an int8 result"
    return 0.0, max(float(s) for s in dequantized)


def test_the_corpus_is_there() -> None:
    assert len(CASES) >= 12, CASES


@pytest.mark.parametrize("stem", CASES)
def test_runs_with_tf_numbers_and_lowers_bit_identically(stem: str) -> None:
    text = (DATA / f"{stem}.mlir").read_text()
    data = np.load(DATA / f"{stem}.npz")
    (got,) = xquant.run(text, "main", data["x"])
    got = np.asarray(got)
    rtol, atol = _tolerance(stem, text)
    np.testing.assert_allclose(got, data["y"], rtol=rtol, atol=atol)
    module = xquant.apply_passes(xquant.parse_module(text, stem), LOWER)
    left = sorted(
        {op.name for op in module.walk() if op.name.startswith("stablehlo.")}
        - LEFT_AS_IS
    )
    assert not left, left
    (lowered,) = xquant.run(module, "main", data["x"])
    np.testing.assert_array_equal(
        np.asarray(lowered).view(np.uint32), got.view(np.uint32)
    )
