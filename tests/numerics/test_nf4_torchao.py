"""NF4 as a sub-channel `!quant.uniform<!quant.quantile<ui4:f32, {NF4}>:f32:{0:1, 1:64}, ...>`
against torchao's `to_nf4` (goldens made once by `tests/data/nf4/generate.py`).

torchao picks each code as the nearest table entry of `w / absmax(block)` and
dequantizes as `table[code] * scale`, with double-quantized block scales; so
quantizing with the absmax scales gives torchao's codes, and dequantizing those
codes with torchao's scales gives its weight. This is beyond upstream MLIR,
whose parser crashes on quantile storage in a sub-channel type.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import xquant

GOLDENS = Path(__file__).resolve().parents[1] / "data" / "nf4" / "nf4_torchao.npz"


def _type(table: np.ndarray, scales: np.ndarray) -> str:
    entries = ",".join(repr(float(v)) for v in table)
    rows = ", ".join(
        "{" + ", ".join(repr(float(s)) for s in row) + "}" for row in scales
    )
    return (
        f"!quant.uniform<!quant.quantile<ui4:f32, {{{entries}}}>:f32:{{0:1, 1:64}}, "
        f"{{{rows}}}>"
    )


def _module(qtype: str) -> str:
    return (
        f"!q = {qtype}\n"
        "func.func @quantize(%w: tensor<8x128xf32>) -> tensor<8x128x!q> {\n"
        "  %q = quant.qcast %w : tensor<8x128xf32> to tensor<8x128x!q>\n"
        "  return %q : tensor<8x128x!q>\n}\n"
        "func.func @dequantize(%q: tensor<8x128x!q>) -> tensor<8x128xf32> {\n"
        "  %d = quant.dcast %q : tensor<8x128x!q> to tensor<8x128xf32>\n"
        "  return %d : tensor<8x128xf32>\n}"
    )


@pytest.fixture(scope="module")
def goldens() -> dict[str, np.ndarray]:
    """The checked-in torchao goldens (a missing file is a failure, not a skip)."""
    with np.load(GOLDENS) as data:
        return {name: data[name] for name in data.files}


def test_codes_match_torchao(goldens: dict[str, np.ndarray]) -> None:
    absmax = goldens["absmax"].reshape(8, 2)
    module = xquant.parse_module(_module(_type(goldens["table"], absmax)))
    (codes,) = xquant.run(module, "quantize", goldens["weight"])
    np.testing.assert_array_equal(codes, goldens["codes"])


def test_dequantized_weight_matches_torchao(goldens: dict[str, np.ndarray]) -> None:
    scales = goldens["scalers"].reshape(8, 2)
    module = xquant.parse_module(_module(_type(goldens["table"], scales)))
    (weight,) = xquant.run(module, "dequantize", goldens["codes"])
    np.testing.assert_array_equal(weight, goldens["dequantized"])
