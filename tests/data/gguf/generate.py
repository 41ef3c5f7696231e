"""Generate the GGUF golden vectors (`golden.npz`) from gguf and ggml. Run ONCE.

Neither package is a dependency of xquant: they run in a scratch venv, e.g.

    python3 -m venv /tmp/goldvenv
    /tmp/goldvenv/bin/pip install numpy gguf==0.19.0 ggml-python==0.0.45
    /tmp/goldvenv/bin/python tests/data/gguf/generate.py

ggml-python builds ggml from source (its vendored ggml 0.15.3); the
reference quantizers live in `ggml-base`, compiled for baseline x86-64
(`-march=x86-64 -O3`, no FMA contraction). The versions are stored in the
npz as `versions`. Nothing of xquant is imported: every array comes from
gguf's Python code or ggml's C code.

Contents:
    quant_x                 f32 inputs, (rows, 256): normal, uniform, heavy
                            tailed, tiny (f16-subnormal scales), huge,
                            all-zero, constant, one-hot, one-signed, exact
                            half-integers and sparse rows
    quant_{T}               uint8 bytes of ggml's C reference quantizer
                            (`ggml_quantize_chunk`, no importance matrix) of
                            quant_x, for T in Q4_0 Q8_0 Q2_K..Q6_K IQ4_NL IQ4_XS
    gguf_quant_{T}          gguf.quants.quantize(quant_x) for T in Q4_0 Q8_0
                            (gguf has no k-quant quantizers)
    deq_quant_{T}           gguf.quants.dequantize(quant_{T}[:8]) (f32)
    raw_{T}                 random block bytes (f16 scales may be NaN/Inf),
                            for every format T xquant reads
    deq_raw_{T}             gguf.quants.dequantize(raw_{T}) (f32)
    tiny_{name}             gguf.quants.dequantize of every tensor of tiny.gguf

`tiny.gguf` is a small model file written by `gguf.GGUFWriter`: typed
metadata of every kind (strings, a non-ASCII token, bool, u64 above 2^63,
f32/f64, arrays, an empty array) and Q8_0 (gguf's quantizer), Q4_K and Q6_K
(ggml's C quantizers), F32 and F16 tensors.
"""

from __future__ import annotations

import ctypes
from importlib.metadata import version
from pathlib import Path

import ggml
import gguf
import numpy as np
from gguf import GGMLQuantizationType as G

OUT = Path(__file__).with_name("golden.npz")
TINY = Path(__file__).with_name("tiny.gguf")
QUANT = ["Q4_0", "Q8_0", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K", "IQ4_NL", "IQ4_XS"]
READ = [*QUANT, "Q4_1", "Q5_0", "Q5_1", "IQ4_NL", "IQ4_XS"]


def _inputs(rng: np.random.Generator) -> np.ndarray:
    rows = [
        rng.standard_normal((6, 256)),
        rng.uniform(-1, 1, (4, 256)),
        rng.laplace(size=(4, 256)) * 5,
        rng.standard_normal((3, 256)) * 1e-6,  # f16-subnormal super-block scales
        rng.standard_normal((2, 256)) * 3e4,  # scales near the top of f16
        rng.integers(-3, 4, (3, 256)) * 0.5,  # exact half-integers: ties
        np.where(rng.random((3, 256)) < 0.9, 0, rng.standard_normal((3, 256))),
        -np.abs(rng.standard_normal((2, 256))),
        np.abs(rng.standard_normal((2, 256))) + 3,
        rng.standard_normal((2, 256)) * 10.0 ** rng.uniform(-4, 2, (2, 256)),
    ]
    special = np.zeros((4, 256))
    special[1] = 1.5  # constant
    special[2] = -2.0
    special[3, 7] = 1.0  # one-hot
    rows.append(special)
    return np.concatenate(rows).astype(np.float32)


def _ggml_quantize(x: np.ndarray, name: str) -> np.ndarray:
    block, size = gguf.GGML_QUANT_SIZES[G[name]]
    nrow, n = x.shape
    out = np.zeros(nrow * (n // block) * size, np.uint8)
    x = np.ascontiguousarray(x, np.float32)
    ggml.ggml_quantize_chunk(
        int(G[name]),
        x.ctypes.data_as(ctypes.POINTER(ctypes.c_float)),
        out.ctypes.data_as(ctypes.c_void_p),
        0,
        nrow,
        n,
        None,
    )
    return out.reshape(nrow, -1)


def _write_tiny(data: dict[str, np.ndarray]) -> None:
    rng = np.random.default_rng(5)
    w = gguf.GGUFWriter(str(TINY), "llama")
    w.add_block_count(1)
    w.add_context_length(128)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_string("general.name", "tiny")
    w.add_bool("tokenizer.ggml.add_bos_token", True)
    w.add_array("tokenizer.ggml.tokens", ["<s>", "</s>", "h\u00e9llo", 'q"\\\n'])
    w.add_array("tokenizer.ggml.scores", [0.0, -1.5, 2.25, 0.1])
    w.add_array("tokenizer.ggml.token_type", [1, 2, 3, 4])
    w.add_uint64("tiny.u64", 2**63 + 5)
    w.add_float64("tiny.f64", 0.1)
    w.add_int8("tiny.i8", -3)
    w.add_array("tiny.empty", [])
    tensors = {
        "blk.0.ffn_down.weight": (
            gguf.quants.quantize(
                rng.standard_normal((8, 512)).astype(np.float32), G.Q8_0
            ),
            G.Q8_0,
        ),
        "blk.0.attn_q.weight": (
            _ggml_quantize(rng.standard_normal((4, 512)).astype(np.float32), "Q4_K"),
            G.Q4_K,
        ),
        "output.weight": (
            _ggml_quantize(rng.standard_normal((2, 256)).astype(np.float32), "Q6_K"),
            G.Q6_K,
        ),
        "output_norm.weight": (rng.standard_normal(64).astype(np.float32), G.F32),
        "token_embd.weight": (rng.standard_normal((3, 32)).astype(np.float16), G.F16),
    }
    for name, (array, t) in tensors.items():
        raw = t if t not in (G.F32, G.F16) else None
        w.add_tensor(name, array, raw_dtype=raw)
        data[f"tiny_{name}"] = gguf.quants.dequantize(
            array.view(np.uint8) if raw else array, t
        )
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def main() -> None:
    rng = np.random.default_rng(29)
    data: dict[str, np.ndarray] = {}
    x = _inputs(rng)
    data["quant_x"] = x
    for name in QUANT:
        q = _ggml_quantize(x, name)
        data[f"quant_{name}"] = q
        data[f"deq_quant_{name}"] = gguf.quants.dequantize(q[:8], G[name])
    for name in ("Q4_0", "Q8_0"):
        data[f"gguf_quant_{name}"] = gguf.quants.quantize(x, G[name])
    for name in READ:
        block, size = gguf.GGML_QUANT_SIZES[G[name]]
        nblocks = 512 // block  # 512 values per format
        raw = rng.integers(0, 256, (nblocks, size), dtype=np.uint8)
        data[f"raw_{name}"] = raw
        with np.errstate(invalid="ignore", over="ignore"):
            data[f"deq_raw_{name}"] = gguf.quants.dequantize(raw, G[name])
    _write_tiny(data)
    data["versions"] = np.array(
        [f"gguf {version('gguf')}", f"ggml-python {version('ggml-python')}"]
    )
    np.savez_compressed(OUT, **data)
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
