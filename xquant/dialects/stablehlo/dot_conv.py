"""`stablehlo.dot_general` and `stablehlo.convolution`, including their quantized and hybrid forms.

    %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2, 1] x [1, 2]
           : (tensor<1x3x4x!quant.uniform<i8:f32, 0.0039>>, tensor<1x4x3x!quant.uniform<i8:f32, 0.0039>>)
           -> tensor<1x!quant.uniform<i32:f32, 1.5E-5>>
    %1 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (Tx, Tk) -> R

Quantized semantics: dequantize both operands, compute in the expressed
type, quantize into the result type. Hybrid (float lhs, quantized rhs, float
result): only the rhs is dequantized (weight-only quantization).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    TensorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xquant.dialects.stablehlo import quantization as q
from xquant.dialects.stablehlo.attributes import (
    ConvDimensionNumbersAttr,
    DotDimensionNumbersAttr,
    Precision,
    PrecisionAttr,
    parse_conv_dimension_numbers,
    parse_int_list,
)
from xquant.dialects.stablehlo.reductions import padding_pairs, window_output_shape
from xquant.dialects.stablehlo.syntax import (
    array_values,
    format_dims,
    i64_array,
)
from xquant.dialects.stablehlo.type_utils import (
    compatible_shapes,
    dims_compatible,
    is_quantized,
    quantized,
    shape_of,
    type_text,
)
from xquant.numerics.values import element_type


def parse_precision(parser: Parser) -> ArrayAttr[PrecisionAttr]:
    """`[DEFAULT, HIGH]` (or `[#stablehlo<precision DEFAULT>, ...]`)."""

    def parse_one() -> PrecisionAttr:
        if (value := parser.parse_optional_str_enum(Precision)) is not None:
            return PrecisionAttr(value)
        attr = parser.parse_attribute()
        if not isinstance(attr, PrecisionAttr):
            parser.raise_error("expected a precision (DEFAULT, HIGH or HIGHEST)")
        return attr

    return ArrayAttr(
        parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_one)
    )


def precision_text(precision: ArrayAttr[PrecisionAttr]) -> str:
    return "[" + ", ".join(p.data.value for p in precision) + "]"


def verify_precision_config(precision: ArrayAttr[PrecisionAttr] | None) -> None:
    """dot_general_c11 / convolution_c24: one precision per operand, or none at all.

    Upstream only rejects more than 2 (its message); the spec asks for exactly 2.
    """
    if precision is None or len(precision) in (0, 2):
        return
    if len(precision) > 2:
        raise VerifyException(
            "expects precision config to be empty or have <= 2 elements."
        )
    raise VerifyException(
        f"expects precision config to be empty or have 2 elements (lhs and rhs), but got {len(precision)}: "
        f"{precision_text(precision)}"
    )


def _result_mismatch(expected: Sequence[int], result: Attribute) -> VerifyException:
    return VerifyException(
        f"inferred shape '[{', '.join(map(str, expected))}]' is incompatible with return type of operation "
        f"{type_text(result)}"
    )


@irdl_custom_directive
class DotDimensionNumbers(CustomDirective):
    """`custom<DotDimensionNumbers>` and the precision list after it:
    `, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGH]`
    (batching dims and precision only when there are any; parsed in any order)."""

    dot_dimension_numbers: AttributeVariable
    precision_config: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        lists: dict[str, tuple[list[int], list[int]]] = {
            "batching_dims": ([], []),
            "contracting_dims": ([], []),
        }
        while parser.parse_optional_punctuation(",") is not None:
            start = parser.pos
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            if key == "precision":
                self.precision_config.set(state, parse_precision(parser))
                continue
            if key not in lists:
                parser.raise_error(
                    f"unexpected keyword '{key}' in dot_general", start, parser.pos
                )
            left = parse_int_list(parser)
            parser.parse_keyword("x")
            lists[key] = (left, parse_int_list(parser))
        (lhs_batching, rhs_batching) = lists["batching_dims"]
        (lhs_contracting, rhs_contracting) = lists["contracting_dims"]
        numbers = DotDimensionNumbersAttr.get(
            lhs_batching, rhs_batching, lhs_contracting, rhs_contracting
        )
        self.dot_dimension_numbers.set(state, numbers)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        numbers = self.dot_dimension_numbers.get(op)
        assert isinstance(numbers, DotDimensionNumbersAttr)
        if numbers.lhs_batching or numbers.rhs_batching:
            lhs, rhs = (
                format_dims(numbers.lhs_batching),
                format_dims(numbers.rhs_batching),
            )
            printer.print_string(f", batching_dims = {lhs} x {rhs}")
        lhs = format_dims(numbers.lhs_contracting)
        rhs = format_dims(numbers.rhs_contracting)
        printer.print_string(f", contracting_dims = {lhs} x {rhs}")
        precision = self.precision_config.get(op)
        if isa(precision, ArrayAttr[PrecisionAttr]):
            printer.print_string(f", precision = {precision_text(precision)}")


@irdl_op_definition
class DotGeneralOp(IRDLOperation):
    """Batched contraction: result dims are batch dims, then lhs free dims, then rhs free dims."""

    name = "stablehlo.dot_general"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    dot_dimension_numbers = prop_def(DotDimensionNumbersAttr)
    precision_config = opt_prop_def(ArrayAttr[PrecisionAttr])
    algorithm = opt_prop_def(Attribute)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        numbers: DotDimensionNumbersAttr,
        result_type: Attribute,
    ):
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type],
            properties={"dot_dimension_numbers": numbers},
        )

    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (DotDimensionNumbers,)
    assembly_format = (
        "$lhs `,` $rhs custom<DotDimensionNumbers>($dot_dimension_numbers, "
        "$precision_config) attr-dict `:` functional-type(operands, results)"
    )

    def verify_(self) -> None:
        lhs_type, rhs_type, result_type = self.lhs.type, self.rhs.type, self.result.type
        numbers = self.dot_dimension_numbers
        lhs_shape, rhs_shape = shape_of(lhs_type), shape_of(rhs_type)
        _verify_dims(lhs_shape, numbers.lhs_batching, numbers.lhs_contracting, "lhs")
        _verify_dims(rhs_shape, numbers.rhs_batching, numbers.rhs_contracting, "rhs")
        if len(numbers.lhs_batching) != len(numbers.rhs_batching):
            raise VerifyException(
                "lhs and rhs should have the same number of batching dimensions"
            )
        if len(numbers.lhs_contracting) != len(numbers.rhs_contracting):
            raise VerifyException(
                "lhs and rhs should have the same number of contracting dimensions"
            )
        for left, right in zip(numbers.lhs_batching, numbers.rhs_batching, strict=True):
            if not dims_compatible(lhs_shape[left], rhs_shape[right]):
                raise VerifyException("batching dimension sizes must match for lhs/rhs")
        for left, right in zip(
            numbers.lhs_contracting, numbers.rhs_contracting, strict=True
        ):
            if not dims_compatible(lhs_shape[left], rhs_shape[right]):
                raise VerifyException(
                    "contracting dimension sizes must match for lhs/rhs"
                )
        expected = [lhs_shape[d] for d in numbers.lhs_batching]
        expected += [
            d
            for i, d in enumerate(lhs_shape)
            if i not in (*numbers.lhs_batching, *numbers.lhs_contracting)
        ]
        expected += [
            d
            for i, d in enumerate(rhs_shape)
            if i not in (*numbers.rhs_batching, *numbers.rhs_contracting)
        ]
        if not compatible_shapes(shape_of(result_type), expected):
            raise _result_mismatch(expected, result_type)
        verify_precision_config(self.precision_config)
        self.verify_quantization()

    def verify_quantization(self) -> None:
        lhs_type, rhs_type, result_type = self.lhs.type, self.rhs.type, self.result.type
        if not any(is_quantized(t) for t in (lhs_type, rhs_type, result_type)):
            if element_type(lhs_type) != element_type(rhs_type):
                raise VerifyException(
                    "expects lhs and rhs to have the same element type"
                )
            return
        q.verify_per_tensor_lhs(self.name, lhs_type)
        q.verify_dot_like_quantization(lhs_type, rhs_type, result_type)
        q.verify_rhs_zero_points(rhs_type)
        rhs_q = quantized(rhs_type)
        if rhs_q is not None and rhs_q.is_per_axis:
            if rhs_q.quantized_dimension in self.dot_dimension_numbers.rhs_contracting:
                raise VerifyException(
                    "Quantization dimension of rhs should not be in the contracting dimension of rhs"
                )


def _verify_dims(
    shape: Sequence[int], batching: Sequence[int], contracting: Sequence[int], side: str
) -> None:
    dims = [*batching, *contracting]
    if len(set(dims)) != len(dims):
        raise VerifyException(
            f"has duplicated dimension from {side}_batching_dimensions and {side}_contracting_dimensions"
        )
    for dim in dims:
        if not 0 <= dim < len(shape):
            raise VerifyException(
                f"{side}_batching_dimensions and {side}_contracting_dimensions must be in range [0, {len(shape)}), "
                f"got {dim}"
            )


def _verify_group_counts(
    groups: int,
    batch_groups: int,
    input_features: int,
    input_batch: int,
    kernel_output_features: int,
) -> None:
    """The group-count rules of convolution (spec c10-c15), with upstream's messages."""
    if groups <= 0:
        raise VerifyException(
            f"expects feature_group_count to be a positive number, got {groups}."
        )
    if batch_groups <= 0:
        raise VerifyException(
            f"expects batch_group_count to be a positive number, got {batch_groups}."
        )
    if batch_groups > 1 and groups > 1:
        raise VerifyException(
            "expects batch_group_count and feature_group_count not to be both greater than 1. "
            f"Got {batch_groups} and {groups} resp."
        )
    if kernel_output_features % batch_groups:
        raise VerifyException(
            f"expects output feature dimension size ({kernel_output_features}) to be a multiple of "
            f"batch_group_count. Got batch_group_count = {batch_groups}."
        )
    if kernel_output_features % groups:
        raise VerifyException(
            f"expects kernel output feature dimension ({kernel_output_features}) to be divisible by "
            f"feature_group_count. For feature_group_count = {groups}."
        )
    if input_features % groups:
        raise VerifyException(
            f"expects input feature dimension ({input_features}) to be a multiple of "
            f"feature_group_count. Got feature_group_count = {groups}."
        )
    if input_batch % batch_groups:
        raise VerifyException(
            f"expects input batch dimension ({input_batch}) to be divisible by "
            f"batch_group_count. Got batch_group_count = {batch_groups}."
        )


@irdl_custom_directive
class ConvolutionDimensions(CustomDirective):
    """`custom<ConvolutionDimensions>`: `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`."""

    dimension_numbers: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.dimension_numbers.set(state, parse_conv_dimension_numbers(parser))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        numbers = self.dimension_numbers.get(op)
        assert isinstance(numbers, ConvDimensionNumbersAttr)
        printer.print_string(numbers.layout_text())


@irdl_custom_directive
class WindowAttributes(CustomDirective):
    """`custom<WindowAttributes>`: `stride = [1, 1], pad = [[1, 1], [1, 1]],
    lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]`, each
    only when set (parsed in any order)."""

    window_strides: AttributeVariable
    padding: AttributeVariable
    lhs_dilation: AttributeVariable
    rhs_dilation: AttributeVariable
    window_reversal: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        keys = {
            "stride": self.window_strides,
            "pad": self.padding,
            "lhs_dilate": self.lhs_dilation,
            "rhs_dilate": self.rhs_dilation,
            "reverse": self.window_reversal,
        }
        parser.parse_optional_undelimited_comma_separated_list(
            lambda: _parse_optional_window_entry(parser, state, keys),
            lambda: _parse_window_entry(parser, state, keys),
        )

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        entries: list[str] = []
        if (strides := self.window_strides.get(op)) is not None:
            entries.append(f"stride = {format_dims(array_values(_dims(strides)))}")
        if (padding := self.padding.get(op)) is not None:
            assert isa(padding, DenseIntOrFPElementsAttr)
            pairs = padding_pairs(padding, 0)
            entries.append(
                "pad = [" + ", ".join(f"[{lo}, {hi}]" for lo, hi in pairs) + "]"
            )
        for key, directive in (
            ("lhs_dilate", self.lhs_dilation),
            ("rhs_dilate", self.rhs_dilation),
        ):
            if (dilation := directive.get(op)) is not None:
                entries.append(f"{key} = {format_dims(array_values(_dims(dilation)))}")
        if (reversal := self.window_reversal.get(op)) is not None:
            flags = ", ".join(
                "true" if v else "false" for v in array_values(_dims(reversal))
            )
            entries.append(f"reverse = [{flags}]")
        printer.print_string(", ".join(entries))


def _dims(attr: Attribute) -> DenseArrayBase:
    assert isinstance(attr, DenseArrayBase)
    return cast(DenseArrayBase, attr)


@irdl_op_definition
class ConvolutionOp(IRDLOperation):
    """N-d convolution with strides, padding, lhs (transposed) and rhs (atrous) dilation and groups."""

    name = "stablehlo.convolution"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    window_strides = opt_prop_def(DenseArrayBase)
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    lhs_dilation = opt_prop_def(DenseArrayBase)
    rhs_dilation = opt_prop_def(DenseArrayBase)
    window_reversal = opt_prop_def(DenseArrayBase)
    dimension_numbers = prop_def(ConvDimensionNumbersAttr)
    feature_group_count = prop_def(IntegerAttr)
    batch_group_count = prop_def(IntegerAttr)
    precision_config = opt_prop_def(ArrayAttr[PrecisionAttr])
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (ConvolutionDimensions, WindowAttributes)
    assembly_format = (
        "`(` operands `)` `dim_numbers` `=` "
        "custom<ConvolutionDimensions>($dimension_numbers) `,` `window` `=` `{` "
        "custom<WindowAttributes>($window_strides, $padding, $lhs_dilation, "
        "$rhs_dilation, $window_reversal) `}` attr-dict `:` "
        "functional-type(operands, results)"
    )

    def window(
        self,
    ) -> tuple[list[int], list[tuple[int, int]], list[int], list[int], list[bool]]:
        """(strides, padding, lhs dilation, rhs dilation, reversal), defaults filled in."""
        rank = len(self.dimension_numbers.input_spatial)
        strides = list(array_values(self.window_strides)) or [1] * rank
        padding = padding_pairs(self.padding, rank)
        lhs_dilation = list(array_values(self.lhs_dilation)) or [1] * rank
        rhs_dilation = list(array_values(self.rhs_dilation)) or [1] * rank
        reversal = [bool(v) for v in array_values(self.window_reversal)] or [
            False
        ] * rank
        return strides, padding, lhs_dilation, rhs_dilation, reversal

    def verify_(self) -> None:
        numbers = self.dimension_numbers
        lhs_shape, rhs_shape = shape_of(self.lhs.type), shape_of(self.rhs.type)
        spatial = len(numbers.input_spatial)
        if len(lhs_shape) != spatial + 2 or len(rhs_shape) != spatial + 2:
            raise VerifyException(
                f"expects convolution arguments to have {spatial + 2} dimensions. Got: {len(lhs_shape)}"
            )
        groups, batch_groups = (
            self.feature_group_count.value.data,
            self.batch_group_count.value.data,
        )
        _verify_group_counts(
            groups,
            batch_groups,
            lhs_shape[numbers.input_feature_dimension.data],
            lhs_shape[numbers.input_batch_dimension.data],
            rhs_shape[numbers.kernel_output_feature_dimension.data],
        )
        strides, padding, lhs_dilation, rhs_dilation, _ = self.window()
        for name, values in (
            ("window_strides", strides),
            ("lhs_dilation", lhs_dilation),
            ("rhs_dilation", rhs_dilation),
        ):
            if len(values) != spatial or any(v <= 0 for v in values):
                raise VerifyException(
                    f"expects {name} to have {spatial} positive values"
                )
        if len(padding) != spatial:
            raise VerifyException(f"expects padding to have {spatial} entries")
        if (
            lhs_shape[numbers.input_feature_dimension.data]
            != rhs_shape[numbers.kernel_input_feature_dimension.data] * groups
        ):
            raise VerifyException(
                "expects input feature dimension "
                f"({lhs_shape[numbers.input_feature_dimension.data]}) / feature_group_count = kernel input feature "
                f"dimension ({rhs_shape[numbers.kernel_input_feature_dimension.data]}). Got feature_group_count = {groups}."
            )
        expected = convolution_result_shape(self, lhs_shape, rhs_shape)
        if not compatible_shapes(shape_of(self.result.type), expected):
            raise _result_mismatch(expected, self.result.type)
        verify_precision_config(self.precision_config)
        self.verify_quantization()

    def verify_quantization(self) -> None:
        lhs_type, rhs_type, result_type = self.lhs.type, self.rhs.type, self.result.type
        if not any(is_quantized(t) for t in (lhs_type, rhs_type, result_type)):
            return
        q.verify_per_tensor_lhs(self.name, lhs_type)
        q.verify_dot_like_quantization(lhs_type, rhs_type, result_type)
        numbers = self.dimension_numbers
        rhs_q, result_q = quantized(rhs_type), quantized(result_type)
        if rhs_q is not None and rhs_q.is_per_axis:
            if (
                rhs_q.quantized_dimension
                != numbers.kernel_output_feature_dimension.data
            ):
                raise VerifyException(
                    "quantization dimension of rhs should be same with kernel_output_feature_dimension"
                )
        if result_q is not None and result_q.is_per_axis:
            if result_q.quantized_dimension != numbers.output_feature_dimension.data:
                raise VerifyException(
                    "quantization dimension of result should be same with output_feature_dimension"
                )


def convolution_result_shape(
    op: ConvolutionOp, lhs_shape: Sequence[int], rhs_shape: Sequence[int]
) -> list[int]:
    """The spec's convolution result shape (convolution_c13 and following)."""
    numbers = op.dimension_numbers
    strides, padding, lhs_dilation, rhs_dilation, _ = op.window()
    result = [0] * len(lhs_shape)
    result[numbers.output_batch_dimension.data] = (
        lhs_shape[numbers.input_batch_dimension.data] // op.batch_group_count.value.data
    )
    result[numbers.output_feature_dimension.data] = rhs_shape[
        numbers.kernel_output_feature_dimension.data
    ]
    spatial = window_output_shape(
        [lhs_shape[d] for d in numbers.input_spatial],
        [rhs_shape[d] for d in numbers.kernel_spatial],
        strides,
        lhs_dilation,
        rhs_dilation,
        padding,
        dimensions=numbers.input_spatial,
    )
    for out_dim, size in zip(numbers.output_spatial, spatial, strict=True):
        result[out_dim] = size
    return result


def _parse_optional_window_entry(
    parser: Parser, state: ParsingState, keys: dict[str, AttributeVariable]
) -> bool | None:
    """A `key = value` window entry, or None if no identifier starts one."""
    start = parser.pos
    if (key := parser.parse_optional_identifier()) is None:
        return None
    _parse_window_value(parser, state, keys, key, start)
    return True


def _parse_window_entry(
    parser: Parser, state: ParsingState, keys: dict[str, AttributeVariable]
) -> bool:
    start = parser.pos
    _parse_window_value(parser, state, keys, parser.parse_identifier(), start)
    return True


def _parse_window_value(
    parser: Parser,
    state: ParsingState,
    keys: dict[str, AttributeVariable],
    key: str,
    start: int,
) -> None:
    """`= value` after the window entry's `key`, into the property `key` names."""
    parser.parse_punctuation("=")
    if key not in keys:
        parser.raise_error(
            f"unexpected keyword '{key}' in convolution window", start, parser.pos
        )
    if key == "pad":
        pairs = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE,
            lambda: parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE,
                lambda: parser.parse_integer(allow_boolean=False),
            ),
        )
        if any(len(p) != 2 for p in pairs):
            parser.raise_error("expected [low, high] padding pairs", start, parser.pos)
        flat = [v for p in pairs for v in p]
        keys[key].set(
            state,
            DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(pairs), 2]), flat),
        )
        return
    if key == "reverse":
        # `[false, true]`, or `[0, 1]` as older printers wrote it.
        flags = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE,
            lambda: bool(parser.parse_integer(allow_negative=False)),
        )
        keys[key].set(state, DenseArrayBase.from_list(i1, [int(f) for f in flags]))
        return
    keys[key].set(state, i64_array(parse_int_list(parser)))


DOT_CONV_OPS: list[type[IRDLOperation]] = [DotGeneralOp, ConvolutionOp]
