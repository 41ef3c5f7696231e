"""Interpreter implementations of the `check` dialect, and the recording of every check run.

Checks (`check.*` ops and `custom_call @check.*`) compare as StableHLO's do.
Inside `recording_checks()` every check is recorded and the run continues;
outside, a failed check raises `CheckFailure`.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute, Operation

from xquant.dialects import check
from xquant.dialects.quant.types import UniformQuantizedType
from xquant.interpreter.errors import OpInterpretationError
from xquant.interpreter.quant import reinterpret
from xquant.interpreter.stablehlo.values import to_float
from xquant.numerics.values import dense_value, element_type, is_float_dtype


@dataclass(frozen=True)
class CheckResult:
    """One executed check: the op, whether it passed and, if not, why."""

    op: Operation
    passed: bool
    message: str


class CheckFailure(OpInterpretationError):
    """A failed check outside `recording_checks()`, against the check op."""


_RECORDER: contextvars.ContextVar[list[CheckResult] | None] = contextvars.ContextVar(
    "xquant_checks", default=None
)


@contextlib.contextmanager
def recording_checks() -> Generator[list[CheckResult]]:
    """Record every check run inside the block (failures do not stop the run)."""
    results: list[CheckResult] = []
    token = _RECORDER.set(results)
    try:
        yield results
    finally:
        _RECORDER.reset(token)


def report_check(op: Operation, failure: str | None) -> bool:
    results = _RECORDER.get()
    if results is not None:
        results.append(CheckResult(op, failure is None, failure or "ok"))
        return failure is None
    if failure is not None:
        raise CheckFailure(op, f"'{op.name}' op: {failure}")
    return True


def _index_text(flat: int, shape: Sequence[int]) -> str:
    return (
        "[" + ", ".join(str(int(i)) for i in np.unravel_index(flat, tuple(shape))) + "]"
        if shape
        else "[]"
    )


def _value_text(v: Any) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (np.integer, int)):
        # numpy's `integer` is generic; its parameter is irrelevant to `int()`.
        return str(int(cast("np.integer[Any] | int", v)))
    return repr(float(v))


def compare_exact(actual: np.ndarray, expected: np.ndarray) -> str | None:
    """None if equal (floats bitwise-equal or both NaN), else the first mismatch."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        return f"shape mismatch: {list(actual.shape)} (actual) vs {list(expected.shape)} (expected)"
    if is_float_dtype(actual.dtype):
        same = (actual == expected) | (
            np.isnan(actual.astype(np.float64)) & np.isnan(expected.astype(np.float64))
        )
    else:
        same = actual == expected
    return _first_mismatch(same, actual, expected, "")


def compare_almost(
    actual: np.ndarray, expected: np.ndarray, tolerance: float
) -> str | None:
    """|a - b| <= tolerance per element; NaN matches NaN; infinities must be equal."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        return f"shape mismatch: {list(actual.shape)} (actual) vs {list(expected.shape)} (expected)"
    if not is_float_dtype(actual.dtype):
        return compare_exact(actual, expected)
    a, b = actual.astype(np.float64), expected.astype(np.float64)
    with np.errstate(invalid="ignore"):
        close = np.abs(a - b) <= tolerance
    finite = np.isfinite(a) & np.isfinite(b)
    same = np.where(finite, close, (a == b) | (np.isnan(a) & np.isnan(b)))
    return _first_mismatch(same, actual, expected, f" with tolerance {tolerance:g}")


def compare_ulps(actual: np.ndarray, expected: np.ndarray, max_ulps: int) -> str | None:
    """At most `max_ulps` representable values apart (NaN matches NaN)."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if not is_float_dtype(actual.dtype):
        return compare_exact(actual, expected)
    bits = np.dtype(f"int{actual.dtype.itemsize * 8}")
    a, b = actual.view(bits).astype(np.int64), expected.view(bits).astype(np.int64)
    top = np.int64(1) << (actual.dtype.itemsize * 8 - 1)
    a = np.where(a < 0, -(a + top), a)
    b = np.where(b < 0, -(b + top), b)
    nan = np.isnan(actual.astype(np.float64)) & np.isnan(expected.astype(np.float64))
    return _first_mismatch(
        (np.abs(a - b) <= max_ulps) | nan, actual, expected, f" within {max_ulps} ULP"
    )


def _first_mismatch(
    same: np.ndarray, actual: np.ndarray, expected: np.ndarray, how: str
) -> str | None:
    if bool(np.all(same)):
        return None
    flat = int(np.flatnonzero(~np.asarray(same).reshape(-1))[0])
    a, b = actual.reshape(-1)[flat], expected.reshape(-1)[flat]
    count = int(np.size(same) - np.count_nonzero(same))
    return (
        f"Element values don't match{how}: {_value_text(a)} (actual) vs {_value_text(b)} (expected) "
        f"at index {_index_text(flat, actual.shape)} ({count} of {np.size(same)} elements differ)"
    )


def check_eq(actual: np.ndarray, expected: np.ndarray) -> str | None:
    """`custom_call @check.eq`: exact for integers, |a-b| <= 1e-4 for floats."""
    if is_float_dtype(np.asarray(actual).dtype):
        return compare_almost(actual, expected, check.DEFAULT_TOLERANCE)
    return compare_exact(actual, expected)


CUSTOM_CALL_CHECKS: dict[str, Callable[[np.ndarray, np.ndarray], str | None]] = {
    "check.eq": check_eq,
    "check.expect_eq": compare_exact,
    "check.expect_almost_eq": lambda a, b: compare_almost(a, b, 1e-3),
    "check.expect_close": lambda a, b: compare_ulps(a, b, 3),
}


@register_impls
class CheckFunctions(InterpreterFunctions):
    """The `check` dialect: compare, record, fail with the element index and both values."""

    @impl(check.ExpectEqOp)
    def run_expect_eq(
        self, interpreter: Interpreter, op: check.ExpectEqOp, args: PythonValues
    ) -> PythonValues:
        report_check(op, compare_exact(np.asarray(args[0]), np.asarray(args[1])))
        return ()

    @impl(check.ExpectEqConstOp)
    def run_expect_eq_const(
        self, interpreter: Interpreter, op: check.ExpectEqConstOp, args: PythonValues
    ) -> PythonValues:
        report_check(
            op, compare_exact(np.asarray(args[0]), _literal(op.value, op.lhs.type))
        )
        return ()

    @impl(check.ExpectAlmostEqOp)
    def run_expect_almost_eq(
        self, interpreter: Interpreter, op: check.ExpectAlmostEqOp, args: PythonValues
    ) -> PythonValues:
        tolerance = (
            check.DEFAULT_TOLERANCE if op.tolerance is None else op.tolerance.value.data
        )
        actual, expected = (
            to_float(a, t) for a, t in zip(args, op.operand_types, strict=True)
        )
        report_check(op, compare_almost(actual, expected, tolerance))
        return ()

    @impl(check.ExpectAlmostEqConstOp)
    def run_expect_almost_eq_const(
        self,
        interpreter: Interpreter,
        op: check.ExpectAlmostEqConstOp,
        args: PythonValues,
    ) -> PythonValues:
        tolerance = (
            check.DEFAULT_TOLERANCE if op.tolerance is None else op.tolerance.value.data
        )
        actual = to_float(np.asarray(args[0]), op.lhs.type)
        expected = to_float(_literal(op.value, op.lhs.type), op.lhs.type)
        report_check(op, compare_almost(actual, expected, tolerance))
        return ()

    @impl(check.ExpectCloseOp)
    def run_expect_close(
        self, interpreter: Interpreter, op: check.ExpectCloseOp, args: PythonValues
    ) -> PythonValues:
        report_check(
            op, compare_ulps(np.asarray(args[0]), np.asarray(args[1]), op.max_ulps)
        )
        return ()


def _literal(value: DenseIntOrFPElementsAttr, t: Attribute) -> np.ndarray:
    array = dense_value(value)
    if isinstance(q := element_type(t), UniformQuantizedType):
        return reinterpret(array, q.storage_width, q.is_signed)
    return array


FUNCTIONS: list[InterpreterFunctions] = [CheckFunctions()]
