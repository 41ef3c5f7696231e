"""Element-type predicates the patterns share (upstream: `TypeConversion.cpp`).

Upstream converts signed/unsigned integers to signless ones; here ops on
signed or unsigned integers are left unchanged, and these predicates say so.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    IndexType,
    IntegerType,
    Signedness,
    f64,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.hints import isa

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.quantization import element_type
from xquant.transforms.stablehlo_legalize_to_linalg.common import Unsupported


def is_float(t: Attribute) -> bool:
    return not isinstance(t, IntegerType)


def is_bool(t: Attribute) -> bool:
    return isa(t, IntegerType) and t.width.data == 1


def check_signless(t: Attribute) -> None:
    if isa(t, IntegerType) and t.signedness.data != Signedness.SIGNLESS:
        raise Unsupported(f"{t} is not signless")


def in_reducer(op: Operation) -> bool:
    """Ops of a reducer body are lowered with their reduction, as scalars."""
    return isinstance(
        op.parent_op(), (shlo.ReduceOp, shlo.ReduceWindowOp, shlo.SelectAndScatterOp)
    )


def signed_or_unsigned(t: Attribute) -> bool:
    element = element_type(t)
    return isa(element, IntegerType) and element.signedness.data != Signedness.SIGNLESS


def is_index_like(t: Attribute) -> bool:
    """A signless integer (not i1) or `index`: start indices the lowering can `index_cast`."""
    return isinstance(t, IndexType) or (
        isinstance(t, IntegerType) and t != IntegerType(1)
    )


def accumulate_type(result: Attribute) -> Attribute:
    return f64 if is_float(result) else result
