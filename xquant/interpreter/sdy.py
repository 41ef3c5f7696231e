"""Interpreter implementations of `sdy` (`xquant.dialects.sdy`): one device.

A sharding says how a tensor is laid out over devices, not what it holds, so
on the one device the interpreter models `sdy.sharding_constraint` and
`sdy.reshard` return their operand; `sdy.mesh` is a module-level symbol that
is never executed. An `sdy.manual_computation` runs its body as written
when its manual axes span one device; over more it holds per-device code
(the shapes of one shard, explicit collectives) that one device cannot run,
and it is an error naming the op.
"""

from __future__ import annotations

from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.utils.exceptions import InterpretationError

from xquant.dialects.sdy import (
    ManualComputationOp,
    ReshardOp,
    ReturnOp,
    ShardingConstraintOp,
)


@register_impls
class SdyFunctions(InterpreterFunctions):
    """Shardy's annotations, run as on one device: the identity."""

    @impl(ShardingConstraintOp)
    def run_sharding_constraint(
        self, interpreter: Interpreter, op: ShardingConstraintOp, args: PythonValues
    ) -> PythonValues:
        return tuple(args)

    @impl(ReshardOp)
    def run_reshard(
        self, interpreter: Interpreter, op: ReshardOp, args: PythonValues
    ) -> PythonValues:
        return tuple(args)

    @impl(ManualComputationOp)
    def run_manual_computation(
        self, interpreter: Interpreter, op: ManualComputationOp, args: PythonValues
    ) -> PythonValues:
        devices = op.manual_size()
        if devices != 1:
            axes = ", ".join(f'"{axis.data}"' for axis in op.manual_axes.axes)
            raise InterpretationError(
                f"per-device code over manual axes {{{axes}}} ({devices} devices) "
                "cannot run on one device"
            )
        return interpreter.run_ssacfg_region(op.body, args, "sdy.manual_computation")

    @impl_terminator(ReturnOp)
    def run_return(
        self, interpreter: Interpreter, op: ReturnOp, args: PythonValues
    ) -> tuple[ReturnedValues, PythonValues]:
        return ReturnedValues(args), ()


FUNCTIONS: list[InterpreterFunctions] = [SdyFunctions()]
