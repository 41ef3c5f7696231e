"""Fixes to xDSL 0.74 op definitions that MLIR-valid IR from our lowerings needs.

`tensor.reshape` in xDSL accepts only ranked tensors and compares element
counts with `-1` standing for dynamic sizes, so the upstream lowering of an
unranked `quant.qcast` (flatten, compute, reshape back) fails to verify. The
replacement below follows MLIR's TensorOps.td: ranked or unranked source and
result, and an element-count check only when both shapes are static.

`install()` swaps it into xDSL's `tensor` dialect before any context loads
that dialect; `xquant.universe` calls it on import, so stock `xdsl-opt`
sees the fix as soon as the entry point is loaded.
"""

from __future__ import annotations

import math

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, AnySignlessIntegerType, IndexType, TensorType, UnrankedTensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class ReshapeOp(IRDLOperation):
    """`tensor.reshape %src(%shape) : (tensor<*xf32>, tensor<1xindex>) -> tensor<?xf32>`."""

    name = "tensor.reshape"

    source = operand_def(TensorType | UnrankedTensorType)
    shape = operand_def(TensorType[AnySignlessIntegerType | IndexType])
    result = result_def(TensorType | UnrankedTensorType)
    assembly_format = "attr-dict $source `(` $shape `)` `:` `(` type($source) `,` type($shape) `)` `->` type($result)"

    traits = traits_def(Pure())

    def __init__(self, source: SSAValue, shape: SSAValue, result_type: Attribute):
        super().__init__(operands=(source, shape), result_types=(result_type,))

    def verify_(self) -> None:
        source_type, shape_type, result_type = self.source.type, self.shape.type, self.result.type
        assert isinstance(shape_type, TensorType)
        if source_type.element_type != result_type.element_type:  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
            raise VerifyException("element types of source and result tensor types should be the same")
        if shape_type.get_num_dims() != 1:
            raise VerifyException("shape tensor must have a rank one")
        if not isinstance(result_type, TensorType):
            return
        result_shape = result_type.get_shape()
        if (length := shape_type.get_shape()[0]) != DYNAMIC_INDEX and length != len(result_shape):
            raise VerifyException("length of shape operand differs from the result's tensor rank")
        if isinstance(source_type, TensorType):
            source_shape = source_type.get_shape()
            if DYNAMIC_INDEX not in source_shape and DYNAMIC_INDEX not in result_shape and math.prod(source_shape) != math.prod(result_shape):
                raise VerifyException("source and result tensor should have the same number of elements")


def install() -> None:
    """Replace xDSL's `tensor.reshape` with the fixed definition (idempotent)."""
    ops = tensor.Tensor._operations  # pyright: ignore[reportPrivateUsage]
    for index, op in enumerate(ops):
        if op.name == ReshapeOp.name:
            ops[index] = ReshapeOp
    tensor.ReshapeOp = ReshapeOp  # pyright: ignore[reportAttributeAccessIssue]
