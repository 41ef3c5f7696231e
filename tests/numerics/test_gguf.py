"""GGUF block formats against independent goldens.

`tests/data/gguf/golden.npz` (made once by `tests/data/gguf/generate.py`)
holds bytes from ggml's C reference quantizers (through ggml-python) and
float results of the `gguf` package's own numpy code. The tests marked
`live` re-check against `gguf` on fresh random data when it is installed
(`pip install -e '.[gguf]'`) and skip otherwise.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xquant.numerics.gguf.layouts import (
    IQ_TYPES,
    LAYOUTS,
    GGMLType,
    dequantize,
    unpack,
)
from xquant.numerics.gguf.quantize import (
    QUANTIZERS,
    nearest_int,
    quantize,
    round_half_away,
)

_DATA = Path(__file__).parents[1] / "data" / "gguf"
# golden.npz, golden_more.npz (Q8_1, TQ1_0, TQ2_0: generate_more.py) and
# golden_iq.npz (IQ2_XXS ... IQ1_M, NaN/Inf scales included: generate_iq.py)
GOLDEN = {
    **np.load(_DATA / "golden.npz"),
    **np.load(_DATA / "golden_more.npz"),
    **np.load(_DATA / "golden_iq.npz"),
}
READ = [t for t in LAYOUTS]


def _same_bits(a: np.ndarray, b: np.ndarray) -> None:
    assert a.shape == b.shape
    assert a.dtype == b.dtype == np.float32
    diff = np.nonzero(a.view(np.uint32) != b.view(np.uint32))
    assert diff[0].size == 0, f"{diff[0].size} values differ, first at {diff[0][0]}"


@pytest.mark.parametrize("t", READ, ids=lambda t: t.name)
def test_dequantize_random_blocks_matches_gguf(t: GGMLType) -> None:
    raw = GOLDEN[f"raw_{t.name}"]
    want = GOLDEN[f"deq_raw_{t.name}"]
    _same_bits(dequantize(raw, LAYOUTS[t], want.shape), want)


@pytest.mark.parametrize("t", list(QUANTIZERS), ids=lambda t: t.name)
def test_dequantize_quantized_data_matches_gguf(t: GGMLType) -> None:
    q = GOLDEN[f"quant_{t.name}"][:8]
    want = GOLDEN[f"deq_quant_{t.name}"]
    _same_bits(dequantize(q, LAYOUTS[t], want.shape), want)


@pytest.mark.parametrize(
    "t", [GGMLType.Q8_1, GGMLType.TQ1_0, GGMLType.TQ2_0], ids=lambda t: t.name
)
def test_dequantize_more_formats_matches_golden(t: GGMLType) -> None:
    """Dequantize-only formats: ggml's C quantizer bytes dequantize to gguf's
    values (Q8_1: gguf's Q8_0 of the same d and q), and TQ's random blocks
    to ggml's own C `to_float` too."""
    q = GOLDEN[f"quant_{t.name}"][:8]
    want = GOLDEN[f"deq_quant_{t.name}"]
    _same_bits(dequantize(q, LAYOUTS[t], want.shape), want)
    if t != GGMLType.Q8_1:
        raw, want = GOLDEN[f"raw_{t.name}"], GOLDEN[f"ggml_deq_raw_{t.name}"]
        _same_bits(dequantize(raw, LAYOUTS[t], want.shape), want)


def test_every_layout_has_a_type_spelling() -> None:
    """What xquant reads, the IR can spell (`!quant.superblock`)."""
    from xquant.dialects.quant.superblock import GGML_SPECS

    assert set(GGML_SPECS) == set(LAYOUTS)


@pytest.mark.parametrize("t", list(QUANTIZERS), ids=lambda t: t.name)
def test_quantize_matches_ggml_reference_bytes(t: GGMLType) -> None:
    got = quantize(GOLDEN["quant_x"], t)
    want = GOLDEN[f"quant_{t.name}"]
    rows = np.nonzero((got != want).any(axis=1))[0]
    assert rows.size == 0, f"{t.name}: rows {rows.tolist()} differ from ggml's bytes"


@pytest.mark.parametrize("name", ["Q4_0", "Q8_0"])
def test_quantize_matches_gguf_quantizers(name: str) -> None:
    got = quantize(GOLDEN["quant_x"], GGMLType[name])
    np.testing.assert_array_equal(got, GOLDEN[f"gguf_quant_{name}"])


def test_nearest_int_rounds_half_to_even() -> None:
    v = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.4999998, 3.5000002, -7.0], np.float32)
    np.testing.assert_array_equal(nearest_int(v), [0, 2, 2, 0, -2, 2, 4, -7])


def test_roundf_rounds_half_away_from_zero_without_double_rounding() -> None:
    v = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997, -0.49999997], np.float32)
    np.testing.assert_array_equal(round_half_away(v), [1, 2, 3, -1, -3, 0, 0])


def test_q4_k_planes_are_the_documented_two_level_scales() -> None:
    """One Q4_K block by hand: d = 1, dmin = 0.5, sub-block 5 has scale 33
    (6 bits split across bytes 1 and 9) and min 2, element 160 has code 7."""
    block = np.zeros(144, np.uint8)
    block[0:2] = np.frombuffer(np.float16(1.0).tobytes(), np.uint8)
    block[2:4] = np.frombuffer(np.float16(0.5).tobytes(), np.uint8)
    # sub-block 5: low 4 bits of scale in byte 4+5 = 9 (low nibble),
    # high 2 bits in byte 5-4 = 1 (bits 6-7); min low nibble in byte 9 high
    block[4 + 9] = (33 & 0xF) | ((2 & 0xF) << 4)
    block[4 + 1] = (33 >> 4) << 6
    block[16 + 2 * 32 + 0] = 7 << 4  # element 160 = 2 * 64 + 32 + 0: high nibble
    planes = unpack(block.reshape(1, -1), LAYOUTS[GGMLType.Q4_K])
    assert planes.scales is not None and planes.mins is not None
    assert planes.scales[0, 5] == 33 and planes.mins[0, 5] == 2
    assert planes.codes[0, 160] == 7
    value = dequantize(block, LAYOUTS[GGMLType.Q4_K], (256,))
    assert value[160] == 1.0 * 33 * 7 - 0.5 * 2
    assert value[161] == -0.5 * 2


# ------------------------------------------------------------------ live gguf


@pytest.fixture(scope="module")
def gguf_quants():  # type: ignore[no-untyped-def]
    gguf = pytest.importorskip(
        "gguf", reason="gguf not installed (pip install -e '.[gguf]')"
    )
    return gguf


@pytest.mark.parametrize(
    "t", [t for t in READ if t != GGMLType.Q8_1], ids=lambda t: t.name
)  # gguf has no Q8_1 (golden_more.npz covers it)
def test_live_dequantize_matches_gguf(gguf_quants, t: GGMLType) -> None:  # type: ignore[no-untyped-def]
    layout = LAYOUTS[t]
    rng = np.random.default_rng(int(t))
    raw = rng.integers(0, 256, (3, 16 * layout.type_size), dtype=np.uint8)
    with np.errstate(invalid="ignore", over="ignore"):
        want = gguf_quants.quants.dequantize(
            raw, gguf_quants.GGMLQuantizationType(int(t))
        )
    _same_bits(dequantize(raw, layout, want.shape), want)


@pytest.mark.parametrize("name", ["Q4_0", "Q8_0"])
def test_live_quantize_matches_gguf(gguf_quants, name: str) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((64, 256)) * 10.0 ** rng.uniform(-5, 3, (64, 1))).astype(
        np.float32
    )
    want = gguf_quants.quants.quantize(x, gguf_quants.GGMLQuantizationType[name])
    np.testing.assert_array_equal(quantize(x, GGMLType[name]), want)


@pytest.mark.parametrize("t", sorted(IQ_TYPES), ids=lambda t: t.name)
def test_i_quants_match_ggml_c_dequantize(t: GGMLType) -> None:
    """ggml's C `dequantize_row_iq*` (golden_iq.npz, through ggml-python): a
    second source. Every non-NaN value has the same bits; where `d` is NaN
    both are NaN, but C's `x * (sign ? -1.f : 1.f)` compiles to a sign flip
    of the NaN, while gguf's numpy multiply (x86 `mulss`) returns the NaN
    operand unchanged. xquant follows gguf (checked bit for bit above)."""
    raw = GOLDEN[f"raw_{t.name}"]
    want = GOLDEN[f"ggml_deq_raw_{t.name}"]
    got = dequantize(raw, LAYOUTS[t], want.shape)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    assert np.array_equal(got[~nan].view(np.uint32), want[~nan].view(np.uint32))
