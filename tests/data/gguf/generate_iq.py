"""Generate `golden_iq.npz`: goldens for the i-quants (IQ2_XXS ... IQ1_M). Run ONCE.

In a scratch venv with gguf 0.19.0 and ggml-python 0.0.45 (as generate.py):

    /tmp/goldvenv/bin/python tests/data/gguf/generate_iq.py

Nothing of xquant is imported. For T in IQ2_XXS IQ2_XS IQ2_S IQ3_XXS IQ3_S
IQ1_S IQ1_M:

    raw_{T}        random block bytes, 2 rows x 4 blocks; the f16
                   super-block scale `d` of row 0's blocks 0-2 forced to
                   +Inf, NaN, -Inf (IQ1_M spreads `d` over the high nibbles
                   of its four u16 scale words: set there)
    deq_raw_{T}    their `gguf.quants.dequantize` (f32, 2 x 1024)
    ggml_deq_raw_{T}  ggml's C `to_float` (`dequantize_row_iq*`) of the same
                   bytes: a second, independent dequantizer

gguf has no quantizer for these (ggml's are trained-codebook searches), so
there are no quantized-data goldens; the live test re-checks fresh random
blocks when gguf is installed.
"""

from __future__ import annotations

import ctypes
from importlib.metadata import version
from pathlib import Path

import ggml
import gguf
import numpy as np
from gguf import GGMLQuantizationType as G

HERE = Path(__file__).parent
OUT = HERE / "golden_iq.npz"
NAMES = ("IQ2_XXS", "IQ2_XS", "IQ2_S", "IQ3_XXS", "IQ3_S", "IQ1_S", "IQ1_M")
SPECIAL = (0x7C00, 0x7E00, 0xFC00)  # +Inf, NaN, -Inf as f16 bits


def _set_d(block: np.ndarray, name: str, bits: int) -> None:
    if name != "IQ1_M":
        block[0:2] = np.array([bits], "<u2").view(np.uint8)
        return
    words = block[48:56].copy().view("<u2")
    for k in range(4):  # nibble k of d goes to bits 12-15 of word k
        words[k] = (words[k] & 0x0FFF) | (((bits >> (4 * k)) & 0xF) << 12)
    block[48:56] = words.view(np.uint8)


def _ggml_dequantize(raw: np.ndarray, name: str, n: int) -> np.ndarray:
    traits = ggml.ggml_get_type_traits(int(getattr(ggml, f"GGML_TYPE_{name}")))
    out = np.zeros(n, np.float32)
    raw = np.ascontiguousarray(raw)
    traits.contents.to_float(
        raw.ctypes.data_as(ctypes.c_void_p),
        out.ctypes.data_as(ctypes.POINTER(ctypes.c_float)),
        n,
    )
    return out


def main() -> None:
    rng = np.random.default_rng(29)
    data: dict[str, np.ndarray] = {}
    for name in NAMES:
        block, size = gguf.GGML_QUANT_SIZES[G[name]]
        raw = rng.integers(0, 256, (2, 4 * size), dtype=np.uint8)
        for k, bits in enumerate(SPECIAL):
            _set_d(raw[0, k * size : (k + 1) * size], name, bits)
        with np.errstate(invalid="ignore", over="ignore"):
            deq = gguf.quants.dequantize(raw, G[name])
        assert deq.shape == (2, 4 * block)
        assert np.isinf(deq[0, :256]).any() and np.isnan(deq[0, 256:512]).all()
        data[f"raw_{name}"] = raw
        data[f"deq_raw_{name}"] = deq
        data[f"ggml_deq_raw_{name}"] = _ggml_dequantize(raw, name, deq.size).reshape(
            deq.shape
        )
    data["versions"] = np.array(
        [f"gguf {version('gguf')}", f"ggml-python {version('ggml-python')}"]
    )
    np.savez_compressed(OUT, **data)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
