"""`strip-func-quant-types`: storage integers instead of quantized types at function boundaries.

`func.func` signatures (declarations too), `func.return` and `func.call` use
the storage type (`!quant.uniform<u8:...>` -> `i8`, `tensor<4x!quant...>` ->
`tensor<4xi8>`); `quant.scast` ops bridge to the unchanged bodies, and the
scast pairs that cancel out are folded away. As upstream's dialect
conversion, an operand of `func.return` / `func.call` is cast right after
its definition, once per value.

A block-packed tensor (`!quant.superblock`, `!quant.double_quantized`) becomes
its raw `i8` bytes, the storage `quant.scast` pairs it with.

Float and `!quant.quantile` storage types (LLVM main) stay as they are:
`quant.scast`, which bridges the boundary, only carries integer storage.

A `!quant.calibrated` type has no storage to strip to: as upstream, the pass
fails at the first function op (in walk order) whose types hold one, with
upstream's message, and changes nothing. (Upstream crashes on a tensor of
calibrated elements; here it is the same error.)
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType, UnrankedTensorType, i8
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.hints import isa

from xquant.asm.diagnostics import OpDiagnostic
from xquant.dialects.quant.nf4 import double_quantized_of
from xquant.dialects.quant.ops import StorageCastOp
from xquant.dialects.quant.superblock import superblock_of
from xquant.dialects.quant.types import CalibratedQuantizedType, StorageQuantizedType
from xquant.numerics.values import element_type
from xquant.transforms.utils.signatures import convert_function_boundaries


def storage_type_of(attr: Attribute) -> Attribute | None:
    """The storage-integer counterpart of a quantized scalar or tensor type, else None."""
    if (packed := superblock_of(attr) or double_quantized_of(attr)) is not None:
        # Block-packed types (xquant's): their raw bytes, as `quant.scast` has them.
        if not isa(attr, TensorType[Attribute]):
            return None
        return TensorType(i8, packed.storage_shape(attr.get_shape()))
    element = element_type(attr)
    if not isinstance(element, StorageQuantizedType):
        return None
    if not element.is_integer_storage:
        # Float / quantile storage (LLVM main): `quant.scast` carries integers
        # only, so such types stay in the signature.
        return None
    if isinstance(attr, TensorType):
        return TensorType(element.storage_type, attr.get_shape())
    if isinstance(attr, UnrankedTensorType):
        return UnrankedTensorType(element.storage_type)
    return element.storage_type


def _boundary_types(op: Operation) -> list[Attribute]:
    """The types upstream's legality check looks at for a function op (empty for other ops)."""
    if isinstance(op, func.FuncOp):
        signature = op.function_type
        return [
            *signature.inputs.data,
            *signature.outputs.data,
            *(arg.type for block in op.body.blocks for arg in block.args),
        ]
    if isinstance(op, func.ReturnOp | func.CallOp):
        return [*op.operand_types, *op.result_types]
    return []


def check_no_calibrated_boundary(module: ModuleOp) -> None:
    """Fail as upstream at the first function op with a `!quant.calibrated` type."""
    for op in module.walk():
        if any(
            isinstance(element_type(t), CalibratedQuantizedType)
            for t in _boundary_types(op)
        ):
            raise OpDiagnostic(
                op,
                f"failed to legalize operation '{op.name}' that was explicitly marked illegal",
            )


class FoldScastPair(RewritePattern):
    """`scast(scast x) -> x` when `x` already has the result type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: StorageCastOp, rewriter: PatternRewriter) -> None:
        if (folded := op.fold()) is None:
            return
        value = folded[0]
        assert isinstance(value, SSAValue)
        rewriter.replace(op, [], [value])


@dataclass(frozen=True)
class StripFuncQuantTypesPass(ModulePass):
    """Replace quantized types in function signatures, calls and returns by their storage types."""

    name = "strip-func-quant-types"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        created: list[Operation] = []

        def scast(value: SSAValue, type: Attribute) -> Operation:
            created.append(StorageCastOp(value, type))
            return created[-1]

        check_no_calibrated_boundary(op)
        convert_function_boundaries(op, storage_type_of, scast, upstream_placement=True)
        PatternRewriteWalker(FoldScastPair()).rewrite_module(op)
        for cast in created:
            if cast.parent is not None and not cast.results[0].uses:
                cast.detach()
                cast.erase()
