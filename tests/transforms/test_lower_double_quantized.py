"""`lower-quant-ops` on `!quant.double_quantized`: the linalg on the planar
bytes gives the interpreter's bits (and so torchao's), on torchao's data and
on random bytes (NaN, infinite, zero and subnormal factors and means
included), for f32 and bf16 and any rank; qcast is a located diagnostic."""

from __future__ import annotations

import math
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import BFloat16Type, Float32Type
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.utils.exceptions import DiagnosticException

import xquant
from xquant.dialects.quant.nf4 import DoubleQuantizedType
from xquant.dialects.quant.ops import DequantizeCastOp

GOLDEN = np.load(Path(__file__).parents[1] / "data" / "nf4_double" / "nf4_double.npz")
TYPES = {"bf16": BFloat16Type(), "f32": Float32Type()}
ITEMSIZE = {"bf16": 2, "f32": 4}


def _module(
    name: str, shape: tuple[int, ...], blob: bytes, scaler_block: int, block: int = 64
) -> str:
    qtype = DoubleQuantizedType.nf4(len(shape) - 1, TYPES[name], block, scaler_block)
    dims = "x".join(map(str, shape))
    q, f, b = (
        f"tensor<{dims}x{qtype}>",
        f"tensor<{dims}x{name}>",
        f"tensor<{len(blob)}xi8>",
    )
    return f"""func.func @main() -> {f} {{
  %b = arith.constant dense_resource<blob> : {b}
  %q = quant.scast %b : {b} to {q}
  %f = quant.dcast %q : {q} to {f}
  func.return %f : {f}
}}
{{-#
  dialect_resources: {{ builtin: {{ blob: "0x01000000{blob.hex()}" }} }}
#-}}
"""


def _random_bytes(name: str, n: int, scaler_block: int, seed: int) -> bytes:
    """Random codes and scalers; factors and mean from random bit patterns and
    the special values (0, -0, +-inf, NaN, the smallest subnormal)."""
    rng = np.random.default_rng(seed)
    groups = n // 64 // scaler_block
    codes = rng.integers(0, 256, n // 2, dtype=np.uint8)
    scalers = rng.integers(-128, 128, n // 64, dtype=np.int8)
    dtype = np.dtype(ml_dtypes.bfloat16) if name == "bf16" else np.dtype(np.float32)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40], np.float32)
    normal = (rng.standard_normal(groups + 1) * 10.0).astype(np.float32)
    values = normal.copy()
    values[: min(groups, len(special))] = special[: min(groups, len(special))]
    factor, mean = values[:groups].astype(dtype), values[groups:].astype(dtype)
    if seed % 2:  # a finite mean with special factors, or the reverse
        mean = np.array([special[seed % len(special)]], np.float32).astype(dtype)
    return b"".join(a.tobytes() for a in (codes, scalers, factor, mean))


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def _lowered(text: str, rounding: str = "nearest-even") -> np.ndarray:
    module = xquant.apply_passes(
        xquant.parse_module(text), f"lower-quant-ops{{rounding={rounding}}}"
    )
    assert not any(isinstance(op, DequantizeCastOp) for op in module.walk())
    assert sum(isinstance(op, GenericOp) for op in module.walk()) == 1
    (got,) = xquant.run(module, "main")
    return got


GOLDEN_CASES = {  # golden case: (weight type, block, scaler block)
    "bf16": ("bf16", 64, 256),
    "f32": ("f32", 64, 256),
    "bf16_b32s4": ("bf16", 32, 4),
}


def golden_module(case: str) -> str:
    """`@main` dequantizing the torchao golden `case`."""
    name, block, scaler_block = GOLDEN_CASES[case]
    parts = ("codes", "scalers", "factor", "mean")
    blob = b"".join(GOLDEN[f"{case}_{p}"].tobytes() for p in parts)
    shape = GOLDEN[f"{case}_input"].shape
    return _module(name, shape, blob, scaler_block, block)


@pytest.mark.parametrize("case", list(GOLDEN_CASES))
@pytest.mark.parametrize("rounding", ["toward-zero", "nearest-even"])
def test_lowered_dcast_is_torchaos_weight(case: str, rounding: str) -> None:
    shape = GOLDEN[f"{case}_input"].shape
    got = _lowered(golden_module(case), rounding)
    want = GOLDEN[f"{case}_dequantized"]
    assert got.shape == shape and got.tobytes() == want.tobytes()


@pytest.mark.parametrize("name", ["bf16", "f32"])
@pytest.mark.parametrize(
    ("shape", "scaler_block", "seed"),
    [((2, 4, 128), 4, 1), ((1024,), 2, 2), ((16, 64), 2, 3), ((8, 256), 32, 4)],
)
def test_lowered_dcast_is_bit_identical_on_random_bytes(
    name: str, shape: tuple[int, ...], scaler_block: int, seed: int
) -> None:
    blob = _random_bytes(name, math.prod(shape), scaler_block, seed)
    text = _module(name, shape, blob, scaler_block)
    (want,) = xquant.run(xquant.parse_module(text), "main")
    assert not np.isfinite(want.astype(np.float32)).all()  # the specials reach it
    assert _same(_lowered(text), want)


def test_qcast_is_not_lowered() -> None:
    qtype = DoubleQuantizedType.nf4(1)
    q = f"tensor<256x64x{qtype}>"
    text = f"""func.func @main(%x: tensor<256x64xbf16>) -> {q} {{
  %q = quant.qcast %x : tensor<256x64xbf16> to {q}
  func.return %q : {q}
}}"""
    with pytest.raises(DiagnosticException, match=r"cannot lower 'quant\.qcast'"):
        xquant.apply_passes(xquant.parse_module(text), "lower-quant-ops")
