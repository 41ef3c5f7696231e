"""`linalg.div` and `linalg.batch_matmul`, which xDSL 0.74's linalg lacks.

Both follow upstream's OpDSL definitions (`BinaryFn::div`: `divf` on floats,
signed `divsi` on integers; batch_matmul: `C[b, m, n] += A[b, m, k] * B[b, k, n]`)
and the assembly of xDSL's other named ops (inputs cast to the output's
element type in the body, as MLIR's `cast_signed`), so
`linalg.div ins(%a, %b : ...) outs(%c : ...) -> ...` and
`linalg.batch_matmul ins(...) outs(...)` parse, print and verify like their
siblings. `xquant.compat.linalg_missing_ops` adds them to xDSL's `Linalg`
dialect (the interpreter runs them through `xquant/interpreter/linalg.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    IntegerType,
    MemRefType,
)
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation, NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition, prop_def
from xdsl.utils.hints import isa


def cast_signed(value: SSAValue, target: Attribute) -> SSAValue:
    """MLIR's `cast_signed` of a scalar block argument (built inside an implicit region)."""
    source = value.type
    if source == target:
        return value
    if isinstance(source, AnyFloat) and isinstance(target, AnyFloat):
        if source.bitwidth == target.bitwidth:
            return value
        if source.bitwidth < target.bitwidth:
            return arith.ExtFOp(value, target).result
        return arith.TruncFOp(value, target).result
    if isinstance(target, AnyFloat):
        return arith.SIToFPOp(value, target).result
    if isinstance(source, AnyFloat) and isa(target, IntegerType):
        return arith.FPToSIOp(value, target).result
    if isa(source, IntegerType) and isa(target, IntegerType):
        if source.width.data < target.width.data:
            return arith.ExtSIOp(value, target).result
        return arith.TruncIOp(value, target).result
    return value


def _result_types(
    outputs: Sequence[SSAValue], res: Sequence[Attribute] | None
) -> Sequence[Attribute]:
    if res is not None:
        return res
    # Tensor outputs give results; memref outputs are updated in place.
    return tuple(o.type for o in outputs if not isinstance(o.type, MemRefType))


def _build(
    op: NamedOperation,
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    res: Sequence[Attribute] | None,
    attributes: dict[str, Attribute] | None,
) -> None:
    """The constructor every named op shares: results from tensor outputs, hidden body."""
    NamedOperation.__init__(
        op,
        ins=inputs,
        outs=outputs,
        result_types=_result_types(outputs, res),
        attributes=attributes,
        hidden_region=type(op).get_hidden_region(inputs, outputs),
    )


@irdl_op_definition
class DivOp(ElementwiseOperation):
    """Divides two tensors elementwise (`divf`, or signed `divsi` for integers)."""

    name = "linalg.div"

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        _build(self, inputs, outputs, res, attributes)

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        div = arith.DivfOp if isinstance(arg_types[-1], AnyFloat) else arith.DivSIOp

        @Builder.implicit_region(arg_types)
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            out = arg_types[-1]
            YieldOp(div(cast_signed(args[0], out), cast_signed(args[1], out)))

        return hidden_region


@irdl_op_definition
class BatchMatmulOp(NamedOperation):
    """`C[b, m, n] += A[b, m, k] * B[b, k, n]`."""

    name = "linalg.batch_matmul"

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True

    indexing_maps = prop_def(
        ArrayAttr[AffineMapAttr],
        default_value=ArrayAttr(
            [
                AffineMapAttr(AffineMap.from_callable(lambda b, m, _, k: (b, m, k))),
                AffineMapAttr(AffineMap.from_callable(lambda b, _, n, k: (b, k, n))),
                AffineMapAttr(AffineMap.from_callable(lambda b, m, n, _: (b, m, n))),
            ]
        ),
    )

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        _build(self, inputs, outputs, res, attributes)

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        is_float = isinstance(arg_types[-1], AnyFloat)
        add, mul = (
            (arith.AddfOp, arith.MulfOp) if is_float else (arith.AddiOp, arith.MuliOp)
        )

        @Builder.implicit_region(arg_types)
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            out = arg_types[-1]
            product = mul(cast_signed(args[0], out), cast_signed(args[1], out))
            YieldOp(add(product, args[2]))

        return hidden_region

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return tuple(m.data for m in self.indexing_maps.data)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        parallel = IteratorTypeAttr.parallel()
        return ArrayAttr([parallel, parallel, parallel, IteratorTypeAttr.reduction()])


EXTRA_OPS = (DivOp, BatchMatmulOp)
"""The ops `xquant.compat.linalg_missing_ops` adds to xDSL's `Linalg` dialect."""
