"""Generate `golden_more.npz`: goldens for Q8_1, TQ1_0 and TQ2_0. Run ONCE.

A second file beside `golden.npz` (so that file's arrays stay as they were),
made the same way, in a scratch venv with gguf 0.19.0 and ggml-python 0.0.45:

    /tmp/goldvenv/bin/python tests/data/gguf/generate_more.py

Nothing of xquant is imported (the inputs `quant_x` are read from
golden.npz, data only). Contents:

    raw_{T}, deq_raw_{T}    random block bytes (f16 scales may be NaN/Inf)
                            and their dequantized f32, for T in TQ1_0 TQ2_0
                            (gguf.quants.dequantize) and Q8_1
    ggml_deq_raw_{T}        ggml's C `to_float` of raw_{T} (TQ1_0, TQ2_0):
                            a second, independent dequantizer
    quant_{T}, deq_quant_{T} ggml's C reference quantizer bytes of quant_x
                            (Q8_1: `quantize_row_q8_1_ref`; TQ*:
                            `ggml_quantize_chunk`) and their dequantized
                            first 8 rows

Q8_1 (`d`, `s = d * sum(q)`, 32 int8 `q`) has no dequantizer in gguf or in
ggml (ggml keeps it for dot products: no `to_float`). Its value is Q8_0's,
`d * q` with `s` unused, so its goldens are gguf's Q8_0 dequantize of the
same blocks with the two bytes of `s` removed.
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
OUT = HERE / "golden_more.npz"


def _ggml_type(name: str) -> int:
    return int(getattr(ggml, f"GGML_TYPE_{name}"))


def _ggml_quantize(x: np.ndarray, name: str) -> np.ndarray:
    block, size = gguf.GGML_QUANT_SIZES[G[name]] if name != "Q8_1" else (32, 36)
    nrow, n = x.shape
    out = np.zeros(nrow * (n // block) * size, np.uint8)
    x = np.ascontiguousarray(x, np.float32)
    src = x.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
    dst = out.ctypes.data_as(ctypes.c_void_p)
    if name == "Q8_1":  # not in ggml_quantize_chunk: the row quantizer itself
        traits = ggml.ggml_get_type_traits(_ggml_type(name)).contents
        traits.from_float_ref(src, dst, x.size)
    else:
        ggml.ggml_quantize_chunk(_ggml_type(name), src, dst, 0, nrow, n, None)
    return out.reshape(nrow, -1)


def _ggml_dequantize(raw: np.ndarray, name: str, n: int) -> np.ndarray:
    traits = ggml.ggml_get_type_traits(_ggml_type(name)).contents
    out = np.zeros(n, np.float32)
    raw = np.ascontiguousarray(raw)
    traits.to_float(
        raw.ctypes.data_as(ctypes.c_void_p),
        out.ctypes.data_as(ctypes.POINTER(ctypes.c_float)),
        n,
    )
    return out


def _q8_1_values(blocks: np.ndarray) -> np.ndarray:
    """Q8_1 blocks (.., 36) -> gguf's Q8_0 dequantize of (d, q) (s dropped)."""
    b = blocks.reshape(-1, 36)
    q8_0 = np.concatenate([b[:, :2], b[:, 4:]], axis=1)
    return gguf.quants.dequantize(q8_0, G.Q8_0)


def main() -> None:
    rng = np.random.default_rng(31)
    x = np.load(HERE / "golden.npz")["quant_x"]
    data: dict[str, np.ndarray] = {}
    for name, size in (("Q8_1", 36), ("TQ1_0", 54), ("TQ2_0", 66)):
        block = 32 if name == "Q8_1" else 256
        raw = rng.integers(0, 256, (512 // block, size), dtype=np.uint8)
        data[f"raw_{name}"] = raw
        with np.errstate(invalid="ignore", over="ignore"):
            if name == "Q8_1":
                data[f"deq_raw_{name}"] = _q8_1_values(raw)
            else:
                data[f"deq_raw_{name}"] = gguf.quants.dequantize(raw, G[name])
                data[f"ggml_deq_raw_{name}"] = _ggml_dequantize(
                    raw, name, raw.shape[0] * block
                ).reshape(-1, block)
        q = _ggml_quantize(x, name)
        data[f"quant_{name}"] = q
        if name == "Q8_1":
            data[f"deq_quant_{name}"] = _q8_1_values(q[:8]).reshape(8, -1)
        else:
            data[f"deq_quant_{name}"] = gguf.quants.dequantize(q[:8], G[name])
    data["versions"] = np.array(
        [f"gguf {version('gguf')}", f"ggml-python {version('ggml-python')}"]
    )
    np.savez_compressed(OUT, **data)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
