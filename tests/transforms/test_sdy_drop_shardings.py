"""`sdy-drop-shardings` on JAX's texts: the interpreter gives the same bits
before and after, and so does the lowered program; IREE where installed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import xquant
from xquant.asm.diagnostics import OpDiagnostic
from xquant.backends import iree

DATA = Path(__file__).resolve().parents[1] / "data" / "locations"
REASON = iree.available()


def _inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    w = rng.standard_normal((8, 16)).astype(np.float32)
    return x, w


def _run(pipeline: str) -> np.ndarray:
    module = xquant.parse_module((DATA / "sharded.debug.mlir").read_text())
    if pipeline:
        xquant.apply_passes(module, pipeline)
    names = {op.name.split(".")[0] for op in module.walk()}
    if pipeline:
        assert "sdy" not in names
    (result,) = xquant.run(module, "main", *_inputs())
    return result


@pytest.mark.parametrize(
    "pipeline",
    ["sdy-drop-shardings", "sdy-drop-shardings,stablehlo-legalize-to-linalg"],
)
def test_same_bits(pipeline: str) -> None:
    before = _run("")
    after = _run(pipeline)
    assert before.tobytes() == after.tobytes()
    x, w = _inputs()
    np.testing.assert_allclose(before, np.tanh(x @ w), rtol=1e-5, atol=1e-6)


def test_two_devices_is_an_op_diagnostic() -> None:
    module = xquant.parse_module((DATA / "shard_map.mlir").read_text())
    with pytest.raises(OpDiagnostic, match="cannot run on one device") as info:
        xquant.apply_passes(module, "sdy-drop-shardings")
    assert info.value.op.name == "sdy.manual_computation"


@pytest.mark.skipif(REASON is not None, reason=REASON or "")
def test_iree_runs_a_named_jax_module() -> None:
    """`module @jit_sharded`: IREE names its VM module after it."""
    module = xquant.parse_module((DATA / "sharded.debug.mlir").read_text())
    (result,) = iree.run(module, "main", *_inputs())
    np.testing.assert_allclose(result, _run(""), rtol=1e-6, atol=1e-6)
