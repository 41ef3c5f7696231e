"""`quant.scast`/`dcast`/`qcast` on `!quant.superblock` through the interpreter,
against the gguf/ggml goldens of `tests/data/gguf/golden.npz`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import xquant
from xquant.dialects.quant.superblock import GGML_SPECS, SuperblockQuantizedType
from xquant.interpreter.errors import OpInterpretationError
from xquant.numerics.gguf.layouts import LAYOUTS, GGMLType
from xquant.numerics.gguf.quantize import QUANTIZERS

_DATA = Path(__file__).parents[1] / "data" / "gguf"
# golden.npz, golden_more.npz (Q8_1, TQ1_0, TQ2_0: generate_more.py) and
# golden_iq.npz (IQ2_XXS ... IQ1_M: generate_iq.py)
GOLDEN = {
    **np.load(_DATA / "golden.npz"),
    **np.load(_DATA / "golden_more.npz"),
    **np.load(_DATA / "golden_iq.npz"),
}


def _module(t: GGMLType, rows: int, cols: int, blob: bytes, quantize: bool) -> str:
    qtype = SuperblockQuantizedType.ggml(t, 1)
    layout = LAYOUTS[t]
    nbytes = cols // layout.block_size * layout.type_size
    q = f"tensor<{rows}x{cols}x{qtype}>"
    if quantize:
        body = f"""
  %x = arith.constant dense_resource<blob> : tensor<{rows}x{cols}xf32>
  %q = quant.qcast %x : tensor<{rows}x{cols}xf32> to {q}
  %b = quant.scast %q : {q} to tensor<{rows}x{nbytes}xi8>
  func.return %b : tensor<{rows}x{nbytes}xi8>"""
        result = f"tensor<{rows}x{nbytes}xi8>"
    else:
        body = f"""
  %b = arith.constant dense_resource<blob> : tensor<{rows}x{nbytes}xi8>
  %q = quant.scast %b : tensor<{rows}x{nbytes}xi8> to {q}
  %f = quant.dcast %q : {q} to tensor<{rows}x{cols}xf32>
  func.return %f : tensor<{rows}x{cols}xf32>"""
        result = f"tensor<{rows}x{cols}xf32>"
    return f"""func.func @main() -> {result} {{{body}
}}
{{-#
  dialect_resources: {{ builtin: {{ blob: "0x04000000{blob.hex()}" }} }}
#-}}
"""


@pytest.mark.parametrize("t", list(GGML_SPECS), ids=lambda t: t.name)
def test_dcast_matches_gguf_dequantize(t: GGMLType) -> None:
    raw, want = GOLDEN[f"raw_{t.name}"], GOLDEN[f"deq_raw_{t.name}"]
    rows = 2
    want = want.reshape(rows, -1)
    text = _module(t, rows, want.shape[1], raw.tobytes(), quantize=False)
    (got,) = xquant.run(xquant.parse_module(text), "main")
    assert got.dtype == np.float32
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("t", list(QUANTIZERS), ids=lambda t: t.name)
def test_qcast_matches_ggml_reference_quantizer(t: GGMLType) -> None:
    x = GOLDEN["quant_x"]
    text = _module(t, x.shape[0], x.shape[1], x.tobytes(), quantize=True)
    (got,) = xquant.run(xquant.parse_module(text), "main")
    np.testing.assert_array_equal(got.view(np.uint8), GOLDEN[f"quant_{t.name}"])


@pytest.mark.parametrize(
    "t", [GGMLType.Q5_0, GGMLType.IQ2_XXS, GGMLType.IQ1_M], ids=lambda t: t.name
)
def test_qcast_of_a_dequantize_only_layout_is_a_located_error(t: GGMLType) -> None:
    qtype = SuperblockQuantizedType.ggml(t, 0)
    n = LAYOUTS[t].block_size
    text = f"""func.func @main(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{
  %q = quant.qcast %x : tensor<{n}xf32> to tensor<{n}x{qtype}>
  %f = quant.dcast %q : tensor<{n}x{qtype}> to tensor<{n}xf32>
  func.return %f : tensor<{n}xf32>
}}"""
    with pytest.raises(
        OpInterpretationError,
        match=rf'2:8.*no reference quantizer for layout "ggml\.{t.name}"',
    ):
        xquant.run(xquant.parse_module(text), "main", np.zeros(n, np.float32))
