"""The one way to make an xDSL context that knows every dialect xquant uses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation
from xdsl.universe import Universe
from xdsl.utils.exceptions import VerifyException

from xquant.compat import install
from xquant.xdsl_internals import context_tables

__all__ = ["UNKNOWN_OP_DIALECTS", "XquantContext", "make_context"]

UNKNOWN_OP_DIALECTS = frozenset({"test"})
"""Dialects whose unknown ops `xquant-opt` parses as unregistered ops, without
`--allow-unregistered-dialect`: MLIR's test dialect calls
`allowUnknownOperations()`, and upstream's FileCheck tests (run by an `mlir-opt`
that links it) use ops such as `"test.custom_op"`."""


@dataclass
class XquantContext(Context):
    """An xDSL context in which the ops of `unknown_op_dialects` need not be known.

    An unknown op of such a dialect becomes an `UnregisteredOp` (generic form,
    any operands, results and attributes), as in an MLIR dialect that allows
    unknown operations; every other name resolves as in xDSL's `Context`.
    """

    unknown_op_dialects: frozenset[str] = field(default=frozenset[str]())

    def clone(self) -> XquantContext:
        dialects, ops, attrs, types, registered = context_tables(self)
        copy = XquantContext(
            self.allow_unregistered,
            dialects.copy(),
            ops.copy(),
            attrs.copy(),
            types.copy(),
            registered.copy(),
        )
        copy.unknown_op_dialects = self.unknown_op_dialects
        return copy

    def get_optional_op(
        self, name: str, *, dialect_stack: Sequence[str] = ()
    ) -> type[Operation] | None:
        op_type = super().get_optional_op(name, dialect_stack=dialect_stack)
        dialect = name.split(".", 1)[0]
        if op_type is None:
            if dialect not in self.unknown_op_dialects:
                return None
            op_type = UnregisteredOp.with_name(name)
        elif (
            issubclass(op_type, UnregisteredOp)
            and not issubclass(op_type, _UnknownOpOfKnownDialect)
            and "." in name
            and dialect in context_tables(self)[4]
            and dialect not in self.unknown_op_dialects
        ):
            op_type = _unknown_op_of(op_type, dialect)
        context_tables(self)[1][name] = op_type
        return op_type


class _UnknownOpOfKnownDialect(UnregisteredOp):
    """An unknown op of a registered dialect, parsed under `allow_unregistered`."""

    known_dialect = ""

    def verify_(self) -> None:
        # MLIR's verifier: --allow-unregistered-dialect admits unknown dialects,
        # not unknown ops of a dialect that does not allow them.
        raise VerifyException(
            f"unregistered operation '{self.op_name.data}' found in dialect "
            f"('{self.known_dialect}') that does not allow unknown operations"
        )


def _unknown_op_of(op_type: type[UnregisteredOp], dialect: str) -> type[Operation]:
    """`op_type` (an `UnregisteredOp` of one name) failing verification."""
    return type(
        op_type.__name__,
        (_UnknownOpOfKnownDialect, op_type),
        {"known_dialect": dialect},
    )


def make_context(
    *,
    allow_unregistered: bool = False,
    unknown_op_dialects: frozenset[str] = frozenset[str](),
) -> XquantContext:
    """xDSL's dialects and every xquant dialect, registered (loaded lazily).

    `unknown_op_dialects`: dialects whose unknown ops parse as unregistered ops
    (`xquant-opt` passes `UNKNOWN_OP_DIALECTS`). Installs xquant's fixes to xDSL
    first (`xquant.compat.install`).
    """
    install()
    ctx = XquantContext(
        allow_unregistered=allow_unregistered, unknown_op_dialects=unknown_op_dialects
    )
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    return ctx
