"""NF4 with double-quantized scales against torchao's `to_nf4` (block 64,
scaler block 256): goldens from `tests/data/nf4_double/generate.py`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from xquant.numerics import nf4_double as nf4

GOLDEN = np.load(Path(__file__).parents[1] / "data" / "nf4_double" / "nf4_double.npz")
BITS = {"bf16": np.uint16, "f32": np.uint32}


def _stored(name: str) -> nf4.NF4Double:
    dtype = nf4.DTYPES[name]
    return nf4.NF4Double(
        GOLDEN[f"{name}_codes"],
        GOLDEN[f"{name}_scalers"],
        GOLDEN[f"{name}_factor"].view(dtype),
        GOLDEN[f"{name}_mean"].view(dtype).reshape(()),
        GOLDEN[f"{name}_input"].shape,
    )


@pytest.mark.parametrize("name", ["bf16", "f32"])
def test_table_as_torchao_rounds_it(name: str) -> None:
    got = nf4.table(nf4.DTYPES[name]).view(BITS[name])
    assert np.array_equal(got, GOLDEN[f"{name}_table"])


@pytest.mark.parametrize("name", ["bf16", "f32"])
def test_dequantize_bit_exact_with_torchao(name: str) -> None:
    got = nf4.dequantize(_stored(name))
    assert got.dtype == nf4.DTYPES[name]
    assert np.array_equal(got.view(BITS[name]), GOLDEN[f"{name}_dequantized"])


@pytest.mark.parametrize("name", ["bf16", "f32"])
def test_quantize_as_torchao(name: str) -> None:
    x = GOLDEN[f"{name}_input"].view(nf4.DTYPES[name])
    got = nf4.quantize(x)
    want = _stored(name)
    assert np.array_equal(got.codes, want.codes)
    assert np.array_equal(got.scalers, want.scalers)
    assert np.array_equal(got.factor.view(BITS[name]), want.factor.view(BITS[name]))
    assert got.mean.view(BITS[name]) == want.mean.view(BITS[name])


def test_quantize_rejects_partial_groups() -> None:
    with pytest.raises(ValueError, match="not a whole number of groups of 64 x 256"):
        nf4.quantize(np.zeros(64 * 255, np.float32))


def test_quantize_in_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    x = GOLDEN["bf16_input"].view(nf4.DTYPES["bf16"])
    monkeypatch.setattr(nf4, "_CHUNK", 1000)  # pieces not aligned to blocks
    assert np.array_equal(nf4.quantize(x).codes, _stored("bf16").codes)
