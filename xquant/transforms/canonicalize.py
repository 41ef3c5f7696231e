"""`canonicalize` as MLIR's: xDSL's canonicalizer plus the patterns MLIR has and xDSL 0.74 lacks.

Upstream's FileCheck tests (`stablehlo-legalize-to-linalg`, the quant dialect's)
run `--canonicalize` and match what MLIR's canonicalizer leaves. The ops involved
are xDSL's (arith, tensor, linalg); rather than adding traits to xDSL's op
classes, this pass looks the extra patterns up in `EXTRA_PATTERNS` (keyed by op
class) next to each op's own `HasCanonicalizationPatternsTrait`. xquant's tools
and API run this pass for `canonicalize` (`transforms.utils.pipeline.pass_table`);
stock `xdsl-opt` keeps xDSL's own.

1. `tensor.extract` of a dense `arith.constant` at constant indices folds to a
   scalar `arith.constant` (MLIR: `tensor::ExtractOp::fold`). xDSL keeps both:

       %t = arith.constant dense<2.0> : tensor<f32>
       %x = tensor.extract %t[] : tensor<f32>      // MLIR: %cst = arith.constant 2.0 : f32

2. `arith.constant`s are uniqued and moved to the front of the entry block of
   their isolated-from-above region (MLIR's `OperationFolder`, which the greedy
   driver hands every constant to): one constant per (value, type); a constant
   already following one the folder moved stays put, so a function's constants
   print first, in MLIR's order. xDSL leaves them where they are, duplicated.

3. `arith.select(arith.cmpi P, a, b), a, b` on integers becomes
   `arith.maxsi`/`minsi`/`maxui`/`minui` (MLIR's `SelectToMinMax`-style arith
   canonicalization; exact on integers), e.g. a reducer's
   `select(cmpi sge, %out, %in), %out, %in` prints as `arith.maxsi %out, %in`.

4. An element-wise `arith` integer or float binary op (`addi`, `subi`, `muli`,
   `andi`, `ori`, `xori`, `addf`, `subf`, `mulf`, `divf`) of two dense tensor
   constants folds to a constant (MLIR: `constFoldBinaryOp`); xDSL folds
   scalars only. Integers wrap at their width; floats are computed in their
   own type, correctly rounded (numpy computes f16 and bf16 through f32,
   which has enough precision for one rounding). Upstream's
   `Dialect/Quant/canonicalize.mlir` expects `dense<5> + dense<5>` to print
   as `dense<10>`.

5. A `linalg.generic` on tensors whose indexing maps are all equal and whose
   body only yields block arguments is replaced by the operands it forwards
   (through a `tensor.cast` where types differ): MLIR's `EraseIdentityLinalgOp`,
   registered on `linalg.generic` only (`linalg.map` keeps an identity body).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast
from weakref import WeakSet

import ml_dtypes
import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import HasCanonicalizationPatternsTrait, IsolatedFromAbove
from xdsl.transforms.dead_code_elimination import region_dce
from xdsl.utils.hints import isa

__all__ = [
    "EXTRA_PATTERNS",
    "CanonicalizePass",
    "EraseIdentityGeneric",
    "FoldDenseBinaryConstants",
    "FoldExtractOfConstant",
    "HoistAndUniqueConstant",
    "SelectOfCompareToMinMax",
]


def _constant_index(value: SSAValue) -> int | None:
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp):
        return None
    attr = owner.value
    if isinstance(attr, IntegerAttr) and isinstance(attr.type, IndexType):
        return attr.value.data
    return None


class FoldExtractOfConstant(RewritePattern):
    """`tensor.extract` of a dense `arith.constant` at constant indices -> a scalar constant."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tensor.ExtractOp, rewriter: PatternRewriter
    ) -> None:
        source = op.tensor.owner
        if not isinstance(source, arith.ConstantOp):
            return
        dense = source.value
        if not isinstance(dense, DenseIntOrFPElementsAttr):
            return
        indices = [_constant_index(i) for i in op.indices]
        shape = dense.get_shape()
        if len(indices) != len(shape):
            return
        flat = 0
        for i, n in zip(indices, shape, strict=True):
            if i is None or not 0 <= i < n:
                return
            flat = flat * n + i
        element = op.result.type
        value = dense.get_values()[flat]
        scalar: Attribute
        # The result type is the constant's element type (tensor.extract's
        # verifier), so an integer type holds ints and a float type floats.
        if isa(element, IntegerType) or isinstance(element, IndexType):
            scalar = IntegerAttr(cast(int, value), element, truncate_bits=True)
        else:
            scalar = FloatAttr(float(cast(float, value)), cast(AnyFloat, element))
        # HoistAndUniqueConstant then moves it where MLIR's folder puts it.
        rewriter.replace(op, arith.ConstantOp(scalar))


_hoisted: WeakSet[Operation] = WeakSet()
"""Constants HoistAndUniqueConstant moved or kept at the front (MLIR's folder-owned ones)."""


def _entry_block(op: Operation) -> Block | None:
    parent = op.parent_op()
    while parent is not None and not parent.has_trait(IsolatedFromAbove):
        parent = parent.parent_op()
    if parent is None or not parent.regions or not parent.regions[0].blocks:
        return None
    return parent.regions[0].blocks[0]


class HoistAndUniqueConstant(RewritePattern):
    """Move a constant to the front of its function's entry block, or reuse an equal one there."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: arith.ConstantOp, rewriter: PatternRewriter
    ) -> None:
        block = _entry_block(op)
        if block is None:
            return
        for other in block.ops:
            if not isinstance(other, arith.ConstantOp):
                break
            if (
                other is not op
                and other in _hoisted
                and other.value == op.value
                and other.result.type == op.result.type
            ):
                rewriter.replace(op, [], [other.result])
                return
        previous = op.prev_op
        if op.parent_block() is block and (previous is None or previous in _hoisted):
            _hoisted.add(op)
            return
        op.detach()
        rewriter.insert(op, InsertPoint.at_start(block))
        _hoisted.add(op)


# select(cmpi P, a, b), a, b -> op; with the arms swapped the opposite op.
_MIN_MAX: dict[str, tuple[type[Operation], type[Operation]]] = {
    "sge": (arith.MaxSIOp, arith.MinSIOp),
    "sgt": (arith.MaxSIOp, arith.MinSIOp),
    "sle": (arith.MinSIOp, arith.MaxSIOp),
    "slt": (arith.MinSIOp, arith.MaxSIOp),
    "uge": (arith.MaxUIOp, arith.MinUIOp),
    "ugt": (arith.MaxUIOp, arith.MinUIOp),
    "ule": (arith.MinUIOp, arith.MaxUIOp),
    "ult": (arith.MinUIOp, arith.MaxUIOp),
}
_PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


class SelectOfCompareToMinMax(RewritePattern):
    """`select(cmpi P, a, b), a, b` on integers -> `maxsi`/`minsi`/`maxui`/`minui`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter) -> None:
        compare = op.cond.owner
        if not isinstance(compare, arith.CmpiOp) or not isinstance(
            op.result.type, IntegerType
        ):
            return
        predicate = _PREDICATES[compare.predicate.value.data]
        if predicate not in _MIN_MAX:
            return
        a, b = compare.lhs, compare.rhs
        same, swapped = _MIN_MAX[predicate]
        if (op.lhs, op.rhs) == (a, b):
            rewriter.replace(op, same.create(operands=[a, b], result_types=[a.type]))
        elif (op.lhs, op.rhs) == (b, a):
            rewriter.replace(op, swapped.create(operands=[a, b], result_types=[a.type]))


_INTEGER_FOLDS: dict[type[Operation], Callable[[int, int], int]] = {
    arith.AddiOp: int.__add__,
    arith.SubiOp: int.__sub__,
    arith.MuliOp: int.__mul__,
    arith.AndIOp: int.__and__,
    arith.OrIOp: int.__or__,
    arith.XOrIOp: int.__xor__,
}
_FLOAT_FOLDS: dict[type[Operation], Callable[[Any, Any], Any]] = {
    arith.AddfOp: np.add,
    arith.SubfOp: np.subtract,
    arith.MulfOp: np.multiply,
    arith.DivfOp: np.divide,
}
_FLOAT_DTYPES: dict[type[Attribute], Any] = {
    Float16Type: np.float16,
    BFloat16Type: ml_dtypes.bfloat16,
    Float32Type: np.float32,
    Float64Type: np.float64,
}


def _dense_constant(value: SSAValue) -> DenseIntOrFPElementsAttr | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(
        owner.value, DenseIntOrFPElementsAttr
    ):
        return owner.value
    return None


def _int_values(attr: DenseIntOrFPElementsAttr) -> tuple[int, ...]:
    """The elements of a dense constant of integer type (ints, as xDSL unpacks them)."""
    return cast(tuple[int, ...], attr.get_values())


def _wrap(value: int, width: int) -> int:
    """`value` as a signed `width`-bit integer (two's complement wrap-around)."""
    half = 1 << (width - 1)
    return ((value + half) % (1 << width)) - half


class FoldDenseBinaryConstants(RewritePattern):
    """An element-wise binary `arith` op of two dense constants -> one constant."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if len(op.operands) != 2 or len(op.results) != 1:
            return
        lhs, rhs = (_dense_constant(v) for v in op.operands)
        result_type = op.results[0].type
        if lhs is None or rhs is None or not isa(result_type, TensorType):
            return
        folded: DenseIntOrFPElementsAttr
        if (fold := _INTEGER_FOLDS.get(type(op))) is not None:
            if (
                not isa(result_type, TensorType[IntegerType])
                or result_type.element_type.bitwidth < 2
            ):
                return
            width = result_type.element_type.bitwidth
            # The operands have the result's type (the arith ops' verifier).
            values = [
                _wrap(fold(a, b), width)
                for a, b in zip(_int_values(lhs), _int_values(rhs), strict=True)
            ]
            folded = DenseIntOrFPElementsAttr.from_list(result_type, values)
        elif (fold := _FLOAT_FOLDS.get(type(op))) is not None:
            dtype = _FLOAT_DTYPES.get(type(result_type.element_type))
            if dtype is None:
                return
            a = np.asarray(lhs.get_values(), dtype=np.float64).astype(dtype)
            b = np.asarray(rhs.get_values(), dtype=np.float64).astype(dtype)
            with np.errstate(all="ignore"):
                values = fold(a, b).astype(dtype)
            folded = DenseIntOrFPElementsAttr.from_list(
                cast(TensorType[AnyFloat], result_type),  # a key of _FLOAT_DTYPES
                [float(v) for v in values.astype(np.float64)],
            )
        else:
            return
        rewriter.replace(op, arith.ConstantOp(folded))


class EraseIdentityGeneric(RewritePattern):
    """A generic that only forwards its operands (MLIR's `EraseIdentityLinalgOp`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        maps = [m.data for m in op.indexing_maps]
        if len(set(maps)) > 1:
            return
        block = op.body.blocks.first
        if block is None or len(block.ops) != 1:
            return
        terminator = block.last_op
        if not isinstance(terminator, YieldOp):
            return
        if not all(isinstance(v.type, TensorType) for v in op.operands):
            return
        replacements: list[SSAValue] = []
        for value, result in zip(terminator.operands, op.res, strict=False):
            if not isinstance(value, BlockArgument) or value.block is not block:
                return
            source = op.operands[value.index]
            if source.type != result.type:
                cast = tensor.CastOp(source, result.type)
                rewriter.insert(cast)
                source = cast.dest
            replacements.append(source)
        if len(replacements) != len(op.results):
            return
        rewriter.replace(op, [], replacements)


EXTRA_PATTERNS: dict[type[Operation], tuple[RewritePattern, ...]] = {
    tensor.ExtractOp: (FoldExtractOfConstant(),),
    arith.ConstantOp: (HoistAndUniqueConstant(),),
    arith.SelectOp: (SelectOfCompareToMinMax(),),
    GenericOp: (EraseIdentityGeneric(),),
    **{op: (FoldDenseBinaryConstants(),) for op in (*_INTEGER_FOLDS, *_FLOAT_FOLDS)},
}
"""MLIR's canonicalization patterns that xDSL's op classes lack, by op class."""


class MlirCanonicalizationPattern(RewritePattern):
    """An op's own canonicalization patterns (its traits), then `EXTRA_PATTERNS`'."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        patterns = [
            pattern
            for trait in op.get_traits_of_type(HasCanonicalizationPatternsTrait)
            for pattern in trait.get_patterns(type(op))
        ]
        patterns += EXTRA_PATTERNS.get(type(op), ())
        if not patterns:
            return
        if len(patterns) == 1:
            patterns[0].match_and_rewrite(op, rewriter)
            return
        GreedyRewritePatternApplier(patterns).match_and_rewrite(op, rewriter)


@dataclass(frozen=True)
class CanonicalizePass(ModulePass):
    """Canonicalize as MLIR does: xDSL's patterns and folding plus MLIR's extra patterns."""

    name = "canonicalize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = GreedyRewritePatternApplier(
            [MlirCanonicalizationPattern()], ctx=ctx, folding_enabled=True
        )
        PatternRewriteWalker(pattern, post_walk_func=region_dce).rewrite_module(op)
