"""Time quantized StableHLO before and after lowering, against hand-written numpy.

    python benchmarks/bench_stablehlo.py [--dot 512] [--sum 1024] [--repeat 5]

Two programs, each run by xquant's interpreter at four stages -- the
quantized StableHLO, after `stablehlo-legalize-quant-to-math` (integer
StableHLO), after `...,stablehlo-legalize-to-linalg` (linalg/arith/tensor, one
generic per op) and after `...,linalg-fuse-elementwise-ops` (element-wise
chains fused, as any MLIR pipeline would before code generation) -- and by a
numpy version written by hand from the spec's formulas:

1. `dot_general` of two i8 per-tensor quantized `n x n` matrices into an i8
   result (integer accumulation, zero-point terms, rescale, round half to
   even, clamp);
2. `reduce` of an `n x n` i8 tensor over both dimensions into an i32
   accumulator type (the wide-accumulator form of the reduction RFC).

All five results are checked equal before timing. Ratios are against numpy
(target: within 3x).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import numpy as np
from timing import (
    best_of,
    fix_allocator,
)  # benchmarks/timing.py (scripts run from this folder)

import xquant

QL = "!quant.uniform<i8:f32, 2.500000e-02:3>"
QR = "!quant.uniform<i8:f32, 5.000000e-02>"
QO = "!quant.uniform<i8:f32, 2.000000e+00:-5>"
Q8 = "!quant.uniform<i8:f32, 5.000000e-01:-3>"
Q32 = "!quant.uniform<i32:f32, 2.500000e-01:5>"
PIPELINES = {
    "quantized StableHLO": "",
    "after quant-to-math": "stablehlo-legalize-quant-to-math{exact=true}",
    "after ...-to-linalg": "stablehlo-legalize-quant-to-math{exact=true},stablehlo-legalize-to-linalg",
    "+ fuse-elementwise": "stablehlo-legalize-quant-to-math{exact=true},stablehlo-legalize-to-linalg,"
    "linalg-fuse-elementwise-ops",
}


def dot_text(n: int) -> str:
    lhs, rhs, out = (f"tensor<{n}x{n}x{q}>" for q in (QL, QR, QO))
    return f"""
func.func @main(%l: {lhs}, %r: {rhs}) -> {out} {{
  %0 = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0] : ({lhs}, {rhs}) -> {out}
  func.return %0 : {out}
}}
"""


def dot_numpy(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    # i8 products summed over n <= 2^20 terms are exact in float64 (BLAS).
    acc = (lhs.astype(np.float64) - 3) @ rhs.astype(np.float64)
    # Rescale by s_l * s_r / s_out in float64, add the result zero point, clamp, round.
    scaled = acc * (0.025 * 0.05 / 2.0) - 5
    return np.rint(np.clip(scaled, -128, 127)).astype(np.int8)


def sum_text(n: int) -> str:
    x, init, out = f"tensor<{n}x{n}x{Q8}>", f"tensor<{Q8}>", f"tensor<{Q32}>"
    return f"""
func.func @main(%x: {x}, %init: {init}) -> {out} {{
  %r = stablehlo.reduce(%x init: %init) across dimensions = [0, 1] : ({x}, {init}) -> {out}
   reducer(%a: {out}, %b: {out})  {{
    %s = stablehlo.add %a, %b : {out}
    stablehlo.return %s : {out}
  }}
  func.return %r : {out}
}}
"""


def sum_numpy(x: np.ndarray, init: np.ndarray) -> np.ndarray:
    # Requantize i8 (0.5, -3) to i32 (0.25, 5) exactly: 2 * (q + 3) + 5; sum offsets from 5.
    wide = 2 * (x.astype(np.int64) + 3)
    total = wide.sum() + 2 * (int(init) + 3) + 5
    return np.asarray(np.clip(total, -(2**31), 2**31 - 1), np.int32)


def bench(
    title: str, text: str, args: tuple[np.ndarray, ...], reference: Any, repeat: int
) -> None:
    print(title)
    expected = reference(*args)
    runs: dict[str, Callable[[], Any]] = {"numpy": lambda: reference(*args)}
    for name, pipeline in PIPELINES.items():
        module = xquant.parse_module(text)
        if pipeline:
            module = xquant.apply_passes(module, pipeline)
        got = xquant.run(module, "main", *args)[0]
        np.testing.assert_array_equal(np.asarray(got), expected, err_msg=name)
        runs[name] = lambda module=module: xquant.run(module, "main", *args)
    base = best_of(runs["numpy"], repeat)
    for name, fn in runs.items():
        t = base if name == "numpy" else best_of(fn, repeat)
        print(f"  {name:22s} {t * 1e3:9.2f} ms  {t / base:6.2f}x numpy")


def main() -> None:
    fix_allocator()
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--dot", type=int, default=512)
    parser.add_argument("--sum", type=int, default=1024)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)

    n = args.dot
    lhs = rng.integers(-128, 128, size=(n, n), dtype=np.int8)
    rhs = rng.integers(-128, 128, size=(n, n), dtype=np.int8)
    bench(
        f"dot_general {n}x{n}x{n}, i8 x i8 -> i8 (per-tensor)",
        dot_text(n),
        (lhs, rhs),
        dot_numpy,
        args.repeat,
    )

    n = args.sum
    x = rng.integers(-128, 128, size=(n, n), dtype=np.int8)
    init = np.array(-3, np.int8)
    bench(
        f"reduce sum {n}x{n} i8 -> i32 accumulator",
        sum_text(n),
        (x, init),
        sum_numpy,
        args.repeat,
    )


if __name__ == "__main__":
    main()
