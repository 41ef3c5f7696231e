"""The i-quant codebooks of `numerics/gguf/iq_grids.py` (generated from gguf's
compact tables) against ggml's own literals: the leading entries of each
`iq*_grid` and the whole `ksigns_iq2xs` table as ggml-common.h writes them
(llama.cpp, MIT), copied here by hand -- a second source beside gguf."""

from __future__ import annotations

import numpy as np
import pytest

from xquant.numerics.gguf.iquants import grid, ksigns

GGML_HEADS = {  # ggml-common.h: GGML_TABLE_BEGIN(uint64_t|uint32_t, NAME, N)
    "iq2xxs_grid": (
        "0x0808080808080808, 0x080808080808082b, 0x0808080808081919, "
        "0x0808080808082b08, 0x0808080808082b2b, 0x0808080808190819, "
        "0x0808080808191908, 0x08080808082b0808, 0x08080808082b082b, "
        "0x08080808082b2b08, 0x08080808082b2b2b, 0x0808080819080819, "
        "0x0808080819081908, 0x0808080819190808, 0x0808080819192b08"
    ),
    "iq2xs_grid": (
        "0x0808080808080808, 0x080808080808082b, 0x0808080808081919, "
        "0x0808080808082b08, 0x0808080808082b2b, 0x0808080808190819, "
        "0x0808080808191908"
    ),
    "iq2s_grid": (
        "0x0808080808080808, 0x080808080808082b, 0x0808080808081919, "
        "0x0808080808082b08, 0x0808080808082b2b, 0x0808080808190819, "
        "0x0808080808191908"
    ),
    "iq3xxs_grid": (
        "0x04040404, 0x04040414, 0x04040424, 0x04040c0c, 0x04040c1c, 0x04040c3e, "
        "0x04041404, 0x04041414, 0x04041c0c, 0x04042414, 0x04043e1c, 0x04043e2c, "
        "0x040c040c, 0x040c041c, 0x040c0c04, 0x040c0c14"
    ),
    "iq3s_grid": (
        "0x01010101, 0x01010103, 0x01010105, 0x0101010b, 0x0101010f, 0x01010301, "
        "0x01010303, 0x01010305, 0x01010309, 0x0101030d, 0x01010501"
    ),
    "iq1s_grid": (
        "0xffffffffffffffff, 0xffffffffffffff01, 0xffffffffffff0000, "
        "0xffffffffffff01ff, 0xffffffffffff0101, 0xffffffffff00ff00, "
        "0xffffffffff000000, 0xffffffffff01ffff, 0xffffffffff01ff01, "
        "0xffffffffff0101ff, 0xffffffffff010101, 0xffffffff00ff0000, "
        "0xffffffff0000ff00, 0xffffffff000000ff"
    ),
}

GGML_KSIGNS = """
      0, 129, 130,   3, 132,   5,   6, 135, 136,   9,  10, 139,  12, 141, 142,  15,
    144,  17,  18, 147,  20, 149, 150,  23,  24, 153, 154,  27, 156,  29,  30, 159,
    160,  33,  34, 163,  36, 165, 166,  39,  40, 169, 170,  43, 172,  45,  46, 175,
     48, 177, 178,  51, 180,  53,  54, 183, 184,  57,  58, 187,  60, 189, 190,  63,
    192,  65,  66, 195,  68, 197, 198,  71,  72, 201, 202,  75, 204,  77,  78, 207,
     80, 209, 210,  83, 212,  85,  86, 215, 216,  89,  90, 219,  92, 221, 222,  95,
     96, 225, 226,  99, 228, 101, 102, 231, 232, 105, 106, 235, 108, 237, 238, 111,
    240, 113, 114, 243, 116, 245, 246, 119, 120, 249, 250, 123, 252, 125, 126, 255,
"""


@pytest.mark.parametrize("name", list(GGML_HEADS))
def test_grid_head_is_ggml_literal(name: str) -> None:
    table = grid(name)  # entry byte k (little endian) is element k
    want = [int(v, 16) for v in GGML_HEADS[name].split(", ")]
    got = [
        int.from_bytes(row.astype(np.int8).tobytes(), "little")
        for row in table[: len(want)]
    ]
    assert got == want


def test_grid_sizes() -> None:
    sizes = {n: grid(n).shape for n in GGML_HEADS}
    assert sizes == {
        "iq2xxs_grid": (256, 8),
        "iq2xs_grid": (512, 8),
        "iq2s_grid": (1024, 8),
        "iq3xxs_grid": (256, 4),
        "iq3s_grid": (512, 4),
        "iq1s_grid": (2048, 8),
    }


def test_ksigns_is_ggml_table() -> None:
    want = [int(v) for v in GGML_KSIGNS.replace(",", " ").split()]
    assert ksigns().tolist() == want
