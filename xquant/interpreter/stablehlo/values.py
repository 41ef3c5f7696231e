"""StableHLO tensor values in the interpreter: numpy arrays of storage, and conversions between element types.

A tensor of `!quant.uniform` holds its storage integers; `to_float` and
`from_float` cross to and from the expressed type, `convert_to` converts
between any two element types (a requantize for quantized ones).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    IntegerType,
    Signedness,
)
from xdsl.interpreter import PythonValues
from xdsl.ir import Attribute
from xdsl.utils.hints import isa

from xquant.dialects.stablehlo.type_utils import quantized
from xquant.numerics import uniform
from xquant.numerics.dtypes import cast_float, integer_range, storage_dtype
from xquant.numerics.values import (
    dtype_of,
    element_type,
    int_info,
    is_float_dtype,
    wrap,
)


def holder_dtype(t: Attribute) -> np.dtype[Any]:
    """The numpy dtype holding values of (a tensor of) `t`: storage integers for quantized types."""
    if (q := quantized(t)) is not None:
        return storage_dtype(q.storage_width, q.is_signed)
    return dtype_of(t)


def as_array(value: Any, t: Attribute) -> np.ndarray:
    """`value` as a numpy array of the holder dtype of `t` (0-d stays 0-d)."""
    array = np.asarray(value)
    dtype = holder_dtype(t)
    return array if array.dtype == dtype else array.astype(dtype)


def to_float(value: np.ndarray, t: Attribute) -> np.ndarray:
    """Dequantize if `t` is quantized, else return the value unchanged."""
    if (q := quantized(t)) is not None:
        return uniform.dequantize(np.asarray(value), q)
    return np.asarray(value)


def from_float(value: np.ndarray, t: Attribute) -> np.ndarray:
    """Quantize into `t` if it is quantized, else cast to its element dtype."""
    if (q := quantized(t)) is not None:
        return uniform.quantize(np.asarray(value), q)
    return convert_values(np.asarray(value), t)


def convert_values(value: np.ndarray, t: Attribute) -> np.ndarray:
    """`stablehlo.convert` into the (non-quantized) element type of `t`.

    Floats to integers truncate toward zero and saturate, NaN becomes 0; to
    `i1`, non-zero is true; integers wrap to narrow widths.
    """
    dtype = dtype_of(t)
    value = np.asarray(value)
    if dtype.kind == "b":
        return value != 0
    if dtype.kind in "iu" and is_float_dtype(value.dtype):
        if value.size and _fits(value, element_type(t)):
            return value.astype(dtype)  # truncates toward zero; nothing to saturate
        info = np.iinfo(dtype)
        element = element_type(t)
        width = element.width.data if isa(element, IntegerType) else dtype.itemsize * 8
        low, high = (
            (info.min, info.max)
            if width == dtype.itemsize * 8
            else integer_range(width, dtype.kind == "i")
        )
        with np.errstate(invalid="ignore"):
            wide = np.trunc(np.nan_to_num(value.astype(np.float64), nan=0.0))
        # high + 1 is a power of two, exact in float64 (high itself may not be: 2^63 - 1).
        too_big = wide >= float(high + 1)
        result = np.maximum(np.where(too_big, 0.0, wide), float(low)).astype(dtype)
        return np.where(too_big, dtype.type(high), result)
    if dtype.kind in "iu":
        return wrap(
            value.astype(np.int64) if value.dtype.kind == "b" else value,
            int_info(element_type(t)),
        )
    with np.errstate(
        all="ignore"
    ):  # one rounding (ml_dtypes' own casts go through f32)
        return cast_float(value, dtype)


def _fits(value: np.ndarray, element: Attribute) -> bool:
    """Every value is finite and inside the integer type's range (NaN fails the comparisons)."""
    if not isa(element, IntegerType):
        return False
    unsigned = element.signedness.data == Signedness.UNSIGNED
    low, high = integer_range(element.width.data, not unsigned)
    # Python float vs int compares exactly (numpy would round `high` to the float type).
    return float(value.min()) >= low and float(value.max()) <= high


def convert_to(
    value: np.ndarray, from_type: Attribute, to_type: Attribute
) -> np.ndarray:
    """The spec's `to_destination_type`: requantize between quantized types, else convert."""
    from_q, to_q = quantized(from_type), quantized(to_type)
    if element_type(from_type) == element_type(to_type):
        return np.asarray(value)
    if from_q is not None and to_q is not None:
        return uniform.requantize(np.asarray(value), from_q, to_q)
    if from_q is not None:
        return convert_values(uniform.dequantize(np.asarray(value), from_q), to_type)
    if to_q is not None:
        return uniform.quantize(
            np.asarray(value).astype(uniform.expressed_dtype(to_q)), to_q
        )
    return convert_values(np.asarray(value), to_type)


def as_result(value: np.ndarray, t: Attribute) -> np.ndarray:
    """`value` held as a result of type `t`: views stay views, rank 0 stays rank 0."""
    return np.asarray(as_array(value, t))


def as_results(
    values: Sequence[np.ndarray], types: Sequence[Attribute]
) -> PythonValues:
    """`as_result` for each result of an op."""
    return tuple(as_result(v, t) for v, t in zip(values, types, strict=True))
