"""The native backend against the interpreter and numpy on quantized matmuls and reductions.

    python benchmarks/bench_iree.py [--dot 1024] [--sum 1024] [--mx 1024] [--repeat 5]

Programs (the same ones bench_stablehlo.py and bench_mx.py time on the interpreter):

1. `dot_general` of two i8 per-tensor quantized `n x n` matrices into an i8
   result (bench_stablehlo.py's, at n = 1024 by default);
2. `reduce` of an `n x n` i8 tensor into an i32 accumulator type;
3. MXFP8 (E4M3) quantize + dequantize of an `n x n` f32 tensor (bench_mx.py's).

Each runs on xquant's interpreter (the quantized IR as written, its fastest
form), on IREE (`xquant.backends.iree`: lowered by the project's passes,
compiled once for `llvm-cpu` on this host; the compile time is printed, not
counted) and in numpy written by hand. For the matmul, numpy's float32
matmul of the same matrices (BLAS) is the speed reference too. The number of
elements where the interpreter and IREE differ is printed before timing (0,
except where IREE's FMA contraction moves a rescale across a rounding tie).

The interpreter runs both the quantized IR (its fastest form: the i8 matmul
is one float64 BLAS call, exact for these sizes) and the lowered IR IREE
compiles. A last line times IREE on the bare i8 x i8 -> i32 `linalg.matmul`
(no rescale): the floor of what IREE can do for this matmul on this machine.

Targets: IREE at least 10x faster than the interpreter on the 1024x1024
int8 matmul, and within 2x of numpy's float matmul.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from bench_mx import (
    module_text as mx_text,
)  # benchmarks/ (scripts run from this folder)
from bench_mx import numpy_version as mx_numpy
from bench_stablehlo import dot_numpy, dot_text, sum_numpy, sum_text
from timing import best_of, fix_allocator
from xdsl.dialects.builtin import f8E4M3FN

import xquant
from xquant.backends import iree


def bench(
    title: str,
    text: str,
    args: tuple[np.ndarray, ...],
    references: dict[str, Callable[[], Any]],
    repeat: int,
) -> dict[str, float]:
    print(title)
    module = xquant.parse_module(text)
    expected = xquant.run(module, "main", *args)
    start = time.perf_counter()
    prepared = iree.prepare(module)
    print(f"  (IREE lower + compile: {time.perf_counter() - start:.1f} s, once)")
    got = prepared.call("main", *args)
    for a, b in zip(expected, got, strict=True):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape
        differ = int(
            np.sum(a.reshape(-1).view(np.uint8) != b.reshape(-1).view(np.uint8))
        )
        # IREE contracts a * b + c into one FMA (docs/iree-backend.md): a rescale
        # that lands next to a rounding tie can differ by one.
        print(f"  IREE vs interpreter: {differ} of {a.size} elements differ")
    # The IR IREE compiles, run by the interpreter: the same program on both.
    lowered = iree.lower_for_iree(module.clone())
    runs: dict[str, Callable[[], Any]] = {
        "interpreter": lambda: xquant.run(module, "main", *args),
        "interpreter (lowered IR)": lambda: xquant.run(lowered, "main", *args),
        "IREE (llvm-cpu)": lambda: prepared.call("main", *args),
        **references,
    }
    times = {name: best_of(fn, repeat) for name, fn in runs.items()}
    base = times["IREE (llvm-cpu)"]
    for name, t in times.items():
        print(f"  {name:26s} {t * 1e3:9.2f} ms  {t / base:7.2f}x IREE")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dot", type=int, default=1024)
    parser.add_argument("--sum", type=int, default=1024)
    parser.add_argument("--mx", type=int, default=1024)
    parser.add_argument("--repeat", type=int, default=5)
    ns = parser.parse_args()
    if (reason := iree.available()) is not None:
        print(f"skipped: {reason}")
        sys.exit(0)
    fix_allocator()
    rng = np.random.default_rng(0)

    n = ns.dot
    lhs = rng.integers(-128, 128, size=(n, n), dtype=np.int8)
    rhs = rng.integers(-128, 128, size=(n, n), dtype=np.int8)
    lf, rf = lhs.astype(np.float32), rhs.astype(np.float32)
    dot = bench(
        f"quantized i8 matmul {n}x{n} (stablehlo.dot_general, per-tensor scales)",
        dot_text(n),
        (lhs, rhs),
        {
            "numpy (hand-written, f64)": lambda: dot_numpy(lhs, rhs),
            "numpy float32 matmul": lambda: lf @ rf,
        },
        ns.repeat,
    )

    n = ns.sum
    x = rng.integers(-128, 128, size=(n, n), dtype=np.int8)
    init = np.array(7, np.int8)
    bench(
        f"quantized reduce {n}x{n} i8 -> i32 accumulator",
        sum_text(n),
        (x, init),
        {"numpy (hand-written)": lambda: sum_numpy(x, init)},
        ns.repeat,
    )

    if ns.mx == 1024:  # bench_mx.py's module is written for 1024x1024
        xf = rng.standard_normal((1024, 1024)).astype(np.float32)
        bench(
            "MXFP8 (E4M3) quantize + dequantize 1024x1024 f32",
            mx_text("f8E4M3FN", None),
            (xf,),
            {"numpy (xquant.numerics.mx)": lambda: mx_numpy(xf, f8E4M3FN, False)},
            ns.repeat,
        )

    speedup = dot["interpreter"] / dot["IREE (llvm-cpu)"]
    lowered_speedup = dot["interpreter (lowered IR)"] / dot["IREE (llvm-cpu)"]
    versus_numpy = dot["IREE (llvm-cpu)"] / dot["numpy float32 matmul"]
    floor = bare_matmul_floor(lhs, rhs, ns.repeat)
    print(
        f"\nint8 matmul: IREE {speedup:.1f}x faster than the interpreter on the "
        f"quantized IR, {lowered_speedup:.1f}x on the same lowered IR (target >= 10x); "
        f"{versus_numpy:.2f}x numpy's float32 matmul time (target <= 2x)"
    )
    print(
        f"  floor: IREE's bare i8 x i8 -> i32 linalg.matmul alone takes {floor * 1e3:.2f} ms "
        f"here, so IREE can be at most {dot['interpreter'] / floor:.1f}x faster than the "
        f"interpreter's {dot['interpreter'] * 1e3:.2f} ms (which multiplies in float64 BLAS)"
    )


def bare_matmul_floor(lhs: np.ndarray, rhs: np.ndarray, repeat: int) -> float:
    """IREE's time for the quantized matmul's core alone: i8 x i8 -> i32, nothing else."""
    n = lhs.shape[0]
    text = f"""
func.func @main(%a: tensor<{n}x{n}xi8>, %b: tensor<{n}x{n}xi8>) -> tensor<{n}x{n}xi32> {{
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<{n}x{n}xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<{n}x{n}xi32>) -> tensor<{n}x{n}xi32>
  %m = linalg.matmul ins(%a, %b : tensor<{n}x{n}xi8>, tensor<{n}x{n}xi8>)
                     outs(%f : tensor<{n}x{n}xi32>) -> tensor<{n}x{n}xi32>
  func.return %m : tensor<{n}x{n}xi32>
}}"""
    prepared = iree.prepare(xquant.parse_module(text))
    expected = lhs.astype(np.int64) @ rhs.astype(np.int64)
    assert np.array_equal(prepared.call("main", lhs, rhs)[0], expected)
    return best_of(lambda: prepared.call("main", lhs, rhs), repeat)


if __name__ == "__main__":
    main()
