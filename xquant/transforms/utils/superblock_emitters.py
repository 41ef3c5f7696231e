"""`quant.dcast` of `!quant.superblock` tensors -> one `linalg.generic` on the raw bytes.

Part of `lower-quant-ops`. The generic runs over the f32 result's index
space; every field an element needs (the bytes of its f16 super-block
scales, the byte holding its sub-block scale, the byte holding its code) is
an input: the same `i8` byte tensor read through an affine map with
`floordiv`/`mod` (element `n` of a row lives in block `n floordiv BS`, at
byte `(n floordiv BS) * TYPE_SIZE + offset(n mod BS)`). Per-element bit
positions come from small constant vectors indexed by `n mod BS`. The body
decodes with integer ops, converts each integer exactly to f32 and computes
`(d * sc) * q - (dmin * m)` with one `arith` op per f32 operation, so the
result is bit-identical to the interpreter (and to gguf).

Lowered formats: Q4_0, Q5_0, Q8_0, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K, IQ4_NL,
IQ4_XS. `quant.qcast` to a superblock type (llama.cpp's reference
quantizers: data-dependent searches) is not lowered: a located diagnostic.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
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
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.utils.hints import isa

from xquant.asm.diagnostics import OpDiagnostic
from xquant.dialects.quant.ops import DequantizeCastOp, QuantizeCastOp, StorageCastOp
from xquant.dialects.quant.superblock import SuperblockQuantizedType, superblock_of
from xquant.numerics.gguf.layouts import IQ4_NL_VALUES, GGMLType
from xquant.transforms.utils.mx_emitters import Constants, build_generic
from xquant.transforms.utils.op_list import OpList

i8 = IntegerType(8)


@dataclass
class _Reads:
    """The byte fields and per-element constants a format's body reads."""

    block: int  # elements per block
    size: int  # bytes per block
    offsets: list[Callable[[int], int]]  # byte offset of each field in its block
    vectors: list[np.ndarray]  # per-element int32 constants, indexed by e

    def byte(self, offset: Callable[[int], int]) -> int:
        """A byte field at `offset(e)` of element `e`'s block."""
        self.offsets.append(offset)
        return len(self.offsets) - 1

    def vector(self, values: Sequence[int] | np.ndarray) -> int:
        self.vectors.append(np.asarray(values, np.int32))
        return len(self.vectors) - 1


def _const(offset: int) -> Callable[[int], int]:
    return lambda e: offset


class _Body:
    """Integer and f32 helpers for a generic body."""

    def __init__(
        self,
        ops: OpList,
        consts: Constants,
        bytes_: Sequence[SSAValue],
        table: SSAValue | None,
    ):
        self.ops = ops
        self.consts = consts
        self.bytes = bytes_
        self.table = table

    def u(self, k: int) -> SSAValue:
        """Byte field `k`, zero-extended to i32."""
        return self.ops.add(arith.ExtUIOp(self.bytes[k], i32))

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


def _select(b: _Body, cond: SSAValue, x: SSAValue, y: SSAValue) -> SSAValue:
    return b.ops.add(arith.SelectOp(cond, x, y))


# Each format: the fields it reads (`_Reads`) and the body, which gets the
# byte fields, the vectors and the lookup table (IQ4) and yields the f32.
Plan = tuple[_Reads, Callable[[_Body, Sequence[SSAValue]], SSAValue], bool]


def _plan(t: GGMLType, block: int, size: int) -> Plan:
    r = _Reads(block, size, [], [])
    e = np.arange(block)
    d0, d1 = r.byte(_const(0)), r.byte(_const(1))
    if t in (GGMLType.Q4_0, GGMLType.IQ4_NL):
        code = r.byte(lambda x: 2 + x % 16)
        shift = r.vector(4 * (e // 16))

        def body(b: _Body, v: Sequence[SSAValue]) -> SSAValue:
            q = b.bits(code, v[shift], 15)
            if t == GGMLType.Q4_0:
                return b.mul(b.f16(d0, d1), b.to_f32(b.sub_i(q, 8)))
            return b.mul(b.f16(d0, d1), _table(b, q))

        return r, body, t == GGMLType.IQ4_NL
    if t == GGMLType.Q8_0:
        code = r.byte(lambda x: 2 + x)

        def body(b: _Body, v: Sequence[SSAValue]) -> SSAValue:
            q = b.ops.add(arith.ExtSIOp(b.bytes[code], i32))
            return b.mul(b.to_f32(q), b.f16(d0, d1))

        return r, body, False
    if t == GGMLType.Q5_0:
        code = r.byte(lambda x: 6 + x % 16)
        high = r.byte(lambda x: 2 + x // 8)
        shift, hshift = r.vector(4 * (e // 16)), r.vector(e % 8)

        def body(b: _Body, v: Sequence[SSAValue]) -> SSAValue:
            q = b.or_(b.bits(code, v[shift], 15), b.shl(b.bits(high, v[hshift], 1), 4))
            return b.mul(b.f16(d0, d1), b.to_f32(b.sub_i(q, 16)))

        return r, body, False
    if t in (GGMLType.Q4_K, GGMLType.Q5_K):
        dm0, dm1 = r.byte(_const(2)), r.byte(_const(3))
        p = r.byte(lambda x: 4 + x // 32)  # scales[j]     (byte 4 + j)
        q8 = r.byte(lambda x: 8 + x // 32)  # scales[j + 4] (byte 8 + j)
        s = r.byte(lambda x: x // 32)  # scales[j - 4] (byte j), j >= 4
        low_at = 16 if t == GGMLType.Q4_K else 48
        code = r.byte(lambda x: low_at + (x // 64) * 32 + x % 32)
        high = r.byte(lambda x: 16 + x % 32) if t == GGMLType.Q5_K else -1
        shift = r.vector(4 * ((e // 32) % 2))
        hshift = r.vector(e // 32)
        first = r.vector((e // 32) < 4)

        def body(b: _Body, v: Sequence[SSAValue]) -> SSAValue:
            is_first = b.ops.add(arith.TruncIOp(v[first], IntegerType(1)))
            six = b.c(6)
            sc = _select(
                b,
                is_first,
                b.and_(b.u(p), 63),
                b.or_(b.and_(b.u(q8), 15), b.shl(b.shr(b.u(s), six), 4)),
            )
            m = _select(
                b,
                is_first,
                b.and_(b.u(q8), 63),
                b.or_(b.shr(b.u(q8), b.c(4)), b.shl(b.shr(b.u(p), six), 4)),
            )
            q = b.bits(code, v[shift], 15)
            if high >= 0:
                q = b.or_(q, b.shl(b.bits(high, v[hshift], 1), 4))
            dl = b.mul(b.f16(d0, d1), b.to_f32(sc))
            ml = b.mul(b.f16(dm0, dm1), b.to_f32(m))
            return b.sub(b.mul(dl, b.to_f32(q)), ml)

        return r, body, False
    if t == GGMLType.Q6_K:
        r.offsets.clear()
        d0, d1 = r.byte(_const(208)), r.byte(_const(209))
        low = r.byte(lambda x: (x // 128) * 64 + x % 64)
        high = r.byte(lambda x: 128 + (x // 128) * 32 + x % 32)
        scale = r.byte(lambda x: 192 + x // 16)
        lshift, hshift = r.vector(4 * ((e // 64) % 2)), r.vector(2 * ((e // 32) % 4))

        def body(b: _Body, v: Sequence[SSAValue]) -> SSAValue:
            q = b.or_(b.bits(low, v[lshift], 15), b.shl(b.bits(high, v[hshift], 3), 4))
            sc = b.ops.add(arith.ExtSIOp(b.bytes[scale], i32))
            dl = b.mul(b.f16(d0, d1), b.to_f32(sc))
            return b.mul(dl, b.to_f32(b.sub_i(q, 32)))

        return r, body, False
    if t == GGMLType.Q2_K:
        r.offsets.clear()
        d0, d1 = r.byte(_const(80)), r.byte(_const(81))
        dm0, dm1 = r.byte(_const(82)), r.byte(_const(83))
        scale = r.byte(lambda x: x // 16)
        code = r.byte(lambda x: 16 + (x // 128) * 32 + x % 32)
        shift = r.vector(2 * ((e // 32) % 4))

        def body(b: _Body, v: Sequence[SSAValue]) -> SSAValue:
            sc = b.u(scale)
            dl = b.mul(b.f16(d0, d1), b.to_f32(b.and_(sc, 15)))
            ml = b.mul(b.f16(dm0, dm1), b.to_f32(b.shr(sc, b.c(4))))
            q = b.bits(code, v[shift], 3)
            return b.sub(b.mul(dl, b.to_f32(q)), ml)

        return r, body, False
    if t == GGMLType.Q3_K:
        r.offsets.clear()
        d0, d1 = r.byte(_const(108)), r.byte(_const(109))
        hmask = r.byte(lambda x: x % 32)
        code = r.byte(lambda x: 32 + (x // 128) * 32 + x % 32)
        slo = r.byte(lambda x: 96 + (x // 16) % 8)
        shi = r.byte(lambda x: 104 + (x // 16) % 4)
        shift, hbit = r.vector(2 * ((e // 32) % 4)), r.vector(e // 32)
        slo_shift, shi_shift = r.vector(4 * (e // 128)), r.vector(2 * (e // 64))

        def body(b: _Body, v: Sequence[SSAValue]) -> SSAValue:
            sc = b.or_(
                b.bits(slo, v[slo_shift], 15), b.shl(b.bits(shi, v[shi_shift], 3), 4)
            )
            h = b.bits(hmask, v[hbit], 1)
            q = b.sub_i(b.bits(code, v[shift], 3), b.shl(b.sub_i(b.c(1), h), 2))
            dl = b.mul(b.f16(d0, d1), b.to_f32(b.sub_i(sc, 32)))
            return b.mul(dl, b.to_f32(q))

        return r, body, False
    assert t == GGMLType.IQ4_XS
    hi = r.byte(lambda x: 2 + x // 128)
    lo = r.byte(lambda x: 4 + x // 64)
    code = r.byte(lambda x: 8 + (x // 32) * 16 + x % 16)
    hi_shift, lo_shift = r.vector(2 * ((e // 32) % 4)), r.vector(4 * ((e // 32) % 2))
    shift = r.vector(4 * ((e // 16) % 2))

    def body(b: _Body, v: Sequence[SSAValue]) -> SSAValue:
        sc = b.or_(b.bits(lo, v[lo_shift], 15), b.shl(b.bits(hi, v[hi_shift], 3), 4))
        dl = b.mul(b.f16(d0, d1), b.to_f32(b.sub_i(sc, 32)))
        return b.mul(dl, _table(b, b.bits(code, v[shift], 15)))

    return r, body, True


def _table(b: _Body, q: SSAValue) -> SSAValue:
    """`table[q]` (IQ4_NL's values, as f32)."""
    assert b.table is not None
    index = b.ops.add(arith.IndexCastOp(q, IndexType()))
    return b.ops.add(tensor.ExtractOp(b.table, [index], f32))


def _radices(block: int) -> list[int]:
    """The element index within a block as binary digits down to a last digit
    of 8 (`256 = 2*2*2*2*2*8`): every field offset of the ggml layouts
    (`e floordiv 2^k`, `e mod 2^k`, k >= 3) is linear in these digits."""
    radices = [8]
    while block > int(np.prod(radices)):
        radices.insert(0, 2)
    return radices


def _linear(
    op: Operation, f: Callable[[int], int], strides: Sequence[int], block: int
) -> tuple[int, list[int]]:
    """`f(e) = c0 + sum(c_k * digit_k(e))`: (c0, [c_k]), checked for every `e`."""
    c0 = f(0)
    coeffs = [f(stride) - c0 if stride < block else 0 for stride in strides]
    radices = [block // strides[0]] + [a // b for a, b in itertools.pairwise(strides)]
    for e in range(block):
        digits = [(e // st) % r for st, r in zip(strides, radices)]
        if f(e) != c0 + sum(c * d for c, d in zip(coeffs, digits)):
            raise OpDiagnostic(op, "lower-quant-ops: a field offset is not affine")
    return c0, coeffs


def _reassociation(
    groups: Sequence[Sequence[int]],
) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    return ArrayAttr(ArrayAttr(IntegerAttr(i, i64) for i in g) for g in groups)


def _lower_dcast(op: DequantizeCastOp, qtype: SuperblockQuantizedType) -> OpList:
    """The ops computing `op`; the last one's result replaces it.

    The generic iterates over (outer dims..., block, digits of the element
    index in the block); the byte tensor is expanded to (outer..., blocks,
    bytes) and every field is read at `(outer..., block, c0 + sum c_k * digit_k)`:
    pure affine maps, which IREE can tile. The result is collapsed back.
    """
    result_type = op.result.type
    if not isa(result_type, TensorType[Attribute]):
        raise OpDiagnostic(op, "'quant.dcast' op expected ranked tensors")
    if any(d < 0 for d in result_type.get_shape()):
        raise OpDiagnostic(
            op, "lower-quant-ops: !quant.superblock needs static tensor shapes"
        )
    shape = tuple(result_type.get_shape())
    layout = qtype.block_layout
    bs, ts = layout.block_size, layout.type_size
    ops = OpList()
    consts = Constants(ops)
    storage_shape = qtype.storage_shape(shape)
    raw = ops.add(StorageCastOp(op.input, TensorType(i8, storage_shape)))
    n_outer = len(shape) - 1
    n_blocks = shape[-1] // bs
    blocks_type = TensorType(i8, [*shape[:-1], n_blocks, ts])
    groups = [[k] for k in range(n_outer)] + [[n_outer, n_outer + 1]]
    raw = ops.add(
        tensor.ExpandShapeOp(
            raw, [], _reassociation(groups), blocks_type.get_shape(), blocks_type
        )
    )
    radices = _radices(bs)
    strides = [int(np.prod(radices[k + 1 :])) for k in range(len(radices))]
    rank = n_outer + 1 + len(radices)
    dims = [AffineExpr.dimension(k) for k in range(rank)]
    outer, block, digits = dims[:n_outer], dims[n_outer], dims[n_outer + 1 :]
    reads, body_fn, uses_table = _plan(qtype.ggml_type, bs, ts)
    maps: list[AffineMap] = []
    for offset in reads.offsets:
        c0, coeffs = _linear(op, offset, strides, bs)
        expr = AffineExpr.constant(c0)
        for c, d in zip(coeffs, digits):
            if c:
                expr = expr + d * c
        maps.append(AffineMap(rank, 0, (*outer, block, expr)))
    inputs: list[SSAValue] = [raw] * len(reads.offsets)
    for vector in reads.vectors:
        vtype = TensorType(i32, radices)
        attr = DenseIntOrFPElementsAttr.from_list(vtype, vector.tolist())
        inputs.append(ops.add(arith.ConstantOp(attr)))
        maps.append(AffineMap(rank, 0, tuple(digits)))
    table: SSAValue | None = None
    if uses_table:
        ttype = TensorType(f32, [16])
        values = [float(v) for v in IQ4_NL_VALUES]
        table = ops.add(
            arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(ttype, values))
        )
    n_bytes = len(reads.offsets)

    def body(b: OpList, args: Sequence[SSAValue]) -> list[SSAValue]:
        helper = _Body(b, consts, args[:n_bytes], table)
        return [body_fn(helper, args[n_bytes : n_bytes + len(reads.vectors)])]

    digit_type = TensorType(f32, [*shape[:-1], n_blocks, *radices])
    (value,) = build_generic(ops, inputs, maps, [digit_type], body)
    flat_groups = [[k] for k in range(n_outer)] + [list(range(n_outer, rank))]
    value = ops.add(
        tensor.CollapseShapeOp.create(
            operands=[value],
            result_types=[TensorType(f32, shape)],
            properties={"reassociation": _reassociation(flat_groups)},
        )
    )
    if qtype.expressed_type != f32:
        ops.add(arith.TruncFOp(value, TensorType(qtype.expressed_type, shape)))
    return ops


def lower_superblock_cast(op: QuantizeCastOp | DequantizeCastOp) -> OpList:
    """The ops computing a `quant.dcast` of a `!quant.superblock` tensor (the last
    one's result replaces the cast); a `quant.qcast` to one is a located error."""
    if isinstance(op, QuantizeCastOp):
        raise OpDiagnostic(
            op,
            "lower-quant-ops cannot lower 'quant.qcast' to !quant.superblock "
            "(llama.cpp's reference quantizers run in the interpreter only)",
        )
    qtype = superblock_of(op.input.type)
    assert qtype is not None
    return _lower_dcast(op, qtype)
