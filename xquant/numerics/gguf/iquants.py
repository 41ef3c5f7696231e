"""GGUF's i-quants (IQ1_S ... IQ3_S): lattice-codebook blocks, bit-exact dequantization.

Each 256-element super-block holds an f16 scale `d`, small integer sub-block
scale codes `s_j`, and for every group of 8 (IQ3_*: 4) elements an index into
a fixed codebook of 8- (4-)vectors (ggml's `iq*_grid`, `iq_grids.py`) plus
sign bits (IQ2/IQ3) or a shift sign (IQ1). Value of element `k` of group `g`
in sub-block `j`, in f32 in exactly the order of gguf 0.19's dequantizers
(`gguf.quants.dequantize`) and ggml's `dequantize_row_iq*`:

    IQ2_XXS  ((d * (0.5 + s_j)) * 0.25) * grid[i_g][k] * sign    s 4-bit per 32
    IQ2_XS   as IQ2_XXS                                           s 4-bit per 16
    IQ2_S    as IQ2_XXS                                           s 4-bit per 16
    IQ3_XXS  ((d * (0.5 + s_j)) * 0.5) * grid[i_g][k] * sign      s 4-bit per 32
    IQ3_S    (d * (1 + 2 s_j)) * grid[i_g][k] * sign              s 4-bit per 32
    IQ1_S    (d * (2 s_j + 1)) * (grid[i_g][k] +- 0.125)          s 3-bit per 32
    IQ1_M    as IQ1_S, `d` spread over the scale bytes            s 3-bit per 16

(`x * sign` negates; the product `(db * grid) * sign` is gguf's grouping.)
Signs come as 7-bit indices into `ksigns` (IQ2_XXS, IQ2_XS, IQ3_XXS: the 8th
bit is the parity of the other 7) or as plain bits (IQ2_S, IQ3_S). Every
unpacker returns the planes the IR describes (`IQPlanes`); `combine`
evaluates the formula. Nothing here imports gguf.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from math import ceil, log2

import numpy as np

from xquant.numerics.gguf.iq_grids import GRIDS

QK_K = 256
IQ1_DELTA = np.float32(0.125)
"""`IQ1S_DELTA` (ggml-common.h): the shift of IQ1_S/IQ1_M grid values."""


@dataclass(frozen=True)
class IQFormat:
    """One i-quant layout: bytes per block, codebook, sub-block and scale widths."""

    name: str
    type_size: int
    grid: str
    dim: int  # elements per codebook entry (8, or 4 for IQ3_*)
    sub: int  # elements per sub-block scale
    scale_bits: int
    index_bits: int  # bits of a codebook index (log2 of the codebook size)


IQ_FORMATS: dict[str, IQFormat] = {
    f.name: f
    for f in (
        IQFormat("IQ2_XXS", 66, "iq2xxs_grid", 8, 32, 4, 8),
        IQFormat("IQ2_XS", 74, "iq2xs_grid", 8, 16, 4, 9),
        IQFormat("IQ2_S", 82, "iq2s_grid", 8, 16, 4, 10),
        IQFormat("IQ3_XXS", 98, "iq3xxs_grid", 4, 32, 4, 8),
        IQFormat("IQ3_S", 110, "iq3s_grid", 4, 32, 4, 9),
        IQFormat("IQ1_S", 50, "iq1s_grid", 8, 32, 3, 11),
        IQFormat("IQ1_M", 56, "iq1s_grid", 8, 16, 3, 11),
    )
}
"""The seven i-quant layouts (ggml block structs, ggml-common.h)."""


@cache
def grid(name: str) -> np.ndarray:
    """Codebook `name` (e.g. "iq2xxs_grid") as int8 (entries, dim), read-only."""
    shape, values, hex_text = GRIDS[name]
    bits = ceil(log2(len(values)))
    per_byte = 8 // bits
    raw = np.frombuffer(bytes.fromhex(hex_text), np.uint8).reshape(-1, 1)
    shifts = np.arange(0, 8, 8 // per_byte, dtype=np.uint8).reshape(1, -1)
    idx = ((raw >> shifts) & np.uint8((1 << bits) - 1)).reshape(-1)
    table = np.asarray(values, np.int8)[idx].reshape(shape)
    table.setflags(write=False)
    return table


@cache
def ksigns() -> np.ndarray:
    """`ksigns_iq2xs`: 7 sign bits and their parity as the 8th, (128,) uint8."""
    i = np.arange(128, dtype=np.uint8)
    parity = np.zeros(128, np.uint8)
    for b in range(7):
        parity ^= (i >> np.uint8(b)) & np.uint8(1)
    table = i | (parity << np.uint8(7))
    table.setflags(write=False)
    return table


@dataclass(frozen=True)
class IQPlanes:
    """An i-quant block array unpacked.

    `d`: f32 (nb, 1); `scales`: sub-block scale codes (nb, 256 / sub);
    `index`: codebook indices (nb, 256 / dim); `negative`: per element, 1
    where the sign is minus (IQ2/IQ3), else None; `shift_down`: per group of
    8, 1 where the IQ1 shift is -0.125 (else +0.125), else None.
    """

    d: np.ndarray
    scales: np.ndarray
    index: np.ndarray
    negative: np.ndarray | None = None
    shift_down: np.ndarray | None = None


def _f16(b: np.ndarray, start: int) -> np.ndarray:
    return np.ascontiguousarray(b[:, start : start + 2]).view("<f2").astype(np.float32)


def _u32(b: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(b).view("<u4")


def _u16(b: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(b).view("<u2")


def _bits(b: np.ndarray) -> np.ndarray:
    """Every byte's 8 bits, lowest first: (nb, 8 * n) uint8."""
    nb = b.shape[0]
    return ((b.reshape(nb, -1, 1) >> np.arange(8, dtype=np.uint8)) & 1).reshape(nb, -1)


def _fields(x: np.ndarray, width: int, count: int) -> np.ndarray:
    """`count` fields of `width` bits of every integer, lowest first."""
    nb = x.shape[0]
    shifts = np.arange(0, width * count, width, dtype=x.dtype)
    return ((x.reshape(nb, -1, 1) >> shifts) & ((1 << width) - 1)).reshape(nb, -1)


def _signs_from_ksigns(idx: np.ndarray) -> np.ndarray:
    """7-bit ksigns indices (nb, n) -> per-element minus bits (nb, 8 n)."""
    return _bits(ksigns()[idx.astype(np.intp)])


def _nibbles(b: np.ndarray) -> np.ndarray:
    """Each byte's low nibble then high nibble: (nb, 2 n)."""
    return _fields(b, 4, 2)


def _unpack_iq2_xxs(b: np.ndarray) -> IQPlanes:
    nb = b.shape[0]
    aux = _u32(b[:, 2:66]).reshape(nb, 8, 2)
    index = np.ascontiguousarray(aux[:, :, 0]).view(np.uint8).reshape(nb, 32)
    scales = (aux[:, :, 1] >> 28).astype(np.uint8)
    signs = _fields(aux[:, :, 1].copy(), 7, 4)  # 4 per sub-block
    return IQPlanes(_f16(b, 0), scales, index, _signs_from_ksigns(signs))


def _unpack_iq2_xs(b: np.ndarray) -> IQPlanes:
    qs = _u16(b[:, 2:66])
    return IQPlanes(
        _f16(b, 0),
        _nibbles(b[:, 66:74]),
        qs & np.uint16(511),
        _signs_from_ksigns(qs >> np.uint16(9)),
    )


def _unpack_iq2_s(b: np.ndarray) -> IQPlanes:
    high = _fields(b[:, 66:74], 2, 4).astype(np.uint16)
    index = b[:, 2:34].astype(np.uint16) | (high << np.uint16(8))
    return IQPlanes(_f16(b, 0), _nibbles(b[:, 74:82]), index, _bits(b[:, 34:66]))


def _unpack_iq3_xxs(b: np.ndarray) -> IQPlanes:
    aux = _u32(b[:, 66:98])
    scales = (aux >> 28).astype(np.uint8)
    signs = _fields(aux.copy(), 7, 4)
    return IQPlanes(_f16(b, 0), scales, b[:, 2:66], _signs_from_ksigns(signs))


def _unpack_iq3_s(b: np.ndarray) -> IQPlanes:
    high = _bits(b[:, 66:74]).astype(np.uint16)
    index = b[:, 2:66].astype(np.uint16) | (high << np.uint16(8))
    return IQPlanes(_f16(b, 0), _nibbles(b[:, 106:110]), index, _bits(b[:, 74:106]))


def _unpack_iq1_s(b: np.ndarray) -> IQPlanes:
    qh = _u16(b[:, 34:50])  # (nb, 8): one per 32 elements
    high = _fields(qh & np.uint16(0x0FFF), 3, 4)
    index = b[:, 2:34].astype(np.uint16) | (high << np.uint16(8))
    scales = ((qh >> 12) & 7).astype(np.uint8)
    down = np.repeat((qh >> 15).astype(np.uint8), 4, axis=1)
    return IQPlanes(_f16(b, 0), scales, index, shift_down=down)


def _unpack_iq1_m(b: np.ndarray) -> IQPlanes:
    nb = b.shape[0]
    sc = _u16(b[:, 48:56])  # (nb, 4)
    d_bits = (
        (sc[:, 0] >> 12)
        | ((sc[:, 1] >> 8) & 0x00F0)
        | ((sc[:, 2] >> 4) & 0x0F00)
        | (sc[:, 3] & 0xF000)
    ).astype(np.uint16)
    d = d_bits.view("<f2").astype(np.float32).reshape(nb, 1)
    scales = _fields(sc & np.uint16(0x0FFF), 3, 4).astype(np.uint8)
    qh = _nibbles(b[:, 32:48])  # (nb, 32): one per group of 8
    index = b[:, 0:32].astype(np.uint16) | ((qh & 7).astype(np.uint16) << 8)
    return IQPlanes(d, scales, index, shift_down=(qh >> 3).astype(np.uint8))


_UNPACK: dict[str, Callable[[np.ndarray], IQPlanes]] = {
    "IQ2_XXS": _unpack_iq2_xxs,
    "IQ2_XS": _unpack_iq2_xs,
    "IQ2_S": _unpack_iq2_s,
    "IQ3_XXS": _unpack_iq3_xxs,
    "IQ3_S": _unpack_iq3_s,
    "IQ1_S": _unpack_iq1_s,
    "IQ1_M": _unpack_iq1_m,
}


def unpack(blocks: np.ndarray, name: str) -> IQPlanes:
    """(nb, type_size) uint8 blocks of layout `name` -> their planes."""
    return _UNPACK[name](blocks)


def sub_block_scale(d: np.ndarray, scales: np.ndarray, name: str) -> np.ndarray:
    """The f32 factor of every sub-block, (nb, n_sub), in ggml's order."""
    s = scales.astype(np.float32)
    if name in ("IQ2_XXS", "IQ2_XS", "IQ2_S"):
        return d * (np.float32(0.5) + s) * np.float32(0.25)
    if name == "IQ3_XXS":
        return d * (np.float32(0.5) + s) * np.float32(0.5)
    # IQ3_S: 1 + 2 s; IQ1_*: 2 s + 1 (exact small integers either way)
    return d * (np.float32(2) * s + np.float32(1))


def combine(planes: IQPlanes, name: str) -> np.ndarray:
    """Dequantize unpacked planes: f32 (nb, 256)."""
    fmt = IQ_FORMATS[name]
    nb = planes.d.shape[0]
    with np.errstate(invalid="ignore", over="ignore"):
        db = sub_block_scale(planes.d, planes.scales, name)
        db = db.reshape(nb, -1, 1)  # (nb, n_sub, 1)
        values = grid(fmt.grid)[planes.index.astype(np.intp)].astype(np.float32)
        values = values.reshape(nb, db.shape[1], -1)
        if planes.shift_down is not None:
            shift = np.where(planes.shift_down == 0, IQ1_DELTA, -IQ1_DELTA)
            shift = np.repeat(shift, 8, axis=1).reshape(values.shape)
            return (db * (values + shift)).reshape(nb, QK_K)
        assert planes.negative is not None
        sign = np.where(planes.negative == 0, np.float32(1), np.float32(-1))
        return (db * values * sign.reshape(values.shape)).reshape(nb, QK_K)


def dequantize_blocks(blocks: np.ndarray, name: str) -> np.ndarray:
    """(nb, type_size) uint8 -> (nb, 256) f32, bit-exact with gguf."""
    return combine(unpack(blocks, name), name)


def super_scale(blocks: np.ndarray, name: str) -> np.ndarray:
    """The f16 super-block scale `d` of every block as f32, (nb, 1)."""
    return unpack(blocks, name).d
