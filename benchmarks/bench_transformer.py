"""Time a transformer layer written in JAX: xquant's interpreter against `jax.jit` on CPU.

    /tmp/jax312/bin/python benchmarks/bench_transformer.py [--seq 128] [--hidden 512]
        [--heads 8] [--mlp 2048] [--repeat 5] [--rounds 3]
        [--clock wall|cpu] [--check-lowered]

JAX (>= 0.12, Python >= 3.12) is not a dependency of xquant: run this with a
Python that has JAX and xquant installed (`pip install 'jax==0.12.*'` and
`pip install -e . --no-deps` plus xdsl/numpy/ml_dtypes into a scratch venv).

The layer is `transformer_layer` of the JAX corpus (tests/data/jax/generate.py)
at a realistic size: pre-layernorm causal self-attention (fused QKV projection,
`heads` heads, softmax with a -1e9 mask) and a gelu MLP, both residual, f32.
It is lowered with `jax.jit(f).lower(*args).as_text()` and the StableHLO text
runs, in the same process on the same inputs:

- `jax.jit`: XLA's CPU code (compiled once before timing);
- `interpreter`: `xquant.run` in the default mode: every float sum (the
  `dot_general`s, the `reduce`s) in the order the lowered IR computes it
  (`acc + a * b` for k = 0, 1, ...), one rounding per step, bit-identical to
  the program after `stablehlo-legalize-to-linalg` (`--check-lowered` asserts it
  at this size; tests/examples/test_jax_corpus.py at the corpus's sizes);
- `interpreter reassoc`: `xquant.run(..., reassociate_fp_reductions=True)`
  (`xquant-run --reassociate-fp-reductions`): f32 sums in any order (BLAS).

Outputs are checked against JAX's: max |got - jax| <= 1e-5 * max |jax| for both
modes (f32; each output element sums up to `mlp` products, in XLA's order on
one side and in the loop's or BLAS's on the other, so they differ in the last
bits; the corpus test's tolerance, taken over the whole output). Times are the
best of `--rounds` x `--repeat` runs: each round runs each path in a block (one
warm-up, then `--repeat` timed runs), so that load from other processes hits
all of them alike while one's worker threads do not slow the next; the median
is printed beside it. Ratios are interpreted / `jax.jit`. Both sides use
all cores (XLA's threads; OpenBLAS's, and the in-order matmul's row panels,
`interpreter/stablehlo/kernels.py`);
`OPENBLAS_NUM_THREADS=1 XLA_FLAGS='--xla_cpu_multi_thread_eigen=false
intra_op_parallelism_threads=1' taskset -c 0` compares one core each, and with
`--clock cpu` (the CPU time of the process) such a run is about as fast on a
busy machine as on an idle one, where elapsed times are not. Target: the
reassociating mode within 3x of XLA.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from timing import fix_allocator  # benchmarks/timing.py

import xquant

try:
    import jax
    import jax.numpy as jnp
    from jax import lax
except ImportError as err:  # pragma: no cover - depends on the environment
    raise SystemExit(
        f"bench_transformer.py needs JAX ({err}); see its docstring for the venv"
    ) from None

jax.config.update("jax_platforms", "cpu")

# The JAX corpus's lowering pipeline (tests/examples/test_jax_corpus.py).
PIPELINE = (
    "stablehlo-legalize-composite-to-call,stablehlo-legalize-control-flow,"
    "stablehlo-legalize-to-linalg"
)
TOLERANCE = 1e-5


def _layernorm(x: Any) -> Any:
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + 1e-5)


def make_layer(seq: int, hidden: int, heads: int) -> Callable[..., Any]:
    """tests/data/jax/generate.py's `transformer_layer`, with its sizes as parameters."""

    def layer(x: Any, wqkv: Any, wo: Any, w1: Any, w2: Any) -> Any:
        h = _layernorm(x)
        q, k, v = jnp.split(h @ wqkv, 3, axis=-1)
        q = q.reshape(seq, heads, hidden // heads).transpose(1, 0, 2)
        k = k.reshape(seq, heads, hidden // heads).transpose(1, 0, 2)
        v = v.reshape(seq, heads, hidden // heads).transpose(1, 0, 2)
        s = jnp.einsum("hqd,hkd->hqk", q, k) / jnp.sqrt(hidden // heads)
        mask = jnp.tril(jnp.ones((seq, seq), bool))
        s = jnp.where(mask, s, -1e9)
        a = jnp.einsum("hqk,hkd->hqd", jax.nn.softmax(s, axis=-1), v)
        x = x + a.transpose(1, 0, 2).reshape(seq, hidden) @ wo
        return x + jax.nn.gelu(_layernorm(x) @ w1) @ w2

    return layer


def make_inputs(seq: int, hidden: int, mlp: int) -> list[np.ndarray]:
    """Activations ~ N(0, 1); weights ~ N(0, 1/fan_in), so every stage stays O(1)."""
    rng = np.random.default_rng(27)
    shapes = [(hidden, 3 * hidden), (hidden, hidden), (hidden, mlp), (mlp, hidden)]
    weights = [
        (rng.standard_normal(s) / np.sqrt(s[0])).astype(np.float32) for s in shapes
    ]
    return [rng.standard_normal((seq, hidden)).astype(np.float32), *weights]


def alternating_blocks(
    paths: dict[str, Callable[[], Any]],
    repeat: int,
    rounds: int,
    clock: Callable[[], float],
) -> dict[str, list[float]]:
    """Seconds of `rounds` x `repeat` calls of each path: in each round, one untimed
    call of a path then `repeat` timed ones, path after path.

    Blocks, not one call of each in turn: XLA's and OpenBLAS's worker threads spin
    for a while after their work, and on 2 cores a call of the other right after
    ran several times slower. Rounds, so that load from other processes is spread
    over all paths."""
    times: dict[str, list[float]] = {name: [] for name in paths}
    for _ in range(rounds):
        for name, fn in paths.items():
            fn()
            for _ in range(repeat):
                start = clock()
                fn()
                times[name].append(clock() - start)
    return times


def usable_cpus() -> int:
    """The CPUs this process may run on (`taskset` narrows them)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main() -> None:
    fix_allocator()
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seq", type=int, default=128)
    parser.add_argument("--hidden", type=int, default=512)
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--mlp", type=int, default=2048)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall: elapsed time; cpu: CPU time of the process, all its threads "
        "(for one-thread runs on a busy machine, see above)",
    )
    parser.add_argument(
        "--check-lowered",
        action="store_true",
        help="also lower the program and assert the default mode is bit-identical",
    )
    args = parser.parse_args()
    layer = make_layer(args.seq, args.hidden, args.heads)
    inputs = make_inputs(args.seq, args.hidden, args.mlp)
    jitted = jax.jit(layer)
    text = jitted.lower(*inputs).as_text()
    module = xquant.parse_module(text)
    print(
        f"transformer layer: seq {args.seq}, hidden {args.hidden}, {args.heads} heads, "
        f"MLP {args.mlp}, f32; {len(text.splitlines())} lines of StableHLO"
    )
    print(
        f"jax {jax.__version__}, numpy {np.__version__}, {usable_cpus()} of "
        f"{os.cpu_count()} CPUs ({cpu_model()}), "
        f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', '-')}"
        f", XLA_FLAGS={os.environ.get('XLA_FLAGS', '-')!r}"
    )

    def run_jax() -> np.ndarray:
        return np.asarray(jax.block_until_ready(jitted(*inputs)))

    def run_interpreter(reassociate: bool) -> np.ndarray:
        (out,) = xquant.run(
            module, "main", *inputs, reassociate_fp_reductions=reassociate
        )
        return np.asarray(out)

    want = run_jax()
    got = {
        "interpreter": run_interpreter(False),
        "interpreter reassoc": run_interpreter(True),
    }
    scale = float(np.abs(want).max())
    for name, out in got.items():
        assert out.shape == want.shape and out.dtype == want.dtype, name
        error = float(np.abs(out.astype(np.float64) - want).max()) / scale
        print(f"{name}: max |out - jax| = {error:.2e} * max |jax|")
        assert error <= TOLERANCE, f"{name} differs from JAX by {error:.2e}"
    if args.check_lowered:
        lowered = xquant.apply_passes(xquant.parse_module(text), PIPELINE)
        start = time.perf_counter()
        (after,) = xquant.run(lowered, "main", *inputs)
        print(f"lowered ({PIPELINE}): {time.perf_counter() - start:.2f} s, ", end="")
        assert np.asarray(after).tobytes() == got["interpreter"].tobytes()
        print("bit-identical to the default mode")

    times = alternating_blocks(
        {
            "jax.jit": run_jax,
            "interpreter": lambda: run_interpreter(False),
            "interpreter reassoc": lambda: run_interpreter(True),
        },
        args.repeat,
        args.rounds,
        time.perf_counter if args.clock == "wall" else time.process_time,
    )
    base = min(times["jax.jit"])
    print(
        f"{args.clock} time, best of {args.rounds} x {args.repeat} runs, "
        "median beside it"
    )
    print("path                    best       median    x jax.jit")
    for name, ts in times.items():
        best = min(ts)
        print(
            f"{name:<20} {best * 1e3:8.2f} ms {statistics.median(ts) * 1e3:8.2f} ms "
            f"{best / base:8.2f}x"
        )


if __name__ == "__main__":
    main()
