"""`OpList`: ops built in order by a lowering, then inserted (or discarded) together.

Every pattern here builds the replacement of an op as a straight-line list
before touching the IR: the emitters append, the pattern inserts the whole
list in front of the op it rewrites, or erases it when the lowering turns out
not to apply. xDSL's `Builder` inserts each op as it is built, which is why
the lowerings keep a list instead; the quant, StableHLO and TOSA builders
extend this one class.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from xdsl.dialects import arith
from xdsl.dialects.builtin import UNKNOWN_LOC, IndexType, IntegerAttr
from xdsl.ir import Attribute, Operation, SSAValue

__all__ = ["OpList"]


@dataclass
class OpList:
    """Ops built in order, to be inserted together."""

    ops: list[Operation] = field(default_factory=list[Operation])

    def add(self, op: Operation) -> SSAValue:
        """Append `op`; its first result."""
        self.ops.append(op)
        return op.results[0]

    def create(
        self,
        cls: type[Operation],
        operands: Sequence[SSAValue],
        result_type: Attribute,
        properties: Mapping[str, Attribute] = {},
    ) -> SSAValue:
        """Add `cls` with exactly these operands, one result and properties.

        What `cls(...)` builds, without IRDL's builder (`irdl_op_init` checks
        and sorts every argument list, which costs more than the op): the
        lowerings build thousands of small ops whose arguments are known
        right. `properties` must be what the op's `__init__` would set.
        """
        op = cls.create(
            operands=operands,
            result_types=(result_type,),
            properties=properties,
            location=UNKNOWN_LOC,  # what `create` looks up for every op
        )
        self.ops.append(op)
        return op.results[0]

    def discard(self) -> None:
        """Erase the built (never inserted) ops, so they leave no uses on the values they read."""
        for op in reversed(self.ops):
            op.erase(safe_erase=False)
        self.ops.clear()


@lru_cache(maxsize=1024)
def _index_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, IndexType())


def index_constant(ops: OpList, value: int) -> SSAValue:
    """`arith.constant value : index`, added to `ops` (the attribute cached per value)."""
    return ops.create(arith.ConstantOp, (), IndexType(), {"value": _index_attr(value)})
