"""`quant.dcast` of `!quant.superblock` tensors -> two `linalg.generic`s on the raw
bytes; `quant.qcast` to Q8_0/Q4_0 -> the reference quantizer as linalg.

Part of `lower-quant-ops`. dcast: the byte tensor is expanded to (outer...,
blocks, bytes); stage 1 decodes every sub-block's scale (and min) once, to
f32 `dl = d * sc_j` (`ml = dmin * m_j`); stage 2 decodes every element's
code `v` and computes `dl * v - ml`. Each generic iterates over (outer...,
block, binary digits of the index in the block); every field (the bytes of
the f16 super-block scales, of a sub-block scale, of a code; stage 2 also
`dl`/`ml` at sub-block `e floordiv SUB`) is read at `c0 + sum c_k * digit_k`,
through a static slice expanded to the digits when the field is a dense run
(a view in the interpreter, a projected permutation for IREE). Per-index
masks, shifts and `2^-shift` scales are small constant vectors over the
digits they depend on. Stage 1 decodes the scales with integer ops; stage 2
builds each element's code in f32 from its in-place bit fields (exact small
integers: the code's value); both then do the f32 operations of the
interpreter (and gguf) in its order, so the result is bit-identical.

qcast: Q8_0 and Q4_0 (absmax scales: reductions, then per-element codes, the
f16 scale bytes and the codes assembled with `tensor.insert_slice`),
bit-identical to the interpreter's `numerics/gguf/quantize.py`. The other
layouts' quantizers (weighted scale searches) are a located diagnostic.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith, math, tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    f16,
    f32,
    i16,
    i32,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.utils.hints import isa

from xquant.asm.diagnostics import OpDiagnostic
from xquant.dialects.quant.ops import DequantizeCastOp, QuantizeCastOp, StorageCastOp
from xquant.dialects.quant.superblock import SuperblockQuantizedType, superblock_of
from xquant.numerics.gguf.layouts import IQ_TYPES, GGMLType
from xquant.transforms.utils.iquant_emitters import lower_iq_dcast
from xquant.transforms.utils.mx_emitters import Constants, build_generic
from xquant.transforms.utils.op_list import OpList

i8 = IntegerType(8)


@dataclass
class _Reads:
    """The fields and per-index constants one stage's body reads, as functions
    of the index `x` in the block (stage 1: the sub-block `j`; stage 2: the
    element `e`)."""

    count: int  # indices per block
    offsets: list[Callable[[int], int]]  # byte offset of each field in its block
    vectors: list[np.ndarray]  # per-index constants: i32, i8 masks, f32 scales

    def byte(self, offset: Callable[[int], int]) -> int:
        """A byte field at `offset(x)` of index `x`'s block."""
        self.offsets.append(offset)
        return len(self.offsets) - 1

    def vector(self, values: Sequence[int] | np.ndarray) -> int:
        self.vectors.append(np.asarray(values, np.int32))
        return len(self.vectors) - 1

    def field(
        self, offset: Callable[[int], int], shift: np.ndarray, width: int
    ) -> _Field:
        """The `width`-bit field at bit `shift(x)` of the byte at `offset(x)`,
        read as `byte & (mask << shift)` (and scaled by `2^-shift` when wanted):
        no per-index shift op."""
        byte = self.byte(offset)
        self.vectors.append(
            (((1 << width) - 1) << shift).astype(np.uint8).view(np.int8)
        )
        mask = len(self.vectors) - 1
        scale = -1
        if shift.any():
            self.vectors.append(np.exp2(-shift.astype(np.float32)))
            scale = len(self.vectors) - 1
        return _Field(
            byte, mask, scale, (width, tuple(sorted({int(v) for v in shift})))
        )


@dataclass(frozen=True)
class _Field:
    """A bit field of a stage-2 element (`_Reads.field`)."""

    byte: int
    mask: int  # vector index: the field's mask, shifted in place (i8)
    scale: int  # vector index of 2^-shift (f32), or -1: no shift
    key: tuple[int, tuple[int, ...]]  # (width, the shifts it takes)


def _const(offset: int) -> Callable[[int], int]:
    return lambda x: offset


class _Body:
    """Integer and f32 helpers for a generic body."""

    def __init__(
        self,
        ops: OpList,
        consts: Constants,
        bytes_: Sequence[SSAValue],
        vectors: Sequence[SSAValue],
        table: SSAValue | None,
        gather: Callable[[SSAValue], SSAValue] | None = None,
    ):
        self.ops = ops
        self.consts = consts
        self.bytes = bytes_
        self.v = vectors
        self.table = table
        self.gather = gather  # the byte at an i32 offset in this block
        self._u: dict[int, SSAValue] = {}

    def u(self, k: int) -> SSAValue:
        """Byte field `k`, zero-extended to i32 (once)."""
        if k not in self._u:
            self._u[k] = self.ops.add(arith.ExtUIOp(self.bytes[k], i32))
        return self._u[k]

    def s(self, k: int) -> SSAValue:
        """Byte field `k`, sign-extended to i32."""
        return self.ops.add(arith.ExtSIOp(self.bytes[k], i32))

    def c(self, value: int) -> SSAValue:
        return self.consts.int(value)

    def shr(self, x: SSAValue, amount: SSAValue) -> SSAValue:
        return self.ops.add(arith.ShRUIOp(x, amount))

    def shl(self, x: SSAValue, amount: int) -> SSAValue:
        return self.ops.add(arith.ShLIOp(x, self.c(amount)))

    def and_(self, x: SSAValue, mask: int) -> SSAValue:
        return self.ops.add(arith.AndIOp(x, self.c(mask)))

    def or_(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.ops.add(arith.OrIOp(x, y))

    def sub_i(self, x: SSAValue, y: SSAValue | int) -> SSAValue:
        return self.ops.add(arith.SubiOp(x, self.c(y) if isinstance(y, int) else y))

    def bits(self, k: int, shift: SSAValue, mask: int) -> SSAValue:
        return self.and_(self.shr(self.u(k), shift), mask)

    def f16(self, lo: int, hi: int) -> SSAValue:
        """The little-endian f16 in byte fields `lo`, `hi`, as f32 (exact)."""
        word = self.or_(self.u(lo), self.shl(self.u(hi), 8))
        half = self.ops.add(arith.TruncIOp(word, i16))
        value = self.ops.add(arith.BitcastOp(half, f16))
        return self.ops.add(arith.ExtFOp(value, f32))

    def to_f32(self, x: SSAValue) -> SSAValue:
        return self.ops.add(arith.SIToFPOp(x, f32))  # small integers: exact

    def mul(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.ops.add(arith.MulfOp(x, y))

    def sub(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.ops.add(arith.SubfOp(x, y))

    def select(self, cond: SSAValue, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.ops.add(arith.SelectOp(cond, x, y))

    def _masked8(self, f: _Field) -> SSAValue:
        return self.ops.add(arith.AndIOp(self.bytes[f.byte], self.v[f.mask]))

    def masked(self, f: _Field) -> SSAValue:
        """`byte & (mask << shift)`: the field, still in place (i32)."""
        return self.ops.add(arith.ExtUIOp(self._masked8(f), i32))

    def value(self, f: _Field) -> SSAValue:
        """The field's unsigned value as f32: the masked byte times `2^-shift`
        (exact: a small integer times a power of two)."""
        x = self.ops.add(arith.UIToFPOp(self._masked8(f), f32))
        return x if f.scale < 0 else self.mul(x, self.v[f.scale])

    def fadd(self, x: SSAValue, y: SSAValue | float) -> SSAValue:
        other = y if isinstance(y, SSAValue) else self.consts.float(y)
        return self.ops.add(arith.AddfOp(x, other))

    def fmul(self, x: SSAValue, y: float) -> SSAValue:
        return self.mul(x, self.consts.float(y))

    def lookup(self, q: SSAValue) -> SSAValue:
        """`table[q]` (the type's lookup table, as f32)."""
        assert self.table is not None
        index = self.ops.add(arith.IndexCastOp(q, IndexType()))
        return self.ops.add(tensor.ExtractOp(self.table, [index], f32))


ScaleBody = Callable[[_Body], tuple[SSAValue, SSAValue | None]]
CodeBody = Callable[[_Body], SSAValue]


@dataclass
class _Plan:
    """A format in two stages: (1) per sub-block `j`, the f32 scale `dl = d * sc_j`
    (and `ml = dmin * m_j`); (2) per element `e`, the f32 value `v` (the code, or
    `table[q]`) -- combined as `dl * v` (`- ml`), gguf's order."""

    n_sub: int
    scales: _Reads
    scale_body: ScaleBody
    codes: _Reads
    code_body: CodeBody
    # a lookup table indexed by a field still in place: (width, shifts)
    table: tuple[int, tuple[int, ...]] | None = None
    mins: bool = False
    add_min: bool = False  # one-level float min (Q4_1, Q5_1): `dl * v + ml`


_ONE_LEVEL = (
    GGMLType.Q4_0,
    GGMLType.Q4_1,
    GGMLType.Q5_0,
    GGMLType.Q5_1,
    GGMLType.Q8_0,
    GGMLType.Q8_1,
    GGMLType.IQ4_NL,
    GGMLType.TQ1_0,
    GGMLType.TQ2_0,
)


def _tq1_0_plan(sr: _Reads, one_scale: ScaleBody, cr: _Reads, e: np.ndarray) -> _Plan:
    """TQ1_0: trit `n` of byte `g` is `((u8(byte * 3^n)) * 3) >> 8`; bytes 0-31
    hold elements n*32 + g, bytes 32-47 elements 160 + n*16 + g, bytes 48-51
    elements 240 + n*4 + g. The byte of an element is not an affine function
    of its index, so it is read with `tensor.extract` at a per-element offset
    (a constant vector)."""
    offset = np.where(
        e < 160, e % 32, np.where(e < 240, 32 + (e - 160) % 16, 48 + (e - 240) % 4)
    )
    digit = np.where(
        e < 160, e // 32, np.where(e < 240, (e - 160) // 16, (e - 240) // 4)
    )
    at, pow3 = cr.vector(offset), cr.vector(3**digit)

    def trit(b: _Body) -> SSAValue:
        assert b.gather is not None
        byte = b.ops.add(arith.ExtUIOp(b.gather(b.v[at]), i32))
        wrapped = b.and_(b.ops.add(arith.MuliOp(byte, b.v[pow3])), 255)
        t = b.shr(b.ops.add(arith.MuliOp(wrapped, b.c(3))), b.c(8))
        return b.lookup(t)

    return _Plan(1, sr, one_scale, cr, trit, (2, (0,)))


def _plan(t: GGMLType, block: int) -> _Plan:
    """The two stages of format `t` (`block` elements per block).

    Stage 2 builds each element's value in f32 from its bit fields
    (`_Body.value`: exact small integers), in place of the integer code:
    the same number, so the same `dl * v - ml`."""
    e = np.arange(block)
    if t in _ONE_LEVEL:
        sr = _Reads(1, [], [])
        at = 64 if t == GGMLType.TQ2_0 else 52 if t == GGMLType.TQ1_0 else 0
        d0, d1 = sr.byte(_const(at)), sr.byte(_const(at + 1))
        with_min = t in (GGMLType.Q4_1, GGMLType.Q5_1)
        m0, m1 = (sr.byte(_const(2)), sr.byte(_const(3))) if with_min else (-1, -1)

        def one_scale(b: _Body) -> tuple[SSAValue, SSAValue | None]:
            return b.f16(d0, d1), b.f16(m0, m1) if with_min else None

        cr = _Reads(block, [], [])
        if t in (GGMLType.Q8_0, GGMLType.Q8_1):
            code = cr.byte(lambda x: (2 if t == GGMLType.Q8_0 else 4) + x)
            return _Plan(1, sr, one_scale, cr, lambda b: b.to_f32(b.s(code)))
        if t in (GGMLType.Q5_0, GGMLType.Q5_1):
            at = 2 if t == GGMLType.Q5_0 else 4
            low = cr.field(lambda x: at + 4 + x % 16, 4 * (e // 16), 4)
            high = cr.field(lambda x: at + x // 8, e % 8, 1)

            def q5(b: _Body) -> SSAValue:
                q = b.fadd(b.value(low), b.fmul(b.value(high), 16.0))
                return b.fadd(q, -16.0) if t == GGMLType.Q5_0 else q

            return _Plan(1, sr, one_scale, cr, q5, mins=with_min, add_min=True)
        if t == GGMLType.TQ2_0:
            code = cr.field(lambda x: (x // 128) * 32 + x % 32, 2 * ((e // 32) % 4), 2)
            return _Plan(
                1, sr, one_scale, cr, lambda b: b.lookup(b.masked(code)), code.key
            )
        if t == GGMLType.TQ1_0:
            return _tq1_0_plan(sr, one_scale, cr, e)
        nib = cr.field(
            lambda x: (2 if t != GGMLType.Q4_1 else 4) + x % 16, 4 * (e // 16), 4
        )
        if t == GGMLType.Q4_0:
            return _Plan(1, sr, one_scale, cr, lambda b: b.fadd(b.value(nib), -8.0))
        if t == GGMLType.Q4_1:
            return _Plan(
                1,
                sr,
                one_scale,
                cr,
                lambda b: b.value(nib),
                mins=True,
                add_min=True,
            )
        return _Plan(1, sr, one_scale, cr, lambda b: b.lookup(b.masked(nib)), nib.key)
    spec_sub = 32 if t in (GGMLType.Q4_K, GGMLType.Q5_K, GGMLType.IQ4_XS) else 16
    n_sub = block // spec_sub
    j = np.arange(n_sub)
    sr = _Reads(n_sub, [], [])
    cr = _Reads(block, [], [])
    if t in (GGMLType.Q4_K, GGMLType.Q5_K):
        d0, d1 = sr.byte(_const(0)), sr.byte(_const(1))
        dm0, dm1 = sr.byte(_const(2)), sr.byte(_const(3))
        p = sr.byte(lambda x: 4 + x)  # scales[j]     (byte 4 + j)
        q8 = sr.byte(lambda x: 8 + x)  # scales[j + 4] (byte 8 + j)
        s = sr.byte(lambda x: x)  # scales[j - 4] (byte j), j >= 4
        first = sr.vector(j < 4)

        def k4_scales(b: _Body) -> tuple[SSAValue, SSAValue | None]:
            is_first = b.ops.add(arith.TruncIOp(b.v[first], IntegerType(1)))
            six = b.c(6)
            sc = b.select(
                is_first,
                b.and_(b.u(p), 63),
                b.or_(b.and_(b.u(q8), 15), b.shl(b.shr(b.u(s), six), 4)),
            )
            m = b.select(
                is_first,
                b.and_(b.u(q8), 63),
                b.or_(b.shr(b.u(q8), b.c(4)), b.shl(b.shr(b.u(p), six), 4)),
            )
            dl = b.mul(b.f16(d0, d1), b.to_f32(sc))
            return dl, b.mul(b.f16(dm0, dm1), b.to_f32(m))

        low_at = 16 if t == GGMLType.Q4_K else 48
        code = cr.field(
            lambda x: low_at + (x // 64) * 32 + x % 32, 4 * ((e // 32) % 2), 4
        )
        if t == GGMLType.Q4_K:
            return _Plan(n_sub, sr, k4_scales, cr, lambda b: b.value(code), mins=True)
        high = cr.field(lambda x: 16 + x % 32, e // 32, 1)

        def q5_k(b: _Body) -> SSAValue:
            return b.fadd(b.value(code), b.fmul(b.value(high), 16.0))

        return _Plan(n_sub, sr, k4_scales, cr, q5_k, mins=True)
    if t == GGMLType.Q6_K:
        d0, d1 = sr.byte(_const(208)), sr.byte(_const(209))
        scale = sr.byte(lambda x: 192 + x)

        def q6_scales(b: _Body) -> tuple[SSAValue, SSAValue | None]:
            return b.mul(b.f16(d0, d1), b.to_f32(b.s(scale))), None

        low = cr.field(lambda x: (x // 128) * 64 + x % 64, 4 * ((e // 64) % 2), 4)
        high = cr.field(
            lambda x: 128 + (x // 128) * 32 + x % 32, 2 * ((e // 32) % 4), 2
        )

        def q6_k(b: _Body) -> SSAValue:
            q = b.fadd(b.value(low), b.fmul(b.value(high), 16.0))
            return b.fadd(q, -32.0)

        return _Plan(n_sub, sr, q6_scales, cr, q6_k)
    if t == GGMLType.Q2_K:
        d0, d1 = sr.byte(_const(80)), sr.byte(_const(81))
        dm0, dm1 = sr.byte(_const(82)), sr.byte(_const(83))
        scale = sr.byte(lambda x: x)

        def q2_scales(b: _Body) -> tuple[SSAValue, SSAValue | None]:
            sc = b.u(scale)
            dl = b.mul(b.f16(d0, d1), b.to_f32(b.and_(sc, 15)))
            return dl, b.mul(b.f16(dm0, dm1), b.to_f32(b.shr(sc, b.c(4))))

        code = cr.field(lambda x: 16 + (x // 128) * 32 + x % 32, 2 * ((e // 32) % 4), 2)
        return _Plan(n_sub, sr, q2_scales, cr, lambda b: b.value(code), mins=True)
    if t == GGMLType.Q3_K:
        d0, d1 = sr.byte(_const(108)), sr.byte(_const(109))
        slo = sr.byte(lambda x: 96 + x % 8)
        shi = sr.byte(lambda x: 104 + x % 4)
        slo_shift, shi_shift = sr.vector(4 * (j // 8)), sr.vector(2 * (j // 4))

        def q3_scales(b: _Body) -> tuple[SSAValue, SSAValue | None]:
            sc = b.or_(
                b.bits(slo, b.v[slo_shift], 15),
                b.shl(b.bits(shi, b.v[shi_shift], 3), 4),
            )
            return b.mul(b.f16(d0, d1), b.to_f32(b.sub_i(sc, 32))), None

        hmask = cr.field(lambda x: x % 32, e // 32, 1)
        code = cr.field(lambda x: 32 + (x // 128) * 32 + x % 32, 2 * ((e // 32) % 4), 2)

        def q3_k(b: _Body) -> SSAValue:
            # low - 4 * (1 - h): the high bit clear means 4 less
            q = b.fadd(b.value(code), b.fmul(b.value(hmask), 4.0))
            return b.fadd(q, -4.0)

        return _Plan(n_sub, sr, q3_scales, cr, q3_k)
    assert t == GGMLType.IQ4_XS
    d0, d1 = sr.byte(_const(0)), sr.byte(_const(1))
    hi = sr.byte(lambda x: 2 + x // 4)
    lo = sr.byte(lambda x: 4 + x // 2)
    hi_shift, lo_shift = sr.vector(2 * (j % 4)), sr.vector(4 * (j % 2))

    def xs_scales(b: _Body) -> tuple[SSAValue, SSAValue | None]:
        sc = b.or_(
            b.bits(lo, b.v[lo_shift], 15), b.shl(b.bits(hi, b.v[hi_shift], 3), 4)
        )
        return b.mul(b.f16(d0, d1), b.to_f32(b.sub_i(sc, 32))), None

    code = cr.field(lambda x: 8 + (x // 32) * 16 + x % 16, 4 * ((e // 16) % 2), 4)
    return _Plan(n_sub, sr, xs_scales, cr, lambda b: b.lookup(b.masked(code)), code.key)


def _radices(count: int, last: int) -> list[int]:
    """The index within a block as binary digits down to a last digit of at most
    `last` (`256 = 2*2*2*2*2*8`): every field offset of the ggml layouts
    (`x floordiv 2^k`, `x mod 2^k`, k >= log2(last)) is linear in these digits."""
    radices = [min(last, count)]
    while count > int(np.prod(radices)):
        radices.insert(0, 2)
    return radices


def _linear(
    op: Operation, f: Callable[[int], int], radices: Sequence[int]
) -> tuple[int, list[int]]:
    """`f(x) = c0 + sum(c_k * digit_k(x))`: (c0, [c_k]), checked for every `x`."""
    strides = [int(np.prod(radices[k + 1 :])) for k in range(len(radices))]
    count = int(np.prod(radices))
    c0 = f(0)
    coeffs = [f(st) - c0 if r > 1 else 0 for st, r in zip(strides, radices)]
    for x in range(count):
        digits = [(x // st) % r for st, r in zip(strides, radices)]
        if f(x) != c0 + sum(c * d for c, d in zip(coeffs, digits)):
            raise OpDiagnostic(op, "lower-quant-ops: a field offset is not affine")
    return c0, coeffs


def _reassociation(
    groups: Sequence[Sequence[int]],
) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    return ArrayAttr(ArrayAttr(IntegerAttr(i, i64) for i in g) for g in groups)


class _Stage:
    """One `linalg.generic` over (outer dims..., block, digits of the index in
    the block), reading (outer..., blocks, N) tensors (the bytes; stage 2 also
    the stage-1 scales) at `(outer..., block, c0 + sum c_k * digit_k)`.

    A field whose offset is a dense row-major run over some digits (every
    ggml field but a few scale bytes) is read through a static slice of its
    run, expanded to those digits, and a projected-permutation map: a view in
    the interpreter, plain tiling for IREE. Others use the affine map as it is.
    """

    def __init__(
        self,
        op: Operation,
        ops: OpList,
        outer: Sequence[int],
        n_blocks: int,
        radices: list[int],
    ):
        self.op = op
        self.ops = ops
        self.outer = list(outer)
        self.n_blocks = n_blocks
        self.radices = radices
        self.n_outer = len(outer)
        self.rank = self.n_outer + 1 + len(radices)
        dims = [AffineExpr.dimension(k) for k in range(self.rank)]
        self.head = dims[: self.n_outer + 1]
        self.digits = dims[self.n_outer + 1 :]
        self.inputs: list[SSAValue] = []
        self.maps: list[AffineMap] = []
        self._views: dict[tuple[SSAValue, int, tuple[int, ...]], SSAValue] = {}

    def field(self, source: SSAValue, offset: Callable[[int], int]) -> None:
        """Read `source` (outer..., blocks, N) at `offset(index)` of each block."""
        c0, coeffs = _linear(self.op, offset, self.radices)
        used = [k for k, c in enumerate(coeffs) if c]
        dense = bool(used) and coeffs[used[-1]] == 1
        for a, b in itertools.pairwise(used):
            dense &= coeffs[a] == coeffs[b] * self.radices[b]
        if not dense:
            expr = AffineExpr.constant(c0)
            for c, d in zip(coeffs, self.digits):
                if c:
                    expr = expr + d * c
            self.inputs.append(source)
            self.maps.append(AffineMap(self.rank, 0, (*self.head, expr)))
            return
        sizes = tuple(self.radices[k] for k in used)
        self.inputs.append(self._view(source, c0, sizes))
        digits = tuple(self.digits[k] for k in used)
        self.maps.append(AffineMap(self.rank, 0, (*self.head, *digits)))

    def _view(self, source: SSAValue, c0: int, sizes: tuple[int, ...]) -> SSAValue:
        """`source[..., c0 : c0 + prod(sizes)]` expanded to (outer..., blocks, *sizes)."""
        key = (source, c0, sizes)
        if key in self._views:
            return self._views[key]
        stype = source.type
        assert isa(stype, TensorType[Attribute])
        width = stype.get_shape()[-1]
        span = int(np.prod(sizes))
        head = [*self.outer, self.n_blocks]
        value = source
        if (c0, span) != (0, width):
            value = self.ops.add(
                tensor.ExtractSliceOp.from_static_parameters(
                    value, [0] * len(head) + [c0], [*head, span], [1] * (len(head) + 1)
                )
            )
        expanded = TensorType(stype.get_element_type(), [*head, *sizes])
        groups = [[k] for k in range(len(head) - 1)]
        groups += [[len(head) - 1], list(range(len(head), len(head) + len(sizes)))]
        value = self.ops.add(
            tensor.ExpandShapeOp(
                value, [], _reassociation(groups), expanded.get_shape(), expanded
            )
        )
        self._views[key] = value
        return value

    def vector(self, values: np.ndarray) -> None:
        """A per-index constant, over the digits it depends on."""
        grid = values.reshape(self.radices)
        used = [
            k
            for k in range(len(self.radices))
            if not (grid == grid.take([0], axis=k)).all()
        ] or [0]
        picked = grid[tuple(slice(None) if k in used else 0 for k in range(grid.ndim))]
        shape = [self.radices[k] for k in used]
        flat = picked.reshape(-1)
        if values.dtype == np.float32:
            attr = DenseIntOrFPElementsAttr.from_list(
                TensorType(f32, shape), [float(v) for v in flat]
            )
        elif values.dtype == np.int8:
            attr = DenseIntOrFPElementsAttr.from_list(
                TensorType(i8, shape), [int(v) for v in flat]
            )
        else:
            attr = DenseIntOrFPElementsAttr.from_list(
                TensorType(i32, shape), [int(v) for v in flat]
            )
        self.inputs.append(self.ops.add(arith.ConstantOp(attr)))
        digits = tuple(self.digits[k] for k in used)
        self.maps.append(AffineMap(self.rank, 0, digits))

    def run(
        self,
        n_results: int,
        body: Callable[[OpList, Sequence[SSAValue]], list[SSAValue]],
    ) -> list[SSAValue]:
        """The generic's f32 results, collapsed to (outer..., blocks, count)."""
        count = int(np.prod(self.radices))
        out = TensorType(f32, [*self.outer, self.n_blocks, *self.radices])
        values = build_generic(
            self.ops, self.inputs, self.maps, [out] * n_results, body
        )
        n = self.n_outer + 1
        groups = [[k] for k in range(n)] + [list(range(n, self.rank))]
        flat = TensorType(f32, [*self.outer, self.n_blocks, count])
        return [
            self.ops.add(
                tensor.CollapseShapeOp.create(
                    operands=[v],
                    result_types=[flat],
                    properties={"reassociation": _reassociation(groups)},
                )
            )
            for v in values
        ]


def _lower_dcast(op: DequantizeCastOp, qtype: SuperblockQuantizedType) -> OpList:
    """The ops computing `op`; the last one's result replaces it.

    Two generics on the byte tensor expanded to (outer..., blocks, bytes):
    stage 1 decodes each sub-block's scale (and min) once, to f32
    `dl = d * sc_j`, `ml = dmin * m_j` (outer..., blocks, n_sub); stage 2
    decodes each element's code and computes `dl * v - ml`, reading `dl`, `ml`
    at sub-block `e floordiv SUB` (a view over the element's leading digits).
    The same f32 operations in the same order as the interpreter and gguf.
    """
    result_type = op.result.type
    if not isa(result_type, TensorType[Attribute]):
        raise OpDiagnostic(op, "'quant.dcast' op expected ranked tensors")
    if any(d < 0 for d in result_type.get_shape()):
        raise OpDiagnostic(
            op, "lower-quant-ops: !quant.superblock needs static tensor shapes"
        )
    if qtype.ggml_type in IQ_TYPES:  # codebook layouts: one generic, gathers
        return lower_iq_dcast(op, qtype)
    shape = tuple(result_type.get_shape())
    layout = qtype.block_layout
    bs, ts = layout.block_size, layout.type_size
    ops = OpList()
    consts = Constants(ops)
    raw = ops.add(StorageCastOp(op.input, TensorType(i8, qtype.storage_shape(shape))))
    outer = list(shape[:-1])
    n_outer = len(outer)
    n_blocks = shape[-1] // bs
    blocks_type = TensorType(i8, [*outer, n_blocks, ts])
    groups = [[k] for k in range(n_outer)] + [[n_outer, n_outer + 1]]
    raw = ops.add(
        tensor.ExpandShapeOp(
            raw, [], _reassociation(groups), blocks_type.get_shape(), blocks_type
        )
    )
    plan = _plan(qtype.ggml_type, bs)
    table: SSAValue | None = None
    if plan.table is not None:
        # `table[q]` at index `q << shift` for every shift the field takes: the
        # field is looked up in place (`byte & (mask << shift)`), no shift op;
        # the indices of different shifts only meet at 0 (`table[0]` for all)
        width, shifts = plan.table
        values = [0.0] * (((1 << width) - 1 << max(shifts)) + 1)
        for shift in shifts:
            for q, v in enumerate(qtype.table):
                values[q << shift] = v
        ttype = TensorType(f32, [len(values)])
        table = ops.add(
            arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(ttype, values))
        )

    # Stage 1: per sub-block, dl (and ml).
    s1 = _Stage(op, ops, outer, n_blocks, _radices(plan.n_sub, 2))
    for offset in plan.scales.offsets:
        s1.field(raw, offset)
    for vector in plan.scales.vectors:
        s1.vector(vector)
    n1 = len(plan.scales.offsets)
    has_min = False

    def scale_body(b: OpList, args: Sequence[SSAValue]) -> list[SSAValue]:
        nonlocal has_min
        helper = _Body(b, consts, args[:n1], args[n1 : len(s1.inputs)], None)
        dl, ml = plan.scale_body(helper)
        has_min = ml is not None
        return [dl] if ml is None else [dl, ml]

    scales = s1.run(2 if plan.mins else 1, scale_body)
    assert has_min == plan.mins

    # Stage 2: per element, dl * v (- ml).
    s2 = _Stage(op, ops, outer, n_blocks, _radices(bs, 8))
    for offset in plan.codes.offsets:
        s2.field(raw, offset)
    sub = bs // plan.n_sub
    for value in scales:
        s2.field(value, lambda x: x // sub)
    for vector in plan.codes.vectors:
        s2.vector(vector)
    n2 = len(plan.codes.offsets)

    def code_body(b: OpList, args: Sequence[SSAValue]) -> list[SSAValue]:
        n_scales = len(scales)
        vectors = args[n2 + n_scales : len(s2.inputs)]

        def gather(offset: SSAValue) -> SSAValue:
            head = [b.add(linalg.IndexOp(k)) for k in range(n_outer + 1)]
            at = b.add(arith.IndexCastOp(offset, IndexType()))
            return b.add(tensor.ExtractOp(raw, [*head, at], i8))

        helper = _Body(b, consts, args[:n2], vectors, table, gather)
        v = plan.code_body(helper)
        value = helper.mul(args[n2], v)
        if n_scales == 2:
            combine = arith.AddfOp if plan.add_min else arith.SubfOp
            value = b.add(combine(value, args[n2 + 1]))
        return [value]

    (value,) = s2.run(1, code_body)
    value = ops.add(
        tensor.CollapseShapeOp.create(
            operands=[value],
            result_types=[TensorType(f32, shape)],
            properties={
                "reassociation": _reassociation(
                    [[k] for k in range(n_outer)] + [[n_outer, n_outer + 1]]
                )
            },
        )
    )
    if qtype.expressed_type != f32:
        ops.add(arith.TruncFOp(value, TensorType(qtype.expressed_type, shape)))
    return ops


# ------------------------------------------------------------------ qcast

QCAST_LOWERED = (GGMLType.Q8_0, GGMLType.Q4_0)
"""The reference quantizers `lower-quant-ops` writes as linalg (plain absmax)."""

Body = Callable[[OpList, Sequence[SSAValue]], SSAValue]


class _Quantizer:
    """Generics over (outer..., blocks[, index in block]) for a quantizer.

    An input is read per element (`"elem"`: (outer..., block, i)), per block
    (`"block"`: (outer..., block)) or per index (`"index"`: (i), a constant)."""

    def __init__(self, ops: OpList, outer: Sequence[int], n_blocks: int):
        self.ops = ops
        self.consts = Constants(ops)
        self.outer = list(outer)
        self.n_blocks = n_blocks
        self.n_head = len(outer) + 1

    def f(self, value: float) -> SSAValue:
        return self.consts.float(value)

    def iota(self, n: int) -> SSAValue:
        attr = DenseIntOrFPElementsAttr.from_list(TensorType(i32, [n]), list(range(n)))
        return self.ops.add(arith.ConstantOp(attr))

    def _maps(self, kinds: Sequence[str], rank: int) -> list[AffineMap]:
        head = [AffineExpr.dimension(k) for k in range(self.n_head)]
        tail = [AffineExpr.dimension(k) for k in range(self.n_head, rank)]
        reads = {"elem": (*head, *tail), "block": tuple(head), "index": tuple(tail)}
        return [AffineMap(rank, 0, reads[k]) for k in kinds]

    def reduce(
        self,
        inputs: Sequence[tuple[SSAValue, str]],
        init: SSAValue,
        element: Attribute,
        body: Body,
    ) -> SSAValue:
        """Per block, `acc = body(inputs..., acc)` over the block's elements;
        every `body` here gives the same result in any order."""
        rank = self.n_head + 1
        out = TensorType(element, [*self.outer, self.n_blocks])
        empty = self.ops.add(tensor.EmptyOp([], out))
        filled = self.ops.add(linalg.FillOp([init], [empty], [out]))
        (value,) = build_generic(
            self.ops,
            [v for v, _ in inputs],
            self._maps([k for _, k in inputs], rank),
            [out],
            lambda b, args: [body(b, args)],
            iterators=[IteratorType.PARALLEL] * self.n_head + [IteratorType.REDUCTION],
            inits=[filled],
            output_maps=self._maps(["block"], rank),
        )
        return value

    def map(
        self,
        inputs: Sequence[tuple[SSAValue, str]],
        elements: Sequence[Attribute],
        inner: Sequence[int],
        body: Callable[[OpList, Sequence[SSAValue]], list[SSAValue]],
    ) -> list[SSAValue]:
        """A parallel generic over (outer..., blocks, *inner)."""
        rank = self.n_head + len(inner)
        outs = [TensorType(e, [*self.outer, self.n_blocks, *inner]) for e in elements]
        maps = self._maps([k for _, k in inputs], rank)
        return build_generic(self.ops, [v for v, _ in inputs], maps, outs, body)


def _inverse(b: OpList, zero: SSAValue, one: SSAValue, d: SSAValue) -> SSAValue:
    """`np.where(d != 0, 1 / d, 0)`."""
    nonzero = b.add(arith.CmpfOp(d, zero, "une"))
    return b.add(arith.SelectOp(nonzero, b.add(arith.DivfOp(one, d)), zero))


def _f16_bytes(q: _Quantizer, d: SSAValue) -> SSAValue:
    """The f16 (round to nearest even) of each block's `d`, as two
    little-endian bytes: (outer..., blocks, 2) i8."""
    shifts = q.ops.add(
        arith.ConstantOp(
            DenseIntOrFPElementsAttr.from_list(TensorType(i32, [2]), [0, 8])
        )
    )

    def body(b: OpList, a: Sequence[SSAValue]) -> list[SSAValue]:
        half = b.add(arith.TruncFOp(a[0], f16))
        word = b.add(arith.ExtUIOp(b.add(arith.BitcastOp(half, i16)), i32))
        return [b.add(arith.TruncIOp(b.add(arith.ShRUIOp(word, a[1])), i8))]

    return q.map([(d, "block"), (shifts, "index")], [i8], [2], body)[0]


def _lower_qcast(op: QuantizeCastOp, qtype: SuperblockQuantizedType) -> OpList:
    """`quantize_row_q8_0_ref` / `quantize_row_q4_0_ref` as linalg: the
    interpreter's operations (`numerics/gguf/quantize.py`), op for op in f32,
    then the block bytes assembled with `tensor.insert_slice`."""
    t = qtype.ggml_type
    if t in IQ_TYPES:
        raise OpDiagnostic(
            op,
            "lower-quant-ops cannot lower 'quant.qcast' to !quant.superblock "
            f'layout "{qtype.layout}": xquant has no quantizer for the codebook '
            "layouts (dequantize only)",
        )
    if t not in QCAST_LOWERED:
        raise OpDiagnostic(
            op,
            "lower-quant-ops cannot lower 'quant.qcast' to !quant.superblock "
            f'layout "{qtype.layout}": its reference quantizer (a data-dependent '
            "scale search) runs in the interpreter only (lowered: "
            + ", ".join(f'"ggml.{k.name}"' for k in QCAST_LOWERED)
            + ")",
        )
    in_type = op.input.type
    if not isa(in_type, TensorType[Attribute]) or any(
        d < 0 for d in in_type.get_shape()
    ):
        raise OpDiagnostic(
            op, "lower-quant-ops: !quant.superblock needs static tensor shapes"
        )
    shape = tuple(in_type.get_shape())
    layout = qtype.block_layout
    bs, ts = layout.block_size, layout.type_size
    ops = OpList()
    x: SSAValue = op.input
    elem = in_type.get_element_type()
    if elem != f32:  # the interpreter's astype(float32)
        assert isinstance(elem, AnyFloat)
        wide = elem.bitwidth < 32
        cast = arith.ExtFOp if wide else arith.TruncFOp
        x = ops.add(cast(x, TensorType(f32, shape)))
    outer = list(shape[:-1])
    n_outer = len(outer)
    n_blocks = shape[-1] // bs
    q = _Quantizer(ops, outer, n_blocks)
    groups = [[k] for k in range(n_outer)] + [[n_outer, n_outer + 1]]
    blocks_type = TensorType(f32, [*outer, n_blocks, bs])
    x = ops.add(
        tensor.ExpandShapeOp(
            x, [], _reassociation(groups), blocks_type.get_shape(), blocks_type
        )
    )
    zero, one = q.f(0.0), q.f(1.0)

    def absmax(b: OpList, a: Sequence[SSAValue]) -> SSAValue:
        return b.add(arith.MaximumfOp(a[1], b.add(math.AbsFOp(a[0]))))

    amax = q.reduce([(x, "elem")], zero, f32, absmax)  # np.max(np.abs(x))
    pieces: list[tuple[SSAValue, int, int]] = []
    if t == GGMLType.Q8_0:

        def q8_scale(b: OpList, a: Sequence[SSAValue]) -> list[SSAValue]:
            d = b.add(arith.DivfOp(a[0], q.f(127.0)))
            return [d, _inverse(b, zero, one, d)]

        d, inv = q.map([(amax, "block")], [f32, f32], [], q8_scale)

        def q8_codes(b: OpList, a: Sequence[SSAValue]) -> list[SSAValue]:
            rounded = b.add(math.RoundOp(b.add(arith.MulfOp(a[0], a[1]))))
            return [b.add(arith.FPToSIOp(rounded, i8))]

        (codes,) = q.map([(x, "elem"), (inv, "block")], [i8], [bs], q8_codes)
        pieces = [(_f16_bytes(q, d), 0, 2), (codes, 2, bs)]
    else:
        iota = q.iota(bs)

        def first(b: OpList, a: Sequence[SSAValue]) -> SSAValue:
            # argmax's tie rule: the least index of largest magnitude (a NaN,
            # numpy's maximum, matches first too); min is order-free
            ax = b.add(math.AbsFOp(a[0]))
            hit = b.add(arith.CmpfOp(ax, a[1], "oeq"))
            hit = b.add(arith.OrIOp(hit, b.add(arith.CmpfOp(ax, ax, "uno"))))
            index = b.add(arith.SelectOp(hit, a[2], q.consts.int(bs)))
            return b.add(arith.MinSIOp(a[3], index))

        at = q.reduce(
            [(x, "elem"), (amax, "block"), (iota, "index")],
            q.consts.int(bs),
            i32,
            first,
        )

        def pick(b: OpList, a: Sequence[SSAValue]) -> SSAValue:
            here = b.add(arith.CmpiOp(a[2], a[1], "eq"))  # one element matches
            return b.add(arith.SelectOp(here, a[0], a[3]))

        value = q.reduce([(x, "elem"), (at, "block"), (iota, "index")], zero, f32, pick)

        def q4_scale(b: OpList, a: Sequence[SSAValue]) -> list[SSAValue]:
            positive = b.add(arith.CmpfOp(a[0], zero, "ogt"))
            mx = b.add(arith.SelectOp(positive, a[1], zero))
            d = b.add(arith.DivfOp(mx, q.f(-8.0)))
            return [d, _inverse(b, zero, one, d)]

        d, inv = q.map([(amax, "block"), (value, "block")], [f32, f32], [], q4_scale)

        def q4_codes(b: OpList, a: Sequence[SSAValue]) -> list[SSAValue]:
            biased = b.add(arith.AddfOp(b.add(arith.MulfOp(a[0], a[1])), q.f(8.5)))
            level = b.add(arith.MinimumfOp(b.add(math.TruncOp(biased)), q.f(15.0)))
            return [b.add(arith.FPToUIOp(level, i8))]

        (codes,) = q.map([(x, "elem"), (inv, "block")], [i8], [bs], q4_codes)
        half = bs // 2
        pairs_type = TensorType(i8, [*outer, n_blocks, 2, half])
        pair_groups = [[k] for k in range(n_outer + 1)] + [[n_outer + 1, n_outer + 2]]
        pairs = ops.add(
            tensor.ExpandShapeOp(
                codes,
                [],
                _reassociation(pair_groups),
                pairs_type.get_shape(),
                pairs_type,
            )
        )
        rank = n_outer + 2
        head = [AffineExpr.dimension(k) for k in range(n_outer + 1)]
        k = AffineExpr.dimension(n_outer + 1)
        halves = [
            AffineMap(rank, 0, (*head, AffineExpr.constant(h), k)) for h in (0, 1)
        ]

        def pack(b: OpList, a: Sequence[SSAValue]) -> list[SSAValue]:
            # byte k: q[k] | q[k + 16] << 4
            low = b.add(arith.ExtUIOp(a[0], i32))
            high = b.add(arith.ShLIOp(b.add(arith.ExtUIOp(a[1], i32)), q.consts.int(4)))
            return [b.add(arith.TruncIOp(b.add(arith.OrIOp(low, high)), i8))]

        (packed,) = build_generic(
            ops,
            [pairs, pairs],
            halves,
            [TensorType(i8, [*outer, n_blocks, half])],
            pack,
        )
        pieces = [(_f16_bytes(q, d), 0, 2), (packed, 2, half)]
    block_bytes = TensorType(i8, [*outer, n_blocks, ts])
    data: SSAValue = ops.add(tensor.EmptyOp([], block_bytes))
    for piece, offset, size in pieces:
        data = ops.add(
            tensor.InsertSliceOp.from_static_parameters(
                piece,
                data,
                [0] * (n_outer + 1) + [offset],
                [*outer, n_blocks, size],
            )
        )
    storage = TensorType(i8, qtype.storage_shape(shape))
    data = ops.add(
        tensor.CollapseShapeOp.create(
            operands=[data],
            result_types=[storage],
            properties={"reassociation": _reassociation(groups)},
        )
    )
    ops.add(StorageCastOp(data, op.result.type))
    return ops


def lower_superblock_cast(op: QuantizeCastOp | DequantizeCastOp) -> OpList:
    """The ops computing a `quant.dcast` of a `!quant.superblock` tensor or a
    `quant.qcast` to one (the last one's result replaces the cast); a qcast
    this cannot lower is a located error."""
    if isinstance(op, QuantizeCastOp):
        qtype = superblock_of(op.result.type)
        assert qtype is not None
        return _lower_qcast(op, qtype)
    qtype = superblock_of(op.input.type)
    assert qtype is not None
    return _lower_dcast(op, qtype)
