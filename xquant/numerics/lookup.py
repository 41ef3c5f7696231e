"""Lookup-table storage: a stored value indexes a table of values (`!quant.quantile`).

    decode(s) = table[s - first]
    encode(v) = the stored value s in [low, high] whose table[s - first] is nearest v

`first` is the stored value of the first entry (the quantile type's range
minimum, or its storage type's default minimum). The table need not be
sorted. Ties (two entries equally near) go to the smaller stored value;
NaN encodes to `low`, the smallest allowed stored value (every distance is
NaN, and the first candidate wins). Distances are computed in float64 between
the value and each entry, one `abs(v - entry)` each, and the first strictly
smaller distance wins when scanning stored values upward: that scan is also
what the lowered IR does, so both agree bit for bit.

These functions take plain arrays and numbers so that other table-based
formats (GGUF's super-blocks, NF4 tensors) can reuse them.
"""

from __future__ import annotations

import numpy as np

__all__ = ["decode", "encode_nearest"]


def decode(stored: np.ndarray, table: np.ndarray, first: int) -> np.ndarray:
    """`table[stored - first]`, with the table's dtype; a stored value without an entry is an error."""
    index = np.asarray(stored).astype(np.int64) - first
    if index.size and (index.min() < 0 or index.max() >= len(table)):
        bad = int(
            np.asarray(stored).reshape(-1)[
                np.flatnonzero((index < 0) | (index >= len(table)))[0]
            ]
        )
        raise ValueError(
            f"stored value {bad} has no table entry (entries for {first}..{first + len(table) - 1})"
        )
    return np.asarray(table)[index]


def encode_nearest(
    values: np.ndarray,
    table: np.ndarray,
    first: int,
    low: int,
    high: int,
    dtype: np.dtype,
) -> np.ndarray:
    """The stored value (in `dtype`) in `[low, high]` whose entry is nearest each of `values`."""
    v = np.asarray(values, dtype=np.float64)
    entries = np.asarray(table, dtype=np.float64)
    best = np.full(v.shape, low, dtype=np.int64)
    best_distance = np.abs(v - entries[low - first])
    with np.errstate(invalid="ignore"):
        for stored in range(low + 1, high + 1):
            distance = np.abs(v - entries[stored - first])
            closer = distance < best_distance
            best[closer] = stored
            best_distance[closer] = distance[closer]
    return best.astype(dtype)
