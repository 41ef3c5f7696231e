"""Time `lower-quant-ops` on a module of 2,000 quant casts against parsing and printing it.

    python benchmarks/bench_passes.py [--casts 2000] [--functions 4] [--repeat 3]

The module is what a quantized transformer looks like to the pass: a few
functions, each a chain of small layers. One layer is three casts on
`tensor<8x16xf32>`:

1. `quant.dcast` of a quantized weight argument (per-axis on dimension 1, or
   sub-channel with blocks of 1x4, alternating);
2. `quant.qcast` of the running activation to a per-tensor type (fake
   quantization), then
3. `quant.dcast` back, added (`arith.addf`) to the weight.

Each layer has its own scales and zero points (`--distinct` caps how many
different types there are). Under the default `rounding=toward-zero`, the
dcast of 2. folds away as upstream's does (`dcast(qcast x) -> x`).

Timed in one run (best of `--repeat` after a warm-up): `xquant.parse_module`,
`xquant.apply_passes` with `lower-quant-ops` (upstream's lowering) and with
`lower-quant-ops{rounding=nearest-even}` (each on a freshly parsed module;
parsing is not in the time), and `module_to_mlir` of the lowered module.
Ratios are pass / parse (target: at most 1.0). Both sides verify, as the API
does: `parse_module` the parsed module, `apply_passes` the lowered one (about
three ops per cast become twelve), so the verification of the lowered module
is also printed on its own. When `mlir-opt` is found
(tests/upstream/mlir_opt.py's lookup), it runs on the same text twice in a
child process, without and with `--lower-quant-ops`; their difference is its
pass time (process start-up and parsing cancel out).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from timing import (
    best_of,
    fix_allocator,
)  # benchmarks/timing.py (scripts run from this folder)

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import xquant  # noqa: E402
from tests.upstream import mlir_opt  # noqa: E402  (the oracle's lookup)
from xquant.asm.printer import module_to_mlir  # noqa: E402

ROWS, COLS, BLOCK = 8, 16, 4
FLOAT = f"tensor<{ROWS}x{COLS}xf32>"


def _scale(rng: np.random.Generator) -> str:
    return repr(float(np.float32(rng.uniform(0.001, 0.1))))


def _per_tensor(rng: np.random.Generator) -> str:
    return f"!quant.uniform<i8:f32, {_scale(rng)}:{int(rng.integers(-8, 8))}>"


def _per_axis(rng: np.random.Generator) -> str:
    params = ", ".join(f"{_scale(rng)}:{int(rng.integers(-8, 8))}" for _ in range(COLS))
    return f"!quant.uniform<i8:f32:1, {{{params}}}>"


def _sub_channel(rng: np.random.Generator) -> str:
    # Non-negative zero points: mlir-opt 22.1.8 asserts on negative ones in
    # sub-channel i8 types (see bench_literals.py).
    rows = ", ".join(
        "{"
        + ", ".join(
            f"{_scale(rng)}:{int(rng.integers(0, 8))}" for _ in range(COLS // BLOCK)
        )
        + "}"
        for _ in range(ROWS)
    )
    return f"!quant.uniform<i8:f32:{{0:1, 1:{BLOCK}}}, {{{rows}}}>"


def module_text(casts: int, functions: int, distinct: int) -> str:
    """`casts` quant casts (rounded up to whole layers) in `functions` functions."""
    rng = np.random.default_rng(0)
    layers = -(-casts // 3)
    kinds = max(1, min(distinct, layers))
    activation_types = [_per_tensor(rng) for _ in range(kinds)]
    weight_types = [
        _per_axis(rng) if i % 2 == 0 else _sub_channel(rng) for i in range(kinds)
    ]
    out: list[str] = []
    per_function = [
        layers // functions + (1 if f < layers % functions else 0)
        for f in range(functions)
    ]
    layer = 0
    for f, count in enumerate(per_function):
        weights = [
            f"tensor<{ROWS}x{COLS}x{weight_types[(layer + i) % kinds]}>"
            for i in range(count)
        ]
        args = ", ".join(
            [f"%x: {FLOAT}"] + [f"%w{i}: {w}" for i, w in enumerate(weights)]
        )
        body = [f"func.func @layer{f}({args}) -> {FLOAT} {{"]
        h = "%x"
        for i, w in enumerate(weights):
            q = f"tensor<{ROWS}x{COLS}x{activation_types[(layer + i) % kinds]}>"
            body += [
                f"  %wd{i} = quant.dcast %w{i} : {w} to {FLOAT}",
                f"  %q{i} = quant.qcast {h} : {FLOAT} to {q}",
                f"  %d{i} = quant.dcast %q{i} : {q} to {FLOAT}",
                f"  %h{i} = arith.addf %d{i}, %wd{i} : {FLOAT}",
            ]
            h = f"%h{i}"
        body += [f"  return {h} : {FLOAT}", "}"]
        out += body
        layer += count
    return "\n".join(out) + "\n"


def mlir_opt_seconds(
    command: list[str], text: str, repeat: int
) -> tuple[float, float] | str:
    """Best wall seconds of `mlir-opt` without and with `--lower-quant-ops` (or why not)."""

    def run(*flags: str) -> float:
        start = time.perf_counter()
        done = subprocess.run(
            [*command, *flags, "-o", "/dev/null"],
            input=text,
            capture_output=True,
            text=True,
            check=False,
        )
        elapsed = time.perf_counter() - start
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip().splitlines()[0])
        return elapsed

    try:
        parse = min(run() for _ in range(repeat))
        lower = min(run("--lower-quant-ops") for _ in range(repeat))
    except RuntimeError as err:
        return f"mlir-opt failed: {err}"
    return parse, lower


def main() -> None:
    fix_allocator()
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--casts", type=int, default=2000)
    parser.add_argument("--functions", type=int, default=4)
    parser.add_argument(
        "--distinct", type=int, default=1000, help="at most this many types per kind"
    )
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    text = module_text(args.casts, args.functions, args.distinct)
    casts = text.count("quant.qcast") + text.count("quant.dcast")
    print(
        f"{casts} casts in {args.functions} functions, {len(text) // 1024} KiB of IR, "
        f"best of {args.repeat}:"
    )
    parse = best_of(lambda: xquant.parse_module(text), args.repeat)
    print(f"  {'parse':<40} {parse * 1e3:8.1f} ms")

    for pipeline in ("lower-quant-ops", "lower-quant-ops{rounding=nearest-even}"):
        modules = [xquant.parse_module(text) for _ in range(args.repeat + 1)]
        seconds = best_of(
            lambda: xquant.apply_passes(modules.pop(), pipeline), args.repeat
        )
        print(
            f"  {pipeline:<40} {seconds * 1e3:8.1f} ms  {seconds / parse:5.2f}x parse"
        )
        lowered = xquant.apply_passes(xquant.parse_module(text), pipeline)
        verify = best_of(lowered.verify, args.repeat)
        print(f"    {'of which verifying the result':<38} {verify * 1e3:8.1f} ms")
    lowered = xquant.apply_passes(xquant.parse_module(text), "lower-quant-ops")
    printing = best_of(lambda: module_to_mlir(lowered), args.repeat)
    print(
        f"  {'print (lowered, toward-zero)':<40} {printing * 1e3:8.1f} ms  "
        f"{printing / parse:5.2f}x parse"
    )

    command = mlir_opt.find_mlir_opt()
    if command is None:
        print("mlir-opt skipped: not found (see tests/upstream/mlir_opt.py)")
        return
    result = mlir_opt_seconds(command, text, args.repeat)
    if isinstance(result, str):
        print(f"mlir-opt skipped: {result}")
        return
    their_parse, their_lower = result
    their_pass = max(their_lower - their_parse, 0.0)
    print(
        f"  {'mlir-opt (parse + print)':<40} {their_parse * 1e3:8.1f} ms\n"
        f"  {'mlir-opt --lower-quant-ops':<40} {their_lower * 1e3:8.1f} ms  "
        f"(pass ~{their_pass * 1e3:.1f} ms)"
    )


if __name__ == "__main__":
    main()
