"""What `quant.qcast`/`dcast`/`scast` check when one side is a block-packed type.

`!quant.superblock` (GGUF) and `!quant.double_quantized` (NF4) both pack a
tensor's elements with their scales into raw bytes: qcast/dcast keep the shape,
and scast pairs the quantized tensor with an `i8` tensor whose shape the type
computes (`storage_shape`). Only the message for a wrong storage shape differs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

__all__ = ["BlockPacked", "verify_block_packed_cast"]


class BlockPacked(Protocol):
    """The part of a block-packed type the cast checks use."""

    def verify_shape(self, shape: Sequence[int]) -> None: ...

    def storage_shape(self, shape: Sequence[int]) -> tuple[int, ...]: ...


def verify_block_packed_cast(
    op_name: str,
    input_type: Attribute,
    result_type: Attribute,
    qtype: BlockPacked,
    element_class: type[Attribute],
    type_name: str,
    storage_message: Callable[[TensorType[Attribute], tuple[int, ...]], str],
) -> None:
    """Check a cast between a tensor of `qtype` (an `element_class`, named
    `type_name` in messages) and the other side; `storage_message(quantized, expected)` words a storage tensor
    of the wrong shape."""
    if not isa(input_type, TensorType[Attribute]):
        raise VerifyException(
            f"'{op_name}' op {type_name} needs ranked tensors, got {input_type}"
        )
    if not isa(result_type, TensorType[Attribute]):
        raise VerifyException(
            f"'{op_name}' op {type_name} needs ranked tensors, got {result_type}"
        )
    quantized, other = (
        (input_type, result_type)
        if isinstance(input_type.element_type, element_class)
        else (result_type, input_type)
    )
    shape = quantized.get_shape()
    qtype.verify_shape(shape)
    if op_name != "quant.scast":
        if other.get_shape() != shape:
            raise VerifyException(
                f"'{op_name}' op failed to verify that input and result are both "
                "scalars or both tensors with matching shape"
            )
        return
    if other.element_type != IntegerType(8):
        raise VerifyException(
            f"storage of {type_name} must be raw bytes (i8), got {other.element_type}"
        )
    expected = qtype.storage_shape(shape)
    if other.get_shape() != expected:
        raise VerifyException(storage_message(quantized, expected))
