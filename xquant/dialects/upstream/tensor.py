"""xDSL 0.74's `tensor.reshape` rejects unranked and dynamically shaped tensors.

xDSL's definition takes only ranked tensors and compares element counts with `-1`
standing for each dynamic size, so the upstream lowering of an unranked
`quant.qcast` (flatten, compute, reshape back) does not verify. Reproducer:

    func.func @f(%x: tensor<*xf32>, %s: tensor<1xindex>) -> tensor<?xf32> {
      %r = tensor.reshape %x(%s) : (tensor<*xf32>, tensor<1xindex>) -> tensor<?xf32>
      func.return %r : tensor<?xf32>
    }

This definition follows MLIR's TensorOps.td: ranked or unranked source and result,
and an element-count check only when both shapes are static. `xquant.compat.upstream_ops`
swaps it into xDSL's `Tensor` dialect.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnySignlessIntegerType,
    IndexType,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
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
        source_type, shape_type, result_type = (
            self.source.type,
            self.shape.type,
            self.result.type,
        )
        assert isinstance(shape_type, TensorType)
        assert isinstance(source_type, TensorType | UnrankedTensorType)
        assert isinstance(result_type, TensorType | UnrankedTensorType)
        if source_type.get_element_type() != result_type.get_element_type():
            raise VerifyException(
                "element types of source and result tensor types should be the same"
            )
        if shape_type.get_num_dims() != 1:
            raise VerifyException("shape tensor must have a rank one")
        if not isinstance(result_type, TensorType):
            return
        result_shape = result_type.get_shape()
        if (length := shape_type.get_shape()[0]) != DYNAMIC_INDEX and length != len(
            result_shape
        ):
            raise VerifyException(
                "length of shape operand differs from the result's tensor rank"
            )
        if not isinstance(source_type, TensorType):
            return
        source_shape = source_type.get_shape()
        if (
            DYNAMIC_INDEX not in source_shape
            and DYNAMIC_INDEX not in result_shape
            and math.prod(source_shape) != math.prod(result_shape)
        ):
            raise VerifyException(
                "source and result tensor should have the same number of elements"
            )
