"""StableHLO's bitwise and bit-counting ops: and, or, xor, not, popcnt, count_leading_zeros, shifts.

    %0 = stablehlo.and %a, %b : tensor<2x2xi32>
    %1 = stablehlo.not %a : tensor<2x2xi1>
    %2 = stablehlo.shift_left %a, %b : tensor<2x2xi32>

They take booleans (and, or, xor, not) or integers only: quantized tensors
are rejected as upstream's ODS (`HLO_PredOrIntTensor` / `HLO_IntTensor`) does.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.irdl import irdl_op_definition
from xdsl.utils.exceptions import VerifyException

from xquant.dialects.stablehlo.elementwise import (
    ELEMENT_KIND_TEXT,
    BinaryElementwiseOp,
    ElementKinds,
    ElementwiseOp,
    UnaryElementwiseOp,
)
from xquant.dialects.stablehlo.type_utils import is_quantized, type_text


class _IntegerOnly(ElementwiseOp):
    """Rejects quantized operands with the ODS operand-type message."""

    ELEMENTS: ClassVar[ElementKinds] = "integer"

    def verify_quantized(self) -> None:
        types = [*self.operand_types, *self.result_types]
        for index, t in enumerate(types):
            if is_quantized(t):
                kind = (
                    f"operand #{index}"
                    if index < len(self.operand_types)
                    else f"result #{index - len(self.operand_types)}"
                )
                raise VerifyException(
                    f"'{self.name}' op {kind} must be ranked tensor of {ELEMENT_KIND_TEXT['integer']} values, "
                    f"but got {type_text(t)}"
                )


@irdl_op_definition
class AndOp(_IntegerOnly, BinaryElementwiseOp):
    """Bitwise (logical for i1) and."""

    name = "stablehlo.and"


@irdl_op_definition
class OrOp(_IntegerOnly, BinaryElementwiseOp):
    """Bitwise (logical for i1) or."""

    name = "stablehlo.or"


@irdl_op_definition
class XorOp(_IntegerOnly, BinaryElementwiseOp):
    """Bitwise (logical for i1) exclusive or."""

    name = "stablehlo.xor"


@irdl_op_definition
class ShiftLeftOp(_IntegerOnly, BinaryElementwiseOp):
    """`lhs << rhs` (0 once rhs >= bit width)."""

    name = "stablehlo.shift_left"


@irdl_op_definition
class ShiftRightArithmeticOp(_IntegerOnly, BinaryElementwiseOp):
    """Sign-extending `lhs >> rhs`."""

    name = "stablehlo.shift_right_arithmetic"


@irdl_op_definition
class ShiftRightLogicalOp(_IntegerOnly, BinaryElementwiseOp):
    """Zero-filling `lhs >> rhs`."""

    name = "stablehlo.shift_right_logical"


@irdl_op_definition
class NotOp(_IntegerOnly, UnaryElementwiseOp):
    """Bitwise (logical for i1) not."""

    name = "stablehlo.not"


@irdl_op_definition
class PopulationCountOp(_IntegerOnly, UnaryElementwiseOp):
    """The number of set bits."""

    name = "stablehlo.popcnt"


@irdl_op_definition
class ClzOp(_IntegerOnly, UnaryElementwiseOp):
    """The number of leading zero bits."""

    name = "stablehlo.count_leading_zeros"


BITWISE_OPS = [
    AndOp,
    OrOp,
    XorOp,
    ShiftLeftOp,
    ShiftRightArithmeticOp,
    ShiftRightLogicalOp,
    NotOp,
    PopulationCountOp,
    ClzOp,
]
