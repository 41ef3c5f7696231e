"""xDSL 0.74's `linalg` lacks `linalg.div` and `linalg.batch_matmul`.

Upstream MLIR has both named ops, and xquant's lowerings and upstream's test data
use them. Reproducer (xDSL: "unregistered operation linalg.div"):

    func.func @f(%x: tensor<6xi32>, %y: tensor<6xi32>) -> tensor<6xi32> {
      %r = linalg.div ins(%x, %y : tensor<6xi32>, tensor<6xi32>) outs(%x : tensor<6xi32>) -> tensor<6xi32>
      func.return %r : tensor<6xi32>
    }

The ops are defined in `xquant.dialects.linalg_extra`; a context looks ops up in the
dialect's op list, so this appends them to xDSL's `Linalg`.
"""

from __future__ import annotations

from xdsl.dialects.linalg import Linalg

from xquant.dialects.linalg_extra import EXTRA_OPS


def install() -> None:
    """Add the ops to xDSL's `Linalg` dialect (idempotent)."""
    operations = Linalg._operations  # pyright: ignore[reportPrivateUsage]
    operations.extend(op for op in EXTRA_OPS if op not in operations)
