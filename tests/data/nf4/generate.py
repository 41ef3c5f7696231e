"""Generate `nf4_torchao.npz`: torchao's NF4 quantization of a small weight (run once).

    python3.11 -m venv /tmp/tao
    /tmp/tao/bin/pip install torch==2.13.0 'torchao==0.18.*' numpy
    /tmp/tao/bin/python tests/data/nf4/generate.py

Stores, for an 8x128 float32 weight in NF4 blocks of 64 (16 blocks, scales
double-quantized in groups of 8): the weight, torchao's 16-entry table, the
per-block absmax it quantizes with, the 4-bit codes (unpacked), the
double-quantized scales it dequantizes with, and its dequantized weight
(`get_original_weight`). xquant's test reads only this file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
import torchao
from torchao.quantization.quantize_.workflows.nf4.nf4_tensor import (
    NF4Tensor,
    get_block_absmax,
    to_nf4,
)

BLOCK = 64
SCALER_BLOCK = 8


def main() -> None:
    torch.manual_seed(28)
    weight = torch.randn(8, 128, dtype=torch.float32)
    nf4 = to_nf4(weight, block_size=BLOCK, scaler_block_size=SCALER_BLOCK)
    assert isinstance(nf4, NF4Tensor)
    packed = nf4.quantized_data
    codes = torch.stack([packed >> 4, packed & 0b1111], dim=-1).reshape(-1)
    scalers = nf4.dequantize_scalers(
        nf4.quantized_scalers, nf4.quantization_factor, nf4.scaler_block_size
    )
    out = Path(__file__).with_name("nf4_torchao.npz")
    np.savez_compressed(
        out,
        weight=weight.numpy(),
        table=nf4.nf4.numpy(),
        absmax=get_block_absmax(weight.flatten(), BLOCK).numpy(),
        codes=codes.to(torch.uint8).numpy().reshape(weight.shape),
        scalers=scalers.to(torch.float32).numpy(),
        dequantized=nf4.get_original_weight().to(torch.float32).numpy(),
        versions=np.array([torch.__version__, torchao.__version__]),
    )
    print(f"wrote {out} (torch {torch.__version__}, torchao {torchao.__version__})")


if __name__ == "__main__":
    main()
