"""The quantized MLP block example (examples/mlp_block): both paths agree, errors match numpy.

Goldens: the float model and the same quantized arithmetic computed in plain numpy
(`generate.float_forward` / `numpy_forward`: dequantized f32 weights, numpy matmuls),
not by the interpreter.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from xquant.tools.xquant_run import main as xquant_run

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mlp_block"
sys.path.insert(0, str(EXAMPLE))

import generate  # noqa: E402
import report  # noqa: E402

SIZES = {"hidden": 64, "intermediate": 128, "tokens": 4, "seed": 1}


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("mlp")
    generate.write(out, SIZES)
    return out


def test_error_table_matches_numpy(generated: Path) -> None:
    rows = {r.fmt: r for r in report.report(generated)}
    assert sorted(rows) == sorted(generate.FORMATS)
    model = generate.make_model(**SIZES)
    reference = generate.float_forward(model)
    for fmt, row in rows.items():
        assert row.identical, fmt
        expected = generate.numpy_forward(model, generate.build(fmt, model))
        # f32 matmuls in another order: a few ulps of the outputs' scale
        assert row.vs_numpy <= 1e-5 * np.abs(expected).max(), fmt
        rel = np.linalg.norm(expected - reference) / np.linalg.norm(reference)
        assert row.rel_rms == pytest.approx(rel, rel=1e-3), fmt
        assert 0.01 < row.rel_rms < 0.5, fmt  # quantized, but still the same model


def test_weights_are_resources_not_literals(generated: Path) -> None:
    for fmt in generate.FORMATS:
        text = (generated / f"mlp_{fmt}.mlir").read_text()
        assert "dense_resource<" in text
        assert "dialect_resources" in text
        assert "func.func @main(%x: tensor<4x64xf32>) -> tensor<4x64xf32>" in text


@pytest.mark.parametrize("fmt", ["int4", "mxfp4", "nvfp4"])
def test_checked_in_small_example_runs_both_ways(fmt: str, capsys) -> None:
    small = EXAMPLE / "small"
    args = [str(small / f"mlp_{fmt}.mlir"), "--arg", str(small / "x.npy")]
    assert xquant_run(args) == 0
    plain = capsys.readouterr().out
    assert xquant_run([*args, "-p", generate.PIPELINES[fmt]]) == 0
    assert capsys.readouterr().out == plain
    assert plain.startswith("dense<[[")
