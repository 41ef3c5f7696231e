"""Generate `xquant/numerics/gguf/iq_grids.py`: ggml's i-quant lattice codebooks. Run ONCE.

    python tests/data/gguf/generate_iq_grids.py      (needs gguf 0.19: pip install gguf)

The grids are ggml's `iq2xxs_grid`, `iq2xs_grid`, `iq2s_grid`, `iq3xxs_grid`,
`iq3s_grid` and `iq1s_grid` (ggml-common.h, MIT license, (c) the ggml
authors), as the `gguf` package (0.19, `gguf/quants.py`, MIT) ships them:
every grid entry's bytes replaced by their index in a short value map
(`grid_map`, e.g. 0x08, 0x19, 0x2b -> 0, 1, 2), packed 2 or 4 bits per
element, low bits first, written as hex. The module written here holds those
strings and maps only (data); xquant decodes them itself and never imports
gguf at runtime. The script checks the decoded grids equal gguf's own
(`init_grid`) before writing, and that ksigns is the parity table.
"""

from __future__ import annotations

import sys
from importlib.metadata import version
from math import ceil, log2
from pathlib import Path

import numpy as np
from gguf import quants

ROOT = Path(__file__).resolve().parents[3]
OUT = ROOT / "xquant" / "numerics" / "gguf" / "iq_grids.py"

GRIDS = {
    "iq2xxs_grid": quants.IQ2_XXS,
    "iq2xs_grid": quants.IQ2_XS,
    "iq2s_grid": quants.IQ2_S,
    "iq3xxs_grid": quants.IQ3_XXS,
    "iq3s_grid": quants.IQ3_S,
    "iq1s_grid": quants.IQ1_S,
}


def _decode(
    hex_text: str, shape: tuple[int, int], values: tuple[int, ...]
) -> np.ndarray:
    """The decoder xquant uses (a copy, so the check below tests it)."""
    bits = ceil(log2(len(values)))
    per_byte = 8 // bits
    raw = np.frombuffer(bytes.fromhex(hex_text), np.uint8).reshape(-1, 1)
    shifts = np.arange(0, 8, 8 // per_byte, dtype=np.uint8).reshape(1, -1)
    idx = ((raw >> shifts) & np.uint8((1 << bits) - 1)).reshape(-1)
    return np.asarray(values, np.int8)[idx].reshape(shape)


def main() -> None:
    lines = [
        '"""ggml\'s i-quant lattice codebooks (generated: do not edit).',
        "",
        "Written by tests/data/gguf/generate_iq_grids.py from the tables of",
        f"gguf {version('gguf')} (`gguf/quants.py`, MIT), which are ggml's",
        "`iq*_grid` arrays of ggml-common.h (MIT, (c) the ggml authors) with each",
        "byte replaced by its index in `values` and packed `bits` per element, low",
        "bits first. `numerics/gguf/iquants.py` decodes them to int8 grids.",
        '"""',
        "",
        "GRIDS: dict[str, tuple[tuple[int, int], tuple[int, ...], str]] = {",
    ]
    for name, cls in GRIDS.items():
        hex_text = cls.grid_hex.decode()
        shape = tuple(cls.grid_shape)
        values = tuple(int(v) for v in cls.grid_map)
        cls.init_grid()
        ours = _decode(hex_text, shape, values)
        assert np.array_equal(ours.astype(np.float32), cls.grid.reshape(shape)), name
        lines.append(f'    "{name}": (')
        lines.append(f"        {shape},")
        lines.append(f"        {values},")
        lines.append("        (")
        for i in range(0, len(hex_text), 72):
            lines.append(f'            "{hex_text[i : i + 72]}"')
        lines.append("        ),")
        lines.append("    ),")
    lines.append("}")
    k = np.frombuffer(quants.IQ2_XXS.ksigns, np.uint8)
    i = np.arange(128)
    parity = np.array([bin(v).count("1") & 1 for v in i])
    assert np.array_equal(k, i | (parity << 7)), "ksigns is not the parity table"
    assert float(quants.IQ1_S.delta) == 0.125 and float(quants.IQ1_M.delta) == 0.125
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
