"""The one mapping between xDSL element types and numpy dtypes.

The interpreter, the numerics and the tests all go through here so that a
`tensor<4xf8E4M3FN>` is always an `ml_dtypes.float8_e4m3fn` array and an `i4`
storage value always lives in an `int8`.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
from xdsl.dialects import builtin
from xdsl.dialects.builtin import IndexType, IntegerType, Signedness
from xdsl.ir import Attribute

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
    if isinstance(element_type, IntegerType):
        width, signedness = integer_facts(element_type)  # pyright: ignore[reportUnknownArgumentType]
        if width == 1:
            return np.dtype(np.bool_)
        return integer_dtype(width, signedness != Signedness.UNSIGNED)
    if isinstance(element_type, IndexType):
        return np.dtype(np.int64)
    if (dtype := _FLOAT_DTYPES.get(type(element_type))) is not None:
        return dtype
    raise ValueError(f"no numpy dtype for element type {element_type}")
