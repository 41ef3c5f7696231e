"""GGUF block layouts and their bit-exact dequantization, on raw block bytes.

A GGML quantized tensor is a sequence of blocks along its last (innermost)
dimension; each block is `type_size` bytes holding `block_size` elements.
The layouts are ggml's block structs (`ggml-common.h`), little endian, f16
scales. Every dequantizer here computes, in f32, exactly the operations of
the `gguf` package's `gguf.quants.dequantize` (0.19) in the same order:

    Q4_0    d * (q - 8)                         q 4-bit, 32 per block
    Q4_1    d * q + m
    Q5_0    d * (q - 16)                        q 5-bit (4 low + 1 high)
    Q5_1    d * q + m
    Q8_0    q * d                               q int8
    Q8_1    q * d                               as Q8_0, plus an f16 `s = d * sum(q)`
                                                (not used by dequantize)
    Q2_K    (d * sc_j) * q - (dmin * m_j)       q 2-bit, 16 sub-blocks of 16,
                                                sc_j, m_j 4-bit
    Q3_K    (d * (sc_j - 32)) * q               q 3-bit signed (2 low + high
                                                mask), sc_j 6-bit
    Q4_K    (d * sc_j) * q - (dmin * m_j)       q 4-bit, 8 sub-blocks of 32,
                                                sc_j, m_j 6-bit packed in 12 bytes
    Q5_K    as Q4_K with a fifth value bit
    Q6_K    (d * sc_j) * (q - 32)               q 6-bit, 16 sub-blocks of 16,
                                                sc_j int8
    IQ4_NL  d * LUT[q]                          LUT: the 16-entry int8 table
    IQ4_XS  (d * (sc_j - 32)) * LUT[q]          8 sub-blocks of 32, sc_j 6-bit
    TQ1_0   d * (t - 1)                         ternary t, 5 per byte in base 3
                                                (4 per byte for the last 16)
    TQ2_0   d * (q - 1)                         q 2-bit (3 unused by the quantizer)
    IQ*     codebook vectors, signs, sub-block scales: `iquants.py`

(f32 products are commutative, so `q * d` and `d * q` are the same bits; the
grouping is what matters.) Every dequantizer first *unpacks* a block into
planes -- the super-block scales, the integer sub-block scales (and mins),
the integer element codes -- and then combines them; the planes are what the
IR types describe (`docs/gguf.md`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from xquant.numerics.gguf import iquants

QK_K = 256
"""Elements per k-quant super-block."""

IQ4_NL_VALUES = np.array(
    [-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113],
    dtype=np.int8,
)
"""`kvalues_iq4nl` of ggml-common.h: the non-linear 4-bit code book."""

TERNARY_VALUES = np.array([-1, 0, 1, 2], dtype=np.int8)
"""TQ1_0/TQ2_0's code `q` means `q - 1` (TQ1_0's trits never reach 3)."""


class GGMLType(IntEnum):
    """The `ggml_type` numbers a GGUF file stores (ggml.h)."""

    F32 = 0
    F16 = 1
    Q4_0 = 2
    Q4_1 = 3
    Q5_0 = 6
    Q5_1 = 7
    Q8_0 = 8
    Q8_1 = 9
    Q2_K = 10
    Q3_K = 11
    Q4_K = 12
    Q5_K = 13
    Q6_K = 14
    Q8_K = 15
    IQ2_XXS = 16
    IQ2_XS = 17
    IQ3_XXS = 18
    IQ1_S = 19
    IQ4_NL = 20
    IQ3_S = 21
    IQ2_S = 22
    IQ4_XS = 23
    I8 = 24
    I16 = 25
    I32 = 26
    I64 = 27
    F64 = 28
    IQ1_M = 29
    BF16 = 30
    TQ1_0 = 34
    TQ2_0 = 35
    MXFP4 = 39


@dataclass(frozen=True)
class BlockLayout:
    """One block format: elements per block and bytes per block."""

    ggml_type: GGMLType
    block_size: int
    type_size: int

    @property
    def name(self) -> str:
        return self.ggml_type.name


def _f16(blocks: np.ndarray, start: int) -> np.ndarray:
    """The little-endian f16 at byte `start` of every block, as f32, shape (nb, 1)."""
    raw = np.ascontiguousarray(blocks[:, start : start + 2])
    return raw.view("<f2").astype(np.float32)


def _nibbles(qs: np.ndarray, group: int) -> np.ndarray:
    """Split bytes into nibbles: each run of `group` bytes gives `group` low
    nibbles, then `group` high nibbles (ggml's order)."""
    nb = qs.shape[0]
    q = qs.reshape(nb, -1, 1, group) >> np.array([0, 4], np.uint8).reshape(1, 1, 2, 1)
    return (q & np.uint8(0x0F)).reshape(nb, -1)


def _bit_planes(bits: np.ndarray, width: int, count: int) -> np.ndarray:
    """`count` fields of `width` bits from every byte, lowest first, each
    field a run of `bits.shape[1]` elements: (nb, count * len) codes."""
    nb, n = bits.shape
    shifts = np.arange(0, width * count, width, dtype=np.uint8).reshape(1, count, 1)
    mask = np.uint8((1 << width) - 1)
    return ((bits.reshape(nb, 1, n) >> shifts) & mask).reshape(nb, count * n)


def k4_scale_min(scales: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The eight 6-bit sub-block scales and mins of Q4_K/Q5_K's 12 bytes
    (`get_scale_min_k4`): (nb, 8) uint8 each."""
    nb = scales.shape[0]
    s = scales.reshape(nb, 3, 4)
    d, m, md = s[:, 0], s[:, 1], s[:, 2]
    sc = np.concatenate([d & 0x3F, (md & 0x0F) | ((d >> 2) & 0x30)], axis=-1)
    mn = np.concatenate([m & 0x3F, (md >> 4) | ((m >> 2) & 0x30)], axis=-1)
    return sc, mn


def q3k_scales(scales: np.ndarray) -> np.ndarray:
    """Q3_K's sixteen 6-bit scales (unsigned codes, 32 = zero) from 12 bytes."""
    nb = scales.shape[0]
    low = _bit_planes(scales[:, :8], 4, 2)  # j < 8: low nibbles, then high
    high = _bit_planes(scales[:, 8:12], 2, 4)  # j: bits 2*(j//4) of byte 8 + j%4
    return (low | (high << np.uint8(4))).reshape(nb, 16)


# ---------------------------------------------------------------- planes


@dataclass(frozen=True)
class Planes:
    """A block array unpacked: what every format is built from.

    `d`/`dmin`: f32 (nb, 1) super-block scale and min scale (decoded from
    f16); `scales`/`mins`: integer sub-block scale codes (nb, n_sub), already
    made signed where the format is (Q3_K, IQ4_XS subtract 32); `codes`:
    the integer element codes (nb, block_size), signed where the format
    subtracts an offset (Q4_0: q - 8), or table indices for IQ4_*.
    """

    d: np.ndarray
    codes: np.ndarray
    dmin: np.ndarray | None = None
    scales: np.ndarray | None = None
    mins: np.ndarray | None = None


def unpack(blocks: np.ndarray, layout: BlockLayout) -> Planes:
    """Unpack (nb, type_size) uint8 blocks into their planes."""
    return _UNPACK[layout.ggml_type](blocks)


def _unpack_q4_0(b: np.ndarray) -> Planes:
    return Planes(_f16(b, 0), _nibbles(b[:, 2:], 16).astype(np.int8) - np.int8(8))


def _unpack_q4_1(b: np.ndarray) -> Planes:
    return Planes(_f16(b, 0), _nibbles(b[:, 4:], 16), dmin=_f16(b, 2))


def _q5_high(qh: np.ndarray) -> np.ndarray:
    bits = qh.view("<u4").reshape(-1, 1) >> np.arange(32, dtype=np.uint32)
    return (bits & np.uint32(1)).astype(np.uint8)


def _unpack_q5_0(b: np.ndarray) -> Planes:
    q = _nibbles(b[:, 6:], 16) | (_q5_high(np.ascontiguousarray(b[:, 2:6])) << 4)
    return Planes(_f16(b, 0), q.astype(np.int8) - np.int8(16))


def _unpack_q5_1(b: np.ndarray) -> Planes:
    q = _nibbles(b[:, 8:], 16) | (_q5_high(np.ascontiguousarray(b[:, 4:8])) << 4)
    return Planes(_f16(b, 0), q, dmin=_f16(b, 2))


def _unpack_q8_0(b: np.ndarray) -> Planes:
    return Planes(_f16(b, 0), np.ascontiguousarray(b[:, 2:]).view(np.int8))


def _unpack_q8_1(b: np.ndarray) -> Planes:
    return Planes(_f16(b, 0), np.ascontiguousarray(b[:, 4:]).view(np.int8))


def _trits(qs: np.ndarray, group: int, count: int) -> np.ndarray:
    """TQ1_0's base-3 digits: byte `qs[g]` times 3^n (wrapping in u8), times 3,
    high byte -- digit n of run `g`; each run of `group` bytes gives `count`
    runs of `group` trits (ggml's order)."""
    nb = qs.shape[0]
    pow3 = np.array([1, 3, 9, 27, 81][:count], np.uint8).reshape(1, 1, count, 1)
    q = qs.reshape(nb, -1, 1, group) * pow3  # uint8: wraps as C does
    return ((q.astype(np.uint16) * 3) >> 8).astype(np.uint8).reshape(nb, -1)


def _unpack_tq1_0(b: np.ndarray) -> Planes:
    codes = np.concatenate(
        [
            _trits(b[:, :32], 32, 5),
            _trits(b[:, 32:48], 16, 5),
            _trits(b[:, 48:52], 4, 4),
        ],
        axis=1,
    )
    return Planes(_f16(b, 52), codes)


def _unpack_tq2_0(b: np.ndarray) -> Planes:
    codes = _bit_planes(b[:, :64].reshape(-1, 32), 2, 4).reshape(-1, QK_K)
    return Planes(_f16(b, 64), codes)


def _unpack_q2_k(b: np.ndarray) -> Planes:
    sc = b[:, :16]
    codes = _bit_planes(b[:, 16:80].reshape(-1, 32), 2, 4).reshape(-1, QK_K)
    return Planes(_f16(b, 80), codes, dmin=_f16(b, 82), scales=sc & 0x0F, mins=sc >> 4)


def _unpack_q3_k(b: np.ndarray) -> Planes:
    nb = b.shape[0]
    low = _bit_planes(b[:, 32:96].reshape(-1, 32), 2, 4).reshape(nb, QK_K)
    high = _bit_planes(b[:, :32], 1, 8)  # element k*32 + l: bit k of hmask[l]
    codes = low.astype(np.int8) - ((high ^ np.uint8(1)) << np.uint8(2)).astype(np.int8)
    scales = q3k_scales(b[:, 96:108]).astype(np.int8) - np.int8(32)
    return Planes(_f16(b, 108), codes, scales=scales)


def _unpack_q4_k(b: np.ndarray) -> Planes:
    sc, mn = k4_scale_min(b[:, 4:16])
    return Planes(
        _f16(b, 0), _nibbles(b[:, 16:], 32), dmin=_f16(b, 2), scales=sc, mins=mn
    )


def _unpack_q5_k(b: np.ndarray) -> Planes:
    sc, mn = k4_scale_min(b[:, 4:16])
    high = _bit_planes(b[:, 16:48], 1, 8)  # element k*32 + l: bit k of qh[l]
    codes = _nibbles(b[:, 48:], 32) | (high << np.uint8(4))
    return Planes(_f16(b, 0), codes, dmin=_f16(b, 2), scales=sc, mins=mn)


def _unpack_q6_k(b: np.ndarray) -> Planes:
    nb = b.shape[0]
    low = _nibbles(b[:, :128].reshape(-1, 64), 64).reshape(nb, QK_K)
    high = _bit_planes(b[:, 128:192].reshape(-1, 32), 2, 4).reshape(nb, QK_K)
    codes = (low | (high << np.uint8(4))).astype(np.int8) - np.int8(32)
    scales = np.ascontiguousarray(b[:, 192:208]).view(np.int8)
    return Planes(_f16(b, 208), codes, scales=scales)


def _unpack_iq4_nl(b: np.ndarray) -> Planes:
    return Planes(_f16(b, 0), _nibbles(b[:, 2:], 16))


def _unpack_iq4_xs(b: np.ndarray) -> Planes:
    nb = b.shape[0]
    high = np.ascontiguousarray(b[:, 2:4]).view("<u2").reshape(nb, 1)
    high = (high >> np.arange(0, 16, 2, dtype=np.uint16)).astype(np.uint8) & 0x03
    low = _nibbles(b[:, 4:8].reshape(-1, 1), 1).reshape(nb, 8)
    scales = (low | (high << np.uint8(4))).astype(np.int8) - np.int8(32)
    codes = _nibbles(b[:, 8:].reshape(-1, 16), 16).reshape(nb, QK_K)
    return Planes(_f16(b, 0), codes, scales=scales)


_UNPACK: dict[GGMLType, Callable[[np.ndarray], Planes]] = {
    GGMLType.Q4_0: _unpack_q4_0,
    GGMLType.Q4_1: _unpack_q4_1,
    GGMLType.Q5_0: _unpack_q5_0,
    GGMLType.Q5_1: _unpack_q5_1,
    GGMLType.Q8_0: _unpack_q8_0,
    GGMLType.Q8_1: _unpack_q8_1,
    GGMLType.Q2_K: _unpack_q2_k,
    GGMLType.Q3_K: _unpack_q3_k,
    GGMLType.Q4_K: _unpack_q4_k,
    GGMLType.Q5_K: _unpack_q5_k,
    GGMLType.Q6_K: _unpack_q6_k,
    GGMLType.IQ4_NL: _unpack_iq4_nl,
    GGMLType.IQ4_XS: _unpack_iq4_xs,
    GGMLType.TQ1_0: _unpack_tq1_0,
    GGMLType.TQ2_0: _unpack_tq2_0,
}

LAYOUTS: dict[GGMLType, BlockLayout] = {
    t: BlockLayout(t, bs, ts)
    for t, bs, ts in [
        (GGMLType.Q4_0, 32, 18),
        (GGMLType.Q4_1, 32, 20),
        (GGMLType.Q5_0, 32, 22),
        (GGMLType.Q5_1, 32, 24),
        (GGMLType.Q8_0, 32, 34),
        (GGMLType.Q8_1, 32, 36),
        (GGMLType.Q2_K, QK_K, 84),
        (GGMLType.Q3_K, QK_K, 110),
        (GGMLType.Q4_K, QK_K, 144),
        (GGMLType.Q5_K, QK_K, 176),
        (GGMLType.Q6_K, QK_K, 210),
        (GGMLType.IQ4_NL, 32, 18),
        (GGMLType.IQ4_XS, QK_K, 136),
        (GGMLType.TQ1_0, QK_K, 54),
        (GGMLType.TQ2_0, QK_K, 66),
        *((GGMLType[n], QK_K, f.type_size) for n, f in iquants.IQ_FORMATS.items()),
    ]
}
"""The block formats xquant reads and writes (the i-quants: `iquants.py`)."""

IQ_TYPES = frozenset(GGMLType[n] for n in iquants.IQ_FORMATS)
"""The lattice-codebook layouts (IQ1_S ... IQ3_S), dequantized by `iquants`."""


def combine(planes: Planes, layout: BlockLayout) -> np.ndarray:
    """Dequantize unpacked planes: f32 (nb, block_size), gguf's order."""
    with np.errstate(invalid="ignore", over="ignore"):  # NaN/Inf scales propagate
        return _combine(planes, layout)


def _combine(planes: Planes, layout: BlockLayout) -> np.ndarray:
    t = layout.ggml_type
    d, q = planes.d, planes.codes
    nb = q.shape[0]
    if t in (GGMLType.IQ4_NL, GGMLType.IQ4_XS):
        q = IQ4_NL_VALUES[q]
    elif t in (GGMLType.TQ1_0, GGMLType.TQ2_0):
        q = TERNARY_VALUES[q]
    if planes.scales is None:  # one scale per block
        value = d * q.astype(np.float32)
        return value if planes.dmin is None else value + planes.dmin
    n_sub = planes.scales.shape[1]
    dl = (d * planes.scales.astype(np.float32)).reshape(nb, n_sub, 1)
    value = dl * q.reshape(nb, n_sub, -1).astype(np.float32)
    if planes.mins is not None and planes.dmin is not None:
        value = value - (planes.dmin * planes.mins.astype(np.float32)).reshape(
            nb, n_sub, 1
        )
    return value.reshape(nb, layout.block_size)


def dequantize_blocks(blocks: np.ndarray, layout: BlockLayout) -> np.ndarray:
    """(nb, type_size) uint8 -> (nb, block_size) f32."""
    if layout.ggml_type in IQ_TYPES:
        return iquants.dequantize_blocks(blocks, layout.name)
    return combine(unpack(blocks, layout), layout)


def row_bytes(layout: BlockLayout, n: int) -> int:
    """Bytes of a row of `n` elements (`n` a multiple of the block size)."""
    return n // layout.block_size * layout.type_size


def dequantize(
    data: np.ndarray, layout: BlockLayout, shape: tuple[int, ...]
) -> np.ndarray:
    """Raw bytes (any shape, `prod(shape) / block_size * type_size` of them)
    to an f32 array of `shape`; the last dimension holds whole blocks."""
    blocks = np.ascontiguousarray(data).view(np.uint8).reshape(-1, layout.type_size)
    return dequantize_blocks(blocks, layout).reshape(shape)


@dataclass(frozen=True)
class PackedBlocks:
    """A tensor held as its raw block bytes: `data` is uint8 with the blocked
    (last) dimension counted in bytes; `shape` is the tensor's element shape."""

    data: np.ndarray
    shape: tuple[int, ...]
    layout: BlockLayout

    def dequantize(self) -> np.ndarray:
        return dequantize(self.data, self.layout, self.shape)


def super_scales(blocks: np.ndarray, layout: BlockLayout) -> np.ndarray:
    """Every f16 super-block scale (`d`, and `dmin` where the format has one)
    as f32, (nb, 1 or 2): what a validity check looks at."""
    if layout.ggml_type in IQ_TYPES:
        return iquants.super_scale(blocks, layout.name)
    planes = unpack(blocks, layout)
    if planes.dmin is None:
        return planes.d
    return np.concatenate([planes.d, planes.dmin], axis=1)
