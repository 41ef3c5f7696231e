"""MLIR's `quant` dialect on xDSL: the quantized types and the three cast ops."""

from xdsl.ir import Dialect

from xquant.dialects.quant.ops import DequantizeCastOp, QuantizeCastOp, StorageCastOp
from xquant.dialects.quant.superblock import SuperblockQuantizedType
from xquant.dialects.quant.types import (
    AnyQuantizedType,
    CalibratedQuantizedType,
    QuantizedType,
    StorageQuantizedType,
    UniformQuantizedType,
)

Quant = Dialect(
    "quant",
    [QuantizeCastOp, DequantizeCastOp, StorageCastOp],
    [
        AnyQuantizedType,
        UniformQuantizedType,
        CalibratedQuantizedType,
        SuperblockQuantizedType,
    ],
)

__all__ = [
    "AnyQuantizedType",
    "CalibratedQuantizedType",
    "DequantizeCastOp",
    "Quant",
    "QuantizeCastOp",
    "QuantizedType",
    "StorageCastOp",
    "StorageQuantizedType",
    "SuperblockQuantizedType",
    "UniformQuantizedType",
]
