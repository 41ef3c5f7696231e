"""dot_general on 16-bit floats sums in f32 and rounds once (XLA's rule); `algorithm` is honoured.

The goldens are numpy written here: the operands widened to f32 (exact), the
products and the sum in f32 in loop order over k, one rounding to the result
type (ml_dtypes' round-to-nearest-even). The data are chosen so that summing
in the 16-bit type itself gives other bits. Interpreted and lowered
(`stablehlo-legalize-to-linalg`) must give the same bits.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import xquant
from xquant.interpreter.errors import OpInterpretationError

M, K, N = 3, 64, 4
DTYPES = {"bf16": ml_dtypes.bfloat16, "f16": np.float16}


def _loop(a: np.ndarray, b: np.ndarray, acc: type) -> np.ndarray:
    out = np.zeros((a.shape[0], b.shape[1]), acc)
    for m in range(a.shape[0]):
        for n in range(b.shape[1]):
            s = acc(0)
            for k in range(a.shape[1]):
                s = acc(s + acc(acc(a[m, k]) * acc(b[k, n])))
            out[m, n] = s
    return out


def _data(dtype: type) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    a = rng.uniform(-4, 4, (M, K)).astype(dtype)
    b = rng.uniform(-4, 4, (K, N)).astype(dtype)
    return a, b


def _text(t: str, result: str, algorithm: str = "") -> str:
    if algorithm:
        dot = (
            f'"stablehlo.dot_general"(%a, %b) <{{algorithm = {algorithm}, '
            "dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], "
            f"rhs_contracting_dimensions = [0]>}}> : (tensor<{M}x{K}x{t}>, "
            f"tensor<{K}x{N}x{t}>) -> tensor<{M}x{N}x{result}>"
        )
    else:
        dot = (
            f"stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
            f"(tensor<{M}x{K}x{t}>, tensor<{K}x{N}x{t}>) -> tensor<{M}x{N}x{result}>"
        )
    return f"""
func.func @main(%a: tensor<{M}x{K}x{t}>, %b: tensor<{K}x{N}x{t}>) -> tensor<{M}x{N}x{result}> {{
  %r = {dot}
  func.return %r : tensor<{M}x{N}x{result}>
}}
"""


def _both(text: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    (got,) = xquant.run(text, "main", a, b)
    module = xquant.apply_passes(
        xquant.parse_module(text), "stablehlo-legalize-to-linalg"
    )
    assert not any(op.name.startswith("stablehlo.") for op in module.walk())
    (lowered,) = xquant.run(module, "main", a, b)
    got, lowered = np.asarray(got), np.asarray(lowered)
    assert got.dtype == lowered.dtype
    np.testing.assert_array_equal(got.view(np.uint8), lowered.view(np.uint8))
    return got


@pytest.mark.parametrize("name", sorted(DTYPES))
def test_16_bit_dot_sums_in_f32(name: str) -> None:
    dtype = DTYPES[name]
    a, b = _data(dtype)
    want = _loop(a, b, np.float32).astype(dtype)
    narrow = _loop(a, b, dtype)
    assert not np.array_equal(want.view(np.uint16), narrow.view(np.uint16))
    got = _both(_text(name, name), a, b)
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))


@pytest.mark.parametrize("reassociate", [False, True])
def test_16_bit_dot_to_f32_result(reassociate: bool) -> None:
    a, b = _data(ml_dtypes.bfloat16)
    text = _text("bf16", "f32")
    (got,) = xquant.run(text, "main", a, b, reassociate_fp_reductions=reassociate)
    wide_a, wide_b = a.astype(np.float32), b.astype(np.float32)
    want = wide_a @ wide_b if reassociate else _loop(a, b, np.float32)
    np.testing.assert_array_equal(got, want)
    if not reassociate:
        np.testing.assert_array_equal(_both(text, a, b), want)


def test_algorithm_is_honoured() -> None:
    """f32 operands, bf16 x bf16 products summed in f32 (`BF16_BF16_F32`)."""
    rng = np.random.default_rng(3)
    a = rng.uniform(-4, 4, (M, K)).astype(np.float32)
    b = rng.uniform(-4, 4, (K, N)).astype(np.float32)
    algorithm = (
        "#stablehlo.dot_algorithm<lhs_precision_type = bf16, rhs_precision_type = bf16, "
        "accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, "
        "num_primitive_operations = 1, allow_imprecise_accumulation = false>"
    )
    want = _loop(a.astype(ml_dtypes.bfloat16), b.astype(ml_dtypes.bfloat16), np.float32)
    assert not np.array_equal(want, _loop(a, b, np.float32))
    got = _both(_text("f32", "f32", algorithm), a, b)
    np.testing.assert_array_equal(got, want)


def test_unsupported_algorithm_is_a_located_error() -> None:
    algorithm = (
        "#stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, "
        "accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, "
        "num_primitive_operations = 3, allow_imprecise_accumulation = false>"
    )
    a, b = (np.ones(s, np.float32) for s in ((M, K), (K, N)))
    with pytest.raises(
        OpInterpretationError, match=r"<string>:3:\d+: .*unsupported dot algorithm"
    ):
        xquant.run(_text("f32", "f32", algorithm), "main", a, b)
