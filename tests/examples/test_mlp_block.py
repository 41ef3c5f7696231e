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

import xquant
from xquant.tools.xquant_run import main as xquant_run

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mlp_block"
sys.path.insert(0, str(EXAMPLE))

import generate  # noqa: E402
import report  # noqa: E402

SIZES = {"hidden": 64, "intermediate": 128, "tokens": 4, "seed": 1}
K_SIZES = {"hidden": 256, "intermediate": 256, "tokens": 2, "seed": 1}  # k-quants


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("mlp")
    generate.write(out, SIZES)
    return out


def test_error_table_matches_numpy(generated: Path) -> None:
    rows = {(r.fmt, r.activations): r for r in report.report(generated)}
    assert sorted(rows) == sorted(
        (f, a)
        for f in generate.FORMATS
        for a in generate.ACTIVATIONS
        if generate.fits(f, SIZES)
    )
    _check_rows(rows, SIZES)


def test_k_quant_error_table_matches_numpy(tmp_path: Path) -> None:
    generate.write(tmp_path, K_SIZES, formats=tuple(generate.K_QUANTS))
    rows = {(r.fmt, r.activations): r for r in report.report(tmp_path)}
    assert sorted(rows) == sorted(
        (f, a) for f in generate.K_QUANTS for a in generate.ACTIVATIONS
    )
    _check_rows(rows, K_SIZES)
    assert rows["q6_k", "f32"].rel_rms < rows["q4_k", "f32"].rel_rms


def _check_rows(rows: dict[tuple[str, str], report.Row], sizes: dict[str, int]) -> None:
    model = generate.make_model(**sizes)
    reference = generate.float_forward(model)
    for (fmt, activations), row in rows.items():
        assert row.identical, fmt
        expected = generate.numpy_forward(
            model, generate.build(fmt, model, activations)
        ).astype(np.float64)
        # f32 matmuls in another order: a few ulps of the outputs' scale (one bf16
        # ulp where that moves a bf16 rounding)
        ulps = 1e-5 if activations == "f32" else 2**-7
        assert row.vs_numpy <= ulps * np.abs(expected).max(), (fmt, activations)
        rel = np.linalg.norm(expected - reference) / np.linalg.norm(reference)
        assert row.rel_rms == pytest.approx(rel, rel=1e-3), (fmt, activations)
        assert 0.01 < row.rel_rms < 0.5, fmt  # quantized, but still the same model


def _assert_reassociated_run_is_numpy(
    fmt: str, activations: str, sizes: dict[str, int]
) -> None:
    """With BLAS sums allowed, the interpreter computes exactly numpy's dequantize +
    `a @ w` (+ silu, bf16 roundings), as written and lowered."""
    model = generate.make_model(**sizes)
    q = generate.build(fmt, model, activations)
    expected = generate.numpy_forward(model, q)
    x = q.inputs(model)
    written = xquant.bind_weights(xquant.parse_module(q.text), q.blobs)
    lowered = xquant.bind_weights(
        xquant.apply_passes(xquant.parse_module(q.text), generate.PIPELINES[fmt]),
        q.blobs,
    )
    for module in (written, lowered):
        (y,) = xquant.run(module, "main", x, reassociate_fp_reductions=True)
        assert y.dtype == expected.dtype
        np.testing.assert_array_equal(y.view(np.uint8), expected.view(np.uint8))


@pytest.mark.parametrize("activations", ["f32", "bf16"])
@pytest.mark.parametrize("fmt", ["int4", "mxfp4", "nvfp4"])
def test_reassociated_run_is_numpy_bit_for_bit(fmt: str, activations: str) -> None:
    _assert_reassociated_run_is_numpy(fmt, activations, SIZES)


def test_weights_are_resources_not_literals(generated: Path) -> None:
    for fmt in generate.FORMATS:
        if not generate.fits(fmt, SIZES):
            assert not (generated / generate.module_name(fmt, "f32")).exists()
            continue
        for a in generate.ACTIVATIONS:
            text = (generated / generate.module_name(fmt, a)).read_text()
            assert "dense_resource<" in text
            assert "dialect_resources" in text
            assert (
                f"func.func @main(%arg0: tensor<4x64x{a}>) -> tensor<4x64x{a}>" in text
            )


@pytest.mark.parametrize("activations", ["f32", "bf16"])
@pytest.mark.parametrize("fmt", ["int4", "mxfp4", "nvfp4"])
def test_checked_in_small_example_runs_both_ways(
    fmt: str, activations: str, capsys
) -> None:
    small = EXAMPLE / "small"
    args = [
        str(small / generate.module_name(fmt, activations)),
        "--arg",
        str(small / generate.input_name(activations)),
    ]
    assert xquant_run(args) == 0
    plain = capsys.readouterr().out
    assert xquant_run([*args, "-p", generate.PIPELINES[fmt]]) == 0
    assert capsys.readouterr().out == plain
    assert plain.startswith("dense<[[")


@pytest.mark.parametrize("activations", ["f32", "bf16"])
@pytest.mark.parametrize("fmt", list(generate.K_QUANTS))
def test_k_quant_reassociated_run_is_numpy_bit_for_bit(
    fmt: str, activations: str
) -> None:
    """Q4_K / Q6_K weights (N x K blocks, dequantized and transposed in the IR)."""
    _assert_reassociated_run_is_numpy(fmt, activations, K_SIZES)
