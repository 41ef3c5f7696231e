"""GGUF block formats on IREE: the quantized tensors of `tests/data/gguf/tiny.gguf`
(Q8_0, Q4_K, Q6_K), compiled through `lower-quant-ops` for the host CPU, give
the interpreter's bits; an f32 activation times a Q4_K / Q6_K / IQ4_XS weight
runs; the dcast of every layout (the i-quants included) and the lowered
Q8_0/Q4_0 qcast give the interpreter's (and gguf's) bits."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import xquant
from xquant.backends import iree
from xquant.dialects.quant.superblock import GGML_SPECS, SuperblockQuantizedType
from xquant.numerics.gguf.layouts import LAYOUTS, GGMLType
from xquant.numerics.gguf.quantize import quantize
from xquant.tools.xquant_gguf import main as gguf_main

REASON = iree.available()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
TINY = Path(__file__).parents[1] / "data" / "gguf" / "tiny.gguf"


def test_every_tiny_gguf_tensor_on_iree(tmp_path: Path) -> None:
    mlir = tmp_path / "tiny.mlir"
    assert gguf_main(["import", str(TINY), "-o", str(mlir)]) == 0
    text = mlir.read_text()
    for fn in ["blk_0_ffn_down_weight", "blk_0_attn_q_weight", "output_weight"]:
        (want,) = xquant.run(xquant.parse_module(text), fn)
        (got,) = xquant.run(xquant.parse_module(text), fn, backend="iree")
        assert got.tobytes() == want.tobytes(), fn


@pytest.mark.parametrize(
    "t", [GGMLType.Q4_K, GGMLType.Q6_K, GGMLType.IQ4_XS], ids=lambda t: t.name
)
def test_matmul_with_a_k_quant_weight_on_iree(t: GGMLType) -> None:
    rng = np.random.default_rng(3)
    k, n = 512, 8
    if t == GGMLType.IQ4_XS:  # no reference quantizer here: random codes, d = 0.01
        raw = rng.integers(0, 256, (n, k // 256 * 136), dtype=np.uint8)
        raw[:, 0:2] = np.frombuffer(np.float16(0.01).tobytes(), np.uint8)
    else:
        raw = quantize(rng.standard_normal((n, k)).astype(np.float32), t)
    qtype = SuperblockQuantizedType.ggml(t, 1)
    nbytes = raw.shape[1]
    text = f"""func.func @main(%x: tensor<4x{k}xf32>) -> tensor<4x{n}xf32> {{
  %b = arith.constant dense_resource<w> : tensor<{n}x{nbytes}xi8>
  %q = quant.scast %b : tensor<{n}x{nbytes}xi8> to tensor<{n}x{k}x{qtype}>
  %w = quant.dcast %q : tensor<{n}x{k}x{qtype}> to tensor<{n}x{k}xf32>
  %e = tensor.empty() : tensor<{k}x{n}xf32>
  %wt = linalg.transpose ins(%w : tensor<{n}x{k}xf32>) outs(%e : tensor<{k}x{n}xf32>) permutation = [1, 0]
  %z = arith.constant dense<0.0> : tensor<4x{n}xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<4x{k}xf32>, tensor<{k}x{n}xf32>)
         outs(%z : tensor<4x{n}xf32>) -> tensor<4x{n}xf32>
  func.return %y : tensor<4x{n}xf32>
}}
{{-#
  dialect_resources: {{ builtin: {{ w: "0x01000000{raw.tobytes().hex()}" }} }}
#-}}
"""
    x = rng.standard_normal((4, k)).astype(np.float32)
    (want,) = xquant.run(xquant.parse_module(text), "main", x)
    (got,) = xquant.run(xquant.parse_module(text), "main", x, backend="iree")
    # The dequantized weight is bit-exact on IREE (test above); the f32 matmul
    # itself is not: on this AVX-512 host IREE's plain f32 `linalg.matmul`
    # already differs from the interpreter's loop-order sum in the last bits.
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


_DATA = Path(__file__).parents[1] / "data" / "gguf"
GOLDEN = {
    **np.load(_DATA / "golden.npz"),
    **np.load(_DATA / "golden_more.npz"),
    **np.load(_DATA / "golden_iq.npz"),  # the i-quants (generate_iq.py)
}


@pytest.mark.parametrize("t", list(GGML_SPECS), ids=lambda t: t.name)
def test_dcast_of_every_layout_on_iree(t: GGMLType) -> None:
    """Both stages of the lowered dcast compile and give the interpreter's
    bits (random blocks: NaN/Inf scales included)."""
    raw = GOLDEN[f"raw_{t.name}"].reshape(2, -1)
    layout = LAYOUTS[t]
    cols = raw.shape[1] // layout.type_size * layout.block_size
    qtype = SuperblockQuantizedType.ggml(t, 1)
    q = f"tensor<2x{cols}x{qtype}>"
    text = f"""func.func @main() -> tensor<2x{cols}xf32> {{
  %b = arith.constant dense_resource<w> : tensor<2x{raw.shape[1]}xi8>
  %q = quant.scast %b : tensor<2x{raw.shape[1]}xi8> to {q}
  %f = quant.dcast %q : {q} to tensor<2x{cols}xf32>
  func.return %f : tensor<2x{cols}xf32>
}}
{{-#
  dialect_resources: {{ builtin: {{ w: "0x01000000{raw.tobytes().hex()}" }} }}
#-}}
"""
    (want,) = xquant.run(xquant.parse_module(text), "main")
    (got,) = xquant.run(xquant.parse_module(text), "main", backend="iree")
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("t", [GGMLType.Q8_0, GGMLType.Q4_0], ids=lambda t: t.name)
def test_lowered_qcast_on_iree(t: GGMLType) -> None:
    x = GOLDEN["quant_x"]
    layout = LAYOUTS[t]
    nbytes = x.shape[1] // layout.block_size * layout.type_size
    qtype = SuperblockQuantizedType.ggml(t, 1)
    q = f"tensor<{x.shape[0]}x{x.shape[1]}x{qtype}>"
    text = f"""func.func @main(%x: tensor<{x.shape[0]}x{x.shape[1]}xf32>) -> tensor<{x.shape[0]}x{nbytes}xi8> {{
  %q = quant.qcast %x : tensor<{x.shape[0]}x{x.shape[1]}xf32> to {q}
  %b = quant.scast %q : {q} to tensor<{x.shape[0]}x{nbytes}xi8>
  func.return %b : tensor<{x.shape[0]}x{nbytes}xi8>
}}"""
    (got,) = xquant.run(xquant.parse_module(text), "main", x, backend="iree")
    assert got.view(np.uint8).tobytes() == GOLDEN[f"gguf_quant_{t.name}"].tobytes()
