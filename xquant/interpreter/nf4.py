"""`quant.qcast`/`dcast`/`scast` on `!quant.double_quantized` tensors (called from `quant.py`).

A tensor of `!quant.double_quantized` is held as an `NF4Double` record (its
codes, `i8` block scales, factors and mean); `scast` to and from the 1-D
`i8` byte tensor (layout "torchao.nf4") splits and joins those parts.
`dcast` and `qcast` are `numerics.nf4_double` (bit-exact with torchao).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Operation

from xquant.dialects.quant.nf4 import DoubleQuantizedType
from xquant.interpreter.errors import op_error
from xquant.numerics import nf4_double
from xquant.numerics.dtypes import numpy_dtype


def _record(op: Operation, value: Any) -> nf4_double.NF4Double:
    if not isinstance(value, nf4_double.NF4Double):
        raise op_error(op, "expected a !quant.double_quantized value")
    return value


def dcast(op: Operation, qtype: DoubleQuantizedType, value: Any) -> np.ndarray:
    return nf4_double.dequantize(_record(op, value))


def qcast(
    op: Operation, qtype: DoubleQuantizedType, value: Any
) -> nf4_double.NF4Double:
    x = np.asarray(value)
    if x.dtype != numpy_dtype(qtype.expressed_type):
        raise op_error(op, f"expected {qtype.expressed_type} values, got {x.dtype}")
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        return nf4_double.quantize(x, qtype.block, qtype.scaler_block)


def to_quantized(
    op: Operation, qtype: DoubleQuantizedType, shape: tuple[int, ...], value: Any
) -> nf4_double.NF4Double:
    """`scast` from the `i8` bytes."""
    data = np.asarray(value).view(np.uint8)
    dtype = numpy_dtype(qtype.expressed_type)
    try:
        return nf4_double.from_bytes(
            data, shape, dtype, qtype.block, qtype.scaler_block
        )
    except ValueError as err:
        raise op_error(op, str(err)) from err


def to_storage(op: Operation, value: Any) -> np.ndarray:
    """`scast` to the `i8` bytes."""
    return nf4_double.to_bytes(_record(op, value)).view(np.int8)
