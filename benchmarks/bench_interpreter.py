"""Time the vectorized interpreter on a block-scaled quantize `linalg.generic`.

    python benchmarks/bench_interpreter.py [--size 1024] [--repeat 20]

1. The full quantize body (divf, addf, maximumf, minimumf, math.roundeven,
   fptosi to i8; 1x32 block scales through `(d0, d1 floordiv 32)`) at
   size x size f32, through xquant's interpreter vs the same computation
   hand-written in numpy (broadcast scales, and np.repeat scales).
2. xDSL's stock interpreter on a body it can run (mulf by the reciprocal
   scale, addf, maximumf, minimumf; f32 out -- it has no divf, roundeven or
   fptosi), on a small size, scaled linearly to size x size, vs ours on the
   same body.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from timing import (
    best_of,
    fix_allocator,
)  # benchmarks/timing.py (scripts run from this folder)

from xquant import parse_module
from xquant.interpreter import make_interpreter


def quantize_text(n: int, block: int = 32) -> str:
    return f"""
#map = affine_map<(d0, d1) -> (d0, d1)>
#smap = affine_map<(d0, d1) -> (d0, d1 floordiv {block})>
func.func @main(%x: tensor<{n}x{n}xf32>, %s: tensor<{n}x{n // block}xf32>) -> tensor<{n}x{n}xi8> {{
  %e = tensor.empty() : tensor<{n}x{n}xi8>
  %zp = arith.constant 3.0 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %r = linalg.generic {{indexing_maps = [#map, #smap, #map], iterator_types = ["parallel", "parallel"]}}
      ins(%x, %s : tensor<{n}x{n}xf32>, tensor<{n}x{n // block}xf32>) outs(%e : tensor<{n}x{n}xi8>) {{
  ^bb0(%a: f32, %b: f32, %o: i8):
    %0 = arith.divf %a, %b : f32
    %1 = arith.addf %0, %zp : f32
    %2 = arith.maximumf %1, %lo : f32
    %3 = arith.minimumf %2, %hi : f32
    %4 = math.roundeven %3 : f32
    %5 = arith.fptosi %4 : f32 to i8
    linalg.yield %5 : i8
  }} -> tensor<{n}x{n}xi8>
  func.return %r : tensor<{n}x{n}xi8>
}}
"""


def stock_text(n: int, block: int = 32) -> str:
    return f"""
#map = affine_map<(d0, d1) -> (d0, d1)>
#smap = affine_map<(d0, d1) -> (d0, d1 floordiv {block})>
func.func @main(%x: tensor<{n}x{n}xf32>, %s: tensor<{n}x{n // block}xf32>, %e: tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32> {{
  %zp = arith.constant 3.0 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %r = linalg.generic {{indexing_maps = [#map, #smap, #map], iterator_types = ["parallel", "parallel"]}}
      ins(%x, %s : tensor<{n}x{n}xf32>, tensor<{n}x{n // block}xf32>) outs(%e : tensor<{n}x{n}xf32>) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %0, %zp : f32
    %2 = arith.maximumf %1, %lo : f32
    %3 = arith.minimumf %2, %hi : f32
    linalg.yield %3 : f32
  }} -> tensor<{n}x{n}xf32>
  func.return %r : tensor<{n}x{n}xf32>
}}
"""


def main() -> None:
    fix_allocator()
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--stock-size", type=int, default=64)
    ns = ap.parse_args()
    n, block = ns.size, 32
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((n, n)) * 100).astype(np.float32)
    s = (rng.random((n, n // block)) + 0.5).astype(np.float32)

    module = parse_module(quantize_text(n, block))
    interp = make_interpreter(module)

    def ours() -> np.ndarray:
        with np.errstate(all="ignore"):
            return interp.call_op("main", (x, s))[0]

    def numpy_broadcast() -> np.ndarray:
        q = x.reshape(n, n // block, block) / s[:, :, None] + np.float32(3.0)
        q = np.minimum(np.maximum(q, np.float32(-128.0)), np.float32(127.0))
        return np.rint(q).astype(np.int8).reshape(n, n)

    def numpy_repeat() -> np.ndarray:
        q = x / np.repeat(s, block, axis=1) + np.float32(3.0)
        return np.rint(np.clip(q, np.float32(-128.0), np.float32(127.0))).astype(
            np.int8
        )

    assert np.array_equal(ours(), numpy_broadcast())
    assert np.array_equal(ours(), numpy_repeat())
    t_ours = best_of(ours, ns.repeat)
    t_np = best_of(numpy_broadcast, ns.repeat)
    t_rep = best_of(numpy_repeat, ns.repeat)
    print(
        f"quantize generic {n}x{n} f32 -> i8, 1x{block} block scales (best of {ns.repeat}):"
    )
    print(f"  xquant interpreter        {t_ours * 1e3:9.3f} ms")
    print(
        f"  numpy (broadcast scales)  {t_np * 1e3:9.3f} ms   ratio {t_ours / t_np:5.2f}x"
    )
    print(
        f"  numpy (np.repeat scales)  {t_rep * 1e3:9.3f} ms   ratio {t_ours / t_rep:5.2f}x"
    )

    # xDSL's stock interpreter, on a body it supports, at a small size; scaled linearly.
    from xdsl.context import Context
    from xdsl.dialects.builtin import f32
    from xdsl.interpreter import Interpreter
    from xdsl.interpreters import register_implementations as register_stock
    from xdsl.interpreters.shaped_array import ShapedArray
    from xdsl.interpreters.utils.ptr import TypedPtr

    m = ns.stock_size
    xs, ss = x[:m, :m].copy(), (1.0 / s[:m, : m // block]).astype(np.float32)
    stock_module = parse_module(stock_text(m, block))
    stock = Interpreter(stock_module)
    register_stock(stock, Context())

    def shaped(a: np.ndarray) -> ShapedArray[float]:
        return ShapedArray(
            TypedPtr[float].new([float(v) for v in a.reshape(-1)], xtype=f32),
            list(a.shape),
        )

    sx, sscale, se = shaped(xs), shaped(ss), shaped(np.zeros((m, m), np.float32))
    t = time.perf_counter()
    (stock_out,) = stock.call_op("main", (sx, sscale, se))
    t_stock = time.perf_counter() - t
    ours_small = make_interpreter(parse_module(stock_text(m, block)))
    zeros = np.zeros((m, m), np.float32)
    (ours_out,) = ours_small.call_op("main", (xs, ss, zeros))
    # The stock interpreter computes in Python floats (f64) between ops, so only close.
    assert np.allclose(
        np.array(stock_out.data, np.float32).reshape(m, m),
        ours_out,
        rtol=1e-6,
        atol=1e-5,
    )
    t_ours_small = best_of(
        lambda: ours_small.call_op("main", (xs, ss, zeros)), ns.repeat
    )
    big = make_interpreter(parse_module(stock_text(n, block)))
    sb = (1.0 / s).astype(np.float32)
    zb = np.zeros((n, n), np.float32)
    t_ours_big = best_of(lambda: big.call_op("main", (x, sb, zb)), ns.repeat)
    scale = (n * n) / (m * m)
    print("stock-compatible body (mulf/addf/maximumf/minimumf, f32 out):")
    print(
        f"  xDSL stock interpreter {m}x{m}   {t_stock * 1e3:10.1f} ms  (~{t_stock * scale:.1f} s scaled to {n}x{n})"
    )
    print(f"  xquant interpreter     {m}x{m}   {t_ours_small * 1e3:10.3f} ms")
    print(f"  xquant interpreter     {n}x{n} {t_ours_big * 1e3:10.3f} ms")
    print(
        f"  speed-up at {n}x{n} (stock scaled / ours): {t_stock * scale / t_ours_big:,.0f}x"
    )


if __name__ == "__main__":
    main()
