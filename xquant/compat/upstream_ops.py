"""Registers the upstream ops xDSL 0.74 lacks (or defines too narrowly) in xDSL's dialects.

The ops are defined in `xquant.dialects.upstream` (`arith.remf`, `arith.index_castui`,
`tensor.reshape` on unranked and dynamic tensors, `linalg.div`, `batch_matmul`,
`matvec`, `vecmat`, `dot`, `map`, the variadic `linalg.reduce`, the pooling ops, the
channel-last and depthwise convolutions). A
context looks ops up in each dialect's op list, so `install()` appends them there and
swaps the ops xDSL defines too narrowly. Reproducers (xDSL 0.74):

    %r = arith.remf %x, %y : f32                 // "Operation arith.remf is not registered"
    %r = linalg.div ins(%x, %y : tensor<6xi32>, tensor<6xi32>) outs(%x : tensor<6xi32>) -> tensor<6xi32>
                                                 // "Operation linalg.div is not registered"
    %r = tensor.reshape %x(%s) : (tensor<*xf32>, tensor<1xindex>) -> tensor<?xf32>
                                                 // "tensor<*xf32> should be of base attribute tensor"
    %r:2 = linalg.reduce ins(%a, %b : ...) outs(%c, %d : ...) dimensions = [1] (...)
                                                 // "Expected ':'" (one input and one init only)
    %r = linalg.map outs(%e : tensor<4xi64>) (%init: i64) {
      %i = linalg.index 0 : index ...            // "'linalg.index' expects parent op 'linalg.generic'"

`linalg.index` may sit in any structured op upstream (its parent implements
`LinalgOp`); here its parent may be `linalg.generic` or `linalg.map` (upstream's
primitive-op iota).
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.arith import Arith
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.linalg.ops import Conv2DNhwc_HwcfOp, GenericOp, IndexOp, ReduceOp
from xdsl.traits import HasParent

from xquant.dialects.upstream import arith as upstream_arith
from xquant.dialects.upstream import linalg as upstream_linalg
from xquant.dialects.upstream.tensor import ReshapeOp


def install() -> None:
    """Add the ops to xDSL's dialects and swap the narrow ones (idempotent)."""
    linalg_ops = Linalg._operations  # pyright: ignore[reportPrivateUsage]
    for replaced in (ReduceOp, Conv2DNhwc_HwcfOp):
        if replaced in linalg_ops:
            linalg_ops.remove(replaced)
    linalg_ops.extend(op for op in upstream_linalg.EXTRA_OPS if op not in linalg_ops)
    arith_ops = Arith._operations  # pyright: ignore[reportPrivateUsage]
    arith_ops.extend(op for op in upstream_arith.EXTRA_OPS if op not in arith_ops)
    tensor_ops = tensor.Tensor._operations  # pyright: ignore[reportPrivateUsage]
    tensor_ops[:] = [
        ReshapeOp if op.name == ReshapeOp.name else op for op in tensor_ops
    ]
    # Code that builds `tensor.ReshapeOp(...)` after this gets the fixed op too.
    setattr(tensor, "ReshapeOp", ReshapeOp)
    parents = HasParent(GenericOp, upstream_linalg.MapOp)
    IndexOp.traits._traits = frozenset(  # pyright: ignore[reportPrivateUsage]
        parents if isinstance(t, HasParent) else t for t in IndexOp.traits
    )
