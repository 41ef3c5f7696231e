"""Storage formats of quantized types beyond integers (LLVM main's quant dialect).

LLVM main (PR #152966, `QuantStorageTypeInterface`) lets `!quant.uniform` and
`!quant.any` store `f8E4M3FN`, `f8E5M2` and `f4E2M1FN` values. Like an integer
storage type, each has a width, is signed, and has a default range: the
integers `[-largest finite, largest finite]` (448, 57344 and 6), which is what
`<min:max>` bounds narrow.
"""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np

__all__ = ["FLOAT_STORAGE_FORMATS", "FloatStorageFormat"]


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
