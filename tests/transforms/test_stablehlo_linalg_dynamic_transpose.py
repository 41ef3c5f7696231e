"""`stablehlo.transpose` of a dynamically shaped tensor lowers to valid linalg.

The result's `tensor.empty` takes one `tensor.dim` of the operand per dynamic
result dim (upstream's form). It used to take none: IR that xDSL accepted and
mlir-opt rejects ("incorrect number of dynamic sizes"); xquant now checks that
too (`xquant.compat.tensor_empty_sizes`).
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import tensor

import xquant
from tests.upstream.mlir_opt import assert_verifies_upstream

SOURCE = """
func.func @main(%arg0: tensor<?x?x9x?xi32>) -> tensor<?x?x?x9xi32> {
  %0 = "stablehlo.transpose"(%arg0) {permutation = array<i64: 1, 0, 3, 2>, someattr}
        : (tensor<?x?x9x?xi32>) -> tensor<?x?x?x9xi32>
  func.return %0 : tensor<?x?x?x9xi32>
}
"""


@pytest.mark.parametrize("primitive", [False, True])
def test_dynamic_transpose_is_valid_and_exact(primitive: bool) -> None:
    pipeline = (
        f"stablehlo-legalize-to-linalg{{enable-primitive-ops={str(primitive).lower()}}}"
    )
    lowered = xquant.apply_passes(xquant.parse_module(SOURCE), pipeline)
    text = xquant.print_module(lowered)
    (empty,) = [op for op in lowered.walk() if isinstance(op, tensor.EmptyOp)]
    dims = [size.owner for size in empty.dynamic_sizes]
    assert all(isinstance(d, tensor.DimOp) for d in dims)
    indices = [d.index.owner.value.value.data for d in dims]  # pyright: ignore
    assert indices == [1, 0, 3]  # operand dim permutation[i] for each dynamic dim i
    assert "{someattr}" in text
    x = np.arange(2 * 3 * 9 * 4, dtype=np.int32).reshape(2, 3, 9, 4)
    (got,) = xquant.run(lowered, "main", x)
    np.testing.assert_array_equal(got, x.transpose(1, 0, 3, 2))
    assert_verifies_upstream(text)


def test_empty_without_its_sizes_is_rejected() -> None:
    text = """
func.func @f(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = tensor.empty() : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}"""
    with pytest.raises(
        Exception, match="incorrect number of dynamic sizes, has 0, expected 1"
    ):
        xquant.parse_module(text)
