"""The few ops of StableHLO's `chlo` dialect that `stablehlo-legalize-quant-to-math` emits.

Upstream's pass builds its integer math from implicitly broadcasting binary
ops (`stablehlo/dialect/ChloOps.td`, `HLOClient_BroadcastBinaryElementwiseOp`);
xquant keeps them so the lowered IR reads as upstream's:

    %0 = chlo.broadcast_add %a, %b : (tensor<?x?xi32>, tensor<i32>) -> tensor<?x?xi32>
    %1 = chlo.broadcast_multiply %x, %s {broadcast_dimensions = array<i64: 3>}
           : (tensor<26x26x3x2xf32>, tensor<2xf32>) -> tensor<26x26x3x2xf32>

Semantics (numpy-style broadcasting): without `broadcast_dimensions` the
operands align on their trailing dimensions; with it, the lower-rank operand's
dimension `i` maps to result dimension `broadcast_dimensions[i]`. A size-1 or
equal dimension broadcasts. Element types must agree; the result's shape is
the broadcast shape (dynamic dimensions are accepted as compatible).
"""

from __future__ import annotations

from typing import ClassVar, Self

from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, TensorType
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xquant.dialects.stablehlo.syntax import (
    array_values,
    i64_array,
    parse_functional_op_tail,
    print_functional_op_tail,
    print_operands,
)


def broadcast_shape(
    lhs: tuple[int, ...], rhs: tuple[int, ...], dims: tuple[int, ...] | None
) -> tuple[int, ...] | None:
    """The result shape of broadcasting `lhs` with `rhs` (None if incompatible).

    With `dims`, the operand of lower rank maps its dimension `i` to result
    dimension `dims[i]`; without, trailing dimensions align.
    """
    big, small = (lhs, rhs) if len(lhs) >= len(rhs) else (rhs, lhs)
    if dims is None:
        dims = tuple(range(len(big) - len(small), len(big)))
    if len(dims) != len(small) or any(not 0 <= d < len(big) for d in dims):
        return None
    result = list(big)
    for size, d in zip(small, dims, strict=True):
        other = big[d]
        if size == other or size == 1:
            continue
        if other == 1:
            result[d] = size
        elif DYNAMIC_INDEX in (size, other):
            result[d] = other if other != DYNAMIC_INDEX else size
        else:
            return None
    return tuple(result)


class BroadcastBinaryOp(IRDLOperation):
    """`chlo.broadcast_<op> %lhs, %rhs [{broadcast_dimensions = array<i64: ...>}] : (T1, T2) -> T3`."""

    STABLEHLO_NAME: ClassVar[str]
    """The element-wise StableHLO op this one broadcasts (the interpreter's table key)."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    broadcast_dimensions = opt_prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        broadcast_dimensions: tuple[int, ...] | None = None,
        result_type: Attribute | None = None,
    ):
        if result_type is None:
            result_type = _default_result_type(lhs.type, rhs.type, broadcast_dimensions)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type],
            properties=(
                {}
                if broadcast_dimensions is None
                else {"broadcast_dimensions": i64_array(broadcast_dimensions)}
            ),
        )

    @property
    def dims(self) -> tuple[int, ...] | None:
        """`broadcast_dimensions` as a tuple, None when absent (trailing alignment)."""
        attr = self.broadcast_dimensions
        return None if attr is None else array_values(attr)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        return parse_functional_op_tail(cls, parser, [lhs, rhs], None, 1)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.operands)
        print_functional_op_tail(printer, self)

    def verify_(self) -> None:
        lhs, rhs, result = self.lhs.type, self.rhs.type, self.result.type
        assert isinstance(lhs, TensorType) and isinstance(rhs, TensorType)
        assert isinstance(result, TensorType)
        if not (
            lhs.get_element_type()
            == rhs.get_element_type()
            == result.get_element_type()
        ):
            raise VerifyException(
                f"'{self.name}' op requires the same element type for all operands and results"
            )
        shape = broadcast_shape(
            tuple(lhs.get_shape()), tuple(rhs.get_shape()), self.dims
        )
        if shape is None or len(shape) != result.get_num_dims():
            raise VerifyException(
                f"'{self.name}' op operands are not broadcast compatible"
            )


def _default_result_type(
    lhs: Attribute, rhs: Attribute, dims: tuple[int, ...] | None
) -> Attribute:
    assert isa(lhs, TensorType) and isa(rhs, TensorType)
    shape = broadcast_shape(tuple(lhs.get_shape()), tuple(rhs.get_shape()), dims)
    if shape is None or shape == tuple(lhs.get_shape()):
        return lhs
    return TensorType(lhs.get_element_type(), shape)


@irdl_op_definition
class BroadcastAddOp(BroadcastBinaryOp):
    name = "chlo.broadcast_add"
    STABLEHLO_NAME: ClassVar[str] = "stablehlo.add"


@irdl_op_definition
class BroadcastSubtractOp(BroadcastBinaryOp):
    name = "chlo.broadcast_subtract"
    STABLEHLO_NAME: ClassVar[str] = "stablehlo.subtract"


@irdl_op_definition
class BroadcastMultiplyOp(BroadcastBinaryOp):
    name = "chlo.broadcast_multiply"
    STABLEHLO_NAME: ClassVar[str] = "stablehlo.multiply"


@irdl_op_definition
class BroadcastDivideOp(BroadcastBinaryOp):
    name = "chlo.broadcast_divide"
    STABLEHLO_NAME: ClassVar[str] = "stablehlo.divide"


@irdl_op_definition
class BroadcastMaximumOp(BroadcastBinaryOp):
    name = "chlo.broadcast_maximum"
    STABLEHLO_NAME: ClassVar[str] = "stablehlo.maximum"


@irdl_op_definition
class BroadcastMinimumOp(BroadcastBinaryOp):
    name = "chlo.broadcast_minimum"
    STABLEHLO_NAME: ClassVar[str] = "stablehlo.minimum"


Chlo = Dialect(
    "chlo",
    [
        BroadcastAddOp,
        BroadcastSubtractOp,
        BroadcastMultiplyOp,
        BroadcastDivideOp,
        BroadcastMaximumOp,
        BroadcastMinimumOp,
    ],
    [],
)
