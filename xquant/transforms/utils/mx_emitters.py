"""IR that computes the MX numerics of `xquant.numerics.mx`, op for op.

Shared by `lower-mx-tensor` and `mx-tensor-generalize`. Scalar bodies are
built here; the passes wrap them in `linalg.generic`s. Every constant is
created by the caller's `OpList` outside the generic body (hoisted).

    decode:   code = (extui hi << w_lo) | extui lo ...   (split storage)
              elem = bitcast(trunci code) ; v = extf(elem) [* 2^-6 for i8]
              s    = extf(scale)  or, for an i8 byte b: bitcast(b == 0 ? 0x00400000 : b << 23), NaN for 0xFF
              value = v * s
    exponent: from the max of |x| bit patterns per block (integer max), with
              floor(log2) read from the exponent field (subnormals normalized
              by an exact multiply by 2^64 first); rceil adds 1 when the
              mantissa bits exceed the element's largest mantissa
    encode:   clamp(x * 2^-e, +-max_normal), NaN -> 0, truncf (or, for
              MXINT8, roundeven(x * 2^-e * 64) clamped to +-127, fptosi)
    nvfp4:    s = amax / 6 [/ g]; s = minimumf(maximumf(s, 2^-6), 448);
              scale = truncf(s) to f8E4M3FN; factor = 1 / extf(scale)
              [(1 / g) / extf(scale)]; then encode as above with the factor;
              decode multiplies by (g * extf(scale)) with a tensor scale
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith, math, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    Float8E4M3FNType,
    Float8E8M0FNUType,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    f32,
    i32,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.utils.hints import isa

from xquant.dialects.mx_tensor.types import MxTensorType, type_width
from xquant.numerics.mx import (
    MXINT8_FRACTION_BITS,
    NVFP4_ELEMENT_MAX,
    NVFP4_SCALE_MAX,
    NVFP4_SCALE_MIN,
    Algorithm,
    ElementFormat,
    element_format,
)
from xquant.numerics.values import element_type
from xquant.transforms.utils.op_list import OpList

__all__ = [
    "BodyFn",
    "Constants",
    "build_generic",
    "emit_cast",
    "emit_codes_to_parts",
    "emit_decode",
    "emit_encode",
    "emit_exponent",
    "emit_nvfp4_scale",
]

I8 = IntegerType(8)


@dataclass
class Constants:
    """Scalar constants, created once (outside generic bodies) in `ops`."""

    ops: OpList

    def __post_init__(self) -> None:
        self._cache: dict[tuple[str, Attribute], SSAValue] = {}

    def int(self, value: int, type: Attribute = i32) -> SSAValue:
        key = (f"i{value}", type)
        if key not in self._cache:
            int_type = cast("IntegerType | IndexType", type)
            self._cache[key] = self.ops.add(
                arith.ConstantOp(IntegerAttr(value, int_type, truncate_bits=True))
            )
        return self._cache[key]

    def float(self, value: float, type: Attribute = f32) -> SSAValue:
        key = (f"f{value!r}", type)
        if key not in self._cache:
            float_type = cast(AnyFloat, type)
            self._cache[key] = self.ops.add(
                arith.ConstantOp(FloatAttr(value, float_type))
            )
        return self._cache[key]


def _to_f32(body: OpList, value: SSAValue) -> SSAValue:
    if value.type == f32:
        return value
    return body.add(arith.ExtFOp(value, f32))


def _int_to_f32_bits(body: OpList, consts: Constants, bits: SSAValue) -> SSAValue:
    return body.add(arith.BitcastOp(bits, f32))


def emit_join(
    body: OpList, consts: Constants, parts: Sequence[SSAValue], mx_type: MxTensorType
) -> SSAValue:
    """The element (of the compute type) from split-storage parts, most significant first."""
    width = type_width(mx_type.compute_type)
    code: SSAValue | None = None
    shift = width
    for part in parts:
        part_width = type_width(part.type)
        shift -= part_width
        wide = body.add(arith.ExtUIOp(part, i32))
        if shift:
            wide = body.add(arith.ShLIOp(wide, consts.int(shift)))
        code = wide if code is None else body.add(arith.OrIOp(code, wide))
    assert code is not None
    narrow = body.add(arith.TruncIOp(code, IntegerType(width)))
    if isinstance(mx_type.compute_type, IntegerType):
        return narrow
    return body.add(arith.BitcastOp(narrow, mx_type.compute_type))


def emit_decode_scale(body: OpList, consts: Constants, scale: SSAValue) -> SSAValue:
    """A scale element as an f32 multiplier."""
    scale_type = scale.type
    if isinstance(scale_type, Float8E8M0FNUType) or not isinstance(
        scale_type, IntegerType
    ):
        return _to_f32(body, scale)
    byte = body.add(arith.ExtUIOp(scale, i32))
    normal = body.add(arith.ShLIOp(byte, consts.int(23)))
    is_zero = body.add(arith.CmpiOp(byte, consts.int(0), "eq"))
    bits = body.add(arith.SelectOp(is_zero, consts.int(0x00400000), normal))
    is_nan = body.add(arith.CmpiOp(byte, consts.int(0xFF), "eq"))
    bits = body.add(arith.SelectOp(is_nan, consts.int(0x7FC00000), bits))
    return _int_to_f32_bits(body, consts, bits)


def emit_decode(
    body: OpList,
    consts: Constants,
    scale: SSAValue,
    data: Sequence[SSAValue],
    mx_type: MxTensorType,
    tensor_scale: SSAValue | None = None,
) -> SSAValue:
    """`decode(element) * scale` in f32 from block arguments (scale, then the data parts);
    `decode(element) * (tensor_scale * scale)` with an NVFP4 per-tensor scale."""
    element = (
        data[0] if not mx_type.is_split else emit_join(body, consts, data, mx_type)
    )
    if isinstance(element.type, IntegerType):
        value = body.add(arith.SIToFPOp(element, f32))
        value = body.add(arith.MulfOp(value, consts.float(2.0**-MXINT8_FRACTION_BITS)))
    else:
        value = _to_f32(body, element)
    multiplier = emit_decode_scale(body, consts, scale)
    if tensor_scale is not None:
        multiplier = body.add(arith.MulfOp(tensor_scale, multiplier))
    return body.add(arith.MulfOp(value, multiplier))


def emit_abs_bits(body: OpList, consts: Constants, x: SSAValue) -> SSAValue:
    """The bit pattern of |x| as i32 (NaN > Inf > every finite value as integers)."""
    bits = body.add(arith.BitcastOp(_to_f32(body, x), i32))
    return body.add(arith.AndIOp(bits, consts.int(0x7FFFFFFF)))


def emit_exponent(
    body: OpList,
    consts: Constants,
    amax_bits: SSAValue,
    fmt: ElementFormat,
    algorithm: Algorithm,
) -> tuple[SSAValue, SSAValue]:
    """(the E8M0 byte as i32, 2^-e as f32 or NaN for a NaN/Inf block) from a block's |x| max bits."""
    special = body.add(arith.CmpiOp(amax_bits, consts.int(0x7F800000), "sge"))
    subnormal = body.add(arith.CmpiOp(amax_bits, consts.int(0x00800000), "slt"))
    amax = _int_to_f32_bits(body, consts, amax_bits)
    scaled_up = body.add(arith.MulfOp(amax, consts.float(2.0**64)))
    normalized = body.add(arith.SelectOp(subnormal, scaled_up, amax))
    bits = body.add(arith.BitcastOp(normalized, i32))
    field = body.add(arith.ShRUIOp(bits, consts.int(23)))
    bias = body.add(
        arith.SelectOp(
            subnormal, consts.int(127 + 64 + fmt.emax), consts.int(127 + fmt.emax)
        )
    )
    exponent = body.add(arith.SubiOp(field, bias))
    if algorithm is Algorithm.RCEIL:
        threshold = round((fmt.max_mantissa - 1) * 2**23)
        mantissa = body.add(arith.AndIOp(bits, consts.int(0x007FFFFF)))
        above = body.add(arith.CmpiOp(mantissa, consts.int(threshold), "sgt"))
        exponent = body.add(arith.AddiOp(exponent, body.add(arith.ExtUIOp(above, i32))))
    exponent = body.add(arith.MaxSIOp(exponent, consts.int(-127)))
    exponent = body.add(arith.MinSIOp(exponent, consts.int(127)))
    byte = body.add(arith.AddiOp(exponent, consts.int(127)))
    byte = body.add(arith.SelectOp(special, consts.int(0xFF), byte))
    # 2^-e: exponent field 127 - e, or the subnormal 2^-127 when e = 127.
    field_bits = body.add(
        arith.ShLIOp(body.add(arith.SubiOp(consts.int(127), exponent)), consts.int(23))
    )
    is_tiny = body.add(arith.CmpiOp(exponent, consts.int(127), "eq"))
    factor_bits = body.add(arith.SelectOp(is_tiny, consts.int(0x00400000), field_bits))
    factor_bits = body.add(arith.SelectOp(special, consts.int(0x7FC00000), factor_bits))
    return byte, _int_to_f32_bits(body, consts, factor_bits)


def emit_nvfp4_scale(
    body: OpList,
    consts: Constants,
    amax_bits: SSAValue,
    tensor_scale: SSAValue | None,
) -> tuple[SSAValue, SSAValue]:
    """(the f8E4M3FN block scale, the f32 factor elements are multiplied by) from a block's |x| max bits.

    One f32 op per step of `xquant.numerics.mx.quantize_nvfp4`; maximumf/minimumf
    keep a NaN amax NaN, as the reference's clamp does."""
    amax = _int_to_f32_bits(body, consts, amax_bits)
    block_scale = body.add(arith.DivfOp(amax, consts.float(NVFP4_ELEMENT_MAX)))
    if tensor_scale is not None:
        block_scale = body.add(arith.DivfOp(block_scale, tensor_scale))
    block_scale = body.add(arith.MaximumfOp(block_scale, consts.float(NVFP4_SCALE_MIN)))
    block_scale = body.add(arith.MinimumfOp(block_scale, consts.float(NVFP4_SCALE_MAX)))
    scale = body.add(arith.TruncFOp(block_scale, Float8E4M3FNType()))
    numerator = consts.float(1.0)
    if tensor_scale is not None:
        numerator = body.add(arith.DivfOp(numerator, tensor_scale))
    factor = body.add(arith.DivfOp(numerator, _to_f32(body, scale)))
    return scale, factor


def emit_scale_element(
    body: OpList, consts: Constants, byte: SSAValue, scale_type: Attribute
) -> SSAValue:
    """The E8M0 byte (i32) as a scale element: f8E8M0FNU, or a signless i8 holding it."""
    narrow = body.add(arith.TruncIOp(byte, I8))
    if isinstance(scale_type, Float8E8M0FNUType):
        return body.add(arith.BitcastOp(narrow, scale_type))
    return narrow


def emit_encode(
    body: OpList, consts: Constants, x: SSAValue, factor: SSAValue, compute: Attribute
) -> SSAValue:
    """The element (of the compute type) for `x` in a block whose factor is 2^-e (NaN: element 0)."""
    fmt = element_format(compute)
    scaled = body.add(arith.MulfOp(_to_f32(body, x), factor))
    if fmt.is_int:
        scaled = body.add(arith.MulfOp(scaled, consts.float(2.0**MXINT8_FRACTION_BITS)))
        low, high = consts.float(-127.0), consts.float(127.0)
    else:
        low, high = consts.float(-fmt.max_normal), consts.float(fmt.max_normal)
    clamped = body.add(arith.MinimumfOp(body.add(arith.MaximumfOp(scaled, low)), high))
    if fmt.is_int:
        clamped = body.add(math.RoundEvenOp(clamped))
    is_nan = body.add(arith.CmpfOp(clamped, clamped, "uno"))
    clamped = body.add(arith.SelectOp(is_nan, consts.float(0.0), clamped))
    if fmt.is_int:
        assert isa(compute, IntegerType)
        return body.add(arith.FPToSIOp(clamped, compute))
    if compute == f32:
        return clamped
    assert isinstance(compute, AnyFloat)
    return body.add(arith.TruncFOp(clamped, compute))


def emit_codes_to_parts(
    body: OpList,
    consts: Constants,
    element: SSAValue,
    storage_types: Sequence[Attribute],
) -> list[SSAValue]:
    """Split an element's bit pattern into integer parts, most significant first."""
    width = type_width(element.type)
    code = element
    if not isinstance(element.type, IntegerType):
        code = body.add(arith.BitcastOp(element, IntegerType(width)))
    wide = body.add(arith.ExtUIOp(code, i32)) if width < 32 else code
    parts: list[SSAValue] = []
    shift = width
    for storage in storage_types:
        shift -= type_width(storage)
        shifted = body.add(arith.ShRUIOp(wide, consts.int(shift))) if shift else wide
        # The op verifiers only admit signless integer storage types.
        parts.append(body.add(arith.TruncIOp(shifted, cast(IntegerType, storage))))
    return parts


def emit_cast(body: OpList, value: SSAValue, target: Attribute) -> SSAValue:
    """MLIR's `cast_signed` of a scalar: extf/truncf, sitofp, fptosi, extsi/trunci."""
    source = value.type
    if source == target:
        return value
    if isinstance(target, AnyFloat):
        if isinstance(source, AnyFloat):
            narrower = type_width(source) < type_width(target)
            return body.add(
                (arith.ExtFOp if narrower else arith.TruncFOp)(value, target)
            )
        return body.add(arith.SIToFPOp(value, target))
    assert isa(target, IntegerType)
    if isinstance(source, AnyFloat):
        return body.add(arith.FPToSIOp(value, target))
    assert isa(source, IntegerType)
    narrower = source.bitwidth < target.bitwidth
    return body.add((arith.ExtSIOp if narrower else arith.TruncIOp)(value, target))


BodyFn = Callable[[OpList, Sequence[SSAValue]], Sequence[SSAValue]]
"""Builds a generic's body from its block arguments; returns the yielded values."""


def build_generic(
    ops: OpList,
    inputs: Sequence[SSAValue],
    input_maps: Sequence[AffineMap],
    output_types: Sequence[TensorType[Attribute]],
    body_fn: BodyFn,
    iterators: Sequence[IteratorType] | None = None,
    inits: Sequence[SSAValue] | None = None,
    output_maps: Sequence[AffineMap] | None = None,
) -> list[SSAValue]:
    """A `linalg.generic` (parallel over the outputs unless `iterators` says otherwise)."""
    rank = input_maps[0].num_dims
    if inits is None:
        inits = [ops.add(tensor.EmptyOp([], t)) for t in output_types]
    if output_maps is None:
        output_maps = [AffineMap.identity(rank)] * len(output_types)
    arg_types = [element_type(v.type) for v in inputs] + [
        t.get_element_type() for t in output_types
    ]
    block = Block(arg_types=arg_types)
    body = OpList()
    results = body_fn(body, block.args)
    block.add_ops([*body.ops, YieldOp(*results)])
    generic = GenericOp(
        inputs,
        inits,
        Region(block),
        [AffineMapAttr(m) for m in (*input_maps, *output_maps)],
        [IteratorTypeAttr(it) for it in (iterators or [IteratorType.PARALLEL] * rank)],
        output_types,
    )
    ops.ops.append(generic)
    return list(generic.results)
