"""The `mx_tensor` dialect: OCP microscaling (MX) tensors.

An `!mx_tensor.tensor` is a scale tensor plus one data tensor (or several,
split storage) of an element format; element `i` uses the scale at
`i // block` in every dimension. E8M0 scales (f8E8M0FNU, or an 8-bit integer
holding the byte) mean `2^(b-127)` and 0xFF is NaN for its whole block; a
float scale is a plain multiplier. Split storage holds the element bit
patterns as integer tensors, most significant bits first (fp6 = i2 high +
i4 low). Quantize follows OCP MX v1.0 section 6.3 (`algorithm = "floor"`)
or rounds the scale up (`"rceil"`); dequantize is `decode(element) * scale`.
NVIDIA's NVFP4 is the same type with f8E4M3FN scales over 16 f4E2M1FN
elements (`algorithm = "nvfp4"`, an optional f32 per-tensor scale operand).
The exact rules are in `xquant.numerics.mx`; the type in `types.py`, the ops
in `ops.py`, which slices are expressible in `slicing.py`.
"""

from xdsl.ir import Dialect

from xquant.dialects.mx_tensor.ops import (
    AlgorithmAttr,
    ConstructOp,
    DeconstructOp,
    DequantizeOp,
    EmptyOp,
    ExtractSliceOp,
    InsertSliceOp,
    QuantizeOp,
)
from xquant.dialects.mx_tensor.types import MxTensorType

MxTensor = Dialect(
    "mx_tensor",
    [
        EmptyOp,
        ConstructOp,
        DeconstructOp,
        QuantizeOp,
        DequantizeOp,
        ExtractSliceOp,
        InsertSliceOp,
    ],
    [MxTensorType, AlgorithmAttr],
)

__all__ = [
    "AlgorithmAttr",
    "ConstructOp",
    "DeconstructOp",
    "DequantizeOp",
    "EmptyOp",
    "ExtractSliceOp",
    "InsertSliceOp",
    "MxTensor",
    "MxTensorType",
    "QuantizeOp",
]
