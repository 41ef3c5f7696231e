"""`widen-boundary-types`: byte-sized element types at function boundaries, for native runtimes.

A native runtime (IREE's, through numpy) exchanges whole bytes: it has no
agreed layout for a `tensor<8xi4>` argument, and no numpy dtype mapping for
`f4E2M1FN` or the other sub-byte floats. This pass rewrites every function
boundary (signatures, entry block arguments, `func.return`, `func.call`)
so that only byte-sized element types cross it; the bodies are unchanged
and one elementwise cast per value bridges old and new types:

- a signless or signed integer narrower than 8 bits (`i4` storage) crosses
  as `i8`: `arith.extsi` out, `arith.trunci` in (the interpreter holds `i4`
  sign-extended in an int8, so the values are the same numbers); `i1`
  stays (numpy bool, which IREE's runtime maps), and `ui4` is left (arith
  casts take signless integers);
- a float of 8 bits or fewer (`f8E4M3FN`, `f8E5M2`, ..., the MX element
  types `f6E2M3FN`, `f6E3M2FN`, `f4E2M1FN` and the E8M0 scale
  `f8E8M0FNU`) crosses as its bit pattern in an `i8`: `arith.bitcast`
  (after `arith.trunci` to its width for 4/6-bit floats) in, and the
  reverse with a zero-extending `arith.extui` out. The caller reinterprets
  the bytes (`ml_dtypes`' `.view`).

- an unsigned integer tensor of 8 bits or more (`tensor<8xui8>`, which
  JAX writes for `uint8` arrays) crosses as the signless integer of its width:
  `stablehlo-legalize-to-linalg` already bridges it to signless inside the body
  with `builtin.unrealized_conversion_cast`s (as upstream's pass), so the new
  boundary casts are the same casts, and the pairs are folded away
  (`reconcile-unrealized-casts`). The caller converts the numbers (`uint8`
  200 crosses as `int8` -56, the same byte).

Scalars cross as IREE's runtime passes them, in 32 bits: integers narrower
than 32 bits as `i32` (sign-extended), floats of 8 bits or fewer as their
bit pattern in an `i32`, `f16`/`bf16` as `f32` (exact both ways).

Tensors (static shapes) are cast by a `linalg.generic`, scalars by arith
ops. Dynamic-shaped and unranked tensors are left as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    BFloat16Type,
    Float16Type,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    UnrealizedConversionCastOp,
    f32,
    i8,
    i32,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.transforms.reconcile_unrealized_casts import reconcile_unrealized_casts
from xdsl.utils.hints import isa

from xquant.transforms.utils.signatures import convert_function_boundaries


def _narrow_int(element: Attribute, below: int) -> bool:
    return (
        isa(element, IntegerType)
        and 1 < element.bitwidth < below
        and element.signedness.data != Signedness.UNSIGNED
    )


def _small_float(element: Attribute) -> bool:
    return isinstance(element, AnyFloat) and element.bitwidth <= 8


def carrier_element(element: Attribute) -> Attribute | None:
    """The byte-sized type a tensor element crosses a boundary as, or None if it crosses as is."""
    if _narrow_int(element, 8) or _small_float(element):
        return i8
    return None


def carrier_scalar(attr: Attribute) -> Attribute | None:
    """The 32-bit type a scalar crosses a boundary as, or None if it crosses as is."""
    if _narrow_int(attr, 32) or _small_float(attr):
        return i32
    if isinstance(attr, Float16Type | BFloat16Type):
        return f32
    return None


def _signless_of_unsigned(element: Attribute) -> IntegerType | None:
    if not isa(element, IntegerType) or element.bitwidth < 8:
        return None
    if element.signedness.data != Signedness.UNSIGNED:
        return None
    return IntegerType(element.bitwidth)


def _carrier_type(attr: Attribute) -> Attribute | None:
    if isa(attr, TensorType[Attribute]):
        if not attr.has_static_shape():
            return None
        element = carrier_element(attr.element_type) or _signless_of_unsigned(
            attr.element_type
        )
        return None if element is None else TensorType(element, attr.get_shape())
    return carrier_scalar(attr)


def _scalar_casts(block: Block, value: SSAValue, to: Attribute) -> SSAValue:
    """Append to `block` the arith ops casting scalar `value` between its type and `to`."""

    def add(op: Operation) -> SSAValue:
        block.add_op(op)
        return op.results[0]

    source = value.type
    if isa(to, IntegerType) and isa(source, IntegerType):
        widen = to.bitwidth > source.bitwidth
        return add(arith.ExtSIOp(value, to) if widen else arith.TruncIOp(value, to))
    if isinstance(source, AnyFloat) and isinstance(to, AnyFloat):  # f16/bf16 <-> f32
        widen = to.bitwidth > source.bitwidth
        return add(arith.ExtFOp(value, to) if widen else arith.TruncFOp(value, to))
    if isinstance(to, AnyFloat):  # integer bits -> small float
        assert isa(source, IntegerType)
        if to.bitwidth < source.bitwidth:
            value = add(arith.TruncIOp(value, IntegerType(to.bitwidth)))
        return add(arith.BitcastOp(value, to))
    assert isinstance(source, AnyFloat) and isa(to, IntegerType)
    bits = add(arith.BitcastOp(value, IntegerType(source.bitwidth)))
    if source.bitwidth == to.bitwidth:
        return bits
    return add(arith.ExtUIOp(bits, to))


class _Materializer:
    """Builds the cast ops. The shared helper inserts the one op returned; the
    ops it needs first (a scalar chain, a generic's `tensor.empty`) are put in
    front of it afterwards."""

    def __init__(self) -> None:
        self.before: list[tuple[Operation, list[Operation]]] = []
        self.sources: list[tuple[Operation, SSAValue]] = []

    def __call__(self, value: SSAValue, to: Attribute) -> Operation:
        source = value.type
        if isa(source, TensorType[Attribute]) and (
            _signless_of_unsigned(source.element_type) is not None
            or (
                isa(to, TensorType[Attribute])
                and _signless_of_unsigned(to.element_type)
            )
        ):
            return UnrealizedConversionCastOp.get([value], [to])
        if not isa(source, TensorType[Attribute]) or not isa(to, TensorType[Attribute]):
            body = Block()
            _scalar_casts(body, value, to)
            ops = list(body.ops)
            for op in ops:
                op.detach()
            self.before.append((ops[-1], ops[:-1]))
            if (
                len(ops) > 1
            ):  # the helper rewires uses of `value` outside the op it gets
                self.sources.append((ops[0], value))
            return ops[-1]
        rank = source.get_num_dims()
        body = Block(arg_types=[source.element_type, to.element_type])
        result = _scalar_casts(body, body.args[0], to.element_type)
        body.add_op(YieldOp(result))
        empty = tensor.EmptyOp([], to)
        identity = AffineMapAttr(AffineMap.identity(rank))
        generic = GenericOp(
            [value],
            [empty.tensor],
            Region(body),
            [identity, identity],
            [IteratorTypeAttr.parallel()] * rank,
            [to],
        )
        self.before.append((generic, [empty]))
        return generic


@dataclass(frozen=True)
class WidenBoundaryTypesPass(ModulePass):
    """Only byte-sized element types cross function boundaries (see the module docstring)."""

    name = "widen-boundary-types"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        casts = _Materializer()
        convert_function_boundaries(op, _carrier_type, casts)
        for cast, first in casts.before:
            block = cast.parent_block()
            assert block is not None
            for earlier in first:
                block.insert_op_before(earlier, cast)
        for first_op, value in casts.sources:
            first_op.operands[0] = value
        reconcile_unrealized_casts(op)
