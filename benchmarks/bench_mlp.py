"""Time the quantized MLP block (examples/mlp_block) in the interpreter against numpy.

    python benchmarks/bench_mlp.py [--hidden 2048] [--intermediate 5632] [--tokens 16]
        [--repeat 3] [--formats int4,mxfp4,nvfp4] [--activations f32,bf16]

For each weight format the module is built with its weights bound as
`dense_resource` blobs (`xquant.bind_weights`) and run on the same activations
as written and after its lowering (`lower-quant-ops{rounding=nearest-even}` or
`lower-mx-tensor`), each twice: in the IR's arithmetic (the default) and with
`reassociate_fp_reductions=True` (rows `... BLAS`). Two numpy references run
beside them, each the same arithmetic as one of the modes:

- `numpy order`: the IR's own arithmetic. `linalg.matmul` accumulates
  `acc + a * b` in f32 for k = 0, 1, ... (no reassociation); the interpreter
  follows it, so results are bit-identical before and after lowering and with
  IREE. Written in numpy it is one vectorized multiply-add per k; its result is
  asserted bit-identical to the interpreter's.
- `numpy BLAS`: dequantize the stored parts, `a @ w` (BLAS blocks and reorders
  each sum), silu: what the reassociating mode computes, asserted equal to it.

`x BLAS` and `x order` are the ratios to each. Targets: each interpreted path
at most 2x the numpy reference of its own arithmetic (`x order` for the default
rows, `x BLAS` for the `BLAS` rows), peak memory at most 3x the f32 weights.
Results are checked: as written and lowered bit-identical in each mode. Times
are best of `--repeat` after one warm-up run (whose time is printed too: it
converts the types' scale lists once). Peak memory is the tracemalloc peak of
one run (numpy buffers included), against the size of the three weights in f32.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
from timing import best_of, fix_allocator  # benchmarks/timing.py

import xquant

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "mlp_block"))
import generate


def peak_bytes(fn: Any) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main() -> None:
    fix_allocator()
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hidden", type=int, default=2048)
    parser.add_argument("--intermediate", type=int, default=5632)
    parser.add_argument("--tokens", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--formats", default=",".join(generate.FORMATS))
    parser.add_argument("--activations", default=",".join(generate.ACTIVATIONS))
    args = parser.parse_args()
    model = generate.make_model(args.hidden, args.intermediate, args.tokens)
    weights_f32 = sum(w.nbytes for w in model.weights.values())
    print(
        f"MLP block x {args.tokens}x{args.hidden}, intermediate {args.intermediate}; "
        f"f32 weights {weights_f32 / 2**20:.0f} MiB; best of {args.repeat}"
    )
    print(
        "format act  path            first run   time    x BLAS x order   peak MiB  x f32 weights"
    )
    for fmt, act in (
        (f, a) for a in args.activations.split(",") for f in args.formats.split(",")
    ):
        q = generate.build(fmt, model, act)
        x = q.inputs(model)
        module = xquant.bind_weights(xquant.parse_module(q.text), q.blobs)
        lowered = xquant.bind_weights(
            xquant.apply_passes(xquant.parse_module(q.text), generate.PIPELINES[fmt]),
            q.blobs,
        )
        expected = generate.numpy_forward(model, q, fresh=True)
        results: dict[str, np.ndarray] = {}
        rows: list[tuple[str, float, float, int]] = []
        for path, mod, reassoc in (
            ("as written", module, False),
            ("lowered", lowered, False),
            ("as written BLAS", module, True),
            ("lowered BLAS", lowered, True),
        ):

            def once(mod: Any = mod, reassoc: bool = reassoc) -> Any:
                return xquant.run(mod, "main", x, reassociate_fp_reductions=reassoc)

            start = time.perf_counter()
            (results[path],) = once()
            first = time.perf_counter() - start
            t = best_of(once, args.repeat)
            rows.append((path, first, t, peak_bytes(once)))
        assert np.array_equal(results["as written"], results["lowered"]), fmt
        assert np.array_equal(results["as written BLAS"], results["lowered BLAS"]), fmt
        wide = expected.astype(np.float64)
        ulps = 1e-5 if act == "f32" else 2**-7  # BLAS order moves a bf16 rounding
        np.testing.assert_allclose(
            results["as written"].astype(np.float64),
            wide,
            rtol=0,
            atol=ulps * np.abs(wide).max(),
        )
        np.testing.assert_array_equal(results["as written BLAS"], expected)
        base = best_of(
            lambda: generate.numpy_forward(model, q, fresh=True), args.repeat
        )
        numpy_peak = peak_bytes(lambda: generate.numpy_forward(model, q, fresh=True))
        rows.append(("numpy BLAS", base, base, numpy_peak))
        in_order = best_of(lambda: numpy_in_order(model, q), args.repeat)
        same = numpy_in_order(model, q)
        assert np.array_equal(same.view(np.uint8), results["as written"].view(np.uint8))
        rows.append(("numpy order", in_order, in_order, numpy_peak))
        for path, first, t, peak in rows:
            print(
                f"{fmt:<6} {act:<4} {path:<15} {first * 1e3:8.0f} ms {t * 1e3:7.0f} ms "
                f"{t / base:6.2f}x {t / in_order:6.2f}x {peak / 2**20:9.0f}  "
                f"{peak / weights_f32:8.2f}x"
            )


def matmul_in_order(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`a @ b` in f32 as `linalg.matmul` defines it: acc = acc + a[m, k] * b[k, n] for
    k = 0, 1, ..., each product and sum rounded to f32 (no reassociation, no FMA).
    Vectorized over (m, n); BLAS blocks and reorders the sum, so it differs in the
    last bits and is about 10x faster. Written out here rather than imported from
    `xquant.numerics.values.loop_order_matmul`, so that the reference the
    interpreter is checked against is not the interpreter's own routine."""
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32)
    product = np.empty_like(acc)
    for k in range(a.shape[1]):
        np.multiply(a[:, k, None], b[k], out=product)
        np.add(acc, product, out=acc)
    return acc


def numpy_in_order(model: Any, q: Any) -> np.ndarray:
    """`generate.numpy_forward` with the matmuls summed in the IR's order."""
    return generate.numpy_forward(model, q, fresh=True, matmul=matmul_in_order)


if __name__ == "__main__":
    main()
