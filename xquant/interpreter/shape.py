"""Interpreter implementations of the `shape` subset: extent tensors are int64 arrays."""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)

from xquant.dialects.shape import NumElementsOp, ShapeOfOp, SplitAtOp


@register_impls
class ShapeFunctions(InterpreterFunctions):
    @impl(ShapeOfOp)
    def run_shape_of(
        self, interpreter: Interpreter, op: ShapeOfOp, args: PythonValues
    ) -> PythonValues:
        return (np.asarray(np.shape(args[0]), dtype=np.int64),)

    @impl(NumElementsOp)
    def run_num_elements(
        self, interpreter: Interpreter, op: NumElementsOp, args: PythonValues
    ) -> PythonValues:
        return (int(np.prod(np.asarray(args[0]), dtype=np.int64)),)

    @impl(SplitAtOp)
    def run_split_at(
        self, interpreter: Interpreter, op: SplitAtOp, args: PythonValues
    ) -> PythonValues:
        extents = np.asarray(args[0], dtype=np.int64)
        index, rank = int(args[1]), extents.shape[0]
        # Upstream's rule: a negative index counts from the back; out of range is an error.
        at = index + rank if index < 0 else index
        if not 0 <= at <= rank:
            raise ValueError(
                f"shape.split_at index {index} is out of range for a rank-{rank} shape"
            )
        return (extents[:at].copy(), extents[at:].copy())


FUNCTIONS: list[InterpreterFunctions] = [ShapeFunctions()]
