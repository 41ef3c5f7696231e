"""`lower-quant-ops` on `!quant.superblock`: the linalg on raw bytes gives the
interpreter's bits (and so gguf's), for every lowered layout, and what it
cannot lower is a located diagnostic."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import Float16Type, Float32Type
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.utils.exceptions import DiagnosticException

import xquant
from xquant.dialects.quant.ops import DequantizeCastOp
from xquant.dialects.quant.superblock import GGML_SPECS, SuperblockQuantizedType
from xquant.numerics.gguf.layouts import LAYOUTS, GGMLType

GOLDEN = np.load(Path(__file__).parents[1] / "data" / "gguf" / "golden.npz")


def _module(t: GGMLType, raw: np.ndarray, rows: int, expressed: str = "f32") -> str:
    layout = LAYOUTS[t]
    expr = Float16Type() if expressed == "f16" else Float32Type()
    qtype = SuperblockQuantizedType.ggml(t, 1, expr)
    nbytes = raw.size // rows
    cols = nbytes // layout.type_size * layout.block_size
    q = f"tensor<{rows}x{cols}x{qtype}>"
    return f"""func.func @main() -> tensor<{rows}x{cols}x{expressed}> {{
  %b = arith.constant dense_resource<blob> : tensor<{rows}x{nbytes}xi8>
  %q = quant.scast %b : tensor<{rows}x{nbytes}xi8> to {q}
  %f = quant.dcast %q : {q} to tensor<{rows}x{cols}x{expressed}>
  func.return %f : tensor<{rows}x{cols}x{expressed}>
}}
{{-#
  dialect_resources: {{ builtin: {{ blob: "0x04000000{raw.tobytes().hex()}" }} }}
#-}}
"""


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("t", list(GGML_SPECS), ids=lambda t: t.name)
@pytest.mark.parametrize("rounding", ["toward-zero", "nearest-even"])
def test_lowered_dcast_is_bit_identical(t: GGMLType, rounding: str) -> None:
    raw = GOLDEN[f"raw_{t.name}"]  # random bytes: NaN/Inf scales included
    text = _module(t, raw, 2)
    (want,) = xquant.run(xquant.parse_module(text), "main")
    lowered = xquant.apply_passes(
        xquant.parse_module(text), f"lower-quant-ops{{rounding={rounding}}}"
    )
    assert not any(isinstance(op, DequantizeCastOp) for op in lowered.walk())
    # stage 1: the sub-block scales (and mins), once; stage 2: the elements
    assert sum(isinstance(op, GenericOp) for op in lowered.walk()) == 2
    (got,) = xquant.run(lowered, "main")
    assert _same(got, want)
    gguf_values = GOLDEN[f"deq_raw_{t.name}"].reshape(want.shape)
    assert _same(got, gguf_values)


def test_lowered_dcast_to_f16_rounds_once() -> None:
    raw = GOLDEN["quant_Q4_K"][:2]
    text = _module(GGMLType.Q4_K, raw, 2, "f16")
    (want,) = xquant.run(xquant.parse_module(text), "main")
    (got,) = xquant.run(
        xquant.apply_passes(xquant.parse_module(text), "lower-quant-ops"), "main"
    )
    assert got.dtype == np.float16 and _same(got, want)


def test_qcast_to_superblock_is_not_lowered() -> None:
    qtype = SuperblockQuantizedType.ggml(GGMLType.Q8_0, 0)
    text = f"""func.func @main(%x: tensor<32xf32>) -> tensor<32x{qtype}> {{
  %q = quant.qcast %x : tensor<32xf32> to tensor<32x{qtype}>
  func.return %q : tensor<32x{qtype}>
}}"""
    with pytest.raises(DiagnosticException, match=r"cannot lower 'quant\.qcast'"):
        xquant.apply_passes(xquant.parse_module(text), "lower-quant-ops")
