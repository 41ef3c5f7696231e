"""StableHLO's attributes: enums and the dimension-number structs of dot, gather and convolution.

Each prints exactly as `stablehlo-opt` prints it:

- `#stablehlo<precision HIGH>`, `#stablehlo<comparison_direction LT>`, `#stablehlo<comparison_type FLOAT>`
- `#stablehlo.dot_algorithm<lhs_precision_type = tf32, ..., allow_imprecise_accumulation = false>`
- `#stablehlo.dot<lhs_batching_dimensions = [0], ..., rhs_contracting_dimensions = [1]>`
  (empty lists are left out)
- `#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>`
  (empty lists and a zero `index_vector_dim` are left out)
- `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>` (also read: the `raw` form)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar, cast

import numpy as np
from xdsl.dialects.builtin import AnyFloat, ArrayAttr, IntAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

from xquant.numerics.values import dtype_of

_T = TypeVar("_T")


def int_array(values: Sequence[int]) -> ArrayAttr[IntAttr]:
    """An `ArrayAttr` of `IntAttr` (the parameter form of a dimension list)."""
    return ArrayAttr(IntAttr(v) for v in values)


def ints(values: ArrayAttr[IntAttr]) -> tuple[int, ...]:
    """The Python ints of a dimension-list parameter."""
    return tuple(v.data for v in values)


def parse_int_list(parser: AttrParser) -> list[int]:
    """`[1, 2, 3]` (possibly empty)."""
    return parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
    )


class Precision(StrEnum):
    DEFAULT = "DEFAULT"
    HIGH = "HIGH"
    HIGHEST = "HIGHEST"


@irdl_attr_definition
class PrecisionAttr(EnumAttribute[Precision], SpacedOpaqueSyntaxAttribute):
    """`#stablehlo<precision HIGH>`: the precision of one dot/convolution operand."""

    name = "stablehlo.precision"


class ComparisonDirection(StrEnum):
    EQ = "EQ"
    NE = "NE"
    GE = "GE"
    GT = "GT"
    LE = "LE"
    LT = "LT"


@irdl_attr_definition
class ComparisonDirectionAttr(
    EnumAttribute[ComparisonDirection], SpacedOpaqueSyntaxAttribute
):
    """`#stablehlo<comparison_direction LT>`."""

    name = "stablehlo.comparison_direction"


class ComparisonType(StrEnum):
    NOTYPE = "NOTYPE"
    FLOAT = "FLOAT"
    TOTALORDER = "TOTALORDER"
    SIGNED = "SIGNED"
    UNSIGNED = "UNSIGNED"


@irdl_attr_definition
class ComparisonTypeAttr(EnumAttribute[ComparisonType], SpacedOpaqueSyntaxAttribute):
    """`#stablehlo<comparison_type FLOAT>`."""

    name = "stablehlo.comparison_type"


def _parse_struct(
    parser: AttrParser, fields: dict[str, Callable[[], _T]], name: str
) -> dict[str, _T]:
    """`<key = value, ...>` with keys from `fields` in any order, each at most once."""
    values: dict[str, _T] = {}

    def parse_entry() -> None:
        start = parser.pos
        key = parser.parse_identifier()
        if key not in fields:
            parser.raise_error(f"unknown field '{key}' in #{name}", start, parser.pos)
        if key in values:
            parser.raise_error(f"duplicate field '{key}' in #{name}", start, parser.pos)
        parser.parse_punctuation("=")
        values[key] = fields[key]()

    parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_entry)
    return values


def _print_struct(
    printer: Printer, entries: Sequence[tuple[str, Sequence[int] | int | None]]
) -> None:
    parts: list[str] = []
    for key, value in entries:
        if value is None:
            continue
        if isinstance(value, int):
            parts.append(f"{key} = {value}")
            continue
        if value:
            parts.append(f"{key} = [{', '.join(str(v) for v in value)}]")
    printer.print_string("<" + ", ".join(parts) + ">")


@irdl_attr_definition
class DotAlgorithmAttr(ParametrizedAttribute):
    """`#stablehlo.dot_algorithm<lhs_precision_type = tf32, ..., allow_imprecise_accumulation = false>`.

    The algorithm constraints of a dot_general, kept and printed as upstream's
    assembly format (every field, in this order); which combinations a
    backend supports is not checked here.
    """

    name = "stablehlo.dot_algorithm"

    lhs_precision_type: Attribute
    rhs_precision_type: Attribute
    accumulation_type: Attribute
    lhs_component_count: IntAttr
    rhs_component_count: IntAttr
    num_primitive_operations: IntAttr
    allow_imprecise_accumulation: IntAttr

    _TYPES: ClassVar[tuple[str, ...]] = (
        "lhs_precision_type",
        "rhs_precision_type",
        "accumulation_type",
    )
    _COUNTS: ClassVar[tuple[str, ...]] = (
        "lhs_component_count",
        "rhs_component_count",
        "num_primitive_operations",
    )

    def single_float_dtypes(self) -> tuple[np.dtype[Any], ...] | None:
        """The lhs, rhs and accumulation dtypes when the algorithm is one primitive
        operation on builtin float types that numpy holds, else None (the only kind
        the interpreter runs and `stablehlo-legalize-to-linalg` lowers)."""
        counts = (
            self.lhs_component_count.data,
            self.rhs_component_count.data,
            self.num_primitive_operations.data,
        )
        types = (
            self.lhs_precision_type,
            self.rhs_precision_type,
            self.accumulation_type,
        )
        if counts != (1, 1, 1) or not all(isinstance(t, AnyFloat) for t in types):
            return None
        try:
            return tuple(dtype_of(t) for t in types)
        except (KeyError, ValueError, TypeError):
            return None

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        parser.parse_punctuation("<")
        params: list[Attribute] = []
        for key in (*cls._TYPES, *cls._COUNTS, "allow_imprecise_accumulation"):
            if params:
                parser.parse_punctuation(",")
            parser.parse_keyword(key)
            parser.parse_punctuation("=")
            if key in cls._TYPES:
                params.append(parser.parse_type())
            elif key in cls._COUNTS:
                params.append(IntAttr(parser.parse_integer(allow_boolean=False)))
            else:
                params.append(IntAttr(int(parser.parse_boolean())))
        parser.parse_punctuation(">")
        return params

    def print_parameters(self, printer: Printer) -> None:
        parts = [f"{key} = {getattr(self, key)}" for key in self._TYPES]
        parts += [f"{key} = {getattr(self, key).data}" for key in self._COUNTS]
        flag = "true" if self.allow_imprecise_accumulation.data else "false"
        parts.append(f"allow_imprecise_accumulation = {flag}")
        printer.print_string("<" + ", ".join(parts) + ">")


@irdl_attr_definition
class DotDimensionNumbersAttr(ParametrizedAttribute):
    """`#stablehlo.dot<...>`: which lhs/rhs dimensions are batch and which are contracted."""

    name = "stablehlo.dot"

    lhs_batching_dimensions: ArrayAttr[IntAttr]
    rhs_batching_dimensions: ArrayAttr[IntAttr]
    lhs_contracting_dimensions: ArrayAttr[IntAttr]
    rhs_contracting_dimensions: ArrayAttr[IntAttr]

    _FIELDS: ClassVar[tuple[str, ...]] = (
        "lhs_batching_dimensions",
        "rhs_batching_dimensions",
        "lhs_contracting_dimensions",
        "rhs_contracting_dimensions",
    )

    @staticmethod
    def get(
        lhs_batching: Sequence[int],
        rhs_batching: Sequence[int],
        lhs_contracting: Sequence[int],
        rhs_contracting: Sequence[int],
    ) -> DotDimensionNumbersAttr:
        return DotDimensionNumbersAttr(
            int_array(lhs_batching),
            int_array(rhs_batching),
            int_array(lhs_contracting),
            int_array(rhs_contracting),
        )

    @property
    def lhs_batching(self) -> tuple[int, ...]:
        return ints(self.lhs_batching_dimensions)

    @property
    def rhs_batching(self) -> tuple[int, ...]:
        return ints(self.rhs_batching_dimensions)

    @property
    def lhs_contracting(self) -> tuple[int, ...]:
        return ints(self.lhs_contracting_dimensions)

    @property
    def rhs_contracting(self) -> tuple[int, ...]:
        return ints(self.rhs_contracting_dimensions)

    def rhs_dimension_in_result(
        self, rhs_dim: int, lhs_rank: int, rhs_rank: int
    ) -> int:
        """Where rhs dimension `rhs_dim` (batching or free) lands in the result.

        The result is laid out as batch dims, then lhs free dims, then rhs free dims.
        """
        if rhs_dim in self.rhs_batching:
            return self.rhs_batching.index(rhs_dim)
        lhs_free = lhs_rank - len(self.lhs_batching) - len(self.lhs_contracting)
        rhs_free = [
            d
            for d in range(rhs_rank)
            if d not in (*self.rhs_batching, *self.rhs_contracting)
        ]
        return len(self.lhs_batching) + lhs_free + rhs_free.index(rhs_dim)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        values = _parse_struct(
            parser, {f: lambda: parse_int_list(parser) for f in cls._FIELDS}, cls.name
        )
        return [int_array(values.get(f, [])) for f in cls._FIELDS]

    def print_parameters(self, printer: Printer) -> None:
        _print_struct(printer, [(f, ints(getattr(self, f))) for f in self._FIELDS])


class IndexedDimensionNumbers(ParametrizedAttribute):
    """Base of `#stablehlo.gather` and `#stablehlo.scatter`: dimension lists, then `index_vector_dim`.

    Subclasses declare one `ArrayAttr[IntAttr]` parameter per `_LISTS` name,
    in that order, and an `IntAttr` index_vector_dim last. The text is
    `<list = [..], ..., index_vector_dim = N>`, leaving out empty lists and a
    zero `index_vector_dim`.
    """

    _LISTS: ClassVar[tuple[str, ...]] = ()

    def lists(self) -> dict[str, tuple[int, ...]]:
        """The list fields by their syntax names."""
        params = cast(tuple[ArrayAttr[IntAttr], ...], self.parameters[:-1])
        return {f: ints(p) for f, p in zip(self._LISTS, params, strict=True)}

    @property
    def index_vector_dim(self) -> int:
        return cast(IntAttr, self.parameters[-1]).data

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        fields: dict[str, Callable[[], list[int] | int]] = {
            f: lambda: parse_int_list(parser) for f in cls._LISTS
        }
        fields["index_vector_dim"] = lambda: parser.parse_integer(allow_boolean=False)
        values = _parse_struct(parser, fields, cls.name)
        # The list fields parse to lists, `index_vector_dim` to an int.
        lists: list[Attribute] = [
            int_array(cast(list[int], values.get(f, []))) for f in cls._LISTS
        ]
        return [*lists, IntAttr(cast(int, values.get("index_vector_dim", 0)))]

    def print_parameters(self, printer: Printer) -> None:
        entries: list[tuple[str, Sequence[int] | int | None]] = list(
            self.lists().items()
        )
        entries.append(("index_vector_dim", self.index_vector_dim or None))
        _print_struct(printer, entries)


@irdl_attr_definition
class GatherDimensionNumbersAttr(IndexedDimensionNumbers):
    """`#stablehlo.gather<...>`: how start indices and slices map to the result of a gather."""

    name = "stablehlo.gather"

    offset_dims_attr: ArrayAttr[IntAttr]
    collapsed_slice_dims_attr: ArrayAttr[IntAttr]
    operand_batching_dims_attr: ArrayAttr[IntAttr]
    start_indices_batching_dims_attr: ArrayAttr[IntAttr]
    start_index_map_attr: ArrayAttr[IntAttr]
    index_vector_dim_attr: IntAttr

    _LISTS: ClassVar[tuple[str, ...]] = (
        "offset_dims",
        "collapsed_slice_dims",
        "operand_batching_dims",
        "start_indices_batching_dims",
        "start_index_map",
    )

    @staticmethod
    def get(
        offset_dims: Sequence[int] = (),
        collapsed_slice_dims: Sequence[int] = (),
        operand_batching_dims: Sequence[int] = (),
        start_indices_batching_dims: Sequence[int] = (),
        start_index_map: Sequence[int] = (),
        index_vector_dim: int = 0,
    ) -> GatherDimensionNumbersAttr:
        return GatherDimensionNumbersAttr(
            int_array(offset_dims),
            int_array(collapsed_slice_dims),
            int_array(operand_batching_dims),
            int_array(start_indices_batching_dims),
            int_array(start_index_map),
            IntAttr(index_vector_dim),
        )

    @property
    def offset_dims(self) -> tuple[int, ...]:
        return ints(self.offset_dims_attr)

    @property
    def collapsed_slice_dims(self) -> tuple[int, ...]:
        return ints(self.collapsed_slice_dims_attr)

    @property
    def operand_batching_dims(self) -> tuple[int, ...]:
        return ints(self.operand_batching_dims_attr)

    @property
    def start_indices_batching_dims(self) -> tuple[int, ...]:
        return ints(self.start_indices_batching_dims_attr)

    @property
    def start_index_map(self) -> tuple[int, ...]:
        return ints(self.start_index_map_attr)


@irdl_attr_definition
class ScatterDimensionNumbersAttr(IndexedDimensionNumbers):
    """`#stablehlo.scatter<...>`: how scatter indices and update windows map into the operand."""

    name = "stablehlo.scatter"

    update_window_dims_attr: ArrayAttr[IntAttr]
    inserted_window_dims_attr: ArrayAttr[IntAttr]
    input_batching_dims_attr: ArrayAttr[IntAttr]
    scatter_indices_batching_dims_attr: ArrayAttr[IntAttr]
    scatter_dims_to_operand_dims_attr: ArrayAttr[IntAttr]
    index_vector_dim_attr: IntAttr

    _LISTS: ClassVar[tuple[str, ...]] = (
        "update_window_dims",
        "inserted_window_dims",
        "input_batching_dims",
        "scatter_indices_batching_dims",
        "scatter_dims_to_operand_dims",
    )


@irdl_attr_definition
class ConvDimensionNumbersAttr(ParametrizedAttribute):
    """`#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`: the layout of a convolution.

    Input: `b` batch, `f` feature, digits spatial. Kernel: `i` input feature,
    `o` output feature, digits spatial. Output: like the input.
    """

    name = "stablehlo.conv"

    input_batch_dimension: IntAttr
    input_feature_dimension: IntAttr
    input_spatial_dimensions: ArrayAttr[IntAttr]
    kernel_input_feature_dimension: IntAttr
    kernel_output_feature_dimension: IntAttr
    kernel_spatial_dimensions: ArrayAttr[IntAttr]
    output_batch_dimension: IntAttr
    output_feature_dimension: IntAttr
    output_spatial_dimensions: ArrayAttr[IntAttr]

    @staticmethod
    def get(
        input_layout: tuple[int, int, Sequence[int]],
        kernel_layout: tuple[int, int, Sequence[int]],
        output_layout: tuple[int, int, Sequence[int]],
    ) -> ConvDimensionNumbersAttr:
        """Each layout is (batch or input-feature, feature or output-feature, spatial dims)."""
        return ConvDimensionNumbersAttr(
            IntAttr(input_layout[0]),
            IntAttr(input_layout[1]),
            int_array(input_layout[2]),
            IntAttr(kernel_layout[0]),
            IntAttr(kernel_layout[1]),
            int_array(kernel_layout[2]),
            IntAttr(output_layout[0]),
            IntAttr(output_layout[1]),
            int_array(output_layout[2]),
        )

    @property
    def input_spatial(self) -> tuple[int, ...]:
        return ints(self.input_spatial_dimensions)

    @property
    def kernel_spatial(self) -> tuple[int, ...]:
        return ints(self.kernel_spatial_dimensions)

    @property
    def output_spatial(self) -> tuple[int, ...]:
        return ints(self.output_spatial_dimensions)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            return parse_conv_layouts(parser)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.layout_text()}>")

    def layout_text(self) -> str:
        """`[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`."""
        return (
            _layout_text(
                self.input_batch_dimension.data,
                self.input_feature_dimension.data,
                self.input_spatial,
                "b",
                "f",
            )
            + "x"
            + _layout_text(
                self.kernel_input_feature_dimension.data,
                self.kernel_output_feature_dimension.data,
                self.kernel_spatial,
                "i",
                "o",
            )
            + "->"
            + _layout_text(
                self.output_batch_dimension.data,
                self.output_feature_dimension.data,
                self.output_spatial,
                "b",
                "f",
            )
        )


def _layout_text(
    first: int, second: int, spatial: Sequence[int], first_name: str, second_name: str
) -> str:
    names = [""] * (len(spatial) + 2)
    names[first] = first_name
    names[second] = second_name
    for index, dim in enumerate(spatial):
        names[dim] = str(index)
    return "[" + ", ".join(names) + "]"


def _parse_layout_entries(
    parser: AttrParser, first_name: str, second_name: str
) -> tuple[int, int, list[int]]:
    """`[b, 0, 1, f]` -> (index of b, index of f, [index of spatial 0, index of spatial 1])."""
    start = parser.pos
    entries: list[str] = []

    def parse_entry() -> None:
        if (ident := parser.parse_optional_identifier()) is not None:
            entries.append(ident)
            return
        entries.append(
            str(parser.parse_integer(allow_boolean=False, allow_negative=False))
        )

    parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_entry)
    end = parser.pos
    if entries.count(first_name) != 1 or entries.count(second_name) != 1:
        parser.raise_error(
            f"expected exactly one '{first_name}' and one '{second_name}' dimension in the layout",
            start,
            end,
        )
    spatial_names = [e for e in entries if e not in (first_name, second_name)]
    if sorted(spatial_names) != [str(i) for i in range(len(spatial_names))] or any(
        not e.isdigit() for e in spatial_names
    ):
        parser.raise_error(
            "expected spatial dimensions 0..N-1, each exactly once", start, end
        )
    spatial = [entries.index(str(i)) for i in range(len(spatial_names))]
    return entries.index(first_name), entries.index(second_name), spatial


def parse_conv_layouts(parser: AttrParser) -> list[Attribute]:
    """`[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` (or `raw key = value, ...`) as parameters."""
    return list(parse_conv_dimension_numbers(parser).parameters)


def parse_conv_dimension_numbers(parser: AttrParser) -> ConvDimensionNumbersAttr:
    """`[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` (or `raw key = value, ...`)."""
    if parser.parse_optional_keyword("raw") is not None:
        return _parse_raw_conv(parser)
    input_layout = _parse_layout_entries(parser, "b", "f")
    parser.parse_keyword("x")
    kernel_layout = _parse_layout_entries(parser, "i", "o")
    parser.parse_punctuation("->")
    output_layout = _parse_layout_entries(parser, "b", "f")
    if not len(input_layout[2]) == len(kernel_layout[2]) == len(output_layout[2]):
        parser.raise_error(
            "input, kernel and output must have the same number of spatial dimensions"
        )
    return ConvDimensionNumbersAttr.get(input_layout, kernel_layout, output_layout)


def _parse_raw_conv(parser: AttrParser) -> ConvDimensionNumbersAttr:
    scalar_fields = (
        "input_batch_dimension",
        "input_feature_dimension",
        "kernel_input_feature_dimension",
        "kernel_output_feature_dimension",
        "output_batch_dimension",
        "output_feature_dimension",
    )
    list_fields = (
        "input_spatial_dimensions",
        "kernel_spatial_dimensions",
        "output_spatial_dimensions",
    )
    values: dict[str, list[int] | int] = {}

    def parse_entry() -> None:
        key = parser.parse_identifier()
        parser.parse_punctuation("=")
        values[key] = (
            parse_int_list(parser)
            if key in list_fields
            else parser.parse_integer(allow_boolean=False)
        )

    parse_entry()
    while parser.parse_optional_punctuation(",") is not None:
        parse_entry()
    missing = [f for f in (*scalar_fields, *list_fields) if f not in values]
    if missing:
        parser.raise_error(f"missing field '{missing[0]}' in #stablehlo.conv")

    # `parse_entry` parses the list fields to lists and the others to ints.
    def scalar(key: str) -> int:
        return cast(int, values[key])

    def spatial(key: str) -> list[int]:
        return cast(list[int], values[key])

    return ConvDimensionNumbersAttr.get(
        (
            scalar("input_batch_dimension"),
            scalar("input_feature_dimension"),
            spatial("input_spatial_dimensions"),
        ),
        (
            scalar("kernel_input_feature_dimension"),
            scalar("kernel_output_feature_dimension"),
            spatial("kernel_spatial_dimensions"),
        ),
        (
            scalar("output_batch_dimension"),
            scalar("output_feature_dimension"),
            spatial("output_spatial_dimensions"),
        ),
    )


ATTRIBUTES: list[type[Attribute]] = [
    PrecisionAttr,
    ComparisonDirectionAttr,
    ComparisonTypeAttr,
    DotAlgorithmAttr,
    DotDimensionNumbersAttr,
    GatherDimensionNumbersAttr,
    ScatterDimensionNumbersAttr,
    ConvDimensionNumbersAttr,
]
