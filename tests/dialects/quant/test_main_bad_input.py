"""Bad input of LLVM main's quant types: a located error with main's message, exit 1.

Each message and column is what IREE 3.13's iree-opt (LLVM main) reports for
the same line (checked once by hand; `tests/upstream/test_differential_main.py`
compares the messages automatically when iree-opt is installed).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tools.test_xquant_opt import run

NF4 = (
    "-1.0,-0.6961928009986877,-0.5250730514526367,-0.39491748809814453,"
    "-0.28444138169288635,-0.18477343022823334,-0.09105003625154495,0.0,"
    "0.07958029955625534,0.16093020141124725,0.24611230194568634,"
    "0.33791524171829224,0.44070982933044434,0.5626170039176941,"
    "0.7229568362236023,1.0"
)

CASES = [
    (
        "func.func private @a() -> !quant.quantile<ui1:f16, {0x7FF8000000000000, 2.0}>",
        34,
        "quantile values must be finite (no NaN or infinity)",
    ),
    (
        "func.func private @a() -> !quant.quantile<ui1:f16, {1.0, 2.0, 3.0}>",
        34,
        "quantile LUT size (3) must equal the number of representable storage values (2)",
    ),
    (
        "func.func private @a() -> !quant.quantile<ui4:f16, {-1.0,0.0,1.0}>",
        34,
        "quantile LUT size (3) must equal the number of representable storage values (16)",
    ),
    (
        "func.func private @a() -> !quant.uniform<f16:f32, 0.5>",
        42,
        "illegal storage type prefix",
    ),
    (
        "func.func private @a() -> !quant.uniform<f8E4M3FNUZ:f32, 0.5>",
        42,
        "illegal storage type prefix",
    ),
    (
        "func.func private @a() -> !quant.uniform<f8E5M2<-57345:57344>:f32, 0.5>",
        49,
        "illegal storage type minimum: -57345",
    ),
    (
        "func.func private @a() -> !quant.uniform<f8E4M3FN<0:449>:f32, 0.5>",
        53,
        "illegal storage type maximum: 449",
    ),
    (
        "func.func @a(%x: tensor<4xf32>) -> tensor<4x!quant.quantile<ui4:f32, {"
        + NF4
        + "}>> {\n  %0 = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.quantile<ui4:f32, {"
        + NF4
        + "}>>\n  return %0 : tensor<4x!quant.quantile<ui4:f32, {"
        + NF4
        + "}>>\n}",
        8,
        "'quant.qcast' op result #0 must be scalar or tensor of quantized type, but got",
    ),
]


@pytest.mark.parametrize(("text", "column", "message"), CASES)
def test_located_error_with_mains_message(
    tmp_path: Path, text: str, column: int, message: str
) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text(text + "\n")
    done = run(path)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    line = 2 if "quant.qcast" in text else 1
    assert f"{path}:{line}:{column}: error: {message}" in done.stderr, done.stderr
