"""xDSL 0.74 prints `linalg.transpose` / `linalg.broadcast` in a form of its own
and cannot read their attribute dictionary.

MLIR prints `ins(%x : T) outs(%y : U) permutation = [1, 0]` (and
`dimensions = [0]` for broadcast), then the op's other attributes after two
spaces (`printOptionalAttrDict` behind the op's own trailing space):
`... permutation = [1, 0]  {someattr}`. xDSL prints `ins(%x:T)`, drops the
attributes, and its parser stops at the `{`. StableHLO's own tests check the
attributes of the lowered transpose (`CHECK-PRIMITIVE-SAME: {someattr}`).
Reproducer (xDSL: "in block definition" at the `{`):

    func.func @f(%a: tensor<2x3xf32>, %e: tensor<3x2xf32>) -> tensor<3x2xf32> {
      %0 = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0] {someattr}
      return %0 : tensor<3x2xf32>
    }

The fix replaces both ops' `print` and `parse` with MLIR's form; the ops are
built as xDSL builds them, so nothing else changes.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import DenseArrayBase, i64
from xdsl.dialects.linalg.ops import BroadcastOp, TransposeOp
from xdsl.ir import Operation, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer

_KEYWORDS: dict[type[Operation], str] = {
    TransposeOp: "permutation",
    BroadcastOp: "dimensions",
}


def _operand_pair(printer: Printer, keyword: str, value: SSAValue) -> None:
    printer.print_string(f" {keyword}(")
    printer.print_ssa_value(value)
    printer.print_string(" : ")
    printer.print_attribute(value.type)
    printer.print_string(")")


def _print(op: TransposeOp | BroadcastOp, printer: Printer) -> None:
    keyword = _KEYWORDS[type(op)]
    source = op.inputs[0] if isinstance(op, TransposeOp) else op.input
    init = op.outputs[0] if isinstance(op, TransposeOp) else op.init
    values = op.permutation if isinstance(op, TransposeOp) else op.dimensions
    _operand_pair(printer, "ins", source)
    _operand_pair(printer, "outs", init)
    printer.print_string(f" {keyword} = [")
    printer.print_list(values.get_values(), printer.print_int)
    printer.print_string("]")
    if op.attributes:
        printer.print_string(" ")
        printer.print_op_attributes(op.attributes)


def _parse_operand(parser: Parser, keyword: str) -> SSAValue:
    parser.parse_characters(keyword)
    parser.parse_punctuation("(")
    unresolved = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    value = parser.resolve_operand(unresolved, parser.parse_type())
    parser.parse_punctuation(")")
    return value


def _parser_for(op_type: type[TransposeOp] | type[BroadcastOp]) -> Any:
    keyword = _KEYWORDS[op_type]

    def parse(cls: Any, parser: Parser) -> Operation:
        source = _parse_operand(parser, "ins")
        init = _parse_operand(parser, "outs")
        parser.parse_keyword(keyword)
        parser.parse_punctuation("=")
        values = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_integer
        )
        op = cls(source, init, DenseArrayBase.from_list(i64, values))
        attributes = parser.parse_optional_attr_dict()
        op.attributes.update(attributes)
        return op

    return classmethod(parse)


def install() -> None:
    """MLIR's text for both ops (idempotent)."""
    for op_type in (TransposeOp, BroadcastOp):
        setattr(op_type, "print", _print)
        setattr(op_type, "parse", _parser_for(op_type))
