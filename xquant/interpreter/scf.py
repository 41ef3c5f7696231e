"""`scf` on numpy values: for (with iter_args), if, while, parallel + reduce, index_switch.

Loop-carried tensors are immutable values, so tiled code (`extract_slice`, compute,
`insert_slice`) runs unchanged and never aliases an input array in place.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from xdsl.dialects import scf
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)

from xquant.numerics.values import dtype_of

__all__ = ["ScfFunctions"]


def _int(v: Any) -> int:
    return int(v)


@register_impls
class ScfFunctions(InterpreterFunctions):
    @impl(scf.ForOp)
    def run_for(
        self, interpreter: Interpreter, op: scf.ForOp, args: PythonValues
    ) -> PythonValues:
        lb, ub, step, *carried = args
        loop_args = tuple(carried)
        iv_type = op.body.block.args[0].type
        make = dtype_of(iv_type).type
        for i in range(_int(lb), _int(ub), _int(step)):
            loop_args = interpreter.run_ssacfg_region(
                op.body, (make(i), *loop_args), "scf.for"
            )
        return loop_args

    @impl(scf.IfOp)
    def run_if(
        self, interpreter: Interpreter, op: scf.IfOp, args: PythonValues
    ) -> PythonValues:
        (cond,) = args
        region = op.true_region if bool(cond) else op.false_region
        return interpreter.run_ssacfg_region(region, (), "scf.if")

    @impl(scf.ParallelOp)
    def run_parallel(
        self, interpreter: Interpreter, op: scf.ParallelOp, args: PythonValues
    ) -> PythonValues:
        n = len(op.lowerBound)
        lbs = [_int(v) for v in args[:n]]
        ubs = [_int(v) for v in args[n : 2 * n]]
        steps = [_int(v) for v in args[2 * n : 3 * n]]
        acc = list(args[3 * n :])
        reduce_op = op.body.block.last_op
        assert isinstance(reduce_op, scf.ReduceOp)
        for point in itertools.product(
            *(range(lo, hi, st) for lo, hi, st in zip(lbs, ubs, steps))
        ):
            values = interpreter.run_ssacfg_region(
                op.body, tuple(np.int64(p) for p in point), "scf.parallel"
            )
            for k, region in enumerate(reduce_op.reductions):
                (acc[k],) = interpreter.run_ssacfg_region(
                    region, (acc[k], values[k]), "scf.reduce"
                )
        return tuple(acc)

    @impl_terminator(scf.ReduceOp)
    def run_reduce(
        self, interpreter: Interpreter, op: scf.ReduceOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl_terminator(scf.ReduceReturnOp)
    def run_reduce_return(
        self, interpreter: Interpreter, op: scf.ReduceReturnOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl(scf.ExecuteRegionOp)
    def run_execute_region(
        self, interpreter: Interpreter, op: scf.ExecuteRegionOp, args: PythonValues
    ) -> PythonValues:
        return interpreter.run_ssacfg_region(op.region, (), "scf.execute_region")


FUNCTIONS: list[InterpreterFunctions] = [ScfFunctions()]
