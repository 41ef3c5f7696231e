"""`reassociate_fp_reductions`: float contractions and sums in BLAS / numpy order, on request.

By default every float matmul and sum follows the IR's loop order (one f32
rounding per step). The data here make the order visible (values over twelve
decades that cancel), so each test tells the two modes apart: the default must
equal a scalar loop, the reassociating mode numpy's `a @ b` or `np.add.reduce`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import xquant
from xquant.backends.iree import COMPILE_FLAGS, compile_flags
from xquant.interpreter.runner import load_dense_literal
from xquant.numerics.values import (
    reassociates_fp_reductions,
    reassociating_fp_reductions,
)
from xquant.tools.xquant_run import main

M, K, N = 3, 96, 4


def _data(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)

    def spread(shape: tuple[int, int]) -> np.ndarray:
        return (rng.normal(size=shape) * 10.0 ** rng.integers(-6, 6, shape)).astype(
            np.float32
        )

    return spread((M, K)), spread((K, N))


def _loop(a: np.ndarray, b: np.ndarray, dtype: type = np.float32) -> np.ndarray:
    """The IR's matmul: one rounding to `dtype` per product and per sum, k in order."""
    out = np.zeros((a.shape[0], b.shape[1]), dtype)
    for m in range(a.shape[0]):
        for n in range(b.shape[1]):
            acc = dtype(0.0)
            for k in range(a.shape[1]):
                acc = dtype(acc + dtype(a[m, k] * b[k, n]))
            out[m, n] = acc
    return out


MATMUL = f"""
func.func @main(%a: tensor<{M}x{K}xf32>, %b: tensor<{K}x{N}xf32>) -> tensor<{M}x{N}xf32> {{
  %zero = arith.constant dense<0.0> : tensor<{M}x{N}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<{M}x{K}xf32>, tensor<{K}x{N}xf32>)
      outs(%zero : tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32>
  func.return %r : tensor<{M}x{N}xf32>
}}
"""

DOT_GENERAL = f"""
func.func @main(%a: tensor<{M}x{K}xf32>, %b: tensor<{K}x{N}xf32>) -> tensor<{M}x{N}xf32> {{
  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
      : (tensor<{M}x{K}xf32>, tensor<{K}x{N}xf32>) -> tensor<{M}x{N}xf32>
  func.return %r : tensor<{M}x{N}xf32>
}}
"""

ROW_SUM = f"""
func.func @main(%a: tensor<{M}x{K}xf32>) -> tensor<{M}xf32> {{
  %zero = arith.constant dense<0.0> : tensor<{M}xf32>
  %r = linalg.reduce ins(%a : tensor<{M}x{K}xf32>) outs(%zero : tensor<{M}xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {{
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }}
  func.return %r : tensor<{M}xf32>
}}
"""


def test_the_data_tells_the_orders_apart() -> None:
    a, b = _data()
    assert not np.array_equal(a @ b, _loop(a, b))
    in_order = np.array([np.add.accumulate(row)[-1] for row in a], np.float32)
    assert not np.array_equal(np.add.reduce(a, axis=1), in_order)


@pytest.mark.parametrize("text", [MATMUL, DOT_GENERAL], ids=["linalg", "stablehlo"])
def test_matmul_default_is_the_loop_and_reassociated_is_blas(text: str) -> None:
    a, b = _data(1)
    assert not np.array_equal(a @ b, _loop(a, b))
    (exact,) = xquant.run(text, "main", a, b)
    np.testing.assert_array_equal(exact, _loop(a, b))
    (fast,) = xquant.run(text, "main", a, b, reassociate_fp_reductions=True)
    np.testing.assert_array_equal(fast, a @ b)


def test_sum_default_is_in_order_and_reassociated_is_numpy() -> None:
    a, _ = _data(0)
    (exact,) = xquant.run(ROW_SUM, "main", a)
    in_order = np.array([np.add.accumulate(row)[-1] for row in a], np.float32)
    assert not np.array_equal(in_order, np.add.reduce(a, axis=1))
    np.testing.assert_array_equal(exact, in_order)
    (fast,) = xquant.run(ROW_SUM, "main", a, reassociate_fp_reductions=True)
    np.testing.assert_array_equal(fast, np.add.reduce(a, axis=1))


def test_f16_keeps_the_loop_order() -> None:
    """No BLAS for f16: the per-step rounding stays the IR's in either mode."""
    text = MATMUL.replace("f32", "f16")
    a, b = (np.clip(v, -100, 100).astype(np.float16) for v in _data(3))
    want = _loop(a, b, np.float16)
    assert not np.array_equal(want, (a @ b).astype(np.float16))
    for reassociate in (True, False):
        (got,) = xquant.run(text, "main", a, b, reassociate_fp_reductions=reassociate)
        np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))


def test_the_mode_is_scoped() -> None:
    assert not reassociates_fp_reductions()
    with reassociating_fp_reductions():
        assert reassociates_fp_reductions()
        with reassociating_fp_reductions(False):
            assert not reassociates_fp_reductions()
        assert reassociates_fp_reductions()
    assert not reassociates_fp_reductions()
    a, b = _data(4)
    xquant.run(MATMUL, "main", a, b, reassociate_fp_reductions=True)
    assert not reassociates_fp_reductions()


def test_iree_gets_the_same_choice() -> None:
    assert compile_flags() == COMPILE_FLAGS
    assert "--iree-llvmcpu-reassociate-fp-reductions=false" in COMPILE_FLAGS
    with reassociating_fp_reductions():
        flags = compile_flags()
    assert "--iree-llvmcpu-reassociate-fp-reductions=true" in flags
    assert len(flags) == len(COMPILE_FLAGS)


def test_xquant_run_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = _data(5)
    src = tmp_path / "mm.mlir"
    src.write_text(MATMUL)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    args = [
        str(src),
        "--arg",
        str(tmp_path / "a.npy"),
        "--arg",
        str(tmp_path / "b.npy"),
    ]
    outputs: list[str] = []
    for extra in ([], ["--reassociate-fp-reductions"]):
        assert main([*args, *extra]) == 0
        outputs.append(capsys.readouterr().out)
    exact, fast = (load_dense_literal(o) for o in outputs)
    np.testing.assert_array_equal(exact, _loop(a, b))
    np.testing.assert_array_equal(fast, a @ b)
