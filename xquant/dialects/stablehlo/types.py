"""StableHLO's own types and the small attributes its collective and dynamic-shape ops use.

    !stablehlo.token
    #stablehlo.channel_handle<handle = 5, type = 2>
    tensor<?x?xf32, #stablehlo.bounds<4, 4>>                   (printed form)
    tensor<2x?xf32, #stablehlo.type_extensions<bounds = [?, 2]>>  (also read)

`#stablehlo.type_extensions<bounds = [...]>` is the long spelling of
`#stablehlo.bounds<...>`; both parse to `TypeExtensionsAttr`, which prints the
short one, as `stablehlo-opt` does. A `?` bound is `DYNAMIC_INDEX`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self, cast

from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, IntAttr
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """`!stablehlo.token`: orders side effects (infeed, outfeed, send, recv, after_all)."""

    name = "stablehlo.token"


def _parse_bound(parser: AttrParser) -> int:
    if parser.parse_optional_punctuation("?") is not None:
        return DYNAMIC_INDEX
    return parser.parse_integer(allow_boolean=False, allow_negative=False)


def _bound_text(value: int) -> str:
    return "?" if value == DYNAMIC_INDEX else str(value)


@irdl_attr_definition
class TypeExtensionsAttr(ParametrizedAttribute):
    """`#stablehlo.bounds<4, ?>`: the upper bounds of a tensor's dynamic dimensions (a tensor encoding)."""

    name = "stablehlo.bounds"

    bounds: ArrayAttr[IntAttr]

    def __init__(self, bounds: Sequence[int]):
        super().__init__(ArrayAttr(IntAttr(b) for b in bounds))

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(b.data for b in self.bounds)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values = parser.parse_comma_separated_list(
            parser.Delimiter.ANGLE, lambda: _parse_bound(parser)
        )
        return (ArrayAttr(IntAttr(v) for v in values),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<" + ", ".join(_bound_text(v) for v in self.values) + ">")


@irdl_attr_definition
class TypeExtensionsSpelling(ParametrizedAttribute):
    """`#stablehlo.type_extensions<bounds = [?, 2]>`: parses to a `TypeExtensionsAttr`."""

    name = "stablehlo.type_extensions"

    bounds: ArrayAttr[IntAttr]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            parser.parse_keyword("bounds")
            parser.parse_punctuation("=")
            values = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: _parse_bound(parser)
            )
        return (ArrayAttr(IntAttr(v) for v in values),)

    @classmethod
    def new(cls, params: Sequence[Attribute]) -> Self:
        # The long spelling is only an input form: build the canonical attribute.
        return cast(Self, TypeExtensionsAttr.new(params))

    def print_parameters(self, printer: Printer) -> None:  # pragma: no cover
        printer.print_string("<bounds = [...]>")


@irdl_attr_definition
class ChannelHandleAttr(ParametrizedAttribute):
    """`#stablehlo.channel_handle<handle = 5, type = 2>`: a communication channel's id and kind."""

    name = "stablehlo.channel_handle"

    handle: IntAttr
    type: IntAttr

    def __init__(self, handle: int, type: int):
        super().__init__(IntAttr(handle), IntAttr(type))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values: dict[str, int] = {}

        def parse_entry() -> None:
            start = parser.pos
            key = parser.parse_identifier()
            if key not in ("handle", "type") or key in values:
                parser.raise_error(
                    f"unexpected field '{key}' in #stablehlo.channel_handle",
                    start,
                    parser.pos,
                )
            parser.parse_punctuation("=")
            values[key] = parser.parse_integer(allow_boolean=False)

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_entry)
        return (IntAttr(values.get("handle", 0)), IntAttr(values.get("type", 0)))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<handle = {self.handle.data}, type = {self.type.data}>")


TYPES_AND_ATTRIBUTES: list[type[Attribute]] = [
    TokenType,
    TypeExtensionsAttr,
    TypeExtensionsSpelling,
    ChannelHandleAttr,
]
