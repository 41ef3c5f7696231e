"""`sdy-drop-shardings`: Shardy's annotations removed, as they mean nothing on one device.

A sharding says how a value is laid out over devices, never what it holds; a
program compiled for one device (the interpreter, the IREE backend) computes
the same numbers without them. This pass (xquant's own: upstream Shardy
exports shardings to XLA's partitioner instead) rewrites

- `sdy.sharding_constraint` and `sdy.reshard` to their operand,
- an `sdy.manual_computation` whose manual axes span one device to its body
  (its local shapes are then the global ones),
- and erases `sdy.mesh` symbols and `sdy.*` discardable attributes
  (`sdy.sharding` on function arguments, results and ops).

A `manual_computation` over more than one device is per-device code with
explicit collectives: it is an error naming the op, and the module is left
as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from xquant.asm.diagnostics import OpDiagnostic
from xquant.dialects.sdy import (
    ManualComputationOp,
    MeshOp,
    ReshardOp,
    ReturnOp,
    ShardingConstraintOp,
)

__all__ = ["SdyDropShardingsPass"]


def _inline_manual_computation(op: ManualComputationOp) -> None:
    block = op.body.block
    terminator = block.last_op
    assert isinstance(terminator, ReturnOp)
    for argument, operand in zip(block.args, op.tensors, strict=True):
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


@dataclass(frozen=True)
class SdyDropShardingsPass(ModulePass):
    """Remove Shardy's annotations from a program for one device."""

    name = "sdy-drop-shardings"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ops = list(op.walk())
        for manual in ops:
            if isinstance(manual, ManualComputationOp) and manual.manual_size() != 1:
                axes = ", ".join(f'"{a.data}"' for a in manual.manual_axes.axes)
                raise OpDiagnostic(
                    manual,
                    f"'sdy.manual_computation' op per-device code over manual axes "
                    f"{{{axes}}} ({manual.manual_size()} devices) cannot run on one "
                    "device",
                )
        for inner in reversed(ops):
            if isinstance(inner, ShardingConstraintOp | ReshardOp):
                inner.result.replace_all_uses_with(inner.input)
                Rewriter.erase_op(inner)
            elif isinstance(inner, ManualComputationOp):
                _inline_manual_computation(inner)
        for inner in list(op.walk()):
            if isinstance(inner, MeshOp):
                Rewriter.erase_op(inner)
            else:
                _drop_sdy_attributes(inner)
