"""The `sdy` dialect: Shardy's ops and attributes (sdy.py, sdy_ops.py,
sdy_collectives.py, sdy_rule.py), and the checks Shardy makes of its
discardable attributes (`sdy.sharding`, `sdy.sharding_rule`) on any op."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import Dialect, Operation
from xdsl.utils.exceptions import VerifyException

from xquant.dialects.sdy import (
    AxisRefAttr,
    DimensionShardingAttr,
    ManualAxesAttr,
    ManualComputationOp,
    MeshAttr,
    MeshAxisAttr,
    MeshOp,
    ReshardOp,
    ReturnOp,
    ShardingConstraintOp,
    TensorShardingAttr,
    TensorShardingPerValueAttr,
    verify_sharding,
)
from xquant.dialects.sdy_collectives import (
    AllGatherOp,
    AllReduceOp,
    AllSliceOp,
    AllToAllOp,
    AllToAllParamAttr,
    AllToAllParamListAttr,
    AxisRefListAttr,
    CollectivePermuteOp,
    ListOfAxisRefListsAttr,
    ReduceScatterOp,
    ReductionOpAttr,
    ReplicatedToUnreducedOp,
    ShardedToUnreducedOp,
)
from xquant.dialects.sdy_ops import (
    ConstantOp,
    DataFlowEdgeOp,
    FuncDataFlowEdgeOp,
    NamedComputationOp,
    PropagationBarrierOp,
    PropagationDirectionAttr,
    ShardingGroupOp,
    verify_sharding_per_value,
)
from xquant.dialects.sdy_rule import (
    DimMappingAttr,
    OpShardingRuleAttr,
    TensorMappingAttr,
    verify_sharding_rule_for_op,
)

__all__ = ["Sdy", "verify_discardable_attributes"]


Sdy = Dialect(
    "sdy",
    [
        MeshOp,
        ShardingConstraintOp,
        ReshardOp,
        ManualComputationOp,
        ReturnOp,
        NamedComputationOp,
        PropagationBarrierOp,
        DataFlowEdgeOp,
        FuncDataFlowEdgeOp,
        ShardingGroupOp,
        ConstantOp,
        AllGatherOp,
        AllSliceOp,
        AllReduceOp,
        ReduceScatterOp,
        AllToAllOp,
        CollectivePermuteOp,
        ShardedToUnreducedOp,
        ReplicatedToUnreducedOp,
    ],
    [
        ManualAxesAttr,
        MeshAttr,
        MeshAxisAttr,
        AxisRefAttr,
        DimensionShardingAttr,
        TensorShardingAttr,
        TensorShardingPerValueAttr,
        AxisRefListAttr,
        ListOfAxisRefListsAttr,
        AllToAllParamAttr,
        AllToAllParamListAttr,
        ReductionOpAttr,
        PropagationDirectionAttr,
        DimMappingAttr,
        TensorMappingAttr,
        OpShardingRuleAttr,
    ],
)


def verify_discardable_attributes(op: Operation) -> None:
    """Shardy's `SdyDialect::verifyOperationAttribute` and
    `verifyRegionArgAttribute`/`verifyRegionResultAttribute`: `sdy.sharding` and
    `sdy.sharding_rule` on any op, `sdy.sharding` on function arguments and
    results. Messages as `emitOpError` words them."""
    prefix = f"'{op.name}' op "
    if isinstance(op, func.FuncOp):
        for kind, attrs, types in (
            ("arg", op.arg_attrs, op.function_type.inputs.data),
            ("result", op.res_attrs, op.function_type.outputs.data),
        ):
            if attrs is None:
                continue
            for index, (entry, typ) in enumerate(zip(attrs.data, types, strict=False)):
                sharding = entry.data.get("sdy.sharding")
                if sharding is None:
                    continue
                where = f"{prefix}{kind} {index} - "
                if not isinstance(sharding, TensorShardingAttr):
                    raise VerifyException(
                        where + "should have a sharding attribute of type "
                        "TensorShardingAttr"
                    )
                try:
                    verify_sharding(sharding, typ, op, allow_token=True)
                except VerifyException as err:
                    raise VerifyException(f"{where}{err}") from err
    per_value = op.attributes.get("sdy.sharding")
    if per_value is not None:
        if not isinstance(per_value, TensorShardingPerValueAttr):
            raise VerifyException(
                prefix + "should have a sharding attribute of type "
                "TensorShardingPerValueAttr"
            )
        verify_sharding_per_value(per_value, op.result_types, op, prefix + "result ")
    rule = op.attributes.get("sdy.sharding_rule")
    if rule is not None:
        if not isinstance(rule, OpShardingRuleAttr):
            raise VerifyException(
                prefix + "should have a sharding rule attribute of type "
                "OpShardingRuleAttr for attr named 'sdy.sharding_rule'"
            )
        try:
            verify_sharding_rule_for_op(rule, op)
        except VerifyException as err:
            raise VerifyException(f"{prefix}{err}") from err
