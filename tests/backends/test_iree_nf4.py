"""NF4 with double-quantized scales (`!quant.double_quantized`) on IREE: the
dcast lowered by `lower-quant-ops` and compiled for the host CPU gives the
interpreter's bits (torchao's weights, and random bytes with special factors);
an f32 activation times an NF4 weight runs."""

from __future__ import annotations

import math
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import xquant
from tests.transforms.test_lower_double_quantized import (
    GOLDEN_CASES,
    _module,
    _random_bytes,
    golden_module,
)
from xquant.backends import iree
from xquant.dialects.quant.nf4 import DoubleQuantizedType
from xquant.numerics import nf4_double

REASON = iree.available()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
GOLDEN = np.load(Path(__file__).parents[1] / "data" / "nf4_double" / "nf4_double.npz")


@pytest.mark.parametrize("case", list(GOLDEN_CASES))
def test_torchao_weight_on_iree(case: str) -> None:
    text = golden_module(case)
    (got,) = xquant.run(xquant.parse_module(text), "main", backend="iree")
    assert got.tobytes() == GOLDEN[f"{case}_dequantized"].tobytes()


@pytest.mark.parametrize("name", ["bf16", "f32"])
def test_random_bytes_on_iree(name: str) -> None:
    shape = (2, 4, 128)
    blob = _random_bytes(name, math.prod(shape), 4, 1)
    text = _module(name, shape, blob, 4)
    (want,) = xquant.run(xquant.parse_module(text), "main")
    (got,) = xquant.run(xquant.parse_module(text), "main", backend="iree")
    assert got.dtype == want.dtype
    nan = np.isnan(want.astype(np.float32))
    assert nan.any() and np.array_equal(np.isnan(got.astype(np.float32)), nan)
    if name == "f32":
        assert got.tobytes() == want.tobytes()
    else:  # IREE's bf16 truncf makes every NaN the positive quiet one (x86: negative)
        assert got[~nan].tobytes() == want[~nan].tobytes()


def test_matmul_with_an_nf4_weight_on_iree() -> None:
    rng = np.random.default_rng(29)
    k, n = 512, 64
    x32 = rng.standard_normal((n, k)).astype(np.float32) * 0.02
    w = nf4_double.quantize(x32.astype(ml_dtypes.bfloat16))
    raw = nf4_double.to_bytes(w)
    qtype = DoubleQuantizedType.nf4(1)
    q = f"tensor<{n}x{k}x{qtype}>"
    text = f"""func.func @main(%x: tensor<4x{k}xf32>) -> tensor<4x{n}xf32> {{
  %b = arith.constant dense_resource<w> : tensor<{raw.size}xi8>
  %q = quant.scast %b : tensor<{raw.size}xi8> to {q}
  %h = quant.dcast %q : {q} to tensor<{n}x{k}xbf16>
  %w = arith.extf %h : tensor<{n}x{k}xbf16> to tensor<{n}x{k}xf32>
  %e = tensor.empty() : tensor<{k}x{n}xf32>
  %wt = linalg.transpose ins(%w : tensor<{n}x{k}xf32>) outs(%e : tensor<{k}x{n}xf32>) permutation = [1, 0]
  %z = arith.constant dense<0.0> : tensor<4x{n}xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<4x{k}xf32>, tensor<{k}x{n}xf32>)
         outs(%z : tensor<4x{n}xf32>) -> tensor<4x{n}xf32>
  func.return %y : tensor<4x{n}xf32>
}}
{{-#
  dialect_resources: {{ builtin: {{ w: "0x01000000{raw.tobytes().hex()}" }} }}
#-}}
"""
    x = rng.standard_normal((4, k)).astype(np.float32)
    (want,) = xquant.run(xquant.parse_module(text), "main", x)
    (got,) = xquant.run(xquant.parse_module(text), "main", x, backend="iree")
    # The dequantized weight is bit-exact on IREE (tests above); IREE's f32
    # matmul differs from the interpreter's loop-order sum in the last bits.
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    w_f32 = nf4_double.dequantize(w).astype(np.float32)
    np.testing.assert_allclose(want, x @ w_f32.T, rtol=1e-4, atol=1e-5)
