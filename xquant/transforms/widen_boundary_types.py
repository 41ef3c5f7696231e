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

Tensors (static shapes) are cast by a `linalg.generic`; scalars by one
arith op, so 4- and 6-bit float scalars (two ops) are left as they are.
Dynamic-shaped and unranked tensors are left as they are too.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, linalg, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    i8,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass

from xquant.transforms.signatures import convert_function_boundaries


def _narrow_int(element: Attribute) -> bool:
    return (
        isinstance(element, IntegerType)
        and 1 < element.width.data < 8
        and element.signedness.data != Signedness.UNSIGNED
    )


def _small_float(element: Attribute) -> bool:
    return isinstance(element, AnyFloat) and element.bitwidth <= 8


def carrier_element(element: Attribute) -> Attribute | None:
    """The byte-sized element type `element` crosses a boundary as, or None if it crosses as is."""
    if _narrow_int(element) or _small_float(element):
        return i8
    return None


def _carrier_type(attr: Attribute) -> Attribute | None:
    if isinstance(attr, TensorType):
        if not attr.has_static_shape():
            return None
        element = carrier_element(attr.element_type)
        return None if element is None else TensorType(element, attr.get_shape())
    if _narrow_int(attr) or (_small_float(attr) and attr.bitwidth == 8):  # pyright: ignore[reportAttributeAccessIssue]
        return i8
    return None


def _scalar_casts(block: Block, value: SSAValue, to: Attribute) -> SSAValue:
    """Append to `block` the arith ops casting scalar `value` between its type and `to`."""
    source = value.type
    if isinstance(to, IntegerType) and isinstance(source, IntegerType):
        widen = to.width.data > source.width.data
        op = arith.ExtSIOp(value, to) if widen else arith.TruncIOp(value, to)
        block.add_op(op)
        return op.result
    if isinstance(to, AnyFloat):  # i8 bits -> small float
        width = to.bitwidth
        if width < 8:
            trunc = arith.TruncIOp(value, IntegerType(width))
            block.add_op(trunc)
            value = trunc.result
        cast = arith.BitcastOp(value, to)
        block.add_op(cast)
        return cast.result
    assert isinstance(source, AnyFloat)  # small float -> i8 bits
    width = source.bitwidth
    bits = arith.BitcastOp(value, IntegerType(width))
    block.add_op(bits)
    if width == 8:
        return bits.result
    ext = arith.ExtUIOp(bits.result, i8)
    block.add_op(ext)
    return ext.result


class _Materializer:
    """Builds the cast ops; a tensor cast is a `linalg.generic` whose `tensor.empty`
    init is put in front of it once the shared helper has inserted the generic."""

    def __init__(self) -> None:
        self.inits: list[tuple[Operation, Operation]] = []

    def __call__(self, value: SSAValue, to: Attribute) -> Operation:
        source = value.type
        if not isinstance(source, TensorType) or not isinstance(to, TensorType):
            body = Block()
            _scalar_casts(body, value, to)
            op = body.last_op
            assert op is not None and body.first_op is op, "scalar casts are one op"
            op.detach()
            return op
        rank = source.get_num_dims()
        body = Block(arg_types=[source.element_type, to.element_type])
        result = _scalar_casts(body, body.args[0], to.element_type)
        body.add_op(linalg.YieldOp(result))
        empty = tensor.EmptyOp([], to)
        identity = AffineMapAttr(AffineMap.identity(rank))
        generic = linalg.GenericOp(
            [value],
            [empty.tensor],
            Region(body),
            [identity, identity],
            [IteratorTypeAttr.parallel()] * rank,
            [to],
        )
        self.inits.append((generic, empty))
        return generic


@dataclass(frozen=True)
class WidenBoundaryTypesPass(ModulePass):
    """Only byte-sized element types cross function boundaries (see the module docstring)."""

    name = "widen-boundary-types"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        casts = _Materializer()
        convert_function_boundaries(op, _carrier_type, casts)
        for generic, empty in casts.inits:
            block = generic.parent_block()
            assert block is not None
            block.insert_op_before(empty, generic)
