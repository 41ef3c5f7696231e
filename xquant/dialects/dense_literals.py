"""Hexadecimal float elements in dense literals, as MLIR reads them.

MLIR prints non-finite floats inside `dense<[...]>` as their bit pattern
(`dense<[1.0, 0x7F800000, 0xFF800000]> : tensor<3xf32>` is 1, +inf, -inf), and
StableHLO's test data is full of them. xDSL 0.74 reads such an element as the
integer 2139095040 and converts it to a float. `install()` teaches xDSL's
tensor-literal element the MLIR rule: a hexadecimal integer literal in a float
tensor is the bit pattern of the element, and must have exactly the width of
the element type.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import AnyFloat
from xdsl.parser import AttrParser

_installed = False


def bits_to_float(bits: int, float_type: Any) -> float:
    """The value of the bit pattern `bits` read as an element of `float_type`."""
    import numpy as np  # only when a hex float literal is read: keeps xdsl-opt startup light

    from xquant.numerics.dtypes import numpy_dtype

    dtype = numpy_dtype(float_type)
    width = float_type.bitwidth
    container = np.dtype(f"uint{max(8, dtype.itemsize * 8)}")
    return float(
        np.array(bits, dtype=container).view(dtype)
        if width == dtype.itemsize * 8
        else float_type.decode_bits(bits)
    )


def install() -> None:
    """Patch xDSL's tensor-literal element conversion (idempotent)."""
    global _installed
    if _installed:
        return
    _installed = True
    element_class = AttrParser._TensorLiteralElement  # pyright: ignore[reportPrivateUsage]
    original_to_type = element_class.to_type

    def to_type(self: Any, parser: AttrParser, type: Any) -> Any:
        if (
            not isinstance(type, AnyFloat)
            or not isinstance(self.value, int)
            or isinstance(self.value, bool)
        ):
            return original_to_type(self, parser, type)
        text = self.span.text
        if not text.lower().startswith("0x"):
            return original_to_type(self, parser, type)
        if self.value.bit_length() > type.bitwidth:
            parser.raise_error(
                f"hexadecimal float constant out of range for type {type}",
                at_position=self.span,
            )
        return bits_to_float(self.value, type)

    element_class.to_type = to_type  # pyright: ignore[reportAttributeAccessIssue]
