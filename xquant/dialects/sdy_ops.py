"""Shardy's structural ops: named computations, barriers, data-flow edges, groups.

    %0 = sdy.named_computation<"foo">(%a) in_shardings=[<@mesh, [{"a"}]>]
           (%b: tensor<8xf32>) {
      sdy.return %b : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    %1 = sdy.propagation_barrier %0 allowed_direction=BACKWARD : tensor<8xf32>
    %2 = sdy.data_flow_edge %1 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
    sdy.sharding_group %2 group_id=0 : tensor<8xf32>
    %3 = sdy.constant dense<1.0> : tensor<8xf32>

Syntax and messages as Shardy's ops.td and verifiers.cc. On one device a
named computation is its body, and the others are the identity (or nothing).
"""

from __future__ import annotations

from typing import ClassVar, Self

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Operation,
    Region,
    SpacedOpaqueSyntaxAttribute,
)
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_attr_definition,
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
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa
from xdsl.utils.str_enum import StrEnum

from xquant.dialects import stablehlo as shlo
from xquant.dialects.sdy import (
    TensorShardingAttr,
    TensorShardingPerValueAttr,
    op_errors,
    parse_tensor_sharding,
    verify_sharding,
    verify_sharding_per_value,
)

__all__ = [
    "ConstantOp",
    "DataFlowEdgeOp",
    "FuncDataFlowEdgeOp",
    "NamedComputationOp",
    "PropagationBarrierOp",
    "PropagationDirection",
    "PropagationDirectionAttr",
    "ShardingGroupOp",
    "parse_region_with_arguments",
    "print_region_with_arguments",
    "verify_sharding_per_value",
]


def parse_stripped_per_value(parser: Parser) -> TensorShardingPerValueAttr:
    """`[<@mesh, [...]>, ...]` (Shardy's `StrippedTensorShardingPerValueAttr`)."""
    values = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: parse_tensor_sharding(parser)
    )
    return TensorShardingPerValueAttr(ArrayAttr(values))


def print_stripped_per_value(
    printer: Printer, value: TensorShardingPerValueAttr
) -> None:
    printer.print_string("[")
    printer.print_list(value.shardings.data, lambda s: s.print_parameters(printer))
    printer.print_string("]")


def parse_region_with_arguments(parser: Parser) -> Region:
    """`(%a: T loc(...), ...) { ... }` (`SingleBlockRegionNoBlockId`)."""

    def parse_argument() -> Parser.Argument:
        argument = parser.parse_argument()
        argument.location = parser.parse_optional_location()
        return argument

    arguments = parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, parse_argument
    )
    return parser.parse_region(arguments)


def print_region_with_arguments(printer: Printer, region: Region) -> None:
    printer.print_string("(")
    printer.print_list(region.block.args, printer.print_block_argument)
    printer.print_string(") ")
    printer.print_region(
        region, print_entry_block_args=False, print_block_terminators=True
    )


# ----- named_computation -----------------------------------------------------------


@irdl_op_definition
class NamedComputationOp(IRDLOperation):
    """A named block of ops (a call inlined for propagation): runs as its body."""

    name = "sdy.named_computation"

    computation_name = prop_def(StringAttr, prop_name="name")
    operands_ = var_operand_def()
    in_shardings = opt_prop_def(TensorShardingPerValueAttr)
    out_shardings = opt_prop_def(TensorShardingPerValueAttr)
    outputs = var_result_def()
    body = region_def("single_block")

    traits = traits_def(IsolatedFromAbove(), RecursiveMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        parser.parse_punctuation("<")
        name = parser.parse_str_literal()
        parser.parse_punctuation(">")
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        properties: dict[str, Attribute] = {"name": StringAttr(name)}
        for keyword in ("in_shardings", "out_shardings"):
            if parser.parse_optional_keyword(keyword) is not None:
                parser.parse_punctuation("=")
                properties[keyword] = parse_stripped_per_value(parser)
        body = parse_region_with_arguments(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        function_type = parser.parse_function_type()
        values = parser.resolve_operands(operands, function_type.inputs.data, pos)
        return cls.create(
            operands=values,
            result_types=function_type.outputs.data,
            properties=properties,
            attributes=attributes,
            regions=[body],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string_literal(self.computation_name.data)
        printer.print_string(">(")
        printer.print_list(self.operands_, printer.print_operand)
        printer.print_string(") ")
        for keyword, value in (
            ("in_shardings", self.in_shardings),
            ("out_shardings", self.out_shardings),
        ):
            if value is not None:
                printer.print_string(f"{keyword}=")
                print_stripped_per_value(printer, value)
                printer.print_string(" ")
        print_region_with_arguments(printer, self.body)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type(self.operands_.types, self.outputs.types)

    @op_errors
    def verify_(self) -> None:
        args = self.body.block.args
        if len(args) != len(self.operands_):
            raise VerifyException(
                "number of block arguments must match the number of operands: "
                f"{len(args)} != {len(self.operands_)}"
            )
        for index, (arg, operand) in enumerate(zip(args, self.operands_, strict=True)):
            if arg.type != operand.type:
                raise VerifyException(
                    f"expected the type of the {index}'th block argument to match "
                    "the type of the corresponding operand: "
                    f"'{arg.type}' vs '{operand.type}'"
                )
        terminator = self.body.block.last_op
        returned = [] if terminator is None else list(terminator.operand_types)
        if returned != list(self.outputs.types):
            raise VerifyException(
                "inferred type(s) "
                + ", ".join(f"'{t}'" for t in returned)
                + " are incompatible with return type(s) of operation "
                + ", ".join(f"'{t}'" for t in self.outputs.types)
            )
        if self.in_shardings is not None:
            verify_sharding_per_value(
                self.in_shardings, self.operands_.types, self, "in_shardings "
            )
        if self.out_shardings is not None:
            verify_sharding_per_value(
                self.out_shardings, self.outputs.types, self, "out_shardings "
            )


# ----- propagation_barrier ---------------------------------------------------------


class PropagationDirection(StrEnum):
    NONE = "NONE"
    FORWARD = "FORWARD"
    BACKWARD = "BACKWARD"
    BOTH = "BOTH"


@irdl_attr_definition
class PropagationDirectionAttr(
    EnumAttribute[PropagationDirection], SpacedOpaqueSyntaxAttribute
):
    """`#sdy<propagation_direction BACKWARD>`."""

    name = "sdy.propagation_direction"


class _UnaryIdentityOp(IRDLOperation):
    T: ClassVar = VarConstraint("T", AnyAttr())
    input = operand_def(T)
    result = result_def(T)


@irdl_op_definition
class PropagationBarrierOp(_UnaryIdentityOp):
    """Blocks sharding propagation in some direction: the identity."""

    name = "sdy.propagation_barrier"

    allowed_direction = prop_def(PropagationDirectionAttr)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operand = parser.parse_unresolved_operand()
        parser.parse_keyword("allowed_direction")
        parser.parse_punctuation("=")
        direction = PropagationDirectionAttr(
            PropagationDirectionAttr.parse_parameter(parser)
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        typ = parser.parse_type()
        (value,) = parser.resolve_operands([operand], [typ], parser.pos)
        return cls.create(
            operands=[value],
            result_types=[typ],
            properties={"allowed_direction": direction},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        printer.print_string(f" allowed_direction={self.allowed_direction.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)

    @op_errors
    def verify_(self) -> None:
        if not isa(self.input.type, TensorType):
            raise VerifyException(
                "operand #0 must be ranked tensor of any type values, but got "
                f"'{self.input.type}'"
            )
        if self.allowed_direction.data is PropagationDirection.BOTH:
            raise VerifyException(
                "cannot specify `BOTH` as the direction. Not blocking propagation "
                "direction makes the op redundant."
            )


# ----- data_flow_edge / func_data_flow_edge ----------------------------------------


def _static(typ: Attribute) -> bool:
    return isa(typ, TensorType) and all(d >= 0 for d in typ.get_shape())


def _single_use(op: Operation) -> bool:
    return len(list(op.operands[0].uses)) == 1


@irdl_op_definition
class DataFlowEdgeOp(_UnaryIdentityOp):
    """Where propagation keeps the sharding of a data-flow edge: the identity."""

    name = "sdy.data_flow_edge"

    sharding = opt_prop_def(TensorShardingAttr)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operand = parser.parse_unresolved_operand()
        properties: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("sharding") is not None:
            parser.parse_punctuation("=")
            properties["sharding"] = parse_tensor_sharding(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        typ = parser.parse_type()
        (value,) = parser.resolve_operands([operand], [typ], parser.pos)
        return cls.create(
            operands=[value],
            result_types=[typ],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        if self.sharding is not None:
            printer.print_string(" sharding=")
            self.sharding.print_parameters(printer)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    @op_errors
    def verify_(self) -> None:
        if not _static(self.result.type):
            raise VerifyException(
                "expected sdy.data_flow_edge to have a static-shaped result. "
                f"type: {self.result.type}"
            )
        if not _single_use(self):
            raise VerifyException(
                "expected input of sdy.data_flow_edge to have a single user"
            )
        owner = self.input.owner
        if (
            isinstance(owner, Operation)
            and owner.name.startswith("sdy.")
            and not isinstance(owner, NamedComputationOp)
        ):
            raise VerifyException(
                "expected input of sdy.data_flow_edge to not be defined by an "
                "SdyDialect op (other than an sdy.named_computation)."
            )
        if self.sharding is not None:
            verify_sharding(self.sharding, self.result.type, self)


@irdl_op_definition
class FuncDataFlowEdgeOp(_UnaryIdentityOp):
    """The data-flow edge of a function argument or call result: the identity."""

    name = "sdy.func_data_flow_edge"

    assembly_format = "$input attr-dict `:` type($result)"

    @op_errors
    def verify_(self) -> None:
        if not _static(self.result.type):
            raise VerifyException(
                "expected sdy.func_data_flow_edge to have a static-shaped result. "
                f"type: {self.result.type}"
            )
        if not _single_use(self):
            raise VerifyException(
                "expected operand of sdy.func_data_flow_edge to have a single user"
            )
        operand = self.input
        if isinstance(operand, BlockArgument):
            block: Block = operand.block
            if not isinstance(block.parent_op(), func.FuncOp):
                raise VerifyException(
                    "expected operand of sdy.func_data_flow_edge to be a block "
                    "argument of a func op."
                )
        elif not isinstance(operand.owner, func.CallOp):
            raise VerifyException(
                "expected operand of sdy.func_data_flow_edge to be a result of call op."
            )


# ----- sharding_group --------------------------------------------------------------


@irdl_op_definition
class ShardingGroupOp(IRDLOperation):
    """`sdy.sharding_group %a group_id=0 : T`: no effect on one device."""

    name = "sdy.sharding_group"

    input = operand_def(TensorType)
    group_id = prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operand = parser.parse_unresolved_operand()
        parser.parse_keyword("group_id")
        parser.parse_punctuation("=")
        group = parser.parse_integer(allow_boolean=False)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        typ = parser.parse_type()
        (value,) = parser.resolve_operands([operand], [typ], parser.pos)
        return cls.create(
            operands=[value],
            properties={"group_id": IntegerAttr(group, i64)},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        printer.print_string(f" group_id={self.group_id.value.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)


# ----- constant --------------------------------------------------------------------


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """`sdy.constant dense<...> : T`: a constant Shardy keeps from being
    deduplicated; `stablehlo.constant`'s syntax and values."""

    name = "sdy.constant"

    value = prop_def(DenseIntOrFPElementsAttr | DenseResourceAttr)
    output = result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        parsed = shlo.ConstantOp.parse(parser)
        return cls.create(
            properties=dict(parsed.properties),
            attributes=dict(parsed.attributes),
            result_types=list(parsed.result_types),
        )

    def print(self, printer: Printer) -> None:
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        printer.print_attribute(self.value)

    @op_errors
    def verify_(self) -> None:
        if self.value.type != self.output.type:
            raise VerifyException(
                f"inferred type(s) '{self.value.type}' are incompatible with return "
                f"type(s) of operation '{self.output.type}'"
            )
