"""`stablehlo.constant` and `stablehlo.custom_call`.

    %c = stablehlo.constant dense<[1.0, 0x7F800000]> : tensor<2xf32>
    %q = stablehlo.constant() <{value = dense<[1, 2]> : tensor<2xi8>}> : () -> tensor<2x!quant.uniform<i8:f32, 2.0:15>>
    %r = stablehlo.custom_call @check.eq(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<i1>

A quantized constant holds its storage integers, so its `value` has the
storage type and upstream prints it in the generic-property form (second
line); both forms parse, and each prints as upstream prints it.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import (
    BoolAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
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
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.hints import isa

# `check` imports this package's quantization helpers: import the module, not
# its function, so that either may be imported first.
from xquant.dialects import check
from xquant.dialects.stablehlo import quantization as q
from xquant.dialects.stablehlo.inferred_types import incompatible_return_type
from xquant.dialects.stablehlo.syntax import (
    parse_functional_op_tail,
    parse_optional_attributes,
)
from xquant.dialects.stablehlo.type_utils import quantized


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """A tensor constant. For a quantized result, `value` holds the storage integers.

    `value` may also be a `dense_resource` (a blob of the file's resources section)."""

    name = "stablehlo.constant"

    value = prop_def(DenseIntOrFPElementsAttr | DenseResourceAttr)
    output = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure(), ConstantLike())

    def __init__(
        self,
        value: DenseIntOrFPElementsAttr | DenseResourceAttr,
        result_type: Attribute | None = None,
    ):
        super().__init__(
            properties={"value": value},
            result_types=[value.type if result_type is None else result_type],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        if parser.parse_optional_punctuation("(") is not None:
            parser.parse_punctuation(")")
            properties = parser.parse_optional_properties_dict()
            return parse_functional_op_tail(cls, parser, [], properties, 1)
        attributes = parse_optional_attributes(parser)
        start = parser.pos
        value = parser.parse_attribute()
        if not isa(value, DenseIntOrFPElementsAttr) and not isinstance(
            value, DenseResourceAttr
        ):
            parser.raise_error("expected a dense elements attribute", start, parser.pos)
        return cls.create(
            properties={"value": value},
            attributes=attributes,
            result_types=[value.type],
        )

    def print(self, printer: Printer) -> None:
        if self.value.type != self.output.type:
            printer.print_string("() <")
            printer.print_attr_dict(self.properties)
            printer.print_string(">")
            if self.attributes:
                printer.print_string(" ")
                printer.print_attr_dict(self.attributes)
            printer.print_string(" : ")
            printer.print_function_type((), self.result_types)
            return
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        printer.print_attribute(self.value)

    def verify_(self) -> None:
        value_type, result_type = self.value.type, self.output.type
        if value_type == result_type:
            return
        assert isinstance(result_type, TensorType)
        result_q = quantized(result_type)
        storage = None if result_q is None else IntegerType(result_q.storage_width)
        if (
            result_q is None
            or not isa(value_type, TensorType)
            or value_type.get_shape() != result_type.get_shape()
            or value_type.get_element_type() != storage
        ):
            raise incompatible_return_type(self.name, value_type, result_type)


@irdl_custom_directive
class CustomCallTarget(CustomDirective):
    """`custom<CustomCallTarget>`: the target name as a symbol, `@check.eq`."""

    call_target_name: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        self.call_target_name.set(state, parser.parse_symbol_name())

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        target = self.call_target_name.get(op)
        assert isinstance(target, StringAttr)
        printer.print_symbol_name(target.data)


@irdl_op_definition
class CustomCallOp(IRDLOperation):
    """A call to an external target, e.g. StableHLO's test checks `@check.eq`, `@check.expect_almost_eq`."""

    name = "stablehlo.custom_call"

    inputs = var_operand_def()
    outputs = var_result_def()
    call_target_name = prop_def(StringAttr)
    has_side_effect = opt_prop_def(BoolAttr)
    backend_config = opt_prop_def(Attribute)
    api_version = opt_prop_def(IntegerAttr)
    called_computations = opt_prop_def(Attribute)
    operand_layouts = opt_prop_def(Attribute)
    result_layouts = opt_prop_def(Attribute)
    output_operand_aliases = opt_prop_def(Attribute)
    traits = traits_def(q.QuantizedTensorTypes())

    def __init__(
        self, target: str, inputs: list[SSAValue], result_types: list[Attribute]
    ):
        super().__init__(
            operands=[inputs],
            result_types=[result_types],
            properties={"call_target_name": StringAttr(target)},
        )

    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (CustomCallTarget,)
    assembly_format = (
        "custom<CustomCallTarget>($call_target_name) `(` $inputs `)` attr-dict `:` "
        "functional-type(operands, results)"
    )

    def verify_(self) -> None:
        target = self.call_target_name.data
        if target.startswith("check."):
            check.verify_custom_call_check(target, self.operand_types)


CONSTANT_OPS: list[type[IRDLOperation]] = [ConstantOp, CustomCallOp]
