"""`inline` (MLIR's `-inline`): same output as upstream mlir-opt, same values."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np

import xquant
from tests.upstream.mlir_opt import require_mlir_opt

CASES = Path(__file__).resolve().parents[2] / "filecheck" / "transforms" / "inline.mlir"


def _xquant_opt(path: Path, *flags: str) -> str:
    done = subprocess.run(
        ["xquant-opt", str(path), *flags], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_same_text_as_mlir_opt() -> None:
    flags = ("-inline", "-allow-unregistered-dialect")
    ours = _xquant_opt(CASES, *flags)
    mlir_opt = require_mlir_opt()
    done = subprocess.run(
        [*mlir_opt, str(CASES), *flags], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert ours == done.stdout


def test_inlined_program_computes_the_same() -> None:
    text = CASES.read_text()
    module = xquant.parse_module(text)
    inlined = xquant.apply_passes(xquant.parse_module(text), "inline")
    assert "call @dequantize_plus_one" not in xquant.print_module(inlined)
    storage = np.array(-7, np.int8)
    assert xquant.run(module, "chain", storage) == xquant.run(inlined, "chain", storage)


def test_multi_block_callee_stays_a_call() -> None:
    """Upstream inlines it (branches, then canonicalize folds them); this pass keeps
    the call rather than emit `cf` it cannot fold (the module docstring says so)."""
    text = """
func.func private @pick(%c: i1, %x: f32) -> f32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %x : f32
^bb2:
  %z = arith.constant 0.0 : f32
  return %z : f32
}
func.func @f(%c: i1, %x: f32) -> f32 {
  %0 = call @pick(%c, %x) : (i1, f32) -> f32
  return %0 : f32
}
"""
    inlined = xquant.print_module(
        xquant.apply_passes(xquant.parse_module(text), "inline")
    )
    assert "call @pick" in inlined
    assert "func.func private @pick" in inlined
