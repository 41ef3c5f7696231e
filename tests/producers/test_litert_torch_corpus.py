"""litert-torch 0.10's PT2E export: its StableHLO, Q/DQ as custom calls, runs with PyTorch's numbers.

`tests/data/litert_torch/generate.py` (run by hand with litert-torch) wrote
each quantized model's module (`exported_program_to_mlir`, symmetric int8
per tensor and per channel; dense, conv, MLP), an input and the output of
the quantized PyTorch model (its fake-quantized arithmetic). Each must run
as written equal to PyTorch, after `odml-legalize-qdq-custom-call` and lowered
to linalg give the same bits, with no StableHLO op left.

Tolerance against PyTorch: 1e-6 relative and absolute (f32; both round half
to even and compute `(q - zp) * scale` in f32; on the checked-in data the
difference is 0).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import xquant

DATA = Path(__file__).resolve().parents[1] / "data" / "litert_torch"
CASES = sorted(p.stem for p in DATA.glob("*.mlir"))
REWRITE = "odml-legalize-qdq-custom-call"
LOWER = f"{REWRITE},stablehlo-legalize-quant-to-math{{exact=true}},stablehlo-legalize-to-linalg"


def test_the_corpus_is_there() -> None:
    assert len(CASES) >= 6, CASES


@pytest.mark.parametrize("stem", CASES)
def test_runs_with_pytorch_numbers_rewritten_and_lowered(stem: str) -> None:
    text = (DATA / f"{stem}.mlir").read_text()
    assert "odml_torch.uniform_quantize" in text
    data = np.load(DATA / f"{stem}.npz")
    (got,) = xquant.run(text, "main", data["x"])
    got = np.asarray(got)
    np.testing.assert_allclose(got, data["y"], rtol=1e-6, atol=1e-6)
    for pipeline in (REWRITE, LOWER):
        module = xquant.apply_passes(xquant.parse_module(text, stem), pipeline)
        names = {op.name for op in module.walk()}
        assert "stablehlo.custom_call" not in names
        if pipeline == LOWER:
            assert not {n for n in names if n.startswith("stablehlo.")}
        (again,) = xquant.run(module, "main", data["x"])
        np.testing.assert_array_equal(
            np.asarray(again).view(np.uint32), got.view(np.uint32)
        )
