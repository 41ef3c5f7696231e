"""`quant.qcast`/`dcast`/`scast` on `!quant.superblock` tensors (called from `quant.py`).

A tensor of `!quant.superblock` is held as a `PackedBlocks` record: its raw
block bytes (uint8, the blocked dimension counted in bytes) and its element
shape; `scast` to and from the `i8` storage tensor is a view. `dcast` is
`numerics.gguf.layouts.dequantize` (bit-exact with gguf's dequantizers),
`qcast` llama.cpp's reference quantizer (`numerics.gguf.quantize`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Operation

from xquant.dialects.quant.superblock import SuperblockQuantizedType
from xquant.interpreter.errors import op_error
from xquant.numerics.dtypes import cast_float, numpy_dtype
from xquant.numerics.gguf.layouts import PackedBlocks
from xquant.numerics.gguf.quantize import QUANTIZERS, quantize


def _packed(op: Operation, value: Any) -> PackedBlocks:
    if not isinstance(value, PackedBlocks):
        raise op_error(op, "expected a !quant.superblock value (raw block bytes)")
    return value


def dcast(op: Operation, qtype: SuperblockQuantizedType, value: Any) -> np.ndarray:
    values = _packed(op, value).dequantize()
    dtype = numpy_dtype(qtype.expressed_type)
    return values if dtype == np.float32 else cast_float(values, dtype)


def qcast(op: Operation, qtype: SuperblockQuantizedType, value: Any) -> PackedBlocks:
    if qtype.ggml_type not in QUANTIZERS:
        raise op_error(
            op, f'no reference quantizer for layout "{qtype.layout}" (dequantize only)'
        )
    x = np.asarray(value)
    with np.errstate(invalid="ignore", over="ignore"):
        data = quantize(x.astype(np.float32), qtype.ggml_type)
    return PackedBlocks(data, tuple(x.shape), qtype.block_layout)


def to_quantized(
    op: Operation, qtype: SuperblockQuantizedType, value: Any
) -> PackedBlocks:
    """`scast` from the `i8` bytes: a view."""
    data = np.asarray(value).view(np.uint8)
    layout = qtype.block_layout
    shape = list(data.shape)
    if not shape or shape[-1] % layout.type_size:
        raise op_error(
            op,
            f"{list(data.shape)} bytes do not hold whole {layout.name} blocks "
            f"of {layout.type_size} bytes",
        )
    shape[-1] = shape[-1] // layout.type_size * layout.block_size
    return PackedBlocks(data, tuple(shape), layout)


def to_storage(op: Operation, value: Any) -> np.ndarray:
    """`scast` to the `i8` bytes: a view."""
    return _packed(op, value).data.view(np.int8)
