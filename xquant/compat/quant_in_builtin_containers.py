"""xDSL 0.74's `vector` and `memref` accept `!quant` element types, which MLIR rejects.

Upstream's `vector` takes only `VectorElementTypeInterface` elements and `memref`
only `MemRefElementTypeInterface` ones; `!quant` types implement neither. xDSL's
builtin types accept any element type, so a module that upstream rejects parses
(and then fails to lower). Reproducer (with xquant's `quant` dialect loaded):

    func.func private @f(vector<2x!quant.uniform<i8:f32, 1.0>>)

The fix adds the check, with upstream's message, to the types' verifiers. The
types are built by xDSL's own parser, so their classes are patched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from xdsl.dialects.builtin import MemRefType, UnrankedMemRefType, VectorType
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from xquant.dialects.quant.types import QuantizedType

_Container = VectorType | MemRefType | UnrankedMemRefType
_Verify = Callable[[_Container], None]

_MESSAGES: dict[type[_Container], str] = {
    VectorType: "failed to verify 'elementType': VectorElementTypeInterface instance",
    MemRefType: "invalid memref element type",
    UnrankedMemRefType: "invalid memref element type",
}


def _rejecting_quant(xdsl_verify: _Verify, message: str) -> _Verify:
    def verify(self: _Container) -> None:
        xdsl_verify(self)
        element: Attribute = self.element_type
        if isinstance(element, QuantizedType):
            raise VerifyException(message)

    return verify


_installed = False


def install() -> None:
    """Reject `!quant` elements in `vector` and `memref` (idempotent)."""
    global _installed
    if _installed:
        return
    for cls, message in _MESSAGES.items():
        # `cls.verify` takes a `cls`, the only type its wrapper is installed on.
        xdsl_verify = cast(_Verify, cls.verify)
        setattr(cls, "verify", _rejecting_quant(xdsl_verify, message))
    _installed = True
