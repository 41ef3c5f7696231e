"""The `sdy` dialect: Shardy's ops and attributes (sdy.py, sdy_ops.py,
sdy_collectives.py, sdy_rule.py)."""

from __future__ import annotations

from xdsl.ir import Dialect

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
    DataFlowEdgeOp,
    FuncDataFlowEdgeOp,
    NamedComputationOp,
    PropagationBarrierOp,
    PropagationDirectionAttr,
    ShardingGroupOp,
)
from xquant.dialects.sdy_rule import (
    DimMappingAttr,
    OpShardingRuleAttr,
    TensorMappingAttr,
)

__all__ = ["Sdy"]


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
