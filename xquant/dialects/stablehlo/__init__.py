"""A StableHLO subset on xDSL, centred on quantized types (xDSL 0.74 ships no `stablehlo` dialect).

Modules, one concept each:
- `attributes`: enums (precision, comparison) and dot/gather/conv dimension numbers
- `type_utils`: what a type is (quantized, per-axis, pred), shapes, bit widths, compatibility and promotion
- `quantization`: the spec's quantization constraints and upstream's messages
- `inferred_types`: upstream's 'inferred type(s) ... are incompatible' check and message
- `syntax`: the pretty-syntax pieces and format bases the ops share
- `elementwise`: arithmetic, clamp, compare, select, convert, bitcast_convert
- `quantize_ops`: uniform_quantize, uniform_dequantize (the ops; `quantization` holds the rules they and all others check)
- `structural`: reshape, transpose, broadcast_in_dim, concatenate, slice, iota, gather
- `dot_conv`: dot_general, convolution
- `reductions`: reduce, reduce_window, select_and_scatter (wider accumulators), return
- `constant`: constant (incl. quantized constants), custom_call
- `types`: `!stablehlo.token`, `#stablehlo.bounds` (type extensions), `#stablehlo.channel_handle`
- `bitwise`: and, or, xor, not, popcnt, count_leading_zeros, shifts
- `math_extra`: remainder, atan2, tan, is_finite, real, imag, complex, reduce_precision
- `dynamism`: get_dimension_size, dynamic_broadcast_in_dim, dynamic_reshape, dynamic_slice, dynamic_update_slice
- `misc`: dot, pad, reverse, einsum, cholesky, optimization_barrier, tuple, get_tuple_element, composite, batch_norm_*
- `control_flow`: while, map, sort, scatter
- `collectives`: all_gather, all_to_all, all_reduce, reduce_scatter, collective_permute, send, recv, infeed,
  outfeed, after_all, replica_id, partition_id

The `check` ops that StableHLO's tests use live in `xquant.dialects.check`.
"""

from xdsl.ir import Dialect

from xquant.dialects.stablehlo.attributes import ATTRIBUTES
from xquant.dialects.stablehlo.bitwise import BITWISE_OPS
from xquant.dialects.stablehlo.collectives import COLLECTIVE_OPS
from xquant.dialects.stablehlo.constant import CONSTANT_OPS, ConstantOp, CustomCallOp
from xquant.dialects.stablehlo.control_flow import CONTROL_FLOW_OPS, WhileOp
from xquant.dialects.stablehlo.dot_conv import DOT_CONV_OPS, ConvolutionOp, DotGeneralOp
from xquant.dialects.stablehlo.dynamism import DYNAMISM_OPS
from xquant.dialects.stablehlo.elementwise import *  # noqa: F403
from xquant.dialects.stablehlo.elementwise import ELEMENTWISE_OPS
from xquant.dialects.stablehlo.math_extra import MATH_EXTRA_OPS
from xquant.dialects.stablehlo.misc import MISC_OPS, DotOp
from xquant.dialects.stablehlo.quantize_ops import (
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
from xquant.dialects.stablehlo.types import TYPES_AND_ATTRIBUTES, TokenType

StableHLO = Dialect(
    "stablehlo",
    [
        *ELEMENTWISE_OPS,
        *QUANTIZE_OPS,
        *STRUCTURAL_OPS,
        *DOT_CONV_OPS,
        *REDUCTION_OPS,
        *CONSTANT_OPS,
        *BITWISE_OPS,
        *MATH_EXTRA_OPS,
        *DYNAMISM_OPS,
        *MISC_OPS,
        *CONTROL_FLOW_OPS,
        *COLLECTIVE_OPS,
    ],
    [*ATTRIBUTES, *TYPES_AND_ATTRIBUTES],
)

__all__ = [
    "BroadcastInDimOp",
    "ConcatenateOp",
    "ConstantOp",
    "ConvolutionOp",
    "CustomCallOp",
    "DotGeneralOp",
    "DotOp",
    "GatherOp",
    "IotaOp",
    "ReduceOp",
    "ReduceWindowOp",
    "ReshapeOp",
    "ReturnOp",
    "SelectAndScatterOp",
    "SliceOp",
    "StableHLO",
    "TokenType",
    "TransposeOp",
    "UniformDequantizeOp",
    "UniformQuantizeOp",
    "WhileOp",
]
