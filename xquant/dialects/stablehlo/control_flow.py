"""Ops with regions beyond the reductions: while, case, map, sort, scatter.

    %0:2 = stablehlo.while(%iterArg = %a, %iterArg_0 = %b) : tensor<i32>, tensor<f32>
    cond {
      ...
      stablehlo.return %c : tensor<i1>
    } do {
      ...
      stablehlo.return %x, %y : tensor<i32>, tensor<f32>
    }
    "stablehlo.map"(...) ({...}) <{dimensions = array<i64: 0>}> : ...           (generic only)
    "stablehlo.sort"(...) ({...}) <{dimension = 1 : i64, is_stable = true}> : ...
    "stablehlo.scatter"(...) ({...}) <{scatter_dimension_numbers = #stablehlo.scatter<...>}> : ...

Quantized tensors: while carries them unchanged; map, sort and scatter take
per-tensor quantized operands and their bodies see the element types.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects.builtin import (
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, Region
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
    var_region_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xquant.dialects.stablehlo import quantization as q
from xquant.dialects.stablehlo.attributes import ScatterDimensionNumbersAttr
from xquant.dialects.stablehlo.elementwise import verify_same_shapes
from xquant.dialects.stablehlo.reductions import ReturnOp, body_types
from xquant.dialects.stablehlo.syntax import array_values, parse_optional_attributes
from xquant.dialects.stablehlo.type_utils import (
    compatible_element_types,
    compatible_types,
    is_pred,
    shape_of,
    type_text,
)
from xquant.numerics.values import element_type
from xquant.xdsl_internals import print_new_line


def _returned(region: Region) -> list[Attribute]:
    _, returned = body_types(region)
    return returned


def _is_i1_scalar(t: Attribute) -> bool:
    if not isa(t, TensorType) or t.get_shape():
        return False
    return is_pred(t.get_element_type())


@irdl_op_definition
class WhileOp(IRDLOperation):
    """Run `body` while `cond` returns true; both see the loop-carried values as block arguments."""

    name = "stablehlo.while"

    operand = var_operand_def()
    cond = region_def("single_block")
    body = region_def("single_block")
    results_ = var_result_def()
    traits = traits_def(q.QuantizedTensorTypes(), RecursiveMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        iter_args: list[UnresolvedOperand] = []
        operands: list[UnresolvedOperand] = []

        def parse_pair() -> None:
            iter_args.append(parser.parse_unresolved_operand())
            parser.parse_punctuation("=")
            operands.append(parser.parse_unresolved_operand())

        parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_pair)
        types: list[Attribute] = []
        if operands:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_type
            )
        attributes: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("attributes") is not None:
            attributes = parse_optional_attributes(parser)
        resolved = parser.resolve_operands(operands, types, parser.pos)
        parser.parse_keyword("cond")
        cond = parser.parse_region(
            [Parser.Argument(a.span, t) for a, t in zip(iter_args, types)]
        )
        parser.parse_keyword("do")
        body = parser.parse_region(
            [Parser.Argument(a.span, t) for a, t in zip(iter_args, types)]
        )
        return cls.create(
            operands=resolved,
            result_types=types,
            regions=[cond, body],
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        for index, (arg, operand) in enumerate(zip(self.body.block.args, self.operand)):
            if index:
                printer.print_string(", ")
            printer.print_operand(arg)
            printer.print_string(" = ")
            printer.print_operand(operand)
        printer.print_string(")")
        if self.operand:
            printer.print_string(" : ")
            printer.print_list(self.operand_types, printer.print_attribute)
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(self.attributes)
        print_new_line(printer)
        printer.print_string("cond ")
        printer.print_region(self.cond, print_entry_block_args=False)
        printer.print_string(" do ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        operand_types = list(self.operand_types)
        for label, region in (("cond", self.cond), ("body", self.body)):
            args = [a.type for a in region.block.args]
            if len(args) != len(operand_types) or not all(
                compatible_types(a, b) for a, b in zip(args, operand_types)
            ):
                raise VerifyException(
                    f"expect operands to be compatible with {label} block arguments but got "
                    f"{', '.join(type_text(t) for t in operand_types)} vs "
                    f"{', '.join(type_text(t) for t in args)}"
                )
        returned = _returned(self.body)
        if len(returned) != len(operand_types) or not all(
            compatible_types(a, b) for a, b in zip(returned, operand_types)
        ):
            raise VerifyException(
                "expect operands to be compatible with body block return types but got "
                f"{', '.join(type_text(t) for t in operand_types)} vs "
                f"{', '.join(type_text(t) for t in returned)}"
            )
        cond_returned = _returned(self.cond)
        if len(cond_returned) != 1 or not _is_i1_scalar(cond_returned[0]):
            raise VerifyException(
                "expect condition body returns a single value but got "
                f"{len(cond_returned)}"
                if len(cond_returned) != 1
                else f"expect condition block return a zero-ranked tensor of i1 but got "
                f"{type_text(cond_returned[0])}"
            )
        if len(self.result_types) != len(operand_types) or not all(
            compatible_types(a, b) for a, b in zip(self.result_types, operand_types)
        ):
            raise VerifyException("expect operands to be compatible with results")


def _verify_scalar_body(
    op_name: str, region: Region, expected: Sequence[Attribute], label: str
) -> None:
    args = [a.type for a in region.block.args]
    if len(args) != len(expected):
        raise VerifyException(
            f"{label} expects {len(expected)} parameters, but takes {len(args)}"
        )
    for index, (arg, want) in enumerate(zip(args, expected)):
        if not isa(arg, TensorType) or arg.get_shape():
            raise VerifyException(
                f"{label} parameter #{index} should be a 0-rank tensor, but got {type_text(arg)}"
            )
        if not compatible_element_types(arg.get_element_type(), element_type(want)):
            raise VerifyException(
                f"{label} parameter #{index} should have element type {type_text(element_type(want))}, "
                f"but got {type_text(arg)}"
            )
    if not isinstance(region.block.last_op, ReturnOp):
        raise VerifyException(f"{label} must end with stablehlo.return")


@irdl_op_definition
class MapOp(IRDLOperation):
    """Apply the scalar `computation` element-wise across `inputs` (generic syntax)."""

    name = "stablehlo.map"

    inputs = var_operand_def(TensorType)
    dimensions = prop_def(DenseArrayBase)
    computation = region_def("single_block")
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), RecursiveMemoryEffect())

    def verify_(self) -> None:
        types = [*self.operand_types, self.result.type]
        q.verify_quantization_granularity(self.name, types, False)
        _verify_scalar_body(
            self.name, self.computation, list(self.operand_types), "computation"
        )
        returned = _returned(self.computation)
        if len(returned) != 1:
            raise VerifyException(
                f"computation must return single output, but got: {len(returned)}"
            )
        shapes = verify_same_shapes(self.name, self.inputs.types, "operands")
        rank = len(shapes[0]) if shapes else 0
        if list(array_values(self.dimensions)) != list(range(rank)):
            raise VerifyException(
                "requires monotonically increasing dimension numbers, but got: "
                f"[{', '.join(map(str, array_values(self.dimensions)))}]"
            )


@irdl_op_definition
class SortOp(IRDLOperation):
    """Sort `inputs` together along `dimension` with the comparator region (generic syntax)."""

    name = "stablehlo.sort"

    inputs = var_operand_def(TensorType)
    dimension = opt_prop_def(IntegerAttr)
    is_stable = opt_prop_def(BoolAttr)
    comparator = region_def("single_block")
    results_ = var_result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), RecursiveMemoryEffect())

    def verify_(self) -> None:
        operand_types = list(self.operand_types)
        if not operand_types:
            raise VerifyException("expects at least one argument")
        q.verify_quantization_granularity(
            self.name, [*operand_types, *self.result_types], False
        )
        shapes = verify_same_shapes(self.name, operand_types, "operands")
        rank = len(shapes[0])
        dim = self.dimension.value.data if self.dimension is not None else -1
        if not -rank <= dim < rank:
            raise VerifyException(
                f"dimension attribute value must be in range [-{rank}, {rank}), but found {dim}"
            )
        pairs = [t for t in operand_types for _ in range(2)]
        _verify_scalar_body(self.name, self.comparator, pairs, "comparator")
        returned = _returned(self.comparator)
        if len(returned) != 1 or not _is_i1_scalar(returned[0]):
            raise VerifyException(
                "comparator must return tensor<i1> but got "
                f"{', '.join(type_text(t) for t in returned)}"
            )
        if list(self.result_types) != operand_types:
            raise VerifyException(
                f"'{self.name}' op requires the same type for all operands and results"
            )


@irdl_op_definition
class ScatterOp(IRDLOperation):
    """Combine `updates` into `inputs` at `scatter_indices` with `update_computation` (generic syntax)."""

    name = "stablehlo.scatter"

    inputs = var_operand_def(TensorType)
    scatter_indices = operand_def(TensorType)
    updates = var_operand_def(TensorType)
    scatter_dimension_numbers = prop_def(ScatterDimensionNumbersAttr)
    indices_are_sorted = opt_prop_def(BoolAttr)
    unique_indices = opt_prop_def(BoolAttr)
    update_computation = region_def("single_block")
    results_ = var_result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), RecursiveMemoryEffect())

    irdl_options = (SameVariadicOperandSize(),)

    def verify_(self) -> None:
        inputs, updates = list(self.inputs.types), list(self.updates.types)
        if len(inputs) != len(updates):
            raise VerifyException(
                f"Not all inputs have the same number of updates: {len(inputs)} inputs vs {len(updates)} updates"
            )
        q.verify_quantization_granularity(
            self.name, [*inputs, *updates, *self.result_types], False
        )
        index_element = element_type(self.scatter_indices.type)
        if not isa(index_element, IntegerType):
            raise VerifyException(
                f"'{self.name}' op operand #{len(inputs)} must be ranked tensor of integer or index values, "
                f"but got {type_text(self.scatter_indices.type)}"
            )
        dims = self.scatter_dimension_numbers.lists()
        rank = len(shape_of(inputs[0]))
        for d in dims["inserted_window_dims"]:
            if not 0 <= d < rank:
                raise VerifyException(
                    f"Expects inserted_window_dims to be in range [0, {rank}); got: {d}."
                )
        for d in dims["scatter_dims_to_operand_dims"]:
            if not 0 <= d < rank:
                raise VerifyException(
                    f"Invalid scatter_dims_to_operand_dims mapping; domain is [0, {rank}), got: {d}."
                )
        accumulators = [TensorType(element_type(t), []) for t in inputs]
        args, returned = body_types(self.update_computation)
        if len(args) != 2 * len(inputs):
            raise VerifyException(
                f"Reduction-region must take {2 * len(inputs)} parameters, but takes {len(args)} parameter(s)"
            )
        q.verify_reducer_types(accumulators, accumulators, args, returned)
        if len(self.result_types) != len(inputs) or not all(
            compatible_element_types(element_type(a), element_type(b))
            and shape_of(a) == shape_of(b)
            for a, b in zip(self.result_types, inputs)
        ):
            raise VerifyException(
                f"'{self.name}' op inferred type(s) are incompatible with return type(s) of operation"
            )


@irdl_op_definition
class CaseOp(IRDLOperation):
    """Run branch `index` (the last one when `index` is out of range) and return its values
    (generic syntax: `"stablehlo.case"(%i) ({...}, {...}) : (tensor<i32>) -> tensor<5xf32>`)."""

    name = "stablehlo.case"

    index = operand_def(TensorType)
    branches = var_region_def("single_block")
    results_ = var_result_def()
    traits = traits_def(q.QuantizedTensorTypes(), RecursiveMemoryEffect())

    def verify_(self) -> None:
        index_type = self.index.type
        if not (
            isa(index_type, TensorType)
            and not index_type.get_shape()
            and index_type.get_element_type() == IntegerType(32)
        ):
            raise VerifyException(
                "'stablehlo.case' op operand #0 must be ranked tensor of 32-bit "
                f"signless integer values, but got {type_text(index_type)}"
            )
        if not self.branches:
            raise VerifyException("expect at least one branch")
        for index, branch in enumerate(self.branches):
            args = branch.block.args
            if args:
                raise VerifyException(
                    f"branch {index} must have 0 arguments, but found {len(args)}"
                )
            returned = _returned(branch)
            if len(returned) != len(self.result_types) or not all(
                compatible_types(a, b) for a, b in zip(returned, self.result_types)
            ):
                raise VerifyException(
                    f"branch {index} returned values do not match op result types"
                )


CONTROL_FLOW_OPS: list[type[IRDLOperation]] = [
    WhileOp,
    MapOp,
    SortOp,
    ScatterOp,
    CaseOp,
]
