"""Generate the NVFP4 golden vectors (`golden.npz`) from torchao's NVFP4 reference. Run ONCE.

torchao is NOT a dependency of xquant: it runs in a separate venv, e.g.

    python3 -m venv /work/goldvenv
    /work/goldvenv/bin/pip install torch==2.13.0 torchao==0.18.0
    /work/goldvenv/bin/python tests/data/nvfp4/generate_golden.py

Versions used for the checked-in data: torch 2.13.0+cpu, torchao 0.18.0
(both are also stored in the npz as `torch_version` / `torchao_version`).
The CPU path of `NVFP4Tensor.to_nvfp4` (use_triton_kernel=False) calls the
pure-PyTorch `nvfp4_quantize`; `dequantize` multiplies by
`per_tensor_scale * scale_e4m3`.

Every case `k` stores:
    case{k}_x          f32 input, shape (rows, 64): 4 blocks of 16 per row
    case{k}_g          f32 per-tensor scale, shape () ; NaN means "none"
    case{k}_scale      uint8 f8E4M3FN block-scale bytes, shape (rows, 4)
    case{k}_codes      uint8 f4E2M1FN codes (low nibble), unpacked, shape (rows, 64)
    case{k}_dequant    f32 torchao dequantize(torch.float32), shape (rows, 64)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
import torchao
from torchao.prototype.mx_formats.kernels import unpack_uint4
from torchao.prototype.mx_formats.nvfp4_tensor import (
    NVFP4Tensor,
    per_tensor_amax_to_scale,
)

OUT = Path(__file__).with_name("golden.npz")
COLS = 64


def _rows() -> dict[str, np.ndarray]:
    """Named input tensors; each row is 4 blocks of 16."""
    rng = np.random.default_rng(20261125)
    f = np.float32
    cases: dict[str, np.ndarray] = {}
    cases["random"] = (rng.standard_normal((8, COLS)) * 3).astype(f)
    cases["magnitudes"] = (
        rng.standard_normal((8, COLS)) * np.logspace(-6, 6, 8)[:, None]
    ).astype(f)
    special = np.zeros((12, COLS), f)
    special[0] = 0.0  # all-zero blocks: scale clamps up to 2^-6
    special[1, :16] = -0.0
    special[1, 16:32] = (
        rng.standard_normal(16) * 1e-3
    )  # amax/6 below 2^-6 (would be subnormal)
    special[1, 32:48] = rng.standard_normal(16) * 1e-40  # f32 subnormal inputs
    special[1, 48:64] = rng.standard_normal(16) * 0.03  # e4m3-subnormal range of amax/6
    # amax exactly 6 * an e4m3 value: 6*1.25, 6*0.5, 6*448, 6*(2^-6)
    for block, s in enumerate((1.25, 0.5, 448.0, 2.0**-6)):
        row = np.linspace(-1, 1, 16).astype(f) * f(6 * s)
        special[2, 16 * block : 16 * block + 16] = row
    # E2M1 ties at scale 1 (amax 6): 0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5
    ties = np.array(
        [
            6,
            0.25,
            0.75,
            1.25,
            1.75,
            2.5,
            3.5,
            5,
            -0.25,
            -0.75,
            -1.25,
            -1.75,
            -2.5,
            -3.5,
            -5,
            -6,
        ],
        f,
    )
    special[3, :16] = ties
    special[3, 16:32] = ties * f(1.25)
    special[3, 32:48] = ties * f(0.375)
    special[3, 48:64] = ties * f(100)
    special[4, :16] = rng.standard_normal(16)
    special[4, 3] = np.nan  # NaN block
    special[4, 16:32] = rng.standard_normal(16)
    special[4, 20] = np.inf  # Inf block
    special[4, 32:48] = rng.standard_normal(16)
    special[4, 40] = -np.inf
    special[4, 48:64] = rng.standard_normal(16)
    special[5] = rng.standard_normal(COLS) * f(1e4)  # block scales above 448 saturate
    special[6] = rng.standard_normal(COLS) * f(3e38)  # near FLT_MAX
    special[7] = np.finfo(f).max * np.sign(rng.standard_normal(COLS)).astype(f)
    special[8] = rng.standard_normal(COLS) * f(6.0)
    special[8, ::16] = f(6.0) * f(3.0)  # amax = 18 = 6 * 3
    special[9] = rng.integers(-6, 7, COLS).astype(f) * f(0.5)
    special[10] = np.nextafter(f(6.0), f(0)) * np.sign(
        rng.standard_normal(COLS)
    ).astype(f)
    special[11] = rng.standard_normal(COLS).astype(f) * f(2.0**-10)
    cases["special"] = special
    return cases


def _tensor_scales(x: np.ndarray) -> list[tuple[str, float | None]]:
    finite = np.abs(x[np.isfinite(x)])
    amax = float(finite.max()) if finite.size else 0.0
    per_tensor = float(
        per_tensor_amax_to_scale(torch.tensor(amax, dtype=torch.float32))
    )
    return [("none", None), ("amax", per_tensor), ("fixed", 0.01)]


def main() -> None:
    arrays: dict[str, np.ndarray] = {
        "torch_version": np.array(torch.__version__),
        "torchao_version": np.array(torchao.__version__),
    }
    names: list[str] = []
    k = 0
    for name, x in _rows().items():
        for label, g in _tensor_scales(x):
            if g is not None and not np.isfinite(g):
                continue
            xt = torch.from_numpy(x.copy())
            gt = None if g is None else torch.tensor(g, dtype=torch.float32)
            t = NVFP4Tensor.to_nvfp4(xt, per_tensor_scale=gt)
            codes = unpack_uint4(t.qdata.contiguous().view(torch.uint8)).numpy()
            arrays[f"case{k}_x"] = x
            arrays[f"case{k}_g"] = np.array(np.nan if g is None else g, np.float32)
            arrays[f"case{k}_scale"] = (
                t.scale.view(torch.uint8).numpy().reshape(x.shape[0], -1)
            )
            arrays[f"case{k}_codes"] = codes.astype(np.uint8).reshape(x.shape)
            arrays[f"case{k}_dequant"] = t.dequantize(torch.float32).numpy()
            names.append(f"{name}/{label}")
            k += 1
    arrays["names"] = np.array(names)
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {k} cases to {OUT}")


if __name__ == "__main__":
    main()
