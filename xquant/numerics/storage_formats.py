"""Storage formats of quantized types beyond integers (LLVM main's quant dialect).

LLVM main (PR #152966, `QuantStorageTypeInterface`) lets `!quant.uniform` and
`!quant.any` store `f8E4M3FN`, `f8E5M2` and `f4E2M1FN` values. Like an integer
storage type, each has a width, is signed, and has a default range: the
integers `[-largest finite, largest finite]` (448, 57344 and 6), which is what
`<min:max>` bounds narrow.

The numbers (xquant's contract; upstream main does not lower float storage):

    quantize(x)   = rne_format(clamp(x / scale + zero_point, lo, hi))
    dequantize(q) = (convert(q) - zero_point) * scale

computed in the expressed type like integer storage. `lo`/`hi` are the
storage bounds moved inward to the nearest values of the format (so the
rounding can never leave the bounds): with the default bounds they are the
format's largest finite magnitude, i.e. quantize saturates. NaN stays NaN in
formats that have one (`f8E4M3FN`, `f8E5M2`) and becomes 0 in `f4E2M1FN`;
+-inf saturate to the bounds. The conversion is one round-to-nearest-even
from the expressed type, as `arith.truncf` does.
"""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

__all__ = [
    "FLOAT_STORAGE_FORMATS",
    "FloatStorageFormat",
    "inner_bounds",
    "quantize_float",
]


@dataclass(frozen=True)
class FloatStorageFormat:
    """A float format usable as quantized storage."""

    name: str  # MLIR's spelling, e.g. `f8E4M3FN`
    width: int
    largest: int  # largest finite value; the default range is [-largest, largest]
    dtype: np.dtype
    has_nan: bool

    @property
    def default_range(self) -> tuple[int, int]:
        return -self.largest, self.largest


FLOAT_STORAGE_FORMATS: dict[str, FloatStorageFormat] = {
    f.name: f
    for f in (
        FloatStorageFormat("f8E4M3FN", 8, 448, np.dtype(ml_dtypes.float8_e4m3fn), True),
        FloatStorageFormat("f8E5M2", 8, 57344, np.dtype(ml_dtypes.float8_e5m2), True),
        FloatStorageFormat("f4E2M1FN", 4, 6, np.dtype(ml_dtypes.float4_e2m1fn), False),
    )
}


def _values(fmt: FloatStorageFormat) -> np.ndarray:
    """Every finite value of the format, as float64, sorted."""
    bits = np.arange(1 << fmt.width, dtype=np.uint8)
    values = bits.view(fmt.dtype).astype(np.float64)
    return np.unique(values[np.isfinite(values)])


def inner_bounds(fmt: FloatStorageFormat, low: int, high: int) -> tuple[float, float]:
    """The smallest format value >= `low` and the largest <= `high`."""
    values = _values(fmt)
    return float(values[values >= low].min()), float(values[values <= high].max())


def quantize_float(
    scaled: np.ndarray, fmt: FloatStorageFormat, low: int, high: int
) -> np.ndarray:
    """`scaled` (x / scale + zero_point, in the expressed type) to the storage format."""
    lo, hi = inner_bounds(fmt, low, high)
    dtype = scaled.dtype
    clamped = np.clip(scaled, dtype.type(lo), dtype.type(hi))
    if not fmt.has_nan:
        clamped = np.where(np.isnan(clamped), dtype.type(0), clamped)
    return np.asarray(clamped).astype(fmt.dtype)
