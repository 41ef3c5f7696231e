"""`xquant-gguf import` of a generated multi-GB GGUF file: time and peak memory.

Writes a GGUF file of `--tensors` Q4_K tensors of `--rows` x 4096 (63 MiB of
blocks each with the defaults: 32 tensors, 2.1 GB), then imports it in a
child process and prints its peak resident memory against the largest
tensor. The file is memory-mapped and every tensor is hex-encoded in 4 MiB
chunks, so the peak should be the interpreter's baseline plus a few chunks,
independent of the file size.

Run: python benchmarks/bench_gguf_import.py [--tensors 32] [--rows 28672] [--dir /tmp]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from xquant.numerics.gguf.layouts import LAYOUTS, GGMLType
from xquant.tools.gguf_file import MetadataValue, ValueType, write_gguf

COLS = 4096


def _tensor(rows: int, seed: int) -> np.ndarray:
    layout = LAYOUTS[GGMLType.Q4_K]
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 256, (rows * COLS // 256, layout.type_size), dtype=np.uint8)
    raw[:, 0:2] = np.frombuffer(np.float16(0.01).tobytes(), np.uint8)  # finite d
    raw[:, 2:4] = np.frombuffer(np.float16(0.002).tobytes(), np.uint8)  # and dmin
    return raw.reshape(rows, -1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tensors", type=int, default=32)
    parser.add_argument("--rows", type=int, default=28672)
    parser.add_argument("--dir", default="/tmp")
    ns = parser.parse_args()
    gguf_path = Path(ns.dir) / "xquant_bench_big.gguf"
    mlir_path = Path(ns.dir) / "xquant_bench_big.mlir"
    one = _tensor(ns.rows, 0)
    meta = {"general.architecture": MetadataValue(ValueType.STRING, "bench")}
    start = time.perf_counter()
    with open(gguf_path, "wb") as out:
        tensors = [
            (f"blk.{k}.ffn_down.weight", (ns.rows, COLS), GGMLType.Q4_K, one)
            for k in range(ns.tensors)
        ]
        write_gguf(out, meta, tensors)
    size = gguf_path.stat().st_size
    print(
        f"wrote {gguf_path}: {size / 1e9:.2f} GB, {ns.tensors} Q4_K tensors of "
        f"{one.nbytes / 2**20:.0f} MiB ({time.perf_counter() - start:.1f} s)"
    )
    del one, tensors
    start = time.perf_counter()
    child = subprocess.run(
        [
            sys.executable,
            "-m",
            "xquant.tools.xquant_gguf",
            "import",
            str(gguf_path),
            "-o",
            str(mlir_path),
        ],
        check=True,
    )
    elapsed = time.perf_counter() - start
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(
        f"import: {elapsed:.1f} s, {mlir_path.stat().st_size / 1e9:.2f} GB of MLIR, "
        f"exit {child.returncode}"
    )
    print(
        f"peak resident memory of the import: {peak_kib / 1024:.0f} MiB "
        f"(largest tensor: {ns.rows * COLS // 256 * 144 / 2**20:.0f} MiB, "
        f"file: {size / 2**20:.0f} MiB)"
    )
    if not os.environ.get("XQUANT_BENCH_KEEP"):
        gguf_path.unlink()
        mlir_path.unlink()


if __name__ == "__main__":
    main()
