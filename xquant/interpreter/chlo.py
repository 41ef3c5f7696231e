"""Interpreter implementations of `chlo`'s broadcasting binary ops (`xquant.dialects.chlo`).

Each op broadcasts its operands to the result shape (numpy broadcasting; a
`broadcast_dimensions` list places the lower-rank operand's dimensions) and
then computes exactly as the StableHLO op it broadcasts: the same wrapping
integer and float tables as `xquant.interpreter.stablehlo.elementwise_kernels.elementwise`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.utils.exceptions import InterpretationError

from xquant.dialects import chlo
from xquant.dialects.stablehlo.misc import OptimizationBarrierOp
from xquant.interpreter.stablehlo.elementwise_kernels import (
    BOOLEAN_FUNCTIONS,
    FLOAT_FUNCTIONS,
    INTEGER_FUNCTIONS,
    WRAPPING_FUNCTIONS,
)
from xquant.numerics.values import dtype_of, element_type, int_info, wrap


def align(
    lhs: np.ndarray, rhs: np.ndarray, dims: tuple[int, ...] | None
) -> tuple[np.ndarray, np.ndarray]:
    """Both operands reshaped so numpy broadcasting follows `broadcast_dimensions`.

    The lower-rank operand gets size-1 dimensions everywhere except at
    `dims`; without `dims` numpy's trailing alignment is already chlo's.
    """
    if dims is None or lhs.ndim == rhs.ndim:
        return lhs, rhs
    big, small = (lhs, rhs) if lhs.ndim > rhs.ndim else (rhs, lhs)
    shape = [1] * big.ndim
    for size, d in zip(small.shape, dims, strict=True):
        shape[d] = size
    small = small.reshape(shape)
    return (big, small) if lhs.ndim > rhs.ndim else (small, big)


def compute(name: str, result_type: Any, arrays: Sequence[np.ndarray]) -> np.ndarray:
    """`name` (a StableHLO element-wise op) on already broadcast, non-quantized arrays."""
    dtype = dtype_of(result_type)
    if dtype.kind == "b":
        function = BOOLEAN_FUNCTIONS.get(name)
        if function is None:
            raise InterpretationError(f"{name} is not defined on booleans")
        return np.asarray(function(*arrays))
    if dtype.kind in "iu":
        info = int_info(element_type(result_type))
        native = WRAPPING_FUNCTIONS.get(name)
        if (
            native is not None
            and info.natural
            and all(a.dtype == dtype for a in arrays)
        ):
            return np.asarray(native(*arrays))  # numpy wraps modulo 2**width itself
        function = INTEGER_FUNCTIONS.get(name)
        if function is None:
            raise InterpretationError(f"{name} is not defined on integers")
        return wrap(np.asarray(function(*arrays)), info)
    with np.errstate(all="ignore"):
        return np.asarray(FLOAT_FUNCTIONS[name](*arrays)).astype(dtype, copy=False)


@register_impls
class ChloFunctions(InterpreterFunctions):
    """The broadcasting binary ops of `chlo`."""

    def _run(self, op: chlo.BroadcastBinaryOp, args: PythonValues) -> PythonValues:
        dtype = dtype_of(op.result.type)
        lhs, rhs = (np.asarray(a) for a in args)
        lhs, rhs = align(lhs, rhs, op.dims)
        lhs, rhs = np.broadcast_arrays(lhs, rhs)
        value = compute(op.STABLEHLO_NAME, op.result.type, [lhs, rhs])
        return (np.asarray(value.astype(dtype, copy=False)),)

    @impl(chlo.BroadcastAddOp)
    def run_broadcast_add(
        self, interpreter: Interpreter, op: chlo.BroadcastAddOp, args: PythonValues
    ) -> PythonValues:
        return self._run(op, args)

    @impl(chlo.BroadcastSubtractOp)
    def run_broadcast_subtract(
        self, interpreter: Interpreter, op: chlo.BroadcastSubtractOp, args: PythonValues
    ) -> PythonValues:
        return self._run(op, args)

    @impl(chlo.BroadcastMultiplyOp)
    def run_broadcast_multiply(
        self, interpreter: Interpreter, op: chlo.BroadcastMultiplyOp, args: PythonValues
    ) -> PythonValues:
        return self._run(op, args)

    @impl(chlo.BroadcastDivideOp)
    def run_broadcast_divide(
        self, interpreter: Interpreter, op: chlo.BroadcastDivideOp, args: PythonValues
    ) -> PythonValues:
        return self._run(op, args)

    @impl(chlo.BroadcastMaximumOp)
    def run_broadcast_maximum(
        self, interpreter: Interpreter, op: chlo.BroadcastMaximumOp, args: PythonValues
    ) -> PythonValues:
        return self._run(op, args)

    @impl(chlo.BroadcastMinimumOp)
    def run_broadcast_minimum(
        self, interpreter: Interpreter, op: chlo.BroadcastMinimumOp, args: PythonValues
    ) -> PythonValues:
        return self._run(op, args)


@register_impls
class BarrierFunctions(InterpreterFunctions):
    """`stablehlo.optimization_barrier`, which the pass's hybrid dot/convolution emits: the identity."""

    @impl(OptimizationBarrierOp)
    def run_optimization_barrier(
        self, interpreter: Interpreter, op: OptimizationBarrierOp, args: PythonValues
    ) -> PythonValues:
        return tuple(args)


FUNCTIONS: list[InterpreterFunctions] = [ChloFunctions(), BarrierFunctions()]
