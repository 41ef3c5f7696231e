"""xDSL 0.74's linalg named ops only take `tensor` and `memref` operands.

MLIR's named ops read each operand's element type with `getElementTypeOrSelf`, so
any shaped type works; xDSL only unwraps `tensor`/`memref` element types, both when
it builds the hidden body and when it verifies block arguments. An
`!mx_tensor.tensor` (a `ShapedType` whose element type is its compute type) is
therefore rejected. Reproducer (with xquant's `mx_tensor` dialect loaded):

    func.func @f(%a: tensor<32xbf16>, %b: !mx_tensor.tensor<<1xf8E8M0FNU>, <32xf8E4M3FN>>) -> tensor<32xbf16> {
      %r = linalg.add ins(%a, %b : tensor<32xbf16>, !mx_tensor.tensor<<1xf8E8M0FNU>, <32xf8E4M3FN>>) outs(%a : tensor<32xbf16>) -> tensor<32xbf16>
      func.return %r : tensor<32xbf16>
    }

The fix makes `NamedOperation.body_arg_types` take the element type of any
`ShapedType`, and wraps the verifier of every named op: block arguments of other
shaped operands are checked against that element type, then xDSL's checks run
unchanged, shown the argument with the operand's own type (the "self" case they
accept) for the duration of the call. `irdl_op_definition` binds the structured
verifier into each op class, so each class is patched.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import MemRefType, ShapedType, TensorType
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.linalg.abstract_ops import (
    LinalgStructuredOperation,
    NamedOperation,
)
from xdsl.ir import Attribute, BlockArgument, SSAValue
from xdsl.utils.exceptions import VerifyException

from xquant.numerics.values import element_type

_Verifier = Callable[[LinalgStructuredOperation], None]


def body_arg_types(operands: Sequence[SSAValue]) -> list[Attribute]:
    """The block argument types of a named op's body: element type or self."""
    return [element_type(operand.type) for operand in operands]


def _is_other_shaped(operand_type: Attribute) -> bool:
    return isinstance(operand_type, ShapedType) and not isinstance(
        operand_type, TensorType | MemRefType
    )


def _accepting_other_shaped(structured_verify: _Verifier) -> _Verifier:
    def verify_(op: LinalgStructuredOperation) -> None:
        shown: list[tuple[BlockArgument, Attribute]] = []
        args = op.body.block.args
        for index, (operand, arg) in enumerate(zip(op.operands, args, strict=False)):
            if not _is_other_shaped(operand.type):
                continue
            element = element_type(operand.type)
            if arg.type != element:
                raise VerifyException(
                    f"expected type of bb argument #{index} ({arg.type}) to match element or self type of the "
                    f"corresponding operand ({element})"
                )
            shown.append((arg, arg.type))
            arg._type = operand.type  # pyright: ignore[reportPrivateUsage]
        try:
            structured_verify(op)
        finally:
            for arg, arg_type in shown:
                arg._type = arg_type  # pyright: ignore[reportPrivateUsage]

    return verify_


def _named_verify(op_class: type[NamedOperation], structured: _Verifier) -> _Verifier:
    """What `irdl_op_definition` generates: the op definition's checks, then `structured`."""
    op_def = op_class.get_irdl_definition()

    def verify_(op: LinalgStructuredOperation) -> None:
        op_def.verify(op)
        structured(op)

    return verify_


_installed = False


def install() -> None:
    """Accept any shaped operand in every linalg named op (idempotent).

    Named ops added to `Linalg` later are not covered: install
    `upstream_ops` first.
    """
    global _installed
    if _installed:
        return
    setattr(NamedOperation, "body_arg_types", staticmethod(body_arg_types))
    structured = _accepting_other_shaped(LinalgStructuredOperation.verify_)
    for op in Linalg.operations:
        if issubclass(op, NamedOperation):
            setattr(op, "verify_", _named_verify(op, structured))
    _installed = True
