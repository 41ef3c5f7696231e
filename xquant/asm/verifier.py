"""Find the op that does not verify, to report the error at its position.

xDSL's `ModuleOp.verify()` raises on the first failure with the module
printed; a tool wants the failing op itself, to locate the message at the
op's source line as MLIR does. Some xDSL verifiers also raise plain Python
errors on odd IR (`d0 floordiv 0` evaluated, a missing key): those count as
that op's verification failure, not as a crash.

A symbol defined twice in one symbol table (xDSL: `Redefinition of symbol
"main"` on the table, the implicit module having no position) is reported at
the second definition with MLIR's message, `redefinition of symbol named
'main'`, as `mlir-opt` does.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation
from xdsl.traits import SymbolTable
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
        if (redefinition := _symbol_redefinition(op)) is not None:
            return redefinition
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as err:
            return op, str(err)
        except VERIFIER_CRASHES as err:
            return op, f"'{op.name}' op does not verify: {err}"
    return None


def _symbol_redefinition(op: Operation) -> tuple[Operation, str] | None:
    """The second definition of a symbol in `op`'s symbol table, with MLIR's message."""
    if not op.has_trait(SymbolTable) or len(op.regions) != 1:
        return None
    if len(op.regions[0].blocks) != 1:
        return None
    seen: set[str] = set()
    for child in op.regions[0].blocks[0].ops:
        name = child.get_attr_or_prop("sym_name")
        if not isinstance(name, StringAttr):
            continue
        if name.data in seen:
            return child, f"redefinition of symbol named '{name.data}'"
        seen.add(name.data)
    return None
