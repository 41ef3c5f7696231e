"""Generate the NF4 double-quantization goldens (`nf4_double.npz`) with torchao.

Run ONCE, in a scratch Python 3.11 venv (not xquant's):

    python3.11 -m venv /tmp/tao29
    /tmp/tao29/bin/pip install torch==2.13.0 torchao
    /tmp/tao29/bin/python tests/data/nf4_double/generate.py

For bf16 and f32 weights it stores torchao's `to_nf4` (block 64, scaler
block 256; and one bf16 case with block 32, scaler block 4) outputs: the packed 4-bit codes, the int8 block scales, the
per-256 quantization factors, the scaler mean, the NF4 table in the dtype,
and `get_original_weight()` (the dequantized tensor), all as raw bits.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
import torchao
from torchao.quantization.quantize_.workflows import to_nf4

OUT = Path(__file__).with_name("nf4_double.npz")
CASES = {
    "bf16": (torch.bfloat16, (256, 128), 64, 256),
    "f32": (torch.float32, (128, 128), 64, 256),
    # not the defaults: blocks of 32, one factor per 4 blocks
    "bf16_b32s4": (torch.bfloat16, (16, 64), 32, 4),
}


def bits(t: torch.Tensor) -> np.ndarray:
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16)
    if t.dtype == torch.float32:
        return t.view(torch.int32).numpy().view(np.uint32)
    return t.numpy()


def main() -> None:
    gen = torch.Generator().manual_seed(29)
    out: dict[str, np.ndarray] = {}
    for name, (dtype, shape, block, scaler_block) in CASES.items():
        w = torch.randn(shape, generator=gen, dtype=torch.float32) * 0.02
        w[3, :7] *= 40.0  # outliers: blocks with a large absmax
        if shape[0] > 100:
            w[100, 64:] *= 0.01  # a block of tiny values
        w = w.to(dtype)
        nf4 = to_nf4(w, block, scaler_block)
        out[f"{name}_input"] = bits(w)
        out[f"{name}_codes"] = nf4.quantized_data.numpy()
        out[f"{name}_scalers"] = nf4.quantized_scalers.numpy()
        out[f"{name}_factor"] = bits(nf4.quantization_factor)
        out[f"{name}_mean"] = bits(nf4.scaler_mean.reshape(1))
        out[f"{name}_table"] = bits(nf4.nf4)
        out[f"{name}_dequantized"] = bits(nf4.get_original_weight())
    out["versions"] = np.array([torch.__version__, torchao.__version__])
    np.savez_compressed(OUT, **out)  # pyright: ignore[reportArgumentType]
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
