"""xDSL 0.74's `tensor.empty` does not check its dynamic sizes against its type.

MLIR requires one size operand per `?` of the result type ("incorrect number of
dynamic sizes, has 0, expected 1"); xDSL accepts any number, so a lowering that
forgets the sizes of a dynamic result produces IR that verifies here and is
rejected by mlir-opt. Reproducer (xDSL: no error):

    func.func @f() -> tensor<?xi32> {
      %0 = tensor.empty() : tensor<?xi32>
      return %0 : tensor<?xi32>
    }

The fix adds MLIR's check as the op's `verify_` (xDSL defines none).
"""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.dialects.tensor import EmptyOp
from xdsl.utils.exceptions import VerifyException


def _verify(op: EmptyOp) -> None:
    result = op.tensor.type
    expected = sum(1 for d in result.get_shape() if d == DYNAMIC_INDEX)
    if len(op.dynamic_sizes) != expected:
        raise VerifyException(
            f"'tensor.empty' op incorrect number of dynamic sizes, has {len(op.dynamic_sizes)}, "
            f"expected {expected}"
        )


def install() -> None:
    """MLIR's dynamic-size count check on `tensor.empty` (idempotent)."""
    setattr(EmptyOp, "verify_", _verify)
