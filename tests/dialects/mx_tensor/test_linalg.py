"""linalg named ops with MX operands: parse, verify, run; tiling equals untiled; both passes agree bit for bit."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import f4E2M1FN, f8E4M3FN, f8E8M0FNU

import xquant
from xquant.numerics import mx

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
TILING = (EXAMPLES / "mx_tiling.mlir").read_text()
MATMUL = (EXAMPLES / "mx_matmul.mlir").read_text()


def _bits(a: np.ndarray) -> np.ndarray:
    return np.asarray(a).view(np.uint8)


def _dequantized(x: np.ndarray, scale_shape: tuple[int, ...], elem) -> np.ndarray:
    bytes_, data = mx.quantize(x, scale_shape, elem)
    return mx.dequantize(mx.scale_from_bytes(bytes_, f8E8M0FNU), f8E8M0FNU, data, elem)


@pytest.fixture(scope="module")
def tiling_inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1)
    a = rng.standard_normal((256, 256)).astype(ml_dtypes.bfloat16)
    x = (rng.standard_normal((256, 256)) * 4).astype(np.float32)
    x[:128, 128:] *= np.float32(1e-3)
    return a, x


def test_add_with_mx_operand_matches_the_definition(
    tiling_inputs: tuple[np.ndarray, np.ndarray],
) -> None:
    a, x = tiling_inputs
    (untiled,) = xquant.run(TILING, "untiled", a, x)
    expected = (a.astype(np.float32) + _dequantized(x, (2, 2), f8E4M3FN)).astype(
        ml_dtypes.bfloat16
    )
    np.testing.assert_array_equal(_bits(untiled), _bits(expected))


def test_tiled_equals_untiled(tiling_inputs: tuple[np.ndarray, np.ndarray]) -> None:
    a, x = tiling_inputs
    (untiled,) = xquant.run(TILING, "untiled", a, x)
    (tiled,) = xquant.run(TILING, "tiled", a, x)
    np.testing.assert_array_equal(tiled.astype(np.float32), untiled.astype(np.float32))


@pytest.mark.parametrize("pipeline", ["mx-tensor-generalize", "lower-mx-tensor"])
def test_passes_are_bit_identical_on_the_tiling_example(
    pipeline: str, tiling_inputs: tuple[np.ndarray, np.ndarray]
) -> None:
    a, x = tiling_inputs
    module = xquant.parse_module(TILING)
    xquant.apply_passes(module, pipeline)
    assert "linalg.add" not in str(module)
    for function in ("untiled", "tiled"):
        (expected,) = xquant.run(TILING, function, a, x)
        (got,) = xquant.run(module, function, a, x)
        np.testing.assert_array_equal(_bits(got), _bits(expected))


@pytest.mark.parametrize("pipeline", [None, "mx-tensor-generalize", "lower-mx-tensor"])
def test_matmul_with_mx_weight(pipeline: str | None) -> None:
    rng = np.random.default_rng(2)
    a = rng.standard_normal((8, 64)).astype(ml_dtypes.bfloat16)
    wf = rng.standard_normal((64, 16)).astype(np.float32)
    c = rng.standard_normal((8, 16)).astype(ml_dtypes.bfloat16)
    module = xquant.parse_module(MATMUL)
    if pipeline is not None:
        xquant.apply_passes(module, pipeline)
        assert "linalg.matmul" not in str(module)
    (got,) = xquant.run(module, "main", a, wf, c)
    w = _dequantized(wf, (2, 16), f4E2M1FN)
    acc = c.astype(np.float32)
    for k in range(64):  # f32 accumulation in loop order, then one rounding to bf16
        acc = acc + a.astype(np.float32)[:, k : k + 1] * w[k : k + 1, :]
    np.testing.assert_array_equal(_bits(got), _bits(acc.astype(ml_dtypes.bfloat16)))


def test_mixed_element_types_without_mx_verify() -> None:
    text = """
func.func @f(%a: tensor<4xbf16>, %b: tensor<4xf8E4M3FN>) -> tensor<4xbf16> {
  %0 = linalg.add ins(%a, %b : tensor<4xbf16>, tensor<4xf8E4M3FN>) outs(%a : tensor<4xbf16>) -> tensor<4xbf16>
  func.return %0 : tensor<4xbf16>
}
"""
    a = np.array([1.5, -2, 3, 0.25], dtype=ml_dtypes.bfloat16)
    b = np.array([0.5, 448, -3, 2], dtype=ml_dtypes.float8_e4m3fn)
    (got,) = xquant.run(text, "f", a, b)
    np.testing.assert_array_equal(
        got.astype(np.float32), (a.astype(np.float32) + b.astype(np.float32))
    )
