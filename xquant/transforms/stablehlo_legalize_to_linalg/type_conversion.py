"""Element-type predicates the patterns share (upstream: `TypeConversion.cpp`).

Upstream converts signed/unsigned integers to signless ones; here ops on
signed or unsigned integers are left unchanged, and these predicates say so.
"""

from __future__ import annotations

from typing import overload

from xdsl.dialects.builtin import (
    IndexType,
    IntegerType,
    Signedness,
    TensorType,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.hints import isa

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.control_flow import ScatterOp, SortOp
from xquant.numerics.values import element_type
from xquant.transforms.stablehlo_legalize_to_linalg.common import Ops, Unsupported


def is_float(t: Attribute) -> bool:
    return not isinstance(t, IntegerType)


def is_bool(t: Attribute) -> bool:
    return isa(t, IntegerType) and t.width.data == 1


def check_signless(t: Attribute) -> None:
    if isa(t, IntegerType) and t.signedness.data != Signedness.SIGNLESS:
        raise Unsupported(f"{t} is not signless")


def in_reducer(op: Operation) -> bool:
    """Ops of a reducer body are lowered with their reduction, as scalars; those of a
    `sort` comparator or a `scatter` update computation stay with the op, which stays
    StableHLO (upstream's pass does not lower them either; IREE turns them into
    `iree_linalg_ext.sort`/`scatter`, which keep a scalar body)."""
    return isinstance(
        op.parent_op(),
        (
            shlo.ReduceOp,
            shlo.ReduceWindowOp,
            shlo.SelectAndScatterOp,
            SortOp,
            ScatterOp,
        ),
    )


def signed_or_unsigned(t: Attribute) -> bool:
    element = element_type(t)
    return isa(element, IntegerType) and element.signedness.data != Signedness.SIGNLESS


def is_index_like(t: Attribute) -> bool:
    """A signless integer (not i1) or `index`: start indices the lowering can `index_cast`."""
    return isinstance(t, IndexType) or (
        isinstance(t, IntegerType) and t != IntegerType(1)
    )


def is_unsigned(t: Attribute) -> bool:
    return isa(t, IntegerType) and t.signedness.data == Signedness.UNSIGNED


@overload
def signless(t: IntegerType) -> IntegerType: ...
@overload
def signless(t: Attribute) -> Attribute: ...
def signless(t: Attribute) -> Attribute:
    """`t` with a signless integer in place of an unsigned one (upstream's type converter)."""
    return IntegerType(t.bitwidth) if isa(t, IntegerType) else t


@overload
def signless_type(t: TensorType[Attribute]) -> TensorType[Attribute]: ...
@overload
def signless_type(t: Attribute) -> Attribute: ...
def signless_type(t: Attribute) -> Attribute:
    """A tensor of unsigned integers as one of signless integers; other types unchanged."""
    if not isa(t, TensorType[Attribute]) or not is_unsigned(t.element_type):
        return t
    return TensorType(signless(t.element_type), t.get_shape(), t.encoding)


def signless_value(ops: Ops, value: SSAValue) -> SSAValue:
    """An unsigned tensor cast to its signless type (`unrealized_conversion_cast`, as
    upstream's type converter materializes it); other values as they are."""
    if signless_type(value.type) == value.type:
        return value
    return ops.add(UnrealizedConversionCastOp.get([value], [signless_type(value.type)]))


def restore_type(ops: Ops, value: SSAValue, original: Attribute) -> SSAValue:
    """`value` cast back to the op's (unsigned) result type where the two differ."""
    if value.type == original:
        return value
    return ops.add(UnrealizedConversionCastOp.get([value], [original]))
