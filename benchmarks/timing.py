"""The timing rules of the benchmark scripts.

- `best_of`: warm up once, then the best of `repeat` runs.
- `fix_allocator`: pin glibc's malloc policy before timing anything.

Why pin the allocator: glibc serves large blocks with fresh mmapped pages until
a large block has been freed, then raises its threshold to that block's size
("dynamic mmap threshold"). Fresh pages fault on first touch, which costs
about as much as a simple numpy op on them, so the same numpy code ran in 2.9
ms or 5.4 ms depending on what the process had freed before -- the ratios
measured allocator history, not code. With a fixed threshold every large
temporary, numpy's and the interpreter's alike, comes from the reused heap.
Set XQUANT_BENCH_DEFAULT_MALLOC=1 to measure with glibc's defaults instead.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import time
from collections.abc import Callable
from typing import Any

# mallopt parameters (malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3


def fix_allocator() -> None:
    """Serve blocks below 32 MB from the heap and keep up to 128 MB of it; print what was set."""
    if os.environ.get("XQUANT_BENCH_DEFAULT_MALLOC") == "1":
        print("allocator: glibc defaults (XQUANT_BENCH_DEFAULT_MALLOC=1)")
        return
    name = ctypes.util.find_library("c")
    libc = ctypes.CDLL(name) if name else None
    mallopt = getattr(libc, "mallopt", None)
    if mallopt is None or not (
        mallopt(M_MMAP_THRESHOLD, 32 << 20) and mallopt(M_TRIM_THRESHOLD, 128 << 20)
    ):
        print("allocator: defaults (no glibc mallopt here)")
        return
    print(
        "allocator: glibc mmap threshold 32 MB, trim threshold 128 MB (see timing.py)"
    )


def best_of(fn: Callable[[], Any], repeat: int = 3) -> float:
    """Seconds of the fastest of `repeat` calls of `fn`, after one untimed warm-up call."""
    fn()
    times: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)
