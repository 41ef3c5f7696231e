"""`stablehlo-legalize-quant-to-math` without options computes upstream's numbers.

Upstream's `matchAndRewriteDotLikeOp` (StablehloLegalizeQuantToMath.cpp),
written out in numpy here: the i32 dot of the storage integers, the zero-point
offset `z_rhs * sum_K(lhs) + z_lhs * sum_K(rhs) - z_lhs * z_rhs * K`, both
multiplied in f32 by the combined scale `s_lhs * s_rhs / s_result` and
truncated to i32, then `acc + (z_result - offset)`, converted (not clamped).
`exact=true` gives the contract's numbers instead, which differ.
"""

from __future__ import annotations

import numpy as np
import pytest

from xquant import apply_passes, parse_module, run
from xquant.asm.diagnostics import OpDiagnostic

LHS = "!quant.uniform<i8:f32, 0.5:2>"
RHS = "!quant.uniform<i8:f32, 0.25>"  # the spec wants rhs zero point 0
RESULT = "!quant.uniform<i32:f32, 0.1:3>"
TEXT = f"""
func.func @main(%a: tensor<3x4x{LHS}>, %b: tensor<4x5x{RHS}>) -> tensor<3x5x{RESULT}> {{
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4x{LHS}>, tensor<4x5x{RHS}>) -> tensor<3x5x{RESULT}>
  func.return %0 : tensor<3x5x{RESULT}>
}}"""


def _upstream(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    z_lhs, z_rhs, z_result, k = 2, 0, 3, a.shape[1]
    acc = a.astype(np.int32) @ b.astype(np.int32)
    offset = (
        z_rhs * a.astype(np.int32).sum(axis=1)[:, None]
        + z_lhs * b.astype(np.int32).sum(axis=0)[None, :]
        - z_lhs * z_rhs * k
    ).astype(np.int32)
    combined = np.float32(0.5 * 0.25 / 0.1)
    acc = np.trunc(acc.astype(np.float32) * combined).astype(np.int32)
    offset = np.trunc(offset.astype(np.float32) * combined).astype(np.int32)
    return acc + (np.int32(z_result) - offset)


def test_default_dot_general_is_upstreams_arithmetic() -> None:
    rng = np.random.default_rng(7)
    a = rng.integers(-128, 128, size=(3, 4)).astype(np.int8)
    b = rng.integers(-128, 128, size=(4, 5)).astype(np.int8)
    lowered = apply_passes(parse_module(TEXT), "stablehlo-legalize-quant-to-math")
    assert "chlo.broadcast_add" in str(lowered)
    got = np.asarray(run(lowered, "main", a, b)[0]).astype(np.int64)
    np.testing.assert_array_equal(got, _upstream(a, b))
    exact = apply_passes(
        parse_module(TEXT), "stablehlo-legalize-quant-to-math{exact=true}"
    )
    contract = np.asarray(run(exact, "main", a, b)[0]).astype(np.int64)
    np.testing.assert_array_equal(
        contract, np.asarray(run(parse_module(TEXT), "main", a, b)[0]).astype(np.int64)
    )
    assert np.any(contract != got)  # why `exact` exists


def test_default_rejects_reduce_as_upstream() -> None:
    q = "!quant.uniform<i8:f32, 1.0:17>"
    text = f"""
    func.func @main(%a: tensor<4x{q}>, %init: tensor<{q}>) -> tensor<{q}> {{
      %0 = stablehlo.reduce(%a init: %init) applies stablehlo.add across dimensions = [0] : (tensor<4x{q}>, tensor<{q}>) -> tensor<{q}>
      func.return %0 : tensor<{q}>
    }}"""
    with pytest.raises(
        OpDiagnostic, match=r"failed to legalize operation 'stablehlo\.reduce'"
    ):
        apply_passes(parse_module(text), "stablehlo-legalize-quant-to-math")
    assert "quant.uniform" not in str(
        apply_passes(parse_module(text), "stablehlo-legalize-quant-to-math{exact=true}")
    )


def test_default_dynamic_dot_general_lowers_as_upstream() -> None:
    """Dynamic shapes lower: the offsets are broadcast to the result's run-time shape
    (the interpreter does not run get_dimension_size / dynamic_broadcast_in_dim yet)."""
    dynamic = TEXT.replace("tensor<3x4x", "tensor<?x4x").replace(
        "tensor<3x5x", "tensor<?x5x"
    )
    text = str(apply_passes(parse_module(dynamic), "stablehlo-legalize-quant-to-math"))
    assert "quant.uniform" not in text
    assert "stablehlo.get_dimension_size" in text
    assert "stablehlo.dynamic_broadcast_in_dim" in text
