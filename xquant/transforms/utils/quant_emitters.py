"""IR that computes the numeric contract of `xquant.numerics.uniform`, op for op.

The lowerings of `quant.qcast`/`quant.dcast` (and of StableHLO's quantize and
dequantize) build their scalar math here, so that every pass emits exactly
the arithmetic the interpreter's reference computes:

    quantize:   v = x / scale + zp ; v = min(max(v, lo), hi) ; v = roundeven(v) ;
                v = isnan(v) ? 0 : v ; q = fptosi/fptoui(v)
    dequantize: v = sitofp(subi(extsi/extui(q), zp)) * scale
                (zero point 0: v = sitofp/uitofp(q) * scale)

`lo`/`hi` are the storage bounds rounded toward zero into the expressed type
(`xquant.numerics.uniform.clamp_bounds`). Dequantize's zero point is an
integer of `xquant.numerics.uniform.dequantize_wide_bits` (i32 for storage of
at most 16 bits, i64 above): `q - zp` is exact and `sitofp` rounds it once.
This is `lower-quant-ops{rounding=nearest-even}`; the pass's default,
`rounding=toward-zero`, is upstream MLIR's lowering and is built in
`xquant.transforms.lower_quant_ops` itself.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from math import prod
from typing import cast

from xdsl.dialects import arith, math
from xdsl.dialects.arith import FastMathFlagsAttr, IntegerOverflowAttr
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.hints import isa

from xquant.asm.diagnostics import OpDiagnostic
from xquant.dialects.quant.types import UniformQuantizedType
from xquant.numerics.uniform import clamp_bounds, dequantize_wide_bits
from xquant.numerics.values import with_element
from xquant.transforms.utils.op_list import OpList


class Rounding(Enum):
    """How a lowering turns the scaled float into an integer."""

    TOWARD_ZERO = "toward-zero"
    """Upstream MLIR's lowering: fptosi/fptoui truncation, integer clamp of explicit bounds only."""
    NEAREST_EVEN = "nearest-even"
    """The project's contract: clamp in float, round half to even, NaN -> 0."""


# Properties that the ops' `__init__` set by default, built once.
_CMPF_UNO = {
    "predicate": IntegerAttr(14, 64),  # arith.CmpfOp's number for "uno"
    "fastmath": FastMathFlagsAttr("none"),
}
_NO_OVERFLOW = {"overflowFlags": IntegerOverflowAttr("none")}
_I1 = IntegerType(1)


@lru_cache(maxsize=4096)
def _integer_attr(value: int, type: IntegerType) -> IntegerAttr:
    return IntegerAttr(value, type, truncate_bits=True)


@lru_cache(maxsize=4096)
def _float_attr(bits: str, type: Attribute) -> FloatAttr:
    """Keyed by `float.hex` so that 0.0 and -0.0 (equal floats) stay apart."""
    return FloatAttr(float.fromhex(bits), type)  # pyright: ignore[reportCallIssue, reportArgumentType, reportUnknownVariableType]


def _dense_attr(
    type: TensorType[Attribute], values: Sequence[float] | Sequence[int]
) -> DenseIntOrFPElementsAttr:
    """`DenseIntOrFPElementsAttr.from_list(type, values)`, quicker for plain integers."""
    element = type.get_element_type()
    if (
        isa(element, IntegerType)
        and element.signedness.data == Signedness.SIGNLESS
        and len(values) == prod(type.get_shape())
    ):
        ints = cast(Sequence[int], values)
        half = 1 << (element.bitwidth - 1)
        if all(-half <= v < half for v in ints):
            # `from_list` normalizes each value, which leaves these unchanged.
            int_type = cast(TensorType[IntegerType], type)  # element checked above
            return DenseIntOrFPElementsAttr(int_type, BytesAttr(element.pack(ints)))
    return DenseIntOrFPElementsAttr.from_list(type, values)  # pyright: ignore[reportCallIssue, reportArgumentType, reportUnknownVariableType]


@lru_cache(maxsize=1024)
def _small_dense_attr(
    type: TensorType[Attribute], key: tuple[str | int, ...]
) -> DenseIntOrFPElementsAttr:
    """`_dense_attr`, once per value: floats come keyed by `float.hex`, ints as they are."""
    values = [float.fromhex(v) if isinstance(v, str) else v for v in key]
    return _dense_attr(type, values)


_MEMOIZED_DENSE = 256
"""Dense constants up to this many elements are built once per value; larger
ones (rarely repeated) are not kept alive by the cache."""


def scalar_constant(
    ops: OpList, value: float | int | bool, type: Attribute
) -> SSAValue:
    """An `arith.constant` scalar (float or integer); its attribute is built once per value."""
    if isa(type, IntegerType):
        attr: Attribute = _integer_attr(int(value), type)
    else:
        # FloatAttr accepts any float type.
        attr = _float_attr(float(value).hex(), type)
    return ops.create(arith.ConstantOp, (), type, {"value": attr})


def dense_constant(
    ops: OpList, values: list[float] | list[int], type: TensorType[Attribute]
) -> SSAValue:
    """An `arith.constant dense<...>` tensor (small ones: the attribute built once per value)."""
    if len(values) > _MEMOIZED_DENSE:
        attr = _dense_attr(type, values)
    else:
        key = tuple(v.hex() if isinstance(v, float) else v for v in values)
        attr = _small_dense_attr(type, key)
    return ops.create(arith.ConstantOp, (), type, {"value": attr})


@dataclass(frozen=True)
class Params:
    """The SSA values a quantize/dequantize body reads."""

    scale: SSAValue
    zero_point: SSAValue | None
    """None when statically 0; a float (quantize) or an integer of
    `dequantize_wide_type` (dequantize)."""


@dataclass(frozen=True)
class Bounds:
    """Clamp operands: float bounds, and the float zero NaN maps to (None: no clamp, dequantize)."""

    low: SSAValue | None
    high: SSAValue | None
    zero: SSAValue | None = None


def make_bounds(ops: OpList, qtype: UniformQuantizedType) -> Bounds:
    """The scalar constants the clamp needs."""
    low, high = clamp_bounds(qtype)
    expressed = qtype.expressed_type
    return Bounds(
        scalar_constant(ops, float(low), expressed),
        scalar_constant(ops, float(high), expressed),
        scalar_constant(ops, 0.0, expressed),
    )


def emit_quantize(
    ops: OpList,
    x: SSAValue,
    params: Params,
    bounds: Bounds,
    qtype: UniformQuantizedType,
    result_type: Attribute,
) -> SSAValue:
    """Float `x` to storage integers of type `result_type` (iN, or a tensor of iN)."""
    assert (
        bounds.low is not None and bounds.high is not None and bounds.zero is not None
    )
    value = ops.create(arith.DivfOp, (x, params.scale), x.type)
    if params.zero_point is not None:
        value = ops.create(arith.AddfOp, (value, params.zero_point), x.type)
    value = ops.create(arith.MaximumfOp, (value, bounds.low), x.type)
    value = ops.create(arith.MinimumfOp, (value, bounds.high), x.type)
    value = ops.create(math.RoundEvenOp, (value,), x.type)
    is_nan = ops.create(arith.CmpfOp, (value, value), _I1, _CMPF_UNO)
    value = ops.create(arith.SelectOp, (is_nan, bounds.zero, value), bounds.zero.type)
    to_int = arith.FPToSIOp if qtype.is_signed else arith.FPToUIOp
    return ops.create(to_int, (value,), result_type)


def require_signed_expressed(op: Operation, qtype: UniformQuantizedType) -> None:
    """Quantizing adds zero points and clamps in the expressed type, and lowered
    dequantize/requantize math computes there too; an unsigned float (f8E8M0FNU)
    cannot hold their negative values, so such a type is refused with a diagnostic."""
    semantics = getattr(qtype.expressed_type, "SEMANTICS", None)
    if semantics is not None and not semantics.has_sign:
        raise OpDiagnostic(
            op,
            f"'{op.name}' op cannot lower {qtype}: its expressed type "
            f"{qtype.expressed_type} has no sign",
        )


def dequantize_wide_type(qtype: UniformQuantizedType) -> IntegerType:
    """The signless integer type dequantize subtracts the zero point in (i32 or i64)."""
    return _signless(dequantize_wide_bits(qtype))


@functools.cache
def _signless(bits: int) -> IntegerType:
    return IntegerType(bits)


def emit_dequantize(
    ops: OpList,
    q: SSAValue,
    params: Params,
    qtype: UniformQuantizedType,
    result_type: Attribute,
) -> SSAValue:
    """Storage integers `q` (signless) to expressed floats of type `result_type`.

    `sitofp(extsi/extui(q) - zp) * scale`, the subtraction exact in
    `dequantize_wide_type`.
    """
    to_float = arith.SIToFPOp if qtype.is_signed else arith.UIToFPOp
    if params.zero_point is None:
        value = ops.create(to_float, (q,), result_type)
    else:
        # The zero point is a scalar of the wide type; reading it off saves
        # recomputing the width from all the zero points.
        wide_element = params.zero_point.type
        if not isa(wide_element, IntegerType):
            wide_element = dequantize_wide_type(qtype)
        wide_type = with_element(q.type, wide_element)
        extend = arith.ExtSIOp if qtype.is_signed else arith.ExtUIOp
        wide = ops.create(extend, (q,), wide_type)
        centred = ops.create(
            arith.SubiOp, (wide, params.zero_point), wide_type, _NO_OVERFLOW
        )
        value = ops.create(arith.SIToFPOp, (centred,), result_type)
    return ops.create(arith.MulfOp, (value, params.scale), result_type)
