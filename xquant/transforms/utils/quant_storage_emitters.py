"""Scalar bodies of quantize / dequantize for float and `!quant.quantile` storage.

The contract of `xquant.numerics.storage_formats` and `xquant.numerics.lookup`
(through `numerics.uniform`), op for op, so the lowered IR gives the
interpreter's bits:

- float storage, quantize: `divf`, `addf` (zero point), `maximumf` /
  `minimumf` with the bounds moved inward to format values, NaN -> 0 by
  `cmpf uno` + `select` where the format has no NaN, `truncf` (nearest even);
  dequantize: `extf`, `subf` (zero point), `mulf`;
- quantile storage, quantize: `divf`, `addf` in the expressed type, `extf` to
  f64, then one `absf(subf)` per allowed stored value, scanned upward and
  kept by `cmpf olt` + `select` (ties keep the smaller stored value, NaN
  keeps the first), `trunci` to the storage width; dequantize: the stored
  value widened to i64 (sign or zero extension as its storage type says),
  then a chain of `cmpi eq` + `select` picking the table entry (already in
  the expressed type), `subf` (zero point), `mulf`.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import arith, math
from xdsl.dialects.arith import FastMathFlagsAttr, IntegerOverflowAttr
from xdsl.dialects.builtin import Float64Type, IntegerAttr, IntegerType, i64
from xdsl.ir import Attribute, SSAValue

from xquant.dialects.quant.types import UniformQuantizedType
from xquant.numerics.storage_formats import inner_bounds
from xquant.numerics.uniform import quantile_entries
from xquant.transforms.utils.op_list import OpList
from xquant.transforms.utils.quant_emitters import Params, scalar_constant

__all__ = ["emit_storage_dequantize", "emit_storage_quantize", "stored_element"]

_F64 = Float64Type()
_I1 = IntegerType(1)
_FASTMATH = {"fastmath": FastMathFlagsAttr("none")}


def _cmpf(predicate: int) -> dict[str, Attribute]:
    return {"predicate": IntegerAttr(predicate, 64), **_FASTMATH}


_CMPF_UNO = _cmpf(14)
_CMPF_OLT = _cmpf(4)
_CMPI_EQ = {"predicate": IntegerAttr(0, 64)}
_NO_OVERFLOW = {"overflowFlags": IntegerOverflowAttr("none")}


def stored_element(qtype: UniformQuantizedType) -> Attribute:
    """The element type the lowered IR holds stored values in: the float storage
    type, or the signless integer of a quantile table's storage width."""
    if qtype.float_storage is not None:
        return qtype.storage_spec
    return IntegerType(qtype.storage_width)


def _scaled(ops: OpList, x: SSAValue, params: Params) -> SSAValue:
    value = ops.create(arith.DivfOp, (x, params.scale), x.type, _FASTMATH)
    if params.zero_point is not None:
        value = ops.create(arith.AddfOp, (value, params.zero_point), x.type, _FASTMATH)
    return value


def emit_storage_quantize(
    ops: OpList, x: SSAValue, params: Params, qtype: UniformQuantizedType
) -> SSAValue:
    """Expressed float `x` (scalar) to a stored value of `stored_element(qtype)`."""
    value = _scaled(ops, x, params)
    fmt = qtype.float_storage
    if fmt is not None:
        lo, hi = inner_bounds(fmt, qtype.storage_min, qtype.storage_max)
        low = scalar_constant(ops, lo, x.type)
        high = scalar_constant(ops, hi, x.type)
        value = ops.create(arith.MaximumfOp, (value, low), x.type, _FASTMATH)
        value = ops.create(arith.MinimumfOp, (value, high), x.type, _FASTMATH)
        if not fmt.has_nan:
            zero = scalar_constant(ops, 0.0, x.type)
            is_nan = ops.create(arith.CmpfOp, (value, value), _I1, _CMPF_UNO)
            value = ops.create(arith.SelectOp, (is_nan, zero, value), x.type)
        return ops.create(arith.TruncFOp, (value,), qtype.storage_spec)
    quantile = qtype.quantile
    assert quantile is not None
    entries = quantile_entries(quantile)
    first, low, high = quantile.storage_min, qtype.storage_min, qtype.storage_max
    if x.type != _F64:
        value = ops.create(arith.ExtFOp, (value,), _F64)

    def distance(stored: int) -> SSAValue:
        entry = scalar_constant(ops, float(entries[stored - first]), _F64)
        diff = ops.create(arith.SubfOp, (value, entry), _F64, _FASTMATH)
        return ops.create(math.AbsFOp, (diff,), _F64, _FASTMATH)

    best = scalar_constant(ops, low, i64)
    best_distance = distance(low)
    for stored in range(low + 1, high + 1):
        candidate = distance(stored)
        closer = ops.create(arith.CmpfOp, (candidate, best_distance), _I1, _CMPF_OLT)
        index = scalar_constant(ops, stored, i64)
        best = ops.create(arith.SelectOp, (closer, index, best), i64)
        best_distance = ops.create(
            arith.SelectOp, (closer, candidate, best_distance), _F64
        )
    return ops.create(arith.TruncIOp, (best,), stored_element(qtype), _NO_OVERFLOW)


def emit_storage_dequantize(
    ops: OpList, q: SSAValue, params: Params, qtype: UniformQuantizedType
) -> SSAValue:
    """A stored value `q` (of `stored_element(qtype)`) to the expressed type."""
    expressed = qtype.expressed_type
    quantile = qtype.quantile
    if quantile is None:
        value = ops.create(arith.ExtFOp, (q,), expressed, _FASTMATH)
    else:
        entries = quantile_entries(quantile)
        first = quantile.storage_min
        extend = arith.ExtSIOp if quantile.is_signed else arith.ExtUIOp
        wide = ops.create(extend, (q,), i64)
        values = np.asarray(entries).astype(np.float64)
        value = scalar_constant(ops, float(values[0]), expressed)
        for offset in range(1, len(values)):
            stored = scalar_constant(ops, first + offset, i64)
            hit = ops.create(arith.CmpiOp, (wide, stored), _I1, _CMPI_EQ)
            entry = scalar_constant(ops, float(values[offset]), expressed)
            value = ops.create(arith.SelectOp, (hit, entry, value), expressed)
    if params.zero_point is not None:
        value = ops.create(
            arith.SubfOp, (value, params.zero_point), expressed, _FASTMATH
        )
    return ops.create(arith.MulfOp, (value, params.scale), expressed, _FASTMATH)
