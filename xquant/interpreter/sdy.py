"""Interpreter implementations of `sdy` (`xquant.dialects.sdy*`): one device.

A sharding says how a tensor is laid out over devices, not what it holds, so
on the one device the interpreter models `sdy.sharding_constraint`,
`sdy.reshard`, `sdy.propagation_barrier` and the data-flow edges return their
operand, `sdy.constant` is `stablehlo.constant`, `sdy.sharding_group` does
nothing, and `sdy.mesh` is a module-level symbol that is never executed. An `sdy.named_computation` runs its body. An
`sdy.manual_computation` runs its body when its manual axes span one device;
over more it holds per-device code (the shapes of one shard, explicit
collectives) that one device cannot run, and it is an error naming the op.
A collective (`sdy.all_gather`, `sdy.all_reduce`, ...) changes how the global
value is spread over devices, never the value (Shardy's types are global), so it
returns its operand.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseResourceAttr
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
from xquant.dialects.sdy_collectives import (
    AllGatherOp,
    AllReduceOp,
    AllSliceOp,
    AllToAllOp,
    CollectiveOp,
    CollectivePermuteOp,
    ReduceScatterOp,
    ReplicatedToUnreducedOp,
    ShardedToUnreducedOp,
)
from xquant.dialects.sdy_ops import (
    ConstantOp,
    DataFlowEdgeOp,
    FuncDataFlowEdgeOp,
    NamedComputationOp,
    PropagationBarrierOp,
    ShardingGroupOp,
)
from xquant.interpreter.resources import resource_value
from xquant.interpreter.stablehlo.values import as_result
from xquant.numerics.values import dense_value


def _collective(op: CollectiveOp, args: PythonValues) -> PythonValues:
    """The global value, unchanged."""
    return tuple(args)


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

    @impl(PropagationBarrierOp)
    def run_propagation_barrier(
        self, interpreter: Interpreter, op: PropagationBarrierOp, args: PythonValues
    ) -> PythonValues:
        return tuple(args)

    @impl(DataFlowEdgeOp)
    def run_data_flow_edge(
        self, interpreter: Interpreter, op: DataFlowEdgeOp, args: PythonValues
    ) -> PythonValues:
        return tuple(args)

    @impl(FuncDataFlowEdgeOp)
    def run_func_data_flow_edge(
        self, interpreter: Interpreter, op: FuncDataFlowEdgeOp, args: PythonValues
    ) -> PythonValues:
        return tuple(args)

    @impl(ShardingGroupOp)
    def run_sharding_group(
        self, interpreter: Interpreter, op: ShardingGroupOp, args: PythonValues
    ) -> PythonValues:
        return ()

    @impl(ConstantOp)
    def run_constant(
        self, interpreter: Interpreter, op: ConstantOp, args: PythonValues
    ) -> PythonValues:
        value = (
            resource_value(op.value)
            if isinstance(op.value, DenseResourceAttr)
            else dense_value(op.value)
        )
        return (as_result(value, op.output.type),)

    @impl(NamedComputationOp)
    def run_named_computation(
        self, interpreter: Interpreter, op: NamedComputationOp, args: PythonValues
    ) -> PythonValues:
        return interpreter.run_ssacfg_region(op.body, args, "sdy.named_computation")

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

    @impl(AllGatherOp)
    def run_all_gather(
        self, interpreter: Interpreter, op: AllGatherOp, args: PythonValues
    ) -> PythonValues:
        return _collective(op, args)

    @impl(AllSliceOp)
    def run_all_slice(
        self, interpreter: Interpreter, op: AllSliceOp, args: PythonValues
    ) -> PythonValues:
        return _collective(op, args)

    @impl(AllReduceOp)
    def run_all_reduce(
        self, interpreter: Interpreter, op: AllReduceOp, args: PythonValues
    ) -> PythonValues:
        return _collective(op, args)

    @impl(ReduceScatterOp)
    def run_reduce_scatter(
        self, interpreter: Interpreter, op: ReduceScatterOp, args: PythonValues
    ) -> PythonValues:
        return _collective(op, args)

    @impl(AllToAllOp)
    def run_all_to_all(
        self, interpreter: Interpreter, op: AllToAllOp, args: PythonValues
    ) -> PythonValues:
        return _collective(op, args)

    @impl(CollectivePermuteOp)
    def run_collective_permute(
        self, interpreter: Interpreter, op: CollectivePermuteOp, args: PythonValues
    ) -> PythonValues:
        return _collective(op, args)

    @impl(ShardedToUnreducedOp)
    def run_sharded_to_unreduced(
        self, interpreter: Interpreter, op: ShardedToUnreducedOp, args: PythonValues
    ) -> PythonValues:
        return _collective(op, args)

    @impl(ReplicatedToUnreducedOp)
    def run_replicated_to_unreduced(
        self,
        interpreter: Interpreter,
        op: ReplicatedToUnreducedOp,
        args: PythonValues,
    ) -> PythonValues:
        return _collective(op, args)

    @impl_terminator(ReturnOp)
    def run_return(
        self, interpreter: Interpreter, op: ReturnOp, args: PythonValues
    ) -> tuple[ReturnedValues, PythonValues]:
        return ReturnedValues(args), ()


FUNCTIONS: list[InterpreterFunctions] = [SdyFunctions()]
