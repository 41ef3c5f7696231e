"""xDSL 0.74's `linalg` lacks `linalg.div`, `linalg.batch_matmul`, `linalg.matvec`,
`linalg.vecmat`, `linalg.dot` and `linalg.map`,
and its `linalg.reduce` takes one input and one init and never prints MLIR's form.

Upstream MLIR has both named ops, and xquant's lowerings and upstream's test data
use them. Reproducer (xDSL: "unregistered operation linalg.div"):

    func.func @f(%x: tensor<6xi32>, %y: tensor<6xi32>) -> tensor<6xi32> {
      %r = linalg.div ins(%x, %y : tensor<6xi32>, tensor<6xi32>) outs(%x : tensor<6xi32>) -> tensor<6xi32>
      func.return %r : tensor<6xi32>
    }

A second reproducer (xDSL: "Expected ':'", then `ins(%a:T)` and no short form when
printing the one-input reduce):

    %r:2 = linalg.reduce ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>)
        outs(%c, %d : tensor<2xf32>, tensor<2xf32>) dimensions = [1]
      (%in: f32, %in_0: f32, %init: f32, %init_1: f32) {
        linalg.yield %in, %in_0 : f32, f32
      }

The ops are defined in `xquant.dialects.linalg_extra`; a context looks ops up in the
dialect's op list, so this appends them to xDSL's `Linalg`, replacing xDSL's
`linalg.reduce` by the variadic one.
"""

from __future__ import annotations

from xdsl.dialects.linalg import Linalg
from xdsl.dialects.linalg.ops import ReduceOp

from xquant.dialects.linalg_extra import EXTRA_OPS


def install() -> None:
    """Add the ops to xDSL's `Linalg` dialect (idempotent)."""
    operations = Linalg._operations  # pyright: ignore[reportPrivateUsage]
    if ReduceOp in operations:
        operations.remove(ReduceOp)
    operations.extend(op for op in EXTRA_OPS if op not in operations)
