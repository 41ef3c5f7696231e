"""Time quantize + dequantize of a sub-channel tensor: quant IR, lowered IR, numpy.

    python benchmarks/bench_quant.py [--size 1024] [--block 32] [--repeat 10]

The function is `dcast(qcast(x))` for x: tensor<size x size x f32> with a
`!quant.uniform<i8:f32:{0:1, 1:block}, ...>` type (size x size/block scales
and zero points). It runs three ways:

1. the quant IR in xquant's interpreter (qcast/dcast call the numeric contract);
2. the IR after `lower-quant-ops` (linalg.generic with floordiv maps);
3. the same arithmetic hand-written in numpy (scales broadcast by reshape).

All three results are checked equal before timing. Ratios are against numpy.
It then tries xDSL's stock interpreter on the lowered IR at a small size and
prints why it cannot run it (it has no dense `arith.constant`, tensor-valued
arith or `math.roundeven`); `bench_interpreter.py` times it on a body it can
run, scaled to 1024x1024 (about 150 s there, against ~5 ms for ours).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from timing import (
    best_of,
    fix_allocator,
)  # benchmarks/timing.py (scripts run from this folder)

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


def stock_attempt(block: int) -> str:
    """Run the lowered IR (32 x block) in xDSL's stock interpreter; say what happened."""
    from xdsl.interpreter import Interpreter
    from xdsl.interpreters.shaped_array import ShapedArray
    from xdsl.interpreters.utils.ptr import TypedPtr

    from xquant.interpreter import _stock_functions  # pyright: ignore[reportPrivateUsage]

    n = block
    scales = np.full((n, 1), 0.05, np.float32)
    zps = np.zeros((n, 1), np.int64)
    lowered = xquant.apply_passes(
        xquant.parse_module(module_text(n, block, scales, zps)),
        "lower-quant-ops{rounding=nearest-even}",
    )
    interpreter = Interpreter(lowered)
    for functions in _stock_functions():
        interpreter.register_implementations(functions)
    x = TypedPtr.new_float32([0.0] * n * n)
    try:
        interpreter.call_op("main", (ShapedArray(x, [n, n]),))
    except Exception as err:  # reporting the stock interpreter's failure is the point
        return f"cannot run it: {str(err).splitlines()[0][:160]}"
    return "ran (unexpected: time it)"


def main() -> None:
    fix_allocator()
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
    lowered = xquant.apply_passes(
        xquant.parse_module(text), "lower-quant-ops{rounding=nearest-even}"
    )
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
    print(
        f"xDSL stock interpreter on the lowered IR ({block}x{block}): {stock_attempt(block)}"
    )


if __name__ == "__main__":
    main()
