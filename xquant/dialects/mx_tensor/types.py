"""`!mx_tensor.tensor`: a microscaling tensor, one scale tensor plus one or more data tensors.

Syntax (all three spellings of the design note parse; the first two print):

    !mx_tensor.tensor<<4x4xf8E8M0FNU>, <1024x1024xf8E4M3FN>>
    !mx_tensor.tensor<<32x1xf8E8M0FNU>, [<1024x1024xi2>, <1024x1024xi4>] x f6E2M3FN>
    !mx_tensor.tensor<<32x1xf8E8M0FNU>, <1024x1024xi2>, <1024x1024xi4> x f6E2M3FN>
    !mx_tensor.tensor<<32x1xf8E8M0FNU>, <<1024x1024xi2> x <1024x1024xi4> x f6E2M3FN>>

The first tensor is the scale, then come the data tensors and the compute
type (the element format). One data tensor of the compute type is plain
storage; anything else is split storage: signless integer tensors whose
widths add up to the compute type's width, most significant bits first.
The block size of dimension `d` is `data dim / scale dim`; the semantics are
in `xquant.numerics.mx`.

As a `ShapedType`, the type has the data shape and the compute type as its
element type, which is what lets linalg's named ops take it as an operand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import builtin
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    FixedBitwidthType,
    IntegerType,
    ShapedType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xquant.numerics import mx

__all__ = [
    "COMPUTE_TYPE_NAMES",
    "MxTensorType",
    "check_parts",
    "is_compute_type",
    "is_scale_type",
    "type_width",
]

COMPUTE_TYPE_NAMES = (
    "f8E4M3FN, f8E5M2, f6E2M3FN, f6E3M2FN, f4E2M1FN, i8, bf16, f16 or f32"
)

_SCALE_FLOATS: tuple[type[Attribute], ...] = (
    builtin.Float8E8M0FNUType,
    builtin.Float8E4M3FNType,
    builtin.Float8E5M2Type,
    builtin.BFloat16Type,
    builtin.Float16Type,
    builtin.Float32Type,
)


def _is_signless(attr: Attribute) -> bool:
    return isa(attr, IntegerType) and attr.signedness.data == Signedness.SIGNLESS


def is_compute_type(attr: Attribute) -> bool:
    """An element format the MX semantics define (MXINT8 is a signless i8)."""
    return mx.is_element_type(attr)


def is_scale_type(attr: Attribute) -> bool:
    """f8E8M0FNU or an 8-bit integer (the E8M0 byte), or a float multiplier."""
    if isa(attr, IntegerType):
        return attr.width.data == 8
    return isinstance(attr, _SCALE_FLOATS)


def type_width(attr: Attribute) -> int:
    """The bit width of an integer or float element type."""
    return cast(FixedBitwidthType, attr).bitwidth  # both are fixed-bitwidth types


def _shape_text(shape: Sequence[int]) -> str:
    return "x".join("?" if d == DYNAMIC_INDEX else str(d) for d in shape) or "scalar"


def check_parts(
    scale: TensorType[Attribute],
    data: Sequence[TensorType[Attribute]],
    compute: Attribute,
) -> None:
    """Every rule of the type; the message names the part, dimension and numbers that disagree."""
    scale_type = scale.get_element_type()
    if not is_scale_type(scale_type):
        raise VerifyException(
            f"scale element type must be f8E8M0FNU, an 8-bit integer or a float, got {scale_type}"
        )
    if not is_compute_type(compute):
        raise VerifyException(
            f"compute type must be {COMPUTE_TYPE_NAMES}, got {compute}"
        )
    if not data:
        raise VerifyException("expected at least one data tensor")
    scale_shape = scale.get_shape()
    if DYNAMIC_INDEX in scale_shape:
        raise VerifyException(f"scale shape {_shape_text(scale_shape)} must be static")
    for dim, count in enumerate(scale_shape):
        if count == 0:
            raise VerifyException(
                f"scale dimension {dim} has size 0; every dimension needs at least one scale"
            )
    data_shape = data[0].get_shape()
    for index, part in enumerate(data):
        shape = part.get_shape()
        if DYNAMIC_INDEX in shape:
            raise VerifyException(
                f"data tensor #{index} shape {_shape_text(shape)} must be static"
            )
        if shape != data_shape:
            raise VerifyException(
                f"data tensor #{index} has shape {_shape_text(shape)} but data tensor #0 has shape "
                f"{_shape_text(data_shape)}"
            )
    if len(scale_shape) != len(data_shape):
        raise VerifyException(
            f"scale has rank {len(scale_shape)} but the data has rank {len(data_shape)}"
        )
    for dim, (size, count) in enumerate(zip(data_shape, scale_shape, strict=True)):
        if size % count != 0:
            raise VerifyException(
                f"data dimension {dim} of size {size} is not a multiple of scale dimension {dim} of size {count}"
            )
    storage = [part.get_element_type() for part in data]
    if len(storage) == 1 and storage[0] == compute:
        return
    for index, element in enumerate(storage):
        if not _is_signless(element):
            raise VerifyException(
                f"split storage tensor #{index} has element type {element}; split storage must be signless integers"
            )
    widths = [type_width(t) for t in storage]
    if sum(widths) != type_width(compute):
        raise VerifyException(
            f"split storage widths {' + '.join(map(str, widths))} = {sum(widths)} do not add up to the "
            f"{type_width(compute)} bits of {compute}"
        )


@irdl_attr_definition
class MxTensorType(ParametrizedAttribute, TypeAttribute, ShapedType):
    """A microscaling tensor: `scale` blocks over `data` (one tensor, or split storage) of `compute_type`."""

    name = "mx_tensor.tensor"

    scale: TensorType[Attribute]
    data: ArrayAttr[TensorType[Attribute]]
    compute_type: Attribute

    def __init__(
        self,
        scale: TensorType[Attribute],
        data: Sequence[TensorType[Attribute]] | TensorType[Attribute],
        compute_type: Attribute | None = None,
    ):
        parts = [data] if isinstance(data, TensorType) else list(data)
        if compute_type is None:
            compute_type = parts[0].get_element_type()
        super().__init__(scale, ArrayAttr(parts), compute_type)

    @staticmethod
    def of(
        scale_shape: Sequence[int],
        scale_type: Attribute,
        data_shape: Sequence[int],
        compute_type: Attribute,
        storage_types: Sequence[Attribute] | None = None,
    ) -> MxTensorType:
        """Build from shapes and element types (split storage when `storage_types` is given)."""
        storage = list(storage_types) if storage_types else [compute_type]
        return MxTensorType(
            TensorType(scale_type, scale_shape),
            [TensorType(t, data_shape) for t in storage],
            compute_type,
        )

    def verify(self) -> None:
        check_parts(self.scale, self.data.data, self.compute_type)

    # ----- ShapedType: the data shape and the compute type -----

    def get_num_dims(self) -> int:
        return len(self.get_shape())

    def get_shape(self) -> tuple[int, ...]:
        return self.data.data[0].get_shape()

    def get_element_type(self) -> Attribute:
        return self.compute_type

    # ----- convenience -----

    @property
    def scale_type(self) -> Attribute:
        return self.scale.get_element_type()

    @property
    def scale_shape(self) -> tuple[int, ...]:
        return self.scale.get_shape()

    @property
    def storage_types(self) -> tuple[Attribute, ...]:
        return tuple(part.get_element_type() for part in self.data.data)

    @property
    def is_split(self) -> bool:
        """Whether the data is stored as integer bit fields rather than one tensor of the compute type."""
        return self.storage_types != (self.compute_type,)

    @property
    def block_shape(self) -> tuple[int, ...]:
        return tuple(
            size // count
            for size, count in zip(self.get_shape(), self.scale_shape, strict=True)
        )

    def with_shapes(
        self, scale_shape: Sequence[int], data_shape: Sequence[int]
    ) -> MxTensorType:
        """The same element types with other scale and data shapes."""
        return MxTensorType.of(
            scale_shape,
            self.scale_type,
            data_shape,
            self.compute_type,
            self.storage_types if self.is_split else None,
        )

    # ----- syntax -----

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            scale = _parse_part(parser)
            parser.parse_punctuation(",")
            data, compute = _parse_data(parser)
        try:
            check_parts(scale, data, compute)
        except VerifyException as err:
            parser.raise_error(str(err), start, parser.pos)
        return (scale, ArrayAttr(data), compute)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            _print_part(printer, self.scale)
            printer.print_string(", ")
            if not self.is_split:
                _print_part(printer, self.data.data[0])
                return
            with printer.in_square_brackets():
                printer.print_list(
                    self.data.data, lambda part: _print_part(printer, part)
                )
            printer.print_string(" x ")
            printer.print_attribute(self.compute_type)


def _parse_part_body(parser: AttrParser) -> TensorType[Attribute]:
    """`4x4xf8E8M0FNU>` (the opening `<` already read)."""
    shape, element = parser.parse_ranked_shape()
    parser.parse_punctuation(">")
    return TensorType(element, shape)


def _parse_part(parser: AttrParser) -> TensorType[Attribute]:
    parser.parse_punctuation("<")
    return _parse_part_body(parser)


def _parse_data(parser: AttrParser) -> tuple[list[TensorType[Attribute]], Attribute]:
    """The data tensors and the compute type, in any of the three spellings."""
    if parser.parse_optional_punctuation("[") is not None:
        parts = [_parse_part(parser)]
        while parser.parse_optional_punctuation(",") is not None:
            parts.append(_parse_part(parser))
        parser.parse_punctuation("]")
        parser.parse_keyword("x")
        return parts, parser.parse_type()
    parser.parse_punctuation("<")
    if parser.parse_optional_punctuation("<") is not None:
        # `<<d0> x <d1> x T>`
        parts = [_parse_part_body(parser)]
        parser.parse_keyword("x")
        while parser.parse_optional_punctuation("<") is not None:
            parts.append(_parse_part_body(parser))
            parser.parse_keyword("x")
        compute = parser.parse_type()
        parser.parse_punctuation(">")
        return parts, compute
    # `<d0>, <d1> x T`, or a single `<d>` whose element type is the compute type
    parts = [_parse_part_body(parser)]
    while parser.parse_optional_punctuation(",") is not None:
        parts.append(_parse_part(parser))
    if parser.parse_optional_keyword("x") is not None:
        return parts, parser.parse_type()
    if len(parts) > 1:
        parser.raise_error(
            "expected 'x' and the compute type after several data tensors"
        )
    return parts, parts[0].get_element_type()


def _print_part(printer: Printer, part: TensorType[Attribute]) -> None:
    with printer.in_angle_brackets():
        for dim in part.get_shape():
            printer.print_string(f"{dim}x")
        printer.print_attribute(part.get_element_type())
