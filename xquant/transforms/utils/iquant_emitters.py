"""`quant.dcast` of the i-quant `!quant.superblock` layouts (IQ1_S ... IQ3_S) ->
one `linalg.generic` on the raw bytes.

Part of `lower-quant-ops`. The byte tensor is expanded to (outer..., blocks,
bytes); one generic iterates over (outer..., block, element `e` of 256) and,
per element, reads the bytes it needs with `tensor.extract` at offsets
computed from `e` (the f16 `d`, the sub-block scale, the codebook index, the
sign or shift bit), looks the codebook value up in the grid, a constant f32
tensor (`tensor.extract` at `index * N + e mod N`, as TQ1_0 reads its trits),
and the ksigns parity table likewise, then does the f32 operations of
`numerics/gguf/iquants.py` (gguf's) in its order: bit-identical (the sign
is a select of `negf`, NaN kept as gguf's multiply keeps it). Every
element re-decodes its sub-block's scale (a few integer ops): simple, not
fast.
"""

from __future__ import annotations

from collections.abc import Sequence

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
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from xquant.dialects.quant.ops import DequantizeCastOp, StorageCastOp
from xquant.dialects.quant.superblock import SuperblockQuantizedType
from xquant.numerics.gguf.iquants import IQ_FORMATS, grid, ksigns
from xquant.transforms.utils.mx_emitters import Constants, build_generic
from xquant.transforms.utils.op_list import OpList

i8 = IntegerType(8)
QK_K = 256


def _reassociation(
    groups: Sequence[Sequence[int]],
) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    return ArrayAttr(ArrayAttr(IntegerAttr(i, i64) for i in g) for g in groups)


class _Element:
    """Integer and f32 helpers for the body of one element's decode."""

    def __init__(
        self, b: OpList, consts: Constants, raw: SSAValue, head: list[SSAValue]
    ):
        self.b = b
        self.consts = consts
        self.raw = raw
        self.head = head  # outer... and block indices (index)

    def c(self, v: int) -> SSAValue:
        return self.consts.int(v)

    def shr(self, x: SSAValue, k: SSAValue | int) -> SSAValue:
        return self.b.add(arith.ShRUIOp(x, self.c(k) if isinstance(k, int) else k))

    def shl(self, x: SSAValue, k: SSAValue | int) -> SSAValue:
        return self.b.add(arith.ShLIOp(x, self.c(k) if isinstance(k, int) else k))

    def and_(self, x: SSAValue, m: int) -> SSAValue:
        return self.b.add(arith.AndIOp(x, self.c(m)))

    def or_(self, x: SSAValue, y: SSAValue) -> SSAValue:
        return self.b.add(arith.OrIOp(x, y))

    def add(self, x: SSAValue, y: SSAValue | int) -> SSAValue:
        return self.b.add(arith.AddiOp(x, self.c(y) if isinstance(y, int) else y))

    def mul_i(self, x: SSAValue, k: int) -> SSAValue:
        return self.b.add(arith.MuliOp(x, self.c(k)))

    def byte(self, offset: SSAValue | int) -> SSAValue:
        """The block's byte at `offset` (i32), zero-extended to i32."""
        at = self.c(offset) if isinstance(offset, int) else offset
        index = self.b.add(arith.IndexCastOp(at, IndexType()))
        value = self.b.add(tensor.ExtractOp(self.raw, [*self.head, index], i8))
        return self.b.add(arith.ExtUIOp(value, i32))

    def u16(self, offset: SSAValue | int) -> SSAValue:
        lo = self.byte(offset)
        hi = self.byte(
            self.add(offset, 1) if isinstance(offset, SSAValue) else offset + 1
        )
        return self.or_(lo, self.shl(hi, 8))

    def half(self, bits: SSAValue) -> SSAValue:
        """The f16 with bits `bits` (i32), as f32 (exact)."""
        h = self.b.add(arith.TruncIOp(bits, i16))
        return self.b.add(arith.ExtFOp(self.b.add(arith.BitcastOp(h, f16)), f32))

    def to_f32(self, x: SSAValue) -> SSAValue:
        return self.b.add(arith.SIToFPOp(x, f32))

    def fmul(self, x: SSAValue, y: SSAValue | float) -> SSAValue:
        other = y if isinstance(y, SSAValue) else self.consts.float(y)
        return self.b.add(arith.MulfOp(x, other))

    def fadd(self, x: SSAValue, y: SSAValue | float) -> SSAValue:
        other = y if isinstance(y, SSAValue) else self.consts.float(y)
        return self.b.add(arith.AddfOp(x, other))

    def lookup(self, table: SSAValue, at: SSAValue, t: Attribute) -> SSAValue:
        index = self.b.add(arith.IndexCastOp(at, IndexType()))
        return self.b.add(tensor.ExtractOp(table, [index], t))

    def nibble(self, offset: SSAValue, which: SSAValue) -> SSAValue:
        """Low (`which` 0) or high (1) nibble of the byte at `offset`."""
        return self.and_(self.shr(self.byte(offset), self.shl(which, 2)), 15)


def _decode(
    name: str, x: _Element, e: SSAValue, book: SSAValue, signs: SSAValue
) -> SSAValue:
    """Element `e`'s f32 value in layout `name` (iquants.py's order)."""
    dim = IQ_FORMATS[name].dim

    def grid_value(index: SSAValue) -> SSAValue:
        at = x.add(x.mul_i(index, dim), x.and_(e, dim - 1))
        return x.lookup(book, at, f32)

    def ksign(sidx: SSAValue) -> SSAValue:
        """1 where ksigns[sidx] has bit `e mod 8` set."""
        s = x.lookup(signs, sidx, i32)
        return x.and_(x.shr(s, x.and_(e, 7)), 1)

    def signed(value: SSAValue, negative: SSAValue) -> SSAValue:
        """`value * (+-1)` as gguf computes it: a negation, except that a NaN
        stays as it is (x86's `mulss` returns the NaN operand). Written as a
        select on `fneg`, so no compiler may turn it into a sign flip of NaN
        (LLVM may rewrite `x * select(c, 1, -1)` to `select(c, x, -x)`)."""
        neg = x.b.add(arith.CmpiOp(negative, x.c(0), "ne"))
        ordered = x.b.add(arith.CmpfOp(value, value, "ord"))
        flip = x.b.add(arith.AndIOp(neg, ordered))
        return x.b.add(arith.SelectOp(flip, x.b.add(arith.NegfOp(value)), value))

    d = x.half(x.u16(0)) if name != "IQ1_M" else None
    if name in ("IQ2_XXS", "IQ3_XXS"):
        ib32 = x.shr(e, 5)
        if name == "IQ2_XXS":
            base = x.add(x.mul_i(ib32, 8), 2)  # qs[4 ib32]: 4 index bytes, aux32
            index = x.byte(x.add(base, x.and_(x.shr(e, 3), 3)))
            aux = x.add(base, 4)
        else:
            index = x.byte(x.add(x.shr(e, 2), 2))
            aux = x.add(x.mul_i(ib32, 4), 66)
        word = x.or_(x.u16(aux), x.shl(x.u16(x.add(aux, 2)), 16))
        s = x.to_f32(x.shr(word, 28))
        sidx = x.and_(x.shr(word, x.mul_i(x.and_(x.shr(e, 3), 3), 7)), 127)
        assert d is not None
        half = x.fadd(x.consts.float(0.5), s)
        db = x.fmul(x.fmul(d, half), 0.25 if name == "IQ2_XXS" else 0.5)
        return signed(x.fmul(db, grid_value(index)), ksign(sidx))
    if name in ("IQ2_XS", "IQ2_S"):
        k = x.shr(e, 3)
        s = x.to_f32(
            x.nibble(
                x.add(x.shr(e, 5), 66 if name == "IQ2_XS" else 74),
                x.and_(x.shr(e, 4), 1),
            )
        )
        if name == "IQ2_XS":
            word = x.u16(x.add(x.mul_i(k, 2), 2))
            index = x.and_(word, 511)
            negative = ksign(x.shr(word, 9))
        else:
            high = x.and_(
                x.shr(x.byte(x.add(x.shr(k, 2), 66)), x.mul_i(x.and_(k, 3), 2)), 3
            )
            index = x.or_(x.byte(x.add(k, 2)), x.shl(high, 8))
            negative = x.and_(x.shr(x.byte(x.add(k, 34)), x.and_(e, 7)), 1)
        assert d is not None
        db = x.fmul(x.fmul(d, x.fadd(x.consts.float(0.5), s)), 0.25)
        return signed(x.fmul(db, grid_value(index)), negative)
    if name == "IQ3_S":
        k4 = x.shr(e, 2)
        high = x.and_(x.shr(x.byte(x.add(x.shr(k4, 3), 66)), x.and_(k4, 7)), 1)
        index = x.or_(x.byte(x.add(k4, 2)), x.shl(high, 8))
        negative = x.and_(x.shr(x.byte(x.add(x.shr(e, 3), 74)), x.and_(e, 7)), 1)
        s = x.nibble(x.add(x.shr(e, 6), 106), x.and_(x.shr(e, 5), 1))
        assert d is not None
        db = x.fmul(d, x.to_f32(x.add(x.shl(s, 1), 1)))
        return signed(x.fmul(db, grid_value(index)), negative)
    g = x.shr(e, 3)
    if name == "IQ1_S":
        qh = x.u16(x.add(x.mul_i(x.shr(e, 5), 2), 34))
        high = x.and_(x.shr(qh, x.mul_i(x.and_(g, 3), 3)), 7)
        index = x.or_(x.byte(x.add(g, 2)), x.shl(high, 8))
        s = x.and_(x.shr(qh, 12), 7)
        down = x.shr(qh, 15)
    else:  # IQ1_M
        nib = x.nibble(x.add(x.shr(g, 1), 32), x.and_(g, 1))
        index = x.or_(x.byte(g), x.shl(x.and_(nib, 7), 8))
        down = x.shr(nib, 3)
        j = x.shr(e, 4)
        w = x.u16(x.add(x.mul_i(x.shr(j, 2), 2), 48))
        s = x.and_(x.shr(w, x.mul_i(x.and_(j, 3), 3)), 7)
        words = [x.u16(48 + 2 * k) for k in range(4)]
        bits = x.or_(
            x.or_(x.shr(words[0], 12), x.and_(x.shr(words[1], 8), 0x00F0)),
            x.or_(x.and_(x.shr(words[2], 4), 0x0F00), x.and_(words[3], 0xF000)),
        )
        d = x.half(bits)
    assert d is not None
    dl = x.fmul(d, x.to_f32(x.add(x.shl(s, 1), 1)))
    cond = x.b.add(arith.CmpiOp(down, x.c(0), "eq"))
    shift = x.b.add(arith.SelectOp(cond, x.consts.float(0.125), x.consts.float(-0.125)))
    return x.fmul(dl, x.fadd(grid_value(index), shift))


def lower_iq_dcast(op: DequantizeCastOp, qtype: SuperblockQuantizedType) -> OpList:
    """The ops computing `op` (static shape, checked by the caller); the last
    one's result replaces it."""
    result_type = op.result.type
    assert isinstance(result_type, TensorType)
    shape = tuple(result_type.get_shape())
    name = qtype.ggml_type.name
    fmt = IQ_FORMATS[name]
    ops = OpList()
    consts = Constants(ops)
    raw = ops.add(StorageCastOp(op.input, TensorType(i8, qtype.storage_shape(shape))))
    outer = list(shape[:-1])
    n_outer = len(outer)
    n_blocks = shape[-1] // QK_K
    blocks_type = TensorType(i8, [*outer, n_blocks, fmt.type_size])
    groups = [[k] for k in range(n_outer)] + [[n_outer, n_outer + 1]]
    raw = ops.add(
        tensor.ExpandShapeOp(
            raw, [], _reassociation(groups), blocks_type.get_shape(), blocks_type
        )
    )
    table = grid(fmt.grid).reshape(-1)
    book = ops.add(
        arith.ConstantOp(
            DenseIntOrFPElementsAttr.from_list(
                TensorType(f32, [table.size]), [float(v) for v in table]
            )
        )
    )
    signs = ops.add(
        arith.ConstantOp(
            DenseIntOrFPElementsAttr.from_list(
                TensorType(i32, [128]), [int(v) for v in ksigns()]
            )
        )
    )
    rank = n_outer + 2
    dims = [AffineExpr.dimension(k) for k in range(rank)]
    first_byte = AffineMap(rank, 0, (*dims[:-1], AffineExpr.constant(0)))
    out = TensorType(f32, [*outer, n_blocks, QK_K])

    def body(b: OpList, args: Sequence[SSAValue]) -> list[SSAValue]:
        head = [b.add(linalg.IndexOp(k)) for k in range(n_outer + 1)]
        e = b.add(arith.IndexCastOp(b.add(linalg.IndexOp(n_outer + 1)), i32))
        x = _Element(b, consts, raw, head)
        return [_decode(name, x, e, book, signs)]

    (value,) = build_generic(ops, [raw], [first_byte], [out], body)
    value = ops.add(
        tensor.CollapseShapeOp.create(
            operands=[value],
            result_types=[TensorType(f32, shape)],
            properties={"reassociation": _reassociation(groups)},
        )
    )
    if qtype.expressed_type != f32:
        ops.add(arith.TruncFOp(value, TensorType(qtype.expressed_type, shape)))
    return ops
