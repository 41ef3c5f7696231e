"""Type helpers the StableHLO ops, their verifiers, passes and the interpreter share.

What a type is (quantized, per-axis, `pred`), its shape and bit width, and StableHLO's
compatibility and promotion rules on types (`verifyCompatibleShape`,
`isPromotableElementType`). The quantization constraints built on them, with
upstream's messages, are in `quantization`.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ComplexType,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.printer import Printer
from xdsl.utils.hints import isa

from xquant.dialects.quant.types import QuantizedType, UniformQuantizedType
from xquant.numerics.values import element_type


def type_text(t: Attribute) -> str:
    """A type as MLIR prints it inside a diagnostic: `'tensor<2xf32>'`."""
    stream = io.StringIO()
    Printer(stream=stream).print_attribute(t)
    return f"'{stream.getvalue()}'"


def quantized(t: Attribute) -> UniformQuantizedType | None:
    """The `!quant.uniform` element type of `t`, if it has one."""
    element = element_type(t)
    return element if isinstance(element, UniformQuantizedType) else None


def is_quantized(t: Attribute) -> bool:
    return isinstance(element_type(t), QuantizedType)


def is_per_axis(t: Attribute) -> bool:
    return (q := quantized(t)) is not None and q.is_per_axis


def shape_of(t: Attribute) -> tuple[int, ...]:
    assert isinstance(t, TensorType)
    return tuple(t.get_shape())


def is_pred(element: Attribute) -> bool:
    """StableHLO's `pred` (AKA boolean): a 1-bit integer element type."""
    return isa(element, IntegerType) and element.width.data == 1


def dims_compatible(a: int, b: int) -> bool:
    """Two dimension sizes agree: equal, or either is dynamic (`?`)."""
    return a == b or DYNAMIC_INDEX in (a, b)


def same_scales_and_zero_points(
    a: UniformQuantizedType, b: UniformQuantizedType
) -> bool:
    return a.scales_attr == b.scales_attr and a.zero_points_attr == b.zero_points_attr


def compatible_element_types(a: Attribute, b: Attribute) -> bool:
    if isinstance(a, UniformQuantizedType) and isinstance(b, UniformQuantizedType):
        return (
            a.storage_width == b.storage_width
            and a.is_signed == b.is_signed
            and a.expressed_type == b.expressed_type
        )
    return a == b


def is_promotable(
    from_type: Attribute, to_type: Attribute, ignore_fp_precision: bool = True
) -> bool:
    """`is_promotable` of the spec (isPromotableElementType): same kind, no narrower storage.

    Quantized types need the same expressed type; only the storage width may
    grow, scales and zero points may differ.
    """
    from_e, to_e = element_type(from_type), element_type(to_type)
    from_bits, to_bits = bit_width(from_e), bit_width(to_e)
    if isinstance(from_e, UniformQuantizedType) or isinstance(
        to_e, UniformQuantizedType
    ):
        if not (
            isinstance(from_e, UniformQuantizedType)
            and isinstance(to_e, UniformQuantizedType)
        ):
            return False
        if from_e.expressed_type != to_e.expressed_type:
            return False
        return from_bits <= to_bits
    if _kind(from_e) != _kind(to_e) or _kind(from_e) is None:
        return False
    if ignore_fp_precision and _kind(from_e) == "float":
        return True
    return from_bits <= to_bits


def _kind(t: Attribute) -> str | None:
    if isinstance(t, IntegerType):
        return "integer"
    if isinstance(t, AnyFloat):
        return "float"
    if isinstance(t, ComplexType):
        return "complex"
    return None


def bit_width(t: Attribute) -> int:
    """The bits of one element: a quantized type's storage width, an integer's or float's width (else 0)."""
    if isinstance(t, UniformQuantizedType):
        return t.storage_width
    if isa(t, IntegerType):
        return t.width.data
    if isinstance(t, AnyFloat):
        return t.bitwidth
    return 0


def compatible_shapes(a: Sequence[int], b: Sequence[int]) -> bool:
    """Same rank, and each pair of dimensions equal unless one is dynamic (`?`)."""
    return len(a) == len(b) and all(
        dims_compatible(x, y) for x, y in zip(a, b, strict=True)
    )


def compatible_types(a: Attribute, b: Attribute) -> bool:
    """MLIR's `verifyCompatibleShape` plus equal element types (encodings are not compared)."""
    if a == b:
        return True
    if not (isa(a, TensorType) and isa(b, TensorType)):
        return False
    return element_type(a) == element_type(b) and compatible_shapes(
        a.get_shape(), b.get_shape()
    )
