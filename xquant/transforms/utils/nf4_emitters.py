"""`quant.dcast` of `!quant.double_quantized` tensors -> one `linalg.generic` on the bytes.

Part of `lower-quant-ops`. The generic iterates over (scaler group `g`,
block in the group `s`, byte in the block `h`, nibble `p`) and reads every
field an element needs from the same 1-D `i8` byte tensor (layout
"torchao.nf4") through a pure affine map: its code byte
`(g * SCALER_BLOCK + s) * BLOCK / 2 + h`, its `i8` block scale, the bytes of
its group's factor and of the mean. The nibble's shift (4 for the even
element, 0 for the odd one) is a 2-element constant indexed by `p`, the
table a 16-element constant read with `tensor.extract`. The body computes
torchao's `scale = T(T(sc) / factor) + mean`, `x = T(table[q] * scale)`
with one `arith` op per operation in f32, each rounded to `T` (`truncf`)
where torchao rounds, so the result is bit-identical to the interpreter.
The result is collapsed to the tensor's shape. `quant.qcast` to the type
(torchao's quantizer: data-dependent absmax searches) is a located
diagnostic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    f32,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.utils.hints import isa

from xquant.asm.diagnostics import OpDiagnostic
from xquant.dialects.quant.nf4 import DoubleQuantizedType, double_quantized_of
from xquant.dialects.quant.ops import DequantizeCastOp, QuantizeCastOp, StorageCastOp
from xquant.numerics.dtypes import numpy_dtype
from xquant.numerics.nf4_double import table
from xquant.transforms.utils.mx_emitters import Constants, build_generic
from xquant.transforms.utils.op_list import OpList

i8 = IntegerType(8)


def _reassociation(
    groups: Sequence[Sequence[int]],
) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    return ArrayAttr(ArrayAttr(IntegerAttr(i, i64) for i in g) for g in groups)


def _lower_dcast(op: DequantizeCastOp, qtype: DoubleQuantizedType) -> OpList:
    result_type = op.result.type
    assert isa(result_type, TensorType[Attribute])  # the verifier checked it
    shape = tuple(result_type.get_shape())
    t = qtype.expressed_type
    bf16 = isinstance(t, BFloat16Type)
    n = math.prod(shape)
    sb, half = qtype.scaler_block, qtype.block // 2
    groups = n // qtype.block // sb
    code_bytes, scale_bytes, factor_bytes, width = qtype.part_sizes(shape)
    ops = OpList()
    consts = Constants(ops)
    raw = ops.add(StorageCastOp(op.input, TensorType(i8, qtype.storage_shape(shape))))
    g, s, h, p = (AffineExpr.dimension(k) for k in range(4))

    def at(expr: AffineExpr) -> AffineMap:
        return AffineMap(4, 0, (expr,))

    def const(offset: int) -> AffineExpr:
        return AffineExpr.constant(offset)

    maps = [
        at(g * (sb * half) + s * half + h),  # the code byte
        at(const(code_bytes) + g * sb + s),  # the i8 block scale
    ]
    factor_at = code_bytes + scale_bytes
    maps += [at(const(factor_at + k) + g * width) for k in range(width)]
    mean_at = factor_at + factor_bytes
    maps += [at(const(mean_at + k)) for k in range(width)]
    inputs: list[SSAValue] = [raw] * len(maps)
    shifts = DenseIntOrFPElementsAttr.from_list(TensorType(i32, [2]), [4, 0])
    inputs.append(ops.add(arith.ConstantOp(shifts)))
    maps.append(AffineMap(4, 0, (p,)))
    values = table(numpy_dtype(t)).astype("float32").tolist()
    lut = ops.add(
        arith.ConstantOp(
            DenseIntOrFPElementsAttr.from_list(TensorType(f32, [16]), values)
        )
    )

    def body(b: OpList, args: Sequence[SSAValue]) -> list[SSAValue]:
        code, scale = args[0], args[1]
        factor_b = args[2 : 2 + width]
        mean_b = args[2 + width : 2 + 2 * width]
        shift = args[2 + 2 * width]

        def u32(byte: SSAValue) -> SSAValue:
            return b.add(arith.ExtUIOp(byte, i32))

        def word(parts: Sequence[SSAValue]) -> SSAValue:
            """The little-endian `T` in `parts`, as f32 (exact)."""
            value = u32(parts[0])
            for k, part in enumerate(parts[1:], 1):
                shifted = b.add(arith.ShLIOp(u32(part), consts.int(8 * k)))
                value = b.add(arith.OrIOp(value, shifted))
            if bf16:  # a bf16 is the high half of the f32 with its bits
                value = b.add(arith.ShLIOp(value, consts.int(16)))
            return b.add(arith.BitcastOp(value, f32))

        def rounded(x: SSAValue) -> SSAValue:
            """`x` rounded to `T`, as f32 (exact). The way back is integer
            ops, not `extf`: IREE folds `extf(truncf(x))` to `x`."""
            if not bf16:
                return x
            bits = b.add(arith.BitcastOp(b.add(arith.TruncFOp(x, t)), i16))
            wide = b.add(arith.ShLIOp(b.add(arith.ExtUIOp(bits, i32)), consts.int(16)))
            return b.add(arith.BitcastOp(wide, f32))

        nibble = b.add(arith.ShRUIOp(u32(code), shift))
        q = b.add(arith.AndIOp(nibble, consts.int(15)))
        index = b.add(arith.IndexCastOp(q, IndexType()))
        value = b.add(tensor.ExtractOp(lut, [index], f32))
        sc = b.add(arith.SIToFPOp(b.add(arith.ExtSIOp(scale, i32)), f32))
        block_scale = rounded(b.add(arith.DivfOp(sc, word(factor_b))))
        block_scale = rounded(b.add(arith.AddfOp(block_scale, word(mean_b))))
        x = b.add(arith.MulfOp(value, block_scale))
        return [b.add(arith.TruncFOp(x, t)) if bf16 else x]

    nibbles = TensorType(t, [groups, sb, half, 2])
    (value,) = build_generic(ops, inputs, maps, [nibbles], body)
    flat = ops.add(
        tensor.CollapseShapeOp.create(
            operands=[value],
            result_types=[TensorType(t, [n])],
            properties={"reassociation": _reassociation([[0, 1, 2, 3]])},
        )
    )
    ops.add(
        tensor.ExpandShapeOp(
            flat,
            [],
            _reassociation([list(range(len(shape)))]),
            list(shape),
            TensorType(t, shape),
        )
    )
    return ops


def lower_double_quantized_cast(op: QuantizeCastOp | DequantizeCastOp) -> OpList:
    """The ops computing a `quant.dcast` of a `!quant.double_quantized` tensor (the
    last one's result replaces the cast); a `quant.qcast` to one is a located error."""
    if isinstance(op, QuantizeCastOp):
        raise OpDiagnostic(
            op,
            "lower-quant-ops cannot lower 'quant.qcast' to !quant.double_quantized "
            "(torchao's quantizer runs in the interpreter only)",
        )
    qtype = double_quantized_of(op.input.type)
    assert qtype is not None
    return _lower_dcast(op, qtype)
