"""Canonicalizations MLIR has and xDSL 0.74's `canonicalize` lacks, on xDSL's own ops.

Upstream's FileCheck tests of `stablehlo-legalize-to-linalg` run `--canonicalize`
after the pass and match what MLIR's canonicalizer leaves. The ops involved are
xDSL's (arith, tensor), so the patterns are registered on those op classes here
(as an extra `HasCanonicalizationPatternsTrait`), not written into the pass:

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
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast
from weakref import WeakSet

import ml_dtypes
import numpy as np
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
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import HasCanonicalizationPatternsTrait, IsolatedFromAbove
from xdsl.utils.hints import isa

__all__ = [
    "FoldDenseBinaryConstants",
    "FoldExtractOfConstant",
    "HoistAndUniqueConstant",
    "SelectOfCompareToMinMax",
    "install",
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


class _Patterns(HasCanonicalizationPatternsTrait):
    """Base of the traits below: one per op class, with that op's patterns."""

    patterns: tuple[RewritePattern, ...] = ()

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return cls.patterns


class _ExtractPatterns(_Patterns):
    patterns = (FoldExtractOfConstant(),)


class _ConstantPatterns(_Patterns):
    patterns = (HoistAndUniqueConstant(),)


class _SelectPatterns(_Patterns):
    patterns = (SelectOfCompareToMinMax(),)


class _BinaryPatterns(_Patterns):
    patterns = (FoldDenseBinaryConstants(),)


def install() -> None:
    """Register the patterns on xDSL's op classes (idempotent)."""
    for op_class, trait in (
        (tensor.ExtractOp, _ExtractPatterns),
        (arith.ConstantOp, _ConstantPatterns),
        (arith.SelectOp, _SelectPatterns),
        *((op, _BinaryPatterns) for op in (*_INTEGER_FOLDS, *_FLOAT_FOLDS)),
    ):
        if not any(isinstance(t, trait) for t in op_class.traits):
            op_class.traits.add_trait(trait())
