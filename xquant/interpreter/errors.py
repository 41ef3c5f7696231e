"""Interpreter errors that name the op they come from.

Bad but verified IR (a runtime shape that disagrees with a type, a slice past
the end, a type the interpreter cannot run) must surface as a diagnostic,
never as a numpy `ValueError` or a silently wrong value. Every error raised
while an op runs becomes an `OpInterpretationError`: an xDSL
`InterpretationError` (a `DiagnosticException`) that is also an `OpDiagnostic`,
so the tools point at the op's source line as they do for pass errors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, FileLineColLoc, TensorType
from xdsl.interpreter import OpImplResult, PythonValues
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import InterpretationError
from xdsl.utils.hints import isa

from xquant.asm.diagnostics import OpDiagnostic, source_location
from xquant.numerics.values import IdentityCache
from xquant.xdsl_internals import HookedInterpreter, value_scope

__all__ = ["OpInterpretationError", "XquantInterpreter", "op_error"]

_R = TypeVar("_R")


class OpInterpretationError(InterpretationError, OpDiagnostic):
    """Interpreting `op` failed; the message reads `'dialect.op' op: ...`.

    `str()` starts with `file:line:col: ` when the op's source position is
    known (see `xquant.asm.diagnostics.source_location`).
    """

    def __init__(self, op: Operation, message: str):
        OpDiagnostic.__init__(self, op, message)
        self.message = message

    def __str__(self) -> str:
        location = _location_of(self.op)
        return self.message if location is None else f"{location}: {self.message}"


def _location_of(op: Operation) -> str | None:
    if (location := source_location(op)) is not None:
        return location
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    return None


def op_error(op: Operation, message: str) -> OpInterpretationError:
    """`'op.name' op: message` against `op` (a leading `op.name:` in `message` is dropped)."""
    prefix = f"{op.name}: "
    if message.startswith(prefix):
        message = message[len(prefix) :]
    return OpInterpretationError(op, f"'{op.name}' op: {message}")


def _from_exception(op: Operation, err: Exception) -> OpInterpretationError:
    if isinstance(err, InterpretationError):
        return op_error(op, str(err).split("\n", 1)[0])
    # A Python error out of a kernel is a bug or an unhandled corner of bad IR:
    # still a diagnostic against the op, with the original chained.
    text = str(err).split("\n", 1)[0]
    return op_error(op, f"{type(err).__name__}{': ' + text if text else ''}")


_STATIC_SHAPES: IdentityCache[tuple[int, ...] | None] = IdentityCache()


def _static_shape(typ: Attribute) -> tuple[int, ...] | None:
    """The shape of a ranked tensor type, None for every other type (cached)."""
    entry = _STATIC_SHAPES.lookup(typ)
    if entry is not None:
        return entry[1]
    shape = tuple(typ.get_shape()) if isa(typ, TensorType) else None
    return _STATIC_SHAPES.store(typ, shape)


def _check_result_shapes(op: Operation, values: PythonValues) -> None:
    """A tensor result whose array shape disagrees with its type is a wrong value.

    Only ops of function bodies: the bodies of `linalg.generic`, reducers and the
    like run once on arrays of the whole iteration space (`generic.py`), where a
    `tensor<f32>` value is legitimately a bigger array.
    """
    if not isinstance(op.parent_op(), func.FuncOp):
        return
    for result, value in zip(op.results, values):
        if type(value) is not np.ndarray:
            continue
        shape = _static_shape(result.type)
        if shape is None:
            continue
        actual: tuple[int, ...] = value.shape
        if len(actual) == len(shape) and all(
            s in (a, DYNAMIC_INDEX) for s, a in zip(shape, actual)
        ):
            continue
        raise op_error(
            op,
            f"runtime shape {list(actual)} does not match result type {result.type}",
        )


def _undefined_value_error(value: SSAValue) -> OpInterpretationError:
    """Against the op that uses `value` before it is defined (else its first user)."""
    users = [use.operation for use in value.uses]
    owner = value.owner
    early = [
        user
        for user in users
        if isinstance(owner, Operation)
        and user.parent is owner.parent
        and user.is_before_in_block(owner)
    ]
    what = (
        f"the result of '{owner.name}'"
        if isinstance(owner, Operation)
        else "a block argument"
    )
    culprit = (early or users)[0] if users else None
    if culprit is None:
        raise InterpretationError(f"{what} has no value")
    return op_error(
        culprit,
        f"uses {what} where it is not defined (before it, or outside its region)",
    )


def call_located(
    op: Operation, call: Callable[[PythonValues], _R], inputs: PythonValues
) -> _R:
    """`call(inputs)` for `op`, any failure reported against `op`; an error that
    already names an (inner) op passes through."""
    try:
        return call(inputs)
    except OpInterpretationError:
        raise
    except Exception as err:  # re-raised, located: nothing is swallowed
        raise _from_exception(op, err) from err


class XquantInterpreter(HookedInterpreter):
    """xDSL's interpreter, with every failure of an op reported against that op
    and tensor results checked against their static shapes."""

    def get_values(self, values: Iterable[SSAValue]) -> tuple[Any, ...]:
        values = tuple(values)
        try:
            return super().get_values(values)
        except KeyError:
            pass
        # xDSL's verifier does not check dominance: a use before the definition
        # (or outside the region that defines it) verifies, then has no value here.
        missing = next(v for v in values if v not in value_scope(self))
        raise _undefined_value_error(missing) from None

    def interpret_op(
        self,
        op: Operation,
        inputs: PythonValues,
        run: Callable[[Operation, PythonValues], OpImplResult],
    ) -> OpImplResult:
        result = call_located(op, lambda values: run(op, values), inputs)
        _check_result_shapes(op, result.values)
        return result
