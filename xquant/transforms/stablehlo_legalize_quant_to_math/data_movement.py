"""Ops that only move data (upstream's `ConvertGenericOp` list) and quantized
constants: the same op on the storage integers."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType, TensorType
from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.hints import isa

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.dynamism import (
    DynamicBroadcastInDimOp,
    DynamicReshapeOp,
    DynamicSliceOp,
    GetDimensionSizeOp,
)
from xquant.dialects.stablehlo.misc import CompositeOp, PadOp
from xquant.transforms.stablehlo_legalize_quant_to_math.common import (
    replace_op,
    storage_tensor_type,
    to_storage,
    touches_quantized,
)
from xquant.transforms.utils.stablehlo_emitters import HloBuilder

MOVING_OPS: tuple[type[Operation], ...] = (
    shlo.ReshapeOp,
    shlo.TransposeOp,
    shlo.BroadcastInDimOp,
    shlo.ConcatenateOp,
    shlo.SliceOp,
    shlo.GatherOp,
    PadOp,
    DynamicReshapeOp,
    DynamicSliceOp,
    DynamicBroadcastInDimOp,
    GetDimensionSizeOp,
    CompositeOp,
)
"""Upstream's `ConvertGenericOp` list, less the ops with patterns of their own here."""


@dataclass(frozen=True)
class LowerDataMovement(RewritePattern):
    """Ops that move storage integers: the same op on the storage type."""

    exact: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, MOVING_OPS) or not touches_quantized(op):
            return
        b = HloBuilder(exact=self.exact)
        clone = type(op).create(
            operands=[to_storage(b, v) for v in op.operands],
            result_types=[storage_tensor_type(t) or t for t in op.result_types],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        replace_op(rewriter, op, b, [b.add(clone)])


@dataclass(frozen=True)
class LowerConstant(RewritePattern):
    """A quantized constant already holds its storage integers: retype it."""

    exact: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: shlo.ConstantOp, rewriter: PatternRewriter) -> None:
        new_type = storage_tensor_type(op.output.type)
        if new_type is None:
            return
        assert isa(new_type, TensorType[IntegerType])  # storage integers
        value = op.value
        if not isinstance(value, DenseIntOrFPElementsAttr):
            return  # a dense_resource blob: left for the legality check to report
        if value.type != new_type:
            width = new_type.element_type.bitwidth
            dtype = np.dtype(f"uint{width}") if width in (8, 16, 32) else None
            raw = np.array(value.get_values())
            values = raw.astype(dtype) if dtype is not None else raw
            value = DenseIntOrFPElementsAttr.from_list(
                new_type, [int(v) for v in values.reshape(-1)]
            )
        b = HloBuilder(exact=self.exact)
        replace_op(rewriter, op, b, [b.add(shlo.ConstantOp(value, new_type))])
