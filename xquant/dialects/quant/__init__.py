"""MLIR's `quant` dialect on xDSL: the quantized types and the three cast ops."""

from xdsl.ir import Dialect

from xquant.dialects.quant.nf4 import DoubleQuantizedType
from xquant.dialects.quant.ops import DequantizeCastOp, QuantizeCastOp, StorageCastOp
from xquant.dialects.quant.quantile import QuantileQuantizedType
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
        QuantileQuantizedType,
        SuperblockQuantizedType,
        DoubleQuantizedType,
    ],
)

__all__ = [
    "AnyQuantizedType",
    "CalibratedQuantizedType",
    "DequantizeCastOp",
    "DoubleQuantizedType",
    "Quant",
    "QuantileQuantizedType",
    "QuantizeCastOp",
    "QuantizedType",
    "StorageCastOp",
    "StorageQuantizedType",
    "SuperblockQuantizedType",
    "UniformQuantizedType",
]
