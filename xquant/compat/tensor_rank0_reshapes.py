"""xDSL 0.74 rejects `tensor.expand_shape` from a rank-0 tensor.

MLIR writes the reshape of a scalar tensor into `tensor<1x...x1>` with an empty
reassociation (`tensor.expand_shape %x [] output_shape [1] : tensor<i32> into
tensor<1xi32>`, StableHLO's reshape lowering emits it); its verifier accepts
any empty reassociation when the collapsed type has rank 0. xDSL counts the
reassociation's dims against the expanded rank and fails. Reproducer (xDSL:
"expected the total number of reassociation dimensions (0) to equal the
expanded type's rank (1)"):

    func.func @f(%a: tensor<i32>) -> tensor<1xi32> {
      %0 = tensor.expand_shape %a [] output_shape [1] : tensor<i32> into tensor<1xi32>
      return %0 : tensor<1xi32>
    }

The fix lets a rank-0 collapsed type with an empty reassociation through and
leaves every other check to xDSL. `tensor` imports the checker by name, so the
name is replaced in that module.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import tensor
from xdsl.dialects.builtin import ArrayAttr, ShapedType
from xdsl.dialects.utils import reshape_ops_utils

_xdsl_verify = reshape_ops_utils.verify_reshape_like_types


def _verify(
    collapsed_type: ShapedType,
    expanded_type: ShapedType,
    reassociation: ArrayAttr[Any],
) -> None:
    if not collapsed_type.get_shape() and not reassociation.data:
        return
    _xdsl_verify(collapsed_type, expanded_type, reassociation)


def install() -> None:
    """MLIR's rank-0 rule for `tensor.expand_shape` / `collapse_shape` (idempotent)."""
    setattr(tensor, "verify_reshape_like_types", _verify)
