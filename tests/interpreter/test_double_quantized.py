"""`quant.scast`/`dcast`/`qcast` on `!quant.double_quantized` (NF4 with
double-quantized block scales) through the interpreter, bit for bit against
torchao's `to_nf4` / `get_original_weight` (`tests/data/nf4_double/nf4_double.npz`)."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import BFloat16Type, Float32Type

import xquant
from xquant.dialects.quant.nf4 import DoubleQuantizedType

GOLDEN = np.load(Path(__file__).parents[1] / "data" / "nf4_double" / "nf4_double.npz")
DTYPES = {"bf16": np.dtype(ml_dtypes.bfloat16), "f32": np.dtype(np.float32)}
BITS = {"bf16": np.uint16, "f32": np.uint32}
TYPES = {"bf16": BFloat16Type(), "f32": Float32Type()}
CASES = {  # golden case: (weight type, block, scaler block)
    "bf16": ("bf16", 64, 256),
    "f32": ("f32", 64, 256),
    "bf16_b32s4": ("bf16", 32, 4),
}


def torchao_bytes(name: str) -> bytes:
    """torchao's four tensors in the "torchao.nf4" order: codes, i8 scalers,
    factors, mean (little endian)."""
    parts = ("codes", "scalers", "factor", "mean")
    return b"".join(GOLDEN[f"{name}_{p}"].tobytes() for p in parts)


def module(name: str, shape: tuple[int, ...], blob: bytes) -> str:
    """`@dequantize` of the bytes in `blob`; `@quantize` of an argument back to bytes."""
    t, block, scaler_block = CASES[name]
    qtype = DoubleQuantizedType.nf4(len(shape) - 1, TYPES[t], block, scaler_block)
    q = f"tensor<{'x'.join(map(str, shape))}x{qtype}>"
    f = f"tensor<{'x'.join(map(str, shape))}x{t}>"
    b = f"tensor<{len(blob)}xi8>"
    return f"""func.func @dequantize() -> {f} {{
  %b = arith.constant dense_resource<blob> : {b}
  %q = quant.scast %b : {b} to {q}
  %f = quant.dcast %q : {q} to {f}
  func.return %f : {f}
}}
func.func @quantize(%x: {f}) -> {b} {{
  %q = quant.qcast %x : {f} to {q}
  %b = quant.scast %q : {q} to {b}
  func.return %b : {b}
}}
{{-#
  dialect_resources: {{ builtin: {{ blob: "0x01000000{blob.hex()}" }} }}
#-}}
"""


@pytest.mark.parametrize("name", list(CASES))
def test_dcast_is_torchaos_get_original_weight(name: str) -> None:
    t = CASES[name][0]
    shape = GOLDEN[f"{name}_input"].shape
    text = module(name, shape, torchao_bytes(name))
    (got,) = xquant.run(xquant.parse_module(text), "dequantize")
    assert got.dtype == DTYPES[t] and got.shape == shape
    assert np.array_equal(got.view(BITS[t]), GOLDEN[f"{name}_dequantized"])


@pytest.mark.parametrize("name", list(CASES))
def test_qcast_is_torchaos_to_nf4(name: str) -> None:
    t, block, _ = CASES[name]
    x = GOLDEN[f"{name}_input"].view(DTYPES[t])
    text = module(name, x.shape, torchao_bytes(name))
    (got,) = xquant.run(xquant.parse_module(text), "quantize", x)
    assert got.dtype == np.int8
    raw = got.view(np.uint8)
    n, itemsize = x.size, DTYPES[t].itemsize
    codes, scalers = raw[: n // 2], raw[n // 2 : n // 2 + n // block].view(np.int8)
    rest = raw[n // 2 + n // block :]
    assert np.array_equal(codes, GOLDEN[f"{name}_codes"])
    assert np.array_equal(scalers, GOLDEN[f"{name}_scalers"])
    assert rest[:-itemsize].tobytes() == GOLDEN[f"{name}_factor"].tobytes()
    assert rest[-itemsize:].tobytes() == GOLDEN[f"{name}_mean"].tobytes()


@pytest.mark.parametrize("name", ["bf16", "f32"])
def test_qcast_then_dcast_is_torchaos_round_trip(name: str) -> None:
    x = GOLDEN[f"{name}_input"].view(DTYPES[name])
    q = DoubleQuantizedType.nf4(1, TYPES[name])
    f = f"tensor<{x.shape[0]}x{x.shape[1]}x{name}>"
    qt = f"tensor<{x.shape[0]}x{x.shape[1]}x{q}>"
    text = f"""func.func @main(%x: {f}) -> {f} {{
  %q = quant.qcast %x : {f} to {qt}
  %y = quant.dcast %q : {qt} to {f}
  func.return %y : {f}
}}"""
    (got,) = xquant.run(xquant.parse_module(text), "main", x)
    assert np.array_equal(got.view(BITS[name]), GOLDEN[f"{name}_dequantized"])


def test_scast_round_trip_keeps_the_bytes() -> None:
    blob = torchao_bytes("bf16")
    shape = GOLDEN["bf16_input"].shape
    q = f"tensor<{shape[0]}x{shape[1]}x{DoubleQuantizedType.nf4(1)}>"
    b = f"tensor<{len(blob)}xi8>"
    text = f"""func.func @main() -> {b} {{
  %b = arith.constant dense_resource<blob> : {b}
  %q = quant.scast %b : {b} to {q}
  %c = quant.scast %q : {q} to {b}
  func.return %c : {b}
}}
{{-#
  dialect_resources: {{ builtin: {{ blob: "0x01000000{blob.hex()}" }} }}
#-}}
"""
    (got,) = xquant.run(xquant.parse_module(text), "main")
    assert got.tobytes() == blob
