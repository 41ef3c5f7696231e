"""A StableHLO subset on xDSL, centred on quantized types (xDSL 0.74 ships no `stablehlo` dialect).

Modules, one concept each:
- `attributes`: enums (precision, comparison) and dot/gather/conv dimension numbers
- `quantization`: the spec's quantization constraints and upstream's messages
- `elementwise`: arithmetic, clamp, compare, select, convert, bitcast_convert
- `quantize`: uniform_quantize, uniform_dequantize
- `structural`: reshape, transpose, broadcast_in_dim, concatenate, slice, iota, gather
- `dot_conv`: dot_general, convolution
- `reductions`: reduce, reduce_window, select_and_scatter (wider accumulators), return
- `constant`: constant (incl. quantized constants), custom_call

The `check` ops that StableHLO's tests use live in `xquant.dialects.check`.
"""

from xdsl.ir import Dialect

from xquant.dialects.stablehlo.attributes import ATTRIBUTES
from xquant.dialects.stablehlo.constant import CONSTANT_OPS, ConstantOp, CustomCallOp
from xquant.dialects.stablehlo.dot_conv import DOT_CONV_OPS, ConvolutionOp, DotGeneralOp
from xquant.dialects.stablehlo.elementwise import *  # noqa: F403
from xquant.dialects.stablehlo.elementwise import ELEMENTWISE_OPS
from xquant.dialects.stablehlo.quantize import (
    QUANTIZE_OPS,
    UniformDequantizeOp,
    UniformQuantizeOp,
)
from xquant.dialects.stablehlo.reductions import (
    REDUCTION_OPS,
    ReduceOp,
    ReduceWindowOp,
    ReturnOp,
    SelectAndScatterOp,
)
from xquant.dialects.stablehlo.structural import (
    STRUCTURAL_OPS,
    BroadcastInDimOp,
    ConcatenateOp,
    GatherOp,
    IotaOp,
    ReshapeOp,
    SliceOp,
    TransposeOp,
)

StableHLO = Dialect(
    "stablehlo",
    [
        *ELEMENTWISE_OPS,
        *QUANTIZE_OPS,
        *STRUCTURAL_OPS,
        *DOT_CONV_OPS,
        *REDUCTION_OPS,
        *CONSTANT_OPS,
    ],
    ATTRIBUTES,
)

__all__ = [
    "BroadcastInDimOp",
    "ConcatenateOp",
    "ConstantOp",
    "ConvolutionOp",
    "CustomCallOp",
    "DotGeneralOp",
    "GatherOp",
    "IotaOp",
    "ReduceOp",
    "ReduceWindowOp",
    "ReshapeOp",
    "ReturnOp",
    "SelectAndScatterOp",
    "SliceOp",
    "StableHLO",
    "TransposeOp",
    "UniformDequantizeOp",
    "UniformQuantizeOp",
]
