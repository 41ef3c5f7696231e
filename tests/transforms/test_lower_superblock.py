"""`lower-quant-ops` on `!quant.superblock`: the linalg on raw bytes gives the
interpreter's bits (and so gguf's), for every lowered layout (dcast of every
layout, qcast to Q8_0 and Q4_0), and what it cannot lower is a located
diagnostic."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import Float16Type, Float32Type
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.utils.exceptions import DiagnosticException

import xquant
from xquant.dialects.quant.ops import DequantizeCastOp, QuantizeCastOp
from xquant.dialects.quant.superblock import GGML_SPECS, SuperblockQuantizedType
from xquant.numerics.gguf.layouts import IQ_TYPES, LAYOUTS, GGMLType

_DATA = Path(__file__).parents[1] / "data" / "gguf"
# golden.npz, golden_more.npz (Q8_1, TQ1_0, TQ2_0: generate_more.py) and
# golden_iq.npz (IQ2_XXS ... IQ1_M: generate_iq.py)
GOLDEN = {
    **np.load(_DATA / "golden.npz"),
    **np.load(_DATA / "golden_more.npz"),
    **np.load(_DATA / "golden_iq.npz"),
}
DCAST_LOWERED = [t for t in GGML_SPECS if t not in IQ_TYPES]


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


@pytest.mark.parametrize("t", DCAST_LOWERED, ids=lambda t: t.name)
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


def _qcast_module(t: GGMLType, rows: int, cols: int, elem: str = "f32") -> str:
    expressed = Float16Type() if elem == "f16" else Float32Type()
    qtype = SuperblockQuantizedType.ggml(t, 1, expressed)
    nbytes = cols // LAYOUTS[t].block_size * LAYOUTS[t].type_size
    q = f"tensor<{rows}x{cols}x{qtype}>"
    return f"""func.func @main(%x: tensor<{rows}x{cols}x{elem}>) -> tensor<{rows}x{nbytes}xi8> {{
  %q = quant.qcast %x : tensor<{rows}x{cols}x{elem}> to {q}
  %b = quant.scast %q : {q} to tensor<{rows}x{nbytes}xi8>
  func.return %b : tensor<{rows}x{nbytes}xi8>
}}"""


def _awkward_blocks(rng: np.random.Generator, t: GGMLType) -> np.ndarray:
    """Random rows, plus blocks that test the scale: all zero, all -0.0, a
    +/- tie of the largest magnitude (Q4_0 keeps the first), tiny and huge."""
    x = rng.standard_normal((6, 256)).astype(np.float32)
    x[0, :32] = 0.0
    x[0, 32:64] = -0.0
    x[1, 3], x[1, 9] = -4.0, 4.0
    x[1, 40], x[1, 33] = 4.0, -4.0
    x[2, :32] *= np.float32(1e-30)
    x[2, 32:64] *= np.float32(1e30)
    x[3] = np.round(x[3] * 4) / 4  # exact ties of x / d
    return x


@pytest.mark.parametrize("t", [GGMLType.Q8_0, GGMLType.Q4_0], ids=lambda t: t.name)
def test_lowered_qcast_is_bit_identical(t: GGMLType) -> None:
    """The lowered reference quantizer gives the interpreter's bytes, and so
    gguf's own quantizer's (`gguf_quant_*`, checked in) and ggml's."""
    rng = np.random.default_rng(29)
    for x in (_awkward_blocks(rng, t), GOLDEN["quant_x"]):
        text = _qcast_module(t, *x.shape)
        (want,) = xquant.run(xquant.parse_module(text), "main", x)
        lowered = xquant.apply_passes(xquant.parse_module(text), "lower-quant-ops")
        assert not any(isinstance(op, QuantizeCastOp) for op in lowered.walk())
        (got,) = xquant.run(lowered, "main", x)
        assert _same(got, want)
    assert _same(got.view(np.uint8), GOLDEN[f"gguf_quant_{t.name}"])


def test_lowered_qcast_from_f16_converts_first() -> None:
    x = np.random.default_rng(3).standard_normal((2, 64)).astype(np.float16)
    text = _qcast_module(GGMLType.Q4_0, 2, 64, "f16")
    (want,) = xquant.run(xquant.parse_module(text), "main", x)
    lowered = xquant.apply_passes(xquant.parse_module(text), "lower-quant-ops")
    (got,) = xquant.run(lowered, "main", x)
    assert _same(got, want)


@pytest.mark.parametrize("t", sorted(IQ_TYPES), ids=lambda t: t.name)
def test_lowered_codebook_dcast_is_bit_identical(t: GGMLType) -> None:
    """The i-quants: one generic gathering each element's bytes, codebook
    vector and sign from constant tensors; the interpreter's (and gguf's)
    bits, NaN/Inf `d` included."""
    raw = GOLDEN[f"raw_{t.name}"]
    text = _module(t, raw, 2)
    (want,) = xquant.run(xquant.parse_module(text), "main")
    lowered = xquant.apply_passes(xquant.parse_module(text), "lower-quant-ops")
    assert not any(isinstance(op, DequantizeCastOp) for op in lowered.walk())
    assert sum(isinstance(op, GenericOp) for op in lowered.walk()) == 1
    (got,) = xquant.run(lowered, "main")
    assert _same(got, want)
    assert _same(got, GOLDEN[f"deq_raw_{t.name}"].reshape(want.shape))


def test_lowered_codebook_dcast_to_f16_and_rank_3() -> None:
    """IQ3_S to f16 (one rounding of the f32 value) at rank 3."""
    raw = GOLDEN["raw_IQ3_S"].reshape(2, 1, -1)
    qtype = SuperblockQuantizedType.ggml(GGMLType.IQ3_S, 2, Float16Type())
    q = f"tensor<2x1x1024x{qtype}>"
    text = f"""func.func @main() -> tensor<2x1x1024xf16> {{
  %b = arith.constant dense_resource<blob> : tensor<2x1x440xi8>
  %q = quant.scast %b : tensor<2x1x440xi8> to {q}
  %f = quant.dcast %q : {q} to tensor<2x1x1024xf16>
  func.return %f : tensor<2x1x1024xf16>
}}
{{-#
  dialect_resources: {{ builtin: {{ blob: "0x04000000{raw.tobytes().hex()}" }} }}
#-}}
"""
    (want,) = xquant.run(xquant.parse_module(text), "main")
    lowered = xquant.apply_passes(xquant.parse_module(text), "lower-quant-ops")
    (got,) = xquant.run(lowered, "main")
    assert got.dtype == np.float16 and _same(got, want)
    with np.errstate(over="ignore"):  # f32 beyond f16's range: inf
        gguf_values = GOLDEN["deq_raw_IQ3_S"].reshape(2, 1, 1024).astype(np.float16)
    assert _same(got, gguf_values)


@pytest.mark.parametrize(
    "t",
    [GGMLType.Q4_K, GGMLType.Q6_K, GGMLType.IQ4_NL, GGMLType.IQ2_XXS],
    ids=lambda t: t.name,
)
def test_qcast_with_scale_search_is_not_lowered(t: GGMLType) -> None:
    """The k-quants' and IQ4's weighted scale searches are not lowered: a
    located error naming the layout, never a wrong op."""
    qtype = SuperblockQuantizedType.ggml(t, 0)
    text = f"""func.func @main(%x: tensor<256xf32>) -> tensor<256x{qtype}> {{
  %q = quant.qcast %x : tensor<256xf32> to tensor<256x{qtype}>
  func.return %q : tensor<256x{qtype}>
}}"""
    with pytest.raises(
        DiagnosticException,
        match=rf"cannot lower 'quant\.qcast' to !quant\.superblock "
        rf'layout "ggml\.{t.name}"',
    ):
        xquant.apply_passes(xquant.parse_module(text), "lower-quant-ops")


@pytest.mark.parametrize("shape", [(512,), (2, 3, 512)], ids=["rank1", "rank3"])
@pytest.mark.parametrize(
    "t", [GGMLType.Q4_K, GGMLType.Q4_1, GGMLType.TQ1_0], ids=lambda t: t.name
)
def test_lowered_dcast_of_other_ranks(t: GGMLType, shape: tuple[int, ...]) -> None:
    layout = LAYOUTS[t]
    rows = shape[:-1]
    raw = np.random.default_rng(1).integers(
        0, 256, (*rows, shape[-1] // layout.block_size * layout.type_size), np.uint8
    )
    qtype = SuperblockQuantizedType.ggml(t, len(shape) - 1)
    s = "x".join(map(str, shape))
    b = "x".join(map(str, raw.shape))
    text = f"""func.func @main(%b: tensor<{b}xi8>) -> tensor<{s}xf32> {{
  %q = quant.scast %b : tensor<{b}xi8> to tensor<{s}x{qtype}>
  %f = quant.dcast %q : tensor<{s}x{qtype}> to tensor<{s}xf32>
  func.return %f : tensor<{s}xf32>
}}"""
    (want,) = xquant.run(xquant.parse_module(text), "main", raw.view(np.int8))
    lowered = xquant.apply_passes(xquant.parse_module(text), "lower-quant-ops")
    (got,) = xquant.run(lowered, "main", raw.view(np.int8))
    assert _same(got, want)
