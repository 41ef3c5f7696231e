"""NF4 with double-quantized block scales (QLoRA; torchao's `to_nf4`).

A tensor of `n` elements (n a multiple of `block * scaler_block`) in dtype
`T` (f32 or bf16) is stored as:

- `codes`: u8[n / 2], two 4-bit indices into the NF4 table per byte, the
  even element in the high nibble;
- `scalers`: i8[n / block], each block's absmax minus their mean, quantized
  per group of `scaler_block` blocks;
- `factor`: T[n / (block * scaler_block)], each group's quantization factor
  `256 / (2 * absmax)` of the centred block scales ("scale of scales");
- `mean`: T, the mean of the block absmaxes.

Decode, every step rounded to `T` as torchao does in `T`:
`scale_b = T(T(scalers[b]) / factor[g]) + mean`, `x = NF4[code] * scale_b`.
Quantize as torchao: codes from `x / absmax_b` (the exact absmax, not the
double-quantized scale) to the nearest table entry (the first on a tie),
scalers `clamp(round_half_even((absmax_b - mean) * factor_g), -128, 127)`.
"""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

NF4_TABLE: tuple[float, ...] = (
    -1.0,
    -0.6962,
    -0.5251,
    -0.3949,
    -0.2844,
    -0.1848,
    -0.0911,
    0.0,
    0.0796,
    0.1609,
    0.2461,
    0.3379,
    0.4407,
    0.5626,
    0.7230,
    1.0,
)
"""torchao's NF4 table (QLoRA's normal-float quantiles, to four decimals),
converted to the weight's dtype."""

_CHUNK = 1 << 18  # elements per piece of the nearest-code search

DTYPES: dict[str, np.dtype] = {
    "f32": np.dtype(np.float32),
    "bf16": np.dtype(ml_dtypes.bfloat16),
}


@dataclass(frozen=True)
class NF4Double:
    """The stored parts of a double-quantized NF4 tensor."""

    codes: np.ndarray  # u8[n / 2]
    scalers: np.ndarray  # i8[n / block]
    factor: np.ndarray  # T[n / (block * scaler_block)]
    mean: np.ndarray  # T, shape ()
    shape: tuple[int, ...]
    block: int = 64
    scaler_block: int = 256


def table(dtype: np.dtype) -> np.ndarray:
    """The NF4 table in `dtype` (each entry rounded once from its decimal)."""
    return np.array(NF4_TABLE, dtype=np.float64).astype(dtype)


def dequantize_scalers(t: NF4Double) -> np.ndarray:
    """The per-block scales, `T(T(q) / factor) + mean`."""
    dtype = t.factor.dtype
    q = t.scalers.astype(dtype).reshape(-1, t.scaler_block)
    return (q / t.factor.reshape(-1, 1)).astype(dtype).reshape(-1) + t.mean


def dequantize(t: NF4Double) -> np.ndarray:
    """The tensor in dtype `T`, bit-exact with torchao's `get_original_weight`."""
    dtype = t.factor.dtype
    codes = np.empty(t.codes.size * 2, np.uint8)
    codes[0::2] = t.codes >> 4
    codes[1::2] = t.codes & 0x0F
    values = table(dtype)[codes].reshape(-1, t.block)
    scales = dequantize_scalers(t).reshape(-1, 1)
    return (values * scales).astype(dtype).reshape(t.shape)


def quantize(x: np.ndarray, block: int = 64, scaler_block: int = 256) -> NF4Double:
    """torchao's `to_nf4(x, block, scaler_block)` for an f32 or bf16 array."""
    dtype = x.dtype
    if x.size % (block * scaler_block):
        raise ValueError(
            f"{x.size} elements are not a whole number of groups of "
            f"{block} x {scaler_block}"
        )
    blocks = x.reshape(-1, block)
    absmax = np.abs(blocks).max(axis=1)
    mean = np.asarray(absmax.astype(np.float64).mean()).astype(dtype)
    centred = (absmax - mean).astype(dtype).reshape(-1, scaler_block)
    group_absmax = np.abs(centred).max(axis=1)
    factor = (np.asarray(256, dtype) / (2 * group_absmax).astype(dtype)).astype(dtype)
    scaled = (centred * factor.reshape(-1, 1)).astype(dtype)
    scalers = np.clip(np.rint(scaled.astype(np.float32)), -128, 127).astype(np.int8)
    normed = (blocks / absmax.reshape(-1, 1)).astype(dtype).reshape(-1)
    nf4 = table(dtype)[None, :]
    codes = np.empty(normed.size, np.uint8)
    for start in range(0, normed.size, _CHUNK):  # n x 16 differences, in pieces
        part = normed[start : start + _CHUNK, None]
        diff = np.abs((part - nf4).astype(dtype)).astype(np.float32)
        codes[start : start + _CHUNK] = np.argmin(diff, axis=1)
    packed = (codes[0::2] << 4) | codes[1::2]
    return NF4Double(
        packed.astype(np.uint8),
        scalers.reshape(-1),
        factor,
        mean,
        tuple(x.shape),
        block,
        scaler_block,
    )


def storage_size(
    n: int, itemsize: int, block: int = 64, scaler_block: int = 256
) -> tuple[int, int, int, int]:
    """Bytes of the four parts of an `n`-element tensor in the planar layout:
    (codes, scalers, factors, mean), `itemsize` bytes per factor and mean."""
    blocks = n // block
    return n // 2, blocks, blocks // scaler_block * itemsize, itemsize


def to_bytes(t: NF4Double) -> np.ndarray:
    """The planar layout ("torchao.nf4"): codes, scalers, factors, mean, in
    that order, each as torchao holds it (factors and mean little endian)."""
    parts = (t.codes, t.scalers, t.factor, np.asarray(t.mean).reshape(1))
    return np.concatenate(
        [np.ascontiguousarray(p).reshape(-1).view(np.uint8) for p in parts]
    )


def from_bytes(
    data: np.ndarray,
    shape: tuple[int, ...],
    dtype: np.dtype,
    block: int = 64,
    scaler_block: int = 256,
) -> NF4Double:
    """The parts of the planar layout (views of `data`, uint8)."""
    n = int(np.prod(shape))
    sizes = storage_size(n, dtype.itemsize, block, scaler_block)
    if data.size != sum(sizes):
        raise ValueError(
            f"{data.size} bytes do not hold {n} NF4 elements: "
            f"{' + '.join(map(str, sizes))} = {sum(sizes)} bytes expected"
        )
    raw = data.reshape(-1).view(np.uint8)
    ends = np.cumsum(sizes)
    codes = raw[: ends[0]]
    scalers = raw[ends[0] : ends[1]].view(np.int8)
    factor = raw[ends[1] : ends[2]].copy().view(dtype)
    mean = raw[ends[2] : ends[3]].copy().view(dtype).reshape(())
    return NF4Double(codes, scalers, factor, mean, shape, block, scaler_block)
