"""The one timing rule of the benchmark scripts: warm up once, then the best of `repeat` runs."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best_of(fn: Callable[[], Any], repeat: int = 3) -> float:
    """Seconds of the fastest of `repeat` calls of `fn`, after one untimed warm-up call."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)
