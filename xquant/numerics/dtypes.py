"""The one mapping between xDSL element types and numpy dtypes.

The interpreter, the numerics and the tests all go through here so that a
`tensor<4xf8E4M3FN>` is always an `ml_dtypes.float8_e4m3fn` array and an `i4`
storage value always lives in an `int8`.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects import builtin
from xdsl.dialects.builtin import IndexType, IntegerType, Signedness
from xdsl.ir import Attribute
from xdsl.utils.hints import isa

_FLOAT_DTYPES: dict[type[Attribute], np.dtype] = {
    builtin.Float16Type: np.dtype(np.float16),
    builtin.Float32Type: np.dtype(np.float32),
    builtin.Float64Type: np.dtype(np.float64),
    builtin.BFloat16Type: np.dtype(ml_dtypes.bfloat16),
    builtin.Float8E4M3FNType: np.dtype(ml_dtypes.float8_e4m3fn),
    builtin.Float8E5M2Type: np.dtype(ml_dtypes.float8_e5m2),
    builtin.Float8E4M3Type: np.dtype(ml_dtypes.float8_e4m3),
    builtin.Float8E5M2FNUZType: np.dtype(ml_dtypes.float8_e5m2fnuz),
    builtin.Float8E4M3FNUZType: np.dtype(ml_dtypes.float8_e4m3fnuz),
    builtin.Float8E4M3B11FNUZType: np.dtype(ml_dtypes.float8_e4m3b11fnuz),
    builtin.Float8E3M4Type: np.dtype(ml_dtypes.float8_e3m4),
    builtin.Float8E8M0FNUType: np.dtype(ml_dtypes.float8_e8m0fnu),
    builtin.Float6E2M3FNType: np.dtype(ml_dtypes.float6_e2m3fn),
    builtin.Float6E3M2FNType: np.dtype(ml_dtypes.float6_e3m2fn),
    builtin.Float4E2M1FNType: np.dtype(ml_dtypes.float4_e2m1fn),
}


def integer_facts(attr: IntegerType[int, Signedness]) -> tuple[int, Signedness]:
    """(width, signedness) of an integer type, typed (xDSL's generic parameters are not)."""
    return attr.width.data, attr.signedness.data


def integer_range(width: int, signed: bool) -> tuple[int, int]:
    """The values of a `width`-bit integer: [-2^(w-1), 2^(w-1) - 1] signed, [0, 2^w - 1] unsigned."""
    if signed:
        return -(1 << (width - 1)), (1 << (width - 1)) - 1
    return 0, (1 << width) - 1


def integer_dtype(width: int, signed: bool) -> np.dtype:
    """The smallest numpy integer dtype holding `width` bits of the given signedness."""
    if width == 1:
        return np.dtype(np.bool_) if not signed else np.dtype(np.int8)
    for bits in (8, 16, 32, 64):
        if width <= bits:
            return np.dtype(f"{'int' if signed else 'uint'}{bits}")
    raise ValueError(f"no numpy integer dtype holds {width} bits")


def storage_dtype(width: int, signed: bool) -> np.dtype:
    """The numpy dtype holding quantized storage integers (`i4` -> int8, `u8` -> uint8)."""
    if width == 1:
        return np.dtype(np.int8) if signed else np.dtype(np.uint8)
    return integer_dtype(width, signed)


def numpy_dtype(element_type: Attribute) -> np.dtype:
    """The numpy dtype of a builtin element type.

    Signless integers are held signed (`i8` -> int8, `i1` -> bool); `index` is int64.
    """
    if isa(element_type, IntegerType):
        width, signedness = integer_facts(element_type)
        if width == 1:
            return np.dtype(np.bool_)
        return integer_dtype(width, signedness != Signedness.UNSIGNED)
    if isinstance(element_type, IndexType):
        return np.dtype(np.int64)
    if (dtype := _FLOAT_DTYPES.get(type(element_type))) is not None:
        return dtype
    raise ValueError(f"no numpy dtype for element type {element_type}")


# ----- one nearest-even rounding into any float dtype -----

ML_FLOAT_DTYPES = frozenset(
    np.dtype(t)
    for t in (
        ml_dtypes.bfloat16,
        ml_dtypes.float8_e4m3fn,
        ml_dtypes.float8_e5m2,
        ml_dtypes.float8_e4m3,
        ml_dtypes.float8_e5m2fnuz,
        ml_dtypes.float8_e4m3fnuz,
        ml_dtypes.float8_e4m3b11fnuz,
        ml_dtypes.float8_e3m4,
        ml_dtypes.float8_e8m0fnu,
        ml_dtypes.float6_e2m3fn,
        ml_dtypes.float6_e3m2fn,
        ml_dtypes.float4_e2m1fn,
    )
)
"""The ml_dtypes float formats (numpy casts into them go through float32)."""


def _round_to_odd_f32(x: np.ndarray) -> np.ndarray:
    """float64 -> float32 rounding to odd, so a second RNE rounding to a narrower type is exact."""
    r = x.astype(np.float32)
    back = r.astype(np.float64)
    finite = np.isfinite(x)
    inexact = (back != x) & finite
    if not inexact.any():
        return r
    bits = r.view(np.uint32).copy()
    over = (np.abs(back) > np.abs(x)) & inexact
    bits = bits - over.astype(np.uint32)
    bits = bits | inexact.astype(np.uint32)
    return bits.view(np.float32)


def cast_float(x: Any, dt: np.dtype[Any]) -> Any:
    """Round a float (or integer, exactly held) value to float dtype `dt` with one RNE rounding."""
    arr = np.asarray(x)
    if arr.dtype == dt:
        return x
    if dt in ML_FLOAT_DTYPES:
        if arr.dtype.kind in "iub":
            arr = arr.astype(np.float64)
        if arr.dtype == np.float64:
            arr = _round_to_odd_f32(arr)
        elif (
            arr.dtype != np.float32
            and arr.dtype not in ML_FLOAT_DTYPES
            and arr.dtype != np.float16
        ):
            arr = arr.astype(np.float64)
            arr = _round_to_odd_f32(arr)
        elif arr.dtype in ML_FLOAT_DTYPES or arr.dtype == np.float16:
            arr = arr.astype(np.float32)  # exact widening
    elif dt == np.float16 and arr.dtype in ML_FLOAT_DTYPES:
        arr = arr.astype(np.float32)
    elif arr.dtype in ML_FLOAT_DTYPES:
        arr = arr.astype(np.float32)
    r = arr.astype(dt)
    return r if type(x) is np.ndarray else r[()]


def integers_to_float(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Integer array to float `dtype` with one rounding to nearest even (`arith.sitofp`).

    numpy converts to f32/f64 directly; narrower types go through an exact
    f64 and `cast_float` (numpy and ml_dtypes would round twice through f32).
    Dequantize and the interpreter's `sitofp`/`uitofp` both use it.
    """
    if dtype == np.float32 or dtype == np.float64:
        return values.astype(dtype)
    return cast_float(values.astype(np.float64), dtype)
