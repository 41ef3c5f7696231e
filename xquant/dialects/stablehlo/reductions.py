"""Reductions: `stablehlo.reduce`, `reduce_window`, `select_and_scatter`, and the region terminator `return`.

The body of a reduction may accumulate in a wider type than the inputs
(the quantized-reduction RFC as the spec adopted it, reduce_c6/c8): its block
arguments are `(acc_0..acc_N-1, x_0..x_N-1)` of rank-0 tensors whose element
types are promotable from the inputs' (same expressed type, storage at least
as wide; scales and zero points may differ), and the results carry the body's
element type. Inputs and init values are converted to the body's type
(requantized) before the body runs.

Syntax (reduce; reduce_window and select_and_scatter have only the generic form):

    %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1]
           : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %r = stablehlo.reduce(%x init: %z) across dimensions = [0] : (T, Ti) -> R
     reducer(%a: tensor<E>, %b: tensor<E>)  { ... stablehlo.return %s : tensor<E> }
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    SameVariadicOperandSize,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xquant.dialects.stablehlo import quantization as q
from xquant.dialects.stablehlo.inferred_types import (
    incompatible_return_type,
    incompatible_return_types,
)
from xquant.dialects.stablehlo.syntax import (
    array_values,
    format_dims,
    i64_array,
    parse_dims,
    parse_function_type,
    parse_optional_attributes,
    print_functional_op_tail,
    split_properties,
)
from xquant.dialects.stablehlo.type_utils import (
    compatible_shapes,
    compatible_types,
    is_promotable,
    type_text,
)
from xquant.numerics.values import element_type


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`stablehlo.return %v : tensor<f32>`: the result of a reduction body."""

    name = "stablehlo.return"

    results_ = var_operand_def()
    traits = traits_def(q.QuantizedTensorTypes(), IsTerminator(), Pure())

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[list(values)])

    assembly_format = "$results_ attr-dict (`:` type($results_)^)?"


COMMUTATIVE_COMBINERS = (
    "stablehlo.add",
    "stablehlo.multiply",
    "stablehlo.maximum",
    "stablehlo.minimum",
    "stablehlo.and",
    "stablehlo.or",
    "stablehlo.xor",
)


def body_types(region: Region) -> tuple[list[Attribute], list[Attribute]]:
    """(block argument types, returned types) of a reduction body."""
    block = region.block
    terminator = block.last_op
    returned = (
        list(terminator.operand_types) if isinstance(terminator, ReturnOp) else []
    )
    return [arg.type for arg in block.args], returned


def accumulator_types(region: Region) -> list[Attribute]:
    """The body's accumulator types (its first half of block arguments)."""
    args, _ = body_types(region)
    return args[: len(args) // 2]


def verify_body(
    region: Region, inputs: Sequence[Attribute], inits: Sequence[Attribute]
) -> None:
    """The reducer checks shared by reduce, reduce_window and select_and_scatter's scatter."""
    if not region.blocks:
        raise VerifyException("The reduction-region expected to return some value(s)")
    args, returned = body_types(region)
    if not isinstance(region.block.last_op, ReturnOp):
        raise VerifyException("The reduction-region expected to return some value(s)")
    for t in (*args, *returned):
        if not isa(t, TensorType) or t.get_shape():
            raise VerifyException(
                f"The reduction-region's parameters and results must be rank-0 tensors, got {type_text(t)}"
            )
    q.verify_reducer_types(inputs, inits, args, returned)


def verify_init_element_types(
    inputs: Sequence[Attribute], inits: Sequence[Attribute]
) -> None:
    """Each init value of reduce / reduce_window has its input's element type."""
    for input_type, init_type in zip(inputs, inits, strict=True):
        if element_type(input_type) != element_type(init_type):
            raise VerifyException(
                "expects all inputs and init_values to have the same element type, got "
                f"{type_text(element_type(input_type))} and {type_text(element_type(init_type))}"
            )


def combiner_name(region: Region) -> str | None:
    """The op name if the body is `return(op(arg0, arg1))` of a commutative stablehlo op, else None."""
    block = region.block
    ops = list(block.ops)
    if len(block.args) != 2 or len(ops) != 2:
        return None
    combine, terminator = ops
    if (
        combine.name not in COMMUTATIVE_COMBINERS
        or combine.regions
        or combine.attributes
        or combine.properties
    ):
        return None
    if tuple(combine.operands) != tuple(block.args) or len(combine.results) != 1:
        return None
    if not isinstance(terminator, ReturnOp) or tuple(terminator.operands) != (
        combine.results[0],
    ):
        return None
    if len({arg.type for arg in block.args} | {combine.results[0].type}) != 1:
        return None
    return combine.name


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """Reduce `inputs` along `dimensions` with `body`, starting from `init_values`."""

    name = "stablehlo.reduce"

    inputs = var_operand_def(TensorType)
    init_values = var_operand_def(TensorType)
    dimensions = prop_def(DenseArrayBase)
    body = region_def("single_block")
    results_ = var_result_def(TensorType)

    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(q.QuantizedTensorTypes(), RecursiveMemoryEffect())

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        init_values: Sequence[SSAValue],
        dimensions: Sequence[int],
        body: Region,
        result_types: Sequence[Attribute],
    ):
        super().__init__(
            operands=[list(inputs), list(init_values)],
            result_types=[list(result_types)],
            properties={"dimensions": i64_array(dimensions)},
            regions=[body],
        )

    @property
    def reduced_dimensions(self) -> tuple[int, ...]:
        return array_values(self.dimensions)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pairs: list[tuple[UnresolvedOperand, UnresolvedOperand]] = []

        def parse_pair() -> None:
            value = parser.parse_unresolved_operand()
            parser.parse_keyword("init")
            parser.parse_punctuation(":")
            pairs.append((value, parser.parse_unresolved_operand()))

        def parse_group() -> None:
            parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_pair)

        parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_group)
        combiner: str | None = None
        combiner_pos = parser.pos
        if parser.parse_optional_keyword("applies") is not None:
            combiner_pos = parser.pos
            combiner = parser.parse_identifier()
        dimensions = parse_dims_after(parser, "across", "dimensions")
        properties, attributes = split_properties(
            cls, parse_optional_attributes(parser)
        )
        parser.parse_punctuation(":")
        count = len(pairs)
        function_type = parse_function_type(parser, 2 * count, None)
        input_types = list(function_type.inputs.data)
        operands = parser.resolve_operands(
            [p[0] for p in pairs] + [p[1] for p in pairs],
            input_types,
            parser.pos,
        )
        if combiner is not None:
            body = _compact_body(parser, combiner, combiner_pos, input_types[0], count)
        else:
            body = _parse_reducer(parser, count)
        properties["dimensions"] = i64_array(dimensions)
        return cls.create(
            operands=operands,
            result_types=list(function_type.outputs.data),
            properties=properties,
            attributes=attributes,
            regions=[body],
        )

    def print(self, printer: Printer) -> None:
        # `(%a init: %c), (%b init: %d)`: one group per pair (printReduceOp).
        printer.print_list(
            zip(self.inputs, self.init_values, strict=True),
            lambda pair: (
                printer.print_string("("),
                printer.print_operand(pair[0]),
                printer.print_string(" init: "),
                printer.print_operand(pair[1]),
                printer.print_string(")"),
            ),
            ", ",
        )
        combiner = combiner_name(self.body) if len(self.inputs) == 1 else None
        compact = combiner is not None and self._body_matches_input()
        if compact:
            printer.print_string(f" applies {combiner}")
        printer.print_string(
            f" across dimensions = {format_dims(self.reduced_dimensions)}"
        )
        print_functional_op_tail(printer, self, ("dimensions",))
        if compact:
            return
        _print_reducer(printer, self.body, len(self.inputs))

    def _body_matches_input(self) -> bool:
        input_type = self.inputs[0].type
        return self.body.block.args[0].type == TensorType(element_type(input_type), [])

    def verify_(self) -> None:
        input_types = [v.type for v in self.inputs]
        init_types = [v.type for v in self.init_values]
        q.verify_quantization_granularity(
            self.name, [*input_types, *init_types, *self.result_types], False
        )
        shapes = {
            tuple(t.get_shape()) for t in input_types if isinstance(t, TensorType)
        }
        if len(shapes) > 1:
            raise VerifyException("expects all inputs to have compatible shapes")
        verify_body(self.body, input_types, init_types)
        verify_init_element_types(input_types, init_types)
        shape = next(iter(shapes)) if shapes else ()
        dims = self.reduced_dimensions
        if len(set(dims)) != len(dims):
            raise VerifyException("Dimensions should be unique")
        for dim in dims:
            if not 0 <= dim < len(shape):
                raise VerifyException(
                    f"Out-of-bounds dimension {dim}, expected to be in range [0, {len(shape)})"
                )
        result_shape = [d for i, d in enumerate(shape) if i not in dims]
        expected = [
            TensorType(element_type(t), result_shape)
            for t in accumulator_types(self.body)
        ]
        if len(self.result_types) != len(expected) or not all(
            compatible_types(a, b) for a, b in zip(self.result_types, expected)
        ):
            raise incompatible_return_types(self.name, expected, self.result_types)


def parse_dims_after(parser: Parser, keyword: str, name: str) -> list[int]:
    parser.parse_keyword(keyword)
    return parse_dims(parser, name)


def _compact_body(
    parser: Parser, combiner: str, pos: int, input_type: Attribute, count: int
) -> Region:
    op_class = parser.ctx.get_optional_op(combiner)
    if count != 1 or combiner not in COMMUTATIVE_COMBINERS or op_class is None:
        parser.raise_error(
            "expected the inner-op to be a commutative binary-op from the stablehlo dialect, with zero region, "
            "producing single result",
            pos,
            parser.pos,
        )
    scalar = TensorType(element_type(input_type), [])
    block = Block(arg_types=[scalar, scalar])
    combine: Operation = op_class.create(
        operands=list(block.args), result_types=[scalar]
    )
    block.add_ops([combine, ReturnOp(combine.results[0])])
    return Region(block)


def _parse_reducer(parser: Parser, count: int) -> Region:
    parser.parse_keyword("reducer")
    lhs: list[Parser.Argument] = []
    rhs: list[Parser.Argument] = []
    for _ in range(count):
        parser.parse_punctuation("(")
        lhs.append(_parse_reducer_argument(parser))
        parser.parse_punctuation(",")
        rhs.append(_parse_reducer_argument(parser))
        parser.parse_punctuation(")")
    return parser.parse_region([*lhs, *rhs])


def _parse_reducer_argument(parser: Parser) -> Parser.Argument:
    """`%a: T` and its optional `loc(...)`, as MLIR's `parseArgument`."""
    argument = parser.parse_argument()
    argument.location = parser.parse_optional_location()
    return argument


def _print_reducer(printer: Printer, body: Region, count: int) -> None:
    """`\n reducer(%a: T, %b: T) (%c: U, %d: U)  { ... }`, as stablehlo-opt prints it."""
    args = body.block.args
    printer.print_string("\n reducer")
    for index in range(count):
        printer.print_string("(")
        printer.print_block_argument(args[index])
        printer.print_string(", ")
        printer.print_block_argument(args[count + index])
        printer.print_string(") ")
    printer.print_string(" ")
    printer.print_region(body, print_entry_block_args=False)


def window_output_shape(
    shape: Sequence[int],
    window: Sequence[int],
    strides: Sequence[int],
    base_dilations: Sequence[int],
    window_dilations: Sequence[int],
    padding: Sequence[tuple[int, int]],
    dimensions: Sequence[int] | None = None,
) -> list[int]:
    """The number of windows per dimension (reduce_window_c16, select_and_scatter, convolution_c25).

    A window larger than the padded input fits 0 times. A padded input of
    negative size is rejected: upstream's `stridedBound` asserts it never
    happens. `dimensions` names the input dimensions in that message
    (default: 0, 1, ...).
    """
    result: list[int] = []
    for i, (d, w, s, bd, wd, (lo, hi)) in enumerate(
        zip(
            shape,
            window,
            strides,
            base_dilations,
            window_dilations,
            padding,
            strict=True,
        )
    ):
        if d == DYNAMIC_INDEX:
            result.append(DYNAMIC_INDEX)
            continue
        dilated = 0 if d == 0 else (d - 1) * bd + 1
        padded = dilated + lo + hi
        if padded < 0:
            dim = i if dimensions is None else dimensions[i]
            raise VerifyException(
                f"expects the padded size of input dimension {dim} to be non-negative, but got {padded} "
                f"(dilated size {dilated}, padding [{lo}, {hi}])"
            )
        dilated_window = (w - 1) * wd + 1
        result.append(
            0 if padded < dilated_window else (padded - dilated_window) // s + 1
        )
    return result


def padding_pairs(
    padding: DenseIntOrFPElementsAttr | None, rank: int
) -> list[tuple[int, int]]:
    """`dense<[[lo, hi], ...]> : tensor<Nx2xi64>` as pairs (all zero if absent)."""
    if padding is None:
        return [(0, 0)] * rank
    values = [int(v) for v in cast(tuple[float, ...], padding.get_values())]
    return [(values[2 * i], values[2 * i + 1]) for i in range(len(values) // 2)]


class WindowedOp(IRDLOperation):
    """The window attributes shared by reduce_window and select_and_scatter."""

    window_dimensions = opt_prop_def(DenseArrayBase)
    window_strides = opt_prop_def(DenseArrayBase)
    padding = opt_prop_def(DenseIntOrFPElementsAttr)

    def window(self, rank: int) -> tuple[list[int], list[int], list[tuple[int, int]]]:
        """(window dimensions, strides, padding), with the defaults filled in."""
        dims = list(array_values(self.window_dimensions)) or [1] * rank
        strides = list(array_values(self.window_strides)) or [1] * rank
        return dims, strides, padding_pairs(self.padding, rank)

    def verify_window(
        self, rank: int, extra: Sequence[tuple[str, Sequence[int]]] = ()
    ) -> None:
        dims, strides, padding = self.window(rank)
        named: list[tuple[str, Sequence[int]]] = [
            ("window_dimensions", dims),
            ("window_strides", strides),
            *extra,
        ]
        for name, values in named:
            if len(values) != rank:
                raise VerifyException(
                    f"expects {name} to have same dimension-size as size of operand dimensions "
                    f"(={rank}), but got {len(values)}"
                )
            if any(v <= 0 for v in values):
                raise VerifyException(
                    f"expects {name} to have positive values, got {format_dims(values)}"
                )
        if self.padding is not None:
            padding_shape = tuple(self.padding.get_shape())
            if len(padding_shape) != 2 or padding_shape[1] != 2:
                raise VerifyException(
                    "expects the shape of padding-attribute to be {N, 2}, but got "
                    f"{{{', '.join(map(str, padding_shape))}}}."
                )
        if len(padding) != rank:
            raise VerifyException(
                f"expects padding-entries to have same dimension-size as size of window dimensions ({rank}), "
                f"but got: {len(padding)}."
            )


@irdl_op_definition
class ReduceWindowOp(WindowedOp):
    """Reduce every window of `inputs` with `body` (pooling); generic syntax only, as upstream."""

    name = "stablehlo.reduce_window"

    inputs = var_operand_def(TensorType)
    init_values = var_operand_def(TensorType)
    base_dilations = opt_prop_def(DenseArrayBase)
    window_dilations = opt_prop_def(DenseArrayBase)
    body = region_def("single_block")
    results_ = var_result_def(TensorType)

    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(q.QuantizedTensorTypes(), RecursiveMemoryEffect())

    def dilations(self, rank: int) -> tuple[list[int], list[int]]:
        base = list(array_values(self.base_dilations)) or [1] * rank
        window = list(array_values(self.window_dilations)) or [1] * rank
        return base, window

    def verify_(self) -> None:
        # Optional for select_and_scatter, required here (reduce_window's ODS).
        if self.window_dimensions is None:
            raise VerifyException(
                f"property 'window_dimensions' expected in operation '{self.name}'"
            )
        input_types = [v.type for v in self.inputs]
        init_types = [v.type for v in self.init_values]
        q.verify_quantization_granularity(
            self.name, [*input_types, *init_types, *self.result_types], False
        )
        shapes = {
            tuple(t.get_shape()) for t in input_types if isinstance(t, TensorType)
        }
        if len(shapes) != 1:
            raise VerifyException("requires same shape for all inputs")
        shape = next(iter(shapes))
        verify_body(self.body, input_types, init_types)
        verify_init_element_types(input_types, init_types)
        base, window_dil = self.dilations(len(shape))
        self.verify_window(
            len(shape), [("base_dilations", base), ("window_dilations", window_dil)]
        )
        dims, strides, padding = self.window(len(shape))
        result_shape = window_output_shape(
            shape, dims, strides, base, window_dil, padding
        )
        expected = [
            TensorType(element_type(t), result_shape)
            for t in accumulator_types(self.body)
        ]
        if len(self.result_types) != len(expected) or not all(
            compatible_types(a, b) for a, b in zip(self.result_types, expected)
        ):
            raise incompatible_return_types(self.name, expected, self.result_types)


@irdl_op_definition
class SelectAndScatterOp(WindowedOp):
    """Scatter `source` into the window positions that `select` picks in `operand` (max-pool gradient)."""

    name = "stablehlo.select_and_scatter"

    operand = operand_def(TensorType)
    source = operand_def(TensorType)
    init_value = operand_def(TensorType)
    select = region_def("single_block")
    scatter = region_def("single_block")
    result = result_def(TensorType)

    traits = traits_def(q.QuantizedTensorTypes(), RecursiveMemoryEffect())

    def verify_(self) -> None:
        operand_type, source_type, init_type = (
            self.operand.type,
            self.source.type,
            self.init_value.type,
        )
        q.verify_quantization_granularity(
            self.name, [operand_type, source_type, init_type, self.result.type], False
        )
        assert isa(operand_type, TensorType)
        assert isa(source_type, TensorType)
        if element_type(operand_type) != element_type(source_type):
            raise VerifyException(
                "expects the operand and source to have the same element type"
            )
        verify_body(self.scatter, [source_type], [init_type])
        if element_type(init_type) != element_type(operand_type):
            raise VerifyException(
                "expects the init_value and operand to have the same element type"
            )
        rank = len(operand_type.get_shape())
        self.verify_window(rank)
        select_args, select_returned = body_types(self.select)
        scalar = TensorType(element_type(operand_type), [])
        if len(select_args) != 2 or len(select_returned) != 1:
            raise VerifyException(
                "expects the select-region to take 2 parameters and return 1 value"
            )
        for index, t in enumerate(select_args):
            if not isa(t, TensorType) or t.get_shape() or not is_promotable(scalar, t):
                raise VerifyException(
                    f"expects the type of select-region's parameter at index {index} to be {type_text(scalar)}, "
                    f"but got {type_text(t)}"
                )
        if select_returned[0] != TensorType(i1, []):
            raise VerifyException(
                f"expects the return-type of select-region to be 'tensor<i1>', but got: {type_text(select_returned[0])}"
            )
        dims, strides, padding = self.window(rank)
        expected_source = window_output_shape(
            operand_type.get_shape(), dims, strides, [1] * rank, [1] * rank, padding
        )
        if not compatible_shapes(source_type.get_shape(), expected_source):
            raise VerifyException(
                f"expects source-type to be {type_text(TensorType(source_type.get_element_type(), expected_source))}"
                f", but got{type_text(source_type)}"
            )
        accumulator = accumulator_types(self.scatter)[0]
        expected = TensorType(element_type(accumulator), operand_type.get_shape())
        if not compatible_types(self.result.type, expected):
            raise incompatible_return_type(self.name, expected, self.result.type)


REDUCTION_OPS: list[type[IRDLOperation]] = [
    ReturnOp,
    ReduceOp,
    ReduceWindowOp,
    SelectAndScatterOp,
]
