"""litert-torch's `custom_call @odml_torch.uniform_quantize/uniform_dequantize`: run and rewritten.

The program has the form litert-torch's lowering emits (the quantized type as
text in `backend_config`, values typed as floats; see
`ai_edge_torch/odml_torch/lowerings/_quantized_decomposed.py`). Goldens are
PyTorch's `quantize_per_tensor`/`_per_channel` arithmetic written in numpy
(`clamp(round_half_even(x / scale) + zp)`, then `(q - zp) * scale`). The
program must give them as written, after `odml-legalize-qdq-custom-call`, and
lowered to linalg, bit for bit; other targets stay located errors.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import xquant
from xquant.interpreter.errors import OpInterpretationError
from xquant.tools.xquant_run import main as xquant_run

PROGRAM = """
func.func @main(%x: tensor<2x4xf32>, %w: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.custom_call @odml_torch.uniform_quantize(%x) {backend_config = "tensor<2x4x!quant.uniform<i8<-128:127>:f32,0.4:2>>"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = stablehlo.custom_call @odml_torch.uniform_dequantize(%0) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %2 = stablehlo.custom_call @odml_torch.uniform_quantize(%w) {backend_config = "tensor<4x3x!quant.uniform<i8<-100:100>:f32:1,{0.1:0,0.2:1,0.05:-1}>>"} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %3 = stablehlo.custom_call @odml_torch.uniform_dequantize(%2) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %4 = stablehlo.dot_general %1, %3, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return %4 : tensor<2x3xf32>
}
"""


def _fake_quant(
    x: np.ndarray, scale: np.ndarray, zp: np.ndarray, lo: int, hi: int
) -> np.ndarray:
    q = np.clip(np.round(x / scale) + zp, lo, hi)  # np.round: half to even
    return ((q - zp) * scale).astype(np.float32)


def _golden(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    xd = _fake_quant(x, np.float32(0.4), np.float32(2), -128, 127)
    scales = np.array([0.1, 0.2, 0.05], np.float32)
    wd = _fake_quant(w, scales, np.array([0, 1, -1], np.float32), -100, 100)
    out = np.zeros((2, 3), np.float32)
    for k in range(4):  # the IR's loop order
        out = (out + xd[:, k : k + 1] * wd[k]).astype(np.float32)
    return out


def _inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.uniform(-60, 60, (2, 4)).astype(np.float32)
    x[0, 0] = 1.0  # 1 / 0.4 = 2.5: a tie, to even
    w = rng.uniform(-8, 8, (4, 3)).astype(np.float32)
    return x, w


@pytest.mark.parametrize(
    "pipeline",
    [
        "",
        "odml-legalize-qdq-custom-call",
        "odml-legalize-qdq-custom-call,stablehlo-legalize-quant-to-math{exact=true},"
        "stablehlo-legalize-to-linalg",
    ],
    ids=["as_written", "rewritten", "lowered"],
)
def test_qdq_calls_give_pytorch_numbers(pipeline: str) -> None:
    x, w = _inputs()
    module = xquant.parse_module(PROGRAM)
    if pipeline:
        xquant.apply_passes(module, pipeline)
        names = {op.name for op in module.walk()}
        assert "stablehlo.custom_call" not in names
        if "linalg" in pipeline:
            assert not any(n.startswith("stablehlo.") for n in names)
    (got,) = xquant.run(module, "main", x, w)
    np.testing.assert_array_equal(np.asarray(got), _golden(x, w))


def test_other_targets_are_located_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = PROGRAM.replace(
        "@odml_torch.uniform_dequantize(%2)", "@lapack_sgetrf_ffi(%2)"
    )
    with pytest.raises(
        OpInterpretationError, match=r"<string>:6:\d+: .*lapack_sgetrf_ffi"
    ):
        xquant.run(text, "main", *_inputs())
    src = tmp_path / "bad.mlir"
    src.write_text(text)
    x, w = _inputs()
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "w.npy", w)
    code = xquant_run(
        [str(src), "--arg", str(tmp_path / "x.npy"), "--arg", str(tmp_path / "w.npy")]
    )
    err = capsys.readouterr().err
    assert code == 1
    assert f"{src}:6:" in err and "lapack_sgetrf_ffi" in err and "Traceback" not in err


def test_dequantize_of_a_plain_float_is_a_located_error() -> None:
    text = PROGRAM.replace("uniform_dequantize(%2)", "uniform_dequantize(%w)")
    with pytest.raises(
        OpInterpretationError, match=r"<string>:6:\d+: .*is not the result of"
    ):
        xquant.run(text, "main", *_inputs())
