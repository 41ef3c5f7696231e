"""`sdy-drop-shardings`: Shardy's annotations removed, as they mean nothing on one device.

A sharding says how a value is laid out over devices, never what it holds; a
program compiled for one device (the interpreter, the IREE backend) computes
the same numbers without them. This pass (xquant's own: upstream Shardy
exports shardings to XLA's partitioner instead) rewrites

- `sdy.sharding_constraint`, `sdy.reshard`, `sdy.propagation_barrier`,
  `sdy.data_flow_edge` and `sdy.func_data_flow_edge` to their operand,
  `sdy.constant` to `stablehlo.constant`, and erases `sdy.sharding_group`;
- an `sdy.named_computation` to its body, inlined where it stands (upstream's
  export turns it into a `func.call` of a private function: the same values);
- an `sdy.manual_computation` whose manual axes span one device to its body
  (its local shapes are then the global ones);
- a collective (`sdy.all_gather`, `sdy.all_slice`, `sdy.all_reduce`,
  `sdy.reduce_scatter`, `sdy.all_to_all`, `sdy.collective_permute`,
  `sdy.sharded_to_unreduced`, `sdy.replicated_to_unreduced`) to its operand:
  it moves parts of the global value between devices, and the one device holds
  the global value;
- and erases `sdy.mesh` symbols and `sdy.*` discardable attributes
  (`sdy.sharding` on function arguments, results and ops, `sdy.sharding_rule`).

A `manual_computation` over more than one device is per-device code (local
shapes, explicit communication): an error naming the op and its axes, and the
module is left as it was. So is
an `sdy.sharding_rule` whose mappings do not fit its op's operands and results.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import VerifyException

from xquant.asm.diagnostics import OpDiagnostic
from xquant.dialects import stablehlo as shlo
from xquant.dialects.sdy import (
    ManualComputationOp,
    MeshOp,
    ReshardOp,
    ReturnOp,
    ShardingConstraintOp,
)
from xquant.dialects.sdy_collectives import CollectiveOp
from xquant.dialects.sdy_ops import (
    ConstantOp,
    DataFlowEdgeOp,
    FuncDataFlowEdgeOp,
    NamedComputationOp,
    PropagationBarrierOp,
    ShardingGroupOp,
)
from xquant.dialects.sdy_rule import OpShardingRuleAttr, verify_sharding_rule_for_op

__all__ = ["SdyDropShardingsPass"]

_IDENTITIES = (
    ShardingConstraintOp,
    ReshardOp,
    PropagationBarrierOp,
    DataFlowEdgeOp,
    FuncDataFlowEdgeOp,
    CollectiveOp,
)


def _inline_region(op: Operation, body: Region, operands: tuple[SSAValue, ...]) -> None:
    """Replace `op` by the ops of its single-block `body` (`sdy.return` ends it)."""
    block = body.block
    terminator = block.last_op
    assert isinstance(terminator, ReturnOp)
    for argument, operand in zip(block.args, operands, strict=True):
        argument.replace_all_uses_with(operand)
    values = list(terminator.values)
    Rewriter.erase_op(terminator)
    for inner in list(block.ops):
        inner.detach()
        Rewriter.insert_op(inner, InsertPoint.before(op))
    for result, value in zip(op.results, values, strict=True):
        result.replace_all_uses_with(value)
    Rewriter.erase_op(op)


def _without_sdy(attrs: ArrayAttr[Attribute]) -> ArrayAttr[DictionaryAttr]:
    return ArrayAttr(
        [
            DictionaryAttr(
                {k: v for k, v in entry.data.items() if not k.startswith("sdy.")}
            )
            for entry in attrs.data
            if isinstance(entry, DictionaryAttr)
        ]
    )


def _drop_sdy_attributes(op: Operation) -> None:
    for name in [name for name in op.attributes if name.startswith("sdy.")]:
        del op.attributes[name]
    if isinstance(op, func.FuncOp):
        for name in ("arg_attrs", "res_attrs"):
            attrs = op.properties.get(name)
            if isinstance(attrs, ArrayAttr):
                op.properties[name] = _without_sdy(cast(ArrayAttr[Attribute], attrs))


def _check_one_device(op: Operation) -> None:
    """An `OpDiagnostic` when `op` cannot run on one device."""
    if isinstance(op, ManualComputationOp) and op.manual_size() != 1:
        axes = ", ".join(f'"{a.data}"' for a in op.manual_axes.axes)
        raise OpDiagnostic(
            op,
            f"'sdy.manual_computation' op per-device code over manual axes "
            f"{{{axes}}} ({op.manual_size()} devices) cannot run on one device",
        )
    rule = op.attributes.get("sdy.sharding_rule")
    if isinstance(rule, OpShardingRuleAttr):
        try:
            verify_sharding_rule_for_op(rule, op)
        except VerifyException as err:
            raise OpDiagnostic(op, f"'{op.name}' op {err}") from err


@dataclass(frozen=True)
class SdyDropShardingsPass(ModulePass):
    """Remove Shardy's annotations from a program for one device."""

    name = "sdy-drop-shardings"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ops = list(op.walk())
        for inner in ops:
            _check_one_device(inner)
        for inner in reversed(ops):
            if isinstance(inner, _IDENTITIES):
                inner.results[0].replace_all_uses_with(inner.operands[0])
                Rewriter.erase_op(inner)
            elif isinstance(inner, ConstantOp):
                Rewriter.replace_op(
                    inner,
                    shlo.ConstantOp.create(
                        properties={"value": inner.value},
                        attributes=dict(inner.attributes),
                        result_types=[inner.output.type],
                    ),
                )
            elif isinstance(inner, ShardingGroupOp):
                Rewriter.erase_op(inner)
            elif isinstance(inner, ManualComputationOp):
                _inline_region(inner, inner.body, tuple(inner.tensors))
            elif isinstance(inner, NamedComputationOp):
                _inline_region(inner, inner.body, tuple(inner.operands_))
        for inner in list(op.walk()):
            if isinstance(inner, MeshOp):
                Rewriter.erase_op(inner)
            else:
                _drop_sdy_attributes(inner)
