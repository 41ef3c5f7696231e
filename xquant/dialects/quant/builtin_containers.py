"""Keep quantized element types out of `vector` and `memref`, as upstream does.

Upstream's `vector` takes only `VectorElementTypeInterface` elements and
`memref` only `MemRefElementTypeInterface` ones; `!quant` types implement
neither. xDSL's builtin types accept any element type, so without this a
module that upstream rejects would parse here (and then fail to lower).
`install()` adds the check, with upstream's message, to their verifiers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import MemRefType, UnrankedMemRefType, VectorType
from xdsl.utils.exceptions import VerifyException

from xquant.dialects.quant.types import QuantizedType

_MESSAGES: dict[type, str] = {
    VectorType: "failed to verify 'elementType': VectorElementTypeInterface instance",
    MemRefType: "invalid memref element type",
    UnrankedMemRefType: "invalid memref element type",
}


def _checked(original: Callable[[Any], None], message: str) -> Callable[[Any], None]:
    def verify(self: Any) -> None:
        original(self)
        if isinstance(self.element_type, QuantizedType):
            raise VerifyException(message)

    verify.__wrapped__ = original  # type: ignore[attr-defined]
    return verify


def install() -> None:
    """Add the element-type checks (idempotent)."""
    for cls, message in _MESSAGES.items():
        original: Callable[[Any], None] = getattr(cls, "verify")
        if hasattr(original, "__wrapped__"):
            continue
        setattr(cls, "verify", _checked(original, message))
