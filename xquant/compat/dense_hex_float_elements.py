"""xDSL 0.74 reads a hexadecimal element of a float dense literal as an integer value.

MLIR prints non-finite floats inside `dense<[...]>` as their bit pattern, and
StableHLO's test data is full of them: `dense<[1.0, 0x7F800000]> : tensor<2xf32>`
is `[1.0, +inf]`. xDSL reads `0x7F800000` as the integer 2139095040 and converts
it to the float 2.139095e+09. Reproducer:

    %c = arith.constant dense<[1.0, 0x7F800000]> : tensor<2xf32>

The fix teaches xDSL's tensor-literal element MLIR's rule: a hexadecimal integer
literal in a float tensor is the bit pattern of the element, and must fit the
width of the element type. The element class is private to xDSL's parser.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import AnyFloat, ReducedPrecisionFloatType
from xdsl.parser import AttrParser

from xquant.numerics.dtypes import numpy_dtype

_TensorLiteralElement: Any = AttrParser._TensorLiteralElement  # pyright: ignore[reportPrivateUsage]
_xdsl_to_type: Callable[[Any, AttrParser, Any], Any] = _TensorLiteralElement.to_type


def bits_to_float(bits: int, float_type: AnyFloat) -> float:
    """The value of the bit pattern `bits` read as an element of `float_type`."""
    dtype = numpy_dtype(float_type)
    if float_type.bitwidth != dtype.itemsize * 8:
        # Narrower than its numpy holder (f4, f6): one of xDSL's reduced-precision floats.
        reduced = cast(ReducedPrecisionFloatType, float_type)
        return float(reduced.decode_bits(bits))
    container = np.dtype(f"uint{max(8, dtype.itemsize * 8)}")
    return float(np.array(bits, dtype=container).view(dtype))


def _to_type(element: Any, parser: AttrParser, type: Any) -> Any:
    value = element.value
    is_hex_integer = (
        isinstance(value, int)
        and not isinstance(value, bool)
        and element.span.text.lower().startswith("0x")
    )
    if not isinstance(type, AnyFloat) or not is_hex_integer:
        return _xdsl_to_type(element, parser, type)
    if value.bit_length() > type.bitwidth:
        parser.raise_error(
            f"hexadecimal float constant out of range for type {type}",
            at_position=element.span,
        )
    return bits_to_float(value, type)


def install() -> None:
    """Read hexadecimal elements of float dense literals as bit patterns (idempotent)."""
    _TensorLiteralElement.to_type = _to_type
