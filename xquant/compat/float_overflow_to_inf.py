"""xDSL 0.74 raises OverflowError for f16/f32 literals beyond the type's range.

MLIR converts a float literal into its type with one nearest-even rounding, so
`70000.0 : f16` is +inf (`0x7C00`) and `1.0e39 : f32` is `0x7F800000`. xDSL packs
f16/f32 values with `struct`, which raises "float too large to pack with e
format" instead: such IR from upstream does not parse (a Python traceback, not a
parse error). Reproducer:

    %c = arith.constant 70000.0 : f16

The fix wraps the two types' `pack`/`pack_into` and, only for values `struct`
refuses, uses numpy's f64 -> f16/f32 cast, which is that single rounding.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import Float16Type, Float32Type

_Pack = Callable[[Any, Sequence[float]], bytes]
_PackInto = Callable[[Any, Any, int, float], None]


def _rounding_pack(dtype: np.dtype[Any], xdsl_pack: _Pack) -> _Pack:
    def pack(self: Any, values: Sequence[float]) -> bytes:
        try:
            return xdsl_pack(self, values)
        except OverflowError:
            with np.errstate(over="ignore"):
                return np.asarray(values, dtype=np.float64).astype(dtype).tobytes()

    return pack


def _rounding_pack_into(dtype: np.dtype[Any], xdsl_pack_into: _PackInto) -> _PackInto:
    def pack_into(self: Any, buffer: Any, offset: int, value: float) -> None:
        try:
            xdsl_pack_into(self, buffer, offset, value)
        except OverflowError:
            with np.errstate(over="ignore"):
                data = np.asarray(value, dtype=np.float64).astype(dtype).tobytes()
            memoryview(buffer).cast("B")[offset : offset + len(data)] = data

    return pack_into


_installed = False


def install() -> None:
    """Let f16/f32 literals beyond the type's range round to +-inf (idempotent)."""
    global _installed
    if _installed:
        return
    for cls, dtype in ((Float16Type, np.dtype("<f2")), (Float32Type, np.dtype("<f4"))):
        setattr(cls, "pack", _rounding_pack(dtype, cls.pack))
        setattr(cls, "pack_into", _rounding_pack_into(dtype, cls.pack_into))
    _installed = True
