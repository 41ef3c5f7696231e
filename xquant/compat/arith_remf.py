"""xDSL 0.74's `arith` lacks `arith.remf`.

MLIR's `arith.remf` is the float remainder (C's `fmod`: the result has the
dividend's sign); `stablehlo-legalize-to-linalg` lowers a float
`stablehlo.remainder` to it, as upstream. Reproducer (xDSL: "Operation
arith.remf is not registered"):

    func.func @f(%x: f32, %y: f32) -> f32 {
      %r = arith.remf %x, %y : f32
      func.return %r : f32
    }

The op is xDSL's float binary operation class under MLIR's name; this appends it
to xDSL's `Arith` dialect.
"""

from __future__ import annotations

from xdsl.dialects.arith import Arith, FloatingPointLikeBinaryOperation
from xdsl.irdl import irdl_op_definition, traits_def
from xdsl.traits import Pure


@irdl_op_definition
class RemFOp(FloatingPointLikeBinaryOperation):
    """`arith.remf`: the remainder of truncating division, with the dividend's sign."""

    name = "arith.remf"

    traits = traits_def(Pure())


def install() -> None:
    """Add `arith.remf` to xDSL's `Arith` dialect (idempotent)."""
    operations = Arith._operations  # pyright: ignore[reportPrivateUsage]
    if RemFOp not in operations:
        operations.append(RemFOp)
