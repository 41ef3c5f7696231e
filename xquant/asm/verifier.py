"""Find the op that does not verify, to report the error at its position.

xDSL's `ModuleOp.verify()` raises on the first failure with the module
printed; a tool wants the failing op itself, to locate the message at the
op's source line as MLIR does. Some xDSL verifiers also raise plain Python
errors on odd IR (`d0 floordiv 0` evaluated, a missing key): those count as
that op's verification failure, not as a crash.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

__all__ = ["VERIFIER_CRASHES", "first_verify_failure"]

VERIFIER_CRASHES = (ArithmeticError, ValueError, IndexError, KeyError, TypeError)
"""What xDSL's verifiers raise on odd IR instead of a `VerifyException`."""


def first_verify_failure(
    root: Operation, *, nested: bool = True
) -> tuple[Operation, str] | None:
    """The first op under `root` (xDSL's order: regions first) that does not
    verify, with its message; only `root` itself when not `nested`."""
    ops: Iterator[Operation] = (
        root.walk(reverse=False, region_first=True) if nested else iter((root,))
    )
    for op in ops:
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as err:
            return op, str(err)
        except VERIFIER_CRASHES as err:
            return op, f"'{op.name}' op does not verify: {err}"
    return None
