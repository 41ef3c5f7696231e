"""Time quantize + dequantize of a sub-channel tensor: quant IR, lowered IR, numpy.

    python benchmarks/bench_quant.py [--size 1024] [--block 32] [--repeat 10]

The function is `dcast(qcast(x))` for x: tensor<size x size x f32> with a
`!quant.uniform<i8:f32:{0:1, 1:block}, ...>` type (size x size/block scales
and zero points). It runs three ways:

1. the quant IR in xquant's interpreter (qcast/dcast call the numeric contract);
2. the IR after `lower-quant-ops` (linalg.generic with floordiv maps);
3. the same arithmetic hand-written in numpy (scales broadcast by reshape).

All three results are checked equal before timing. Ratios are against numpy.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import xquant
from xquant.interpreter import make_interpreter


def module_text(n: int, block: int, scales: np.ndarray, zps: np.ndarray) -> str:
    rows = ", ".join(
        "{" + ", ".join(f"{s!r}:{z}" for s, z in zip(srow, zrow)) + "}"
        for srow, zrow in zip(scales.tolist(), zps.tolist())
    )
    q = f"!quant.uniform<i8:f32:{{0:1, 1:{block}}}, {{{rows}}}>"
    return f"""
func.func @main(%x: tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32> {{
  %q = quant.qcast %x : tensor<{n}x{n}xf32> to tensor<{n}x{n}x{q}>
  %y = quant.dcast %q : tensor<{n}x{n}x{q}> to tensor<{n}x{n}xf32>
  return %y : tensor<{n}x{n}xf32>
}}
"""


def numpy_version(
    x: np.ndarray, scales: np.ndarray, zps: np.ndarray, block: int
) -> np.ndarray:
    n, m = x.shape
    s = scales.reshape(n, m // block, 1)
    z = zps.astype(np.float32).reshape(n, m // block, 1)
    q = np.rint(np.clip(x.reshape(n, m // block, block) / s + z, -128, 127)).astype(
        np.int8
    )
    return ((q.astype(np.float32) - z) * s).reshape(n, m)


def best_of(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--block", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    n, block = args.size, args.block

    rng = np.random.default_rng(0)
    scales = rng.uniform(0.01, 0.1, size=(n, n // block)).astype(np.float32)
    zps = rng.integers(-10, 10, size=(n, n // block))
    x = rng.normal(0, 3, size=(n, n)).astype(np.float32)

    start = time.perf_counter()
    text = module_text(n, block, scales, zps)
    original = xquant.parse_module(text)
    lowered = xquant.apply_passes(xquant.parse_module(text), "lower-quant-ops")
    print(
        f"parse + lower ({len(text) // 1024} KiB of IR): {time.perf_counter() - start:.2f} s (once)"
    )

    runs: dict[str, Callable[[], Any]] = {
        "numpy": lambda: numpy_version(x, scales, zps, block)
    }
    for name, module in (("quant IR", original), ("lowered IR", lowered)):
        interpreter = make_interpreter(module)
        runs[name] = lambda interpreter=interpreter: interpreter.call_op("main", (x,))[
            0
        ]

    reference = runs["numpy"]()
    for name, fn in runs.items():
        np.testing.assert_array_equal(np.asarray(fn()), reference, err_msg=name)

    base = best_of(runs["numpy"], args.repeat)
    print(
        f"dcast(qcast(x)), {n}x{n} f32, i8 sub-channel 1x{block} blocks, best of {args.repeat}:"
    )
    for name, fn in runs.items():
        t = base if name == "numpy" else best_of(fn, args.repeat)
        print(f"  {name:<11} {t * 1e3:8.2f} ms  {t / base:5.2f}x numpy")


if __name__ == "__main__":
    main()
