"""StableHLO interpreter: and, or, xor, not, popcnt, count_leading_zeros, atan2, tan, is_finite.

`and`/`or`/`xor`/`not` act on the bits of integers of any width and on `i1` as
logic; `popcnt` and `count_leading_zeros` read the operand's `width` bits
unsigned (the spec's `popcnt(-1 : i8)` is 8, `count_leading_zeros(-1)` is 0).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Operation

from xquant.dialects.stablehlo import bitwise, math_extra
from xquant.interpreter.functions import shared_functions
from xquant.interpreter.stablehlo.values import as_result
from xquant.numerics.values import dtype_of, element_type, int_info, wrap

LOGIC: dict[str, Callable[..., NDArray[Any]]] = {
    "stablehlo.and": np.bitwise_and,
    "stablehlo.or": np.bitwise_or,
    "stablehlo.xor": np.bitwise_xor,
}


def _bits(value: NDArray[Any], width: int) -> NDArray[np.uint64]:
    """The low `width` bits of integers, as uint64."""
    raw = value.astype(np.int64).view(np.uint64)
    return raw & np.uint64((1 << width) - 1 if width < 64 else (1 << 64) - 1)


def popcount(value: NDArray[Any], width: int) -> NDArray[np.int64]:
    """Set bits among the low `width` bits."""
    return np.bitwise_count(_bits(value, width)).astype(np.int64)


def count_leading_zeros(value: NDArray[Any], width: int) -> NDArray[np.int64]:
    """Zero bits above the highest set bit, counting from bit `width - 1`."""
    bits = _bits(value, width)
    length = np.zeros(bits.shape, np.int64)
    for step in (32, 16, 8, 4, 2, 1):  # binary search for the bit length
        high = bits >> np.uint64(step)
        has_high = high != 0
        length = np.where(has_high, length + step, length)
        bits = np.where(has_high, high, bits)
    length = length + (bits != 0)
    return width - length


def _run_bitwise(op: Operation, args: PythonValues) -> NDArray[Any]:
    result_type = op.result_types[0]
    arrays = [np.asarray(a) for a in args]
    if dtype_of(result_type).kind == "b":
        if op.name == "stablehlo.not":
            return np.logical_not(arrays[0])
        if op.name in LOGIC:
            return LOGIC[op.name](arrays[0], arrays[1])
    info = int_info(element_type(result_type))
    if op.name == "stablehlo.not":
        return wrap(np.invert(arrays[0].astype(np.int64)), info)
    if op.name in LOGIC:
        return wrap(LOGIC[op.name](*(a.astype(np.int64) for a in arrays)), info)
    if op.name == "stablehlo.popcnt":
        return wrap(popcount(arrays[0], info.width), info)
    return wrap(count_leading_zeros(arrays[0], info.width), info)


def _run(interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
    return (as_result(_run_bitwise(op, args), op.result_types[0]),)


BitwiseFunctions = shared_functions(
    "BitwiseFunctions",
    "and, or, xor, not, popcnt, count_leading_zeros.",
    (
        bitwise.AndOp,
        bitwise.OrOp,
        bitwise.XorOp,
        bitwise.NotOp,
        bitwise.PopulationCountOp,
        bitwise.ClzOp,
    ),
    _run,
)


@register_impls
class FloatPredicateFunctions(InterpreterFunctions):
    """atan2, tan and is_finite on floats."""

    @impl(math_extra.Atan2Op)
    def run_atan2(
        self, interpreter: Interpreter, op: math_extra.Atan2Op, args: PythonValues
    ) -> PythonValues:
        lhs, rhs = (np.asarray(a) for a in args)
        with np.errstate(all="ignore"):
            result = np.arctan2(lhs, rhs).astype(lhs.dtype, copy=False)
        return (as_result(result, op.result_types[0]),)

    @impl(math_extra.TanOp)
    def run_tan(
        self, interpreter: Interpreter, op: math_extra.TanOp, args: PythonValues
    ) -> PythonValues:
        x = np.asarray(args[0])
        with np.errstate(all="ignore"):
            return (
                as_result(np.tan(x).astype(x.dtype, copy=False), op.result_types[0]),
            )

    @impl(math_extra.IsFiniteOp)
    def run_is_finite(
        self, interpreter: Interpreter, op: math_extra.IsFiniteOp, args: PythonValues
    ) -> PythonValues:
        return (as_result(np.isfinite(np.asarray(args[0])), op.result_types[0]),)


FUNCTIONS: list[InterpreterFunctions] = [BitwiseFunctions(), FloatPredicateFunctions()]
