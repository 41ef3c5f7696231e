"""Block-packed quantized tensors at a function's boundary: results are their `i8`
storage bytes (what `quant.scast` gives), and arguments are given as those bytes."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects import func

from xquant import apply_passes, parse_module, run
from xquant.backends import iree
from xquant.interpreter.runner import RunSetupError
from xquant.tools import xquant_run

Q8_0 = '!quant.superblock<i8:f32:{1:32}, scales f16, layout "ggml.Q8_0">'
NF4 = (
    "!quant.double_quantized<!quant.quantile<ui4:bf16, {-1.0, -0.6962, -0.5251, "
    "-0.3949, -0.2844, -0.1848, -0.0911, 0.0, 0.0796, 0.1609, 0.2461, 0.3379, "
    "0.4407, 0.5626, 0.7230, 1.0}>:bf16:{1:64}, scales i8:bf16:{4}, mean bf16, "
    'layout "torchao.nf4">'
)

QUANTIZE = f"""
func.func @q(%x: tensor<2x32xf32>) -> tensor<2x32x{Q8_0}> {{
  %q = quant.qcast %x : tensor<2x32xf32> to tensor<2x32x{Q8_0}>
  return %q : tensor<2x32x{Q8_0}>
}}
func.func @d(%q: tensor<2x32x{Q8_0}>) -> tensor<2x32xf32> {{
  %x = quant.dcast %q : tensor<2x32x{Q8_0}> to tensor<2x32xf32>
  return %x : tensor<2x32xf32>
}}
"""

# ggml's Q8_0 block of 32 ones: d = f16(1/127) = 0x2008 (little endian 08 20), q = 127.
ONES_BLOCK = [8, 32] + [127] * 32


def test_superblock_result_is_its_bytes() -> None:
    (q,) = run(QUANTIZE, "q", np.ones((2, 32), np.float32))
    assert q.dtype == np.int8 and q.tolist() == [ONES_BLOCK, ONES_BLOCK]


def test_superblock_argument_from_bytes() -> None:
    block = np.array([ONES_BLOCK, ONES_BLOCK], np.int8)
    block[1, 2:] = -3
    (x,) = run(QUANTIZE, "d", block)
    d = float(np.float16(1 / 127))
    assert x.tolist() == [[d * 127] * 32, [d * -3] * 32]


def test_superblock_argument_of_the_wrong_shape() -> None:
    with pytest.raises(RunSetupError, match=r"tensor<2x34xi8>, got shape \[2, 33\]"):
        run(QUANTIZE, "d", np.zeros((2, 33), np.int8))
    with pytest.raises(RunSetupError, match="got float32"):
        run(QUANTIZE, "d", np.zeros((2, 32), np.float32))


def test_double_quantized_round_trip_through_bytes() -> None:
    text = f"""
    func.func @q(%x: tensor<4x64xbf16>) -> tensor<4x64x{NF4}> {{
      %q = quant.qcast %x : tensor<4x64xbf16> to tensor<4x64x{NF4}>
      return %q : tensor<4x64x{NF4}>
    }}
    func.func @qd(%x: tensor<4x64xbf16>) -> tensor<4x64xbf16> {{
      %q = quant.qcast %x : tensor<4x64xbf16> to tensor<4x64x{NF4}>
      %y = quant.dcast %q : tensor<4x64x{NF4}> to tensor<4x64xbf16>
      return %y : tensor<4x64xbf16>
    }}
    func.func @d(%q: tensor<4x64x{NF4}>) -> tensor<4x64xbf16> {{
      %y = quant.dcast %q : tensor<4x64x{NF4}> to tensor<4x64xbf16>
      return %y : tensor<4x64xbf16>
    }}
    """
    x = (np.sin(np.arange(256)) * 0.1).reshape(4, 64).astype(ml_dtypes.bfloat16)
    (q,) = run(text, "q", x)
    # 128 code bytes, 4 i8 block scales, one bf16 factor, a bf16 mean
    assert q.dtype == np.int8 and q.shape == (128 + 4 + 2 + 2,)
    (direct,) = run(text, "qd", x)
    (through_bytes,) = run(text, "d", q)
    assert through_bytes.tobytes() == direct.tobytes()


def test_xquant_run_prints_storage_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "q.mlir"
    path.write_text(QUANTIZE)
    arg = "dense<1.0> : tensor<2x32xf32>"
    assert xquant_run.main([str(path), "--function", "q", "--arg", arg]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("dense<[[8, 32, 127, 127,")
    assert out.endswith(f": tensor<2x34xi8>  // storage of tensor<2x32x{Q8_0}>")


def test_strip_func_quant_types_puts_the_bytes_in_the_signature() -> None:
    module = parse_module(QUANTIZE)
    apply_passes(module, "strip-func-quant-types")
    signatures = [
        str(op.function_type) for op in module.walk() if isinstance(op, func.FuncOp)
    ]
    assert signatures == [
        "(tensor<2x32xf32>) -> tensor<2x34xi8>",
        "(tensor<2x34xi8>) -> tensor<2x32xf32>",
    ]
    block = np.array([ONES_BLOCK, ONES_BLOCK], np.int8)
    assert (
        run(module, "d", block)[0].tobytes() == run(QUANTIZE, "d", block)[0].tobytes()
    )


@pytest.mark.skipif(iree.available() is not None, reason=iree.available() or "")
def test_bytes_cross_the_iree_boundary() -> None:
    block = np.array([ONES_BLOCK, ONES_BLOCK], np.int8)
    block[0, 5:9] = [-128, 0, 3, -7]
    (native,) = iree.run(parse_module(QUANTIZE), "d", block)
    (interpreted,) = run(QUANTIZE, "d", block)
    assert native.tobytes() == interpreted.tobytes()
