"""Facts about the expressed (float) types that quantization parameters live in.

Upstream checks every scale against `[APFloat::getSmallest, APFloat::getLargest]`
of the expressed type (converted to double), and stores sub-channel scales
rounded into the expressed type. Both need the same small table.
"""

from __future__ import annotations

import functools
from typing import Any, cast

import ml_dtypes
import numpy as np
from xdsl.dialects import builtin
from xdsl.ir import Attribute

from xquant.numerics.dtypes import numpy_dtype
from xquant.numerics.float_format import round_double, semantics_of
from xquant.xdsl_internals import FloatTypeBase

# Types numpy cannot hold. tf32 has f32's exponent range and a 10-bit mantissa;
# f80/f128 do not fit a double, so a double can never leave their range.
_TF32_SMALLEST = 2.0**-136
_TF32_LARGEST = (2.0 - 2.0**-10) * 2.0**127
_DOUBLE_SMALLEST = 5e-324
_DOUBLE_LARGEST = float(np.finfo(np.float64).max)


def is_float_type(attr: Attribute) -> bool:
    """Whether `attr` is one of the builtin float types (f16, bf16, f32, f8E4M3FN, ...)."""
    return isinstance(attr, FloatTypeBase)


@functools.lru_cache(maxsize=64)
def scale_range(float_type: Attribute) -> tuple[float, float]:
    """(smallest positive denormal, largest finite) of `float_type`, as doubles."""
    if isinstance(float_type, builtin.FloatTF32Type):
        return _TF32_SMALLEST, _TF32_LARGEST
    if isinstance(float_type, builtin.Float80Type | builtin.Float128Type):
        return _DOUBLE_SMALLEST, _DOUBLE_LARGEST
    info = cast(Any, ml_dtypes.finfo(numpy_dtype(float_type)))
    return float(info.smallest_subnormal), float(info.max)


def round_to_float_type(value: float, float_type: Attribute) -> float:
    """`value` rounded once, to nearest-even, into `float_type`; returned as a double."""
    return round_double(value, semantics_of(float_type))
