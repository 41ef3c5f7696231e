"""`stablehlo-legalize-to-linalg`'s options (upstream's names): same numbers, upstream's ops.

Every option setting must leave the interpreter's results unchanged; the ops it
emits are upstream's for that setting (`enable-primitive-ops`: linalg.reduce,
linalg.transpose, linalg.broadcast; `capture-scalar-inputs=false`: rank-0
operands passed to the generic with an empty map instead of tensor.extract).
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.utils.exceptions import PassFailedException

import xquant

PROGRAM = """func.func @main(%a: tensor<2x3xf32>, %z: tensor<f32>, %b: tensor<3xf32>) -> (tensor<2xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  %1 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %3 = stablehlo.clamp %z, %a, %z : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0, %1, %2, %3 : tensor<2xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}"""
ARGS = (
    np.arange(6, dtype=np.float32).reshape(2, 3),
    np.array(1.5, np.float32),
    np.array([7, 8, 9], np.float32),
)
OPTIONS = {
    "": {"linalg.fill", "tensor.extract"},
    "{enable-primitive-ops=true}": {
        "linalg.map",
        "linalg.reduce",
        "linalg.transpose",
        "linalg.broadcast",
    },
    "{capture-scalar-inputs=false}": {"linalg.fill"},
}


@pytest.mark.parametrize("options", OPTIONS)
def test_options_keep_the_numbers_and_emit_upstreams_ops(options: str) -> None:
    golden = xquant.run(xquant.parse_module(PROGRAM), "main", *ARGS)
    lowered = xquant.apply_passes(
        xquant.parse_module(PROGRAM), "stablehlo-legalize-to-linalg" + options
    )
    names = {op.name for op in lowered.walk()}
    assert not any(name.startswith("stablehlo.") for name in names)
    assert OPTIONS[options] <= names, names
    if options == "{capture-scalar-inputs=false}":
        assert "tensor.extract" in names  # the reduce's init only
        assert "linalg.transpose" not in names
    for got, want in zip(xquant.run(lowered, "main", *ARGS), golden, strict=True):
        assert np.array_equal(np.asarray(got), np.asarray(want))


def test_sparse_ops_are_refused() -> None:
    with pytest.raises(PassFailedException, match="enable-sparse-ops"):
        xquant.apply_passes(
            xquant.parse_module(PROGRAM),
            "stablehlo-legalize-to-linalg{enable-sparse-ops=true}",
        )
