"""The few ops of MLIR's `shape` dialect that the unranked lowerings need.

xDSL has no `shape` dialect. These follow upstream's assembly and semantics,
restricted to extent tensors (`tensor<?xindex>`), the only form the
lowerings produce:

    %s = shape.shape_of %x : tensor<*xf32> -> tensor<?xindex>
    %n = shape.num_elements %s : tensor<?xindex> -> index
    %head, %tail = "shape.split_at"(%s, %i) : (tensor<?xindex>, index) -> (tensor<?xindex>, tensor<?xindex>)
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

EXTENT_TENSOR = TensorType(IndexType(), [DYNAMIC_INDEX])


def _check_extent_tensor(op: Operation, what: str, attr: Attribute) -> None:
    if not (
        isinstance(attr, TensorType)
        and attr.get_element_type() == IndexType()
        and attr.get_num_dims() == 1
    ):
        raise VerifyException(
            f"'{op.name}' op {what} must be an extent tensor (tensor<?xindex>), got {attr}"
        )


@irdl_op_definition
class ShapeOfOp(IRDLOperation):
    """The shape of a ranked or unranked tensor, as an extent tensor."""

    name = "shape.shape_of"
    arg = operand_def(TensorType | UnrankedTensorType)
    result = result_def(TensorType)
    assembly_format = "$arg attr-dict `:` type($arg) `->` type($result)"
    traits = traits_def(Pure())

    def __init__(self, arg: SSAValue | Operation):
        super().__init__(operands=[arg], result_types=[EXTENT_TENSOR])

    def verify_(self) -> None:
        _check_extent_tensor(self, "result", self.result.type)
        arg_type = self.arg.type
        shape = self.result.type.get_shape()
        if isinstance(arg_type, TensorType) and shape[0] not in (
            DYNAMIC_INDEX,
            arg_type.get_num_dims(),
        ):
            raise VerifyException(
                f"'{self.name}' op result has {shape[0]} extents for a rank-{arg_type.get_num_dims()} tensor"
            )


@irdl_op_definition
class NumElementsOp(IRDLOperation):
    """The product of the extents of a shape."""

    name = "shape.num_elements"
    shape = operand_def(TensorType)
    result = result_def(IndexType)
    assembly_format = "$shape attr-dict `:` type($shape) `->` type($result)"
    traits = traits_def(Pure())

    def __init__(self, shape: SSAValue | Operation):
        super().__init__(operands=[shape], result_types=[IndexType()])

    def verify_(self) -> None:
        _check_extent_tensor(self, "operand", self.shape.type)


@irdl_op_definition
class SplitAtOp(IRDLOperation):
    """Split a shape at an index (negative counts from the back): `[0, i)` and `[i, rank)`."""

    name = "shape.split_at"
    operand = operand_def(TensorType)
    index = operand_def(IndexType)
    head = result_def(TensorType)
    tail = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue | Operation, index: SSAValue | Operation):
        super().__init__(
            operands=[operand, index], result_types=[EXTENT_TENSOR, EXTENT_TENSOR]
        )

    def verify_(self) -> None:
        _check_extent_tensor(self, "operand", self.operand.type)
        _check_extent_tensor(self, "head", self.head.type)
        _check_extent_tensor(self, "tail", self.tail.type)


Shape = Dialect("shape", [ShapeOfOp, NumElementsOp, SplitAtOp], [])
