"""`normalize-quant-types`: the simplest granularity that means the same.

A sub-channel type on a tensor becomes per-layer when its scale tensor has one
element, and per-axis when exactly one scale dimension is not 1 -- but only
when that axis has block size 1, the only case in which a per-axis type
quantizes the same elements with the same parameters (upstream ignores the
block size and produces per-axis types that fail verification). Storage,
bounds and expressed type are kept. Every value in the module is rewritten:
op results, block arguments and function signatures.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, TensorType, UnrankedTensorType
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.hints import isa

from xquant.dialects.quant.types import UniformQuantizedType


def normalized_element(qtype: UniformQuantizedType) -> UniformQuantizedType | None:
    """The per-layer or per-axis equivalent of a sub-channel type, or None."""
    if not qtype.is_sub_channel:
        return None
    scales, zero_points = qtype.scales, qtype.zero_points
    bounds = (qtype.storage_min, qtype.storage_max)
    common = (qtype.storage_width, qtype.is_signed, qtype.expressed_type)
    builtin = not qtype.has_signless_storage  # keep `siN`/`uiN` storage as upstream
    if scales.size == 1:
        return UniformQuantizedType.per_layer(
            *common,
            float(scales.flat[0]),
            int(zero_points.flat[0]),
            *bounds,
            builtin_signedness=builtin,
        )
    varying = [axis for axis, size in enumerate(scales.shape) if size != 1]
    if len(varying) != 1 or dict(qtype.block_size_info).get(varying[0]) != 1:
        return None
    return UniformQuantizedType.per_axis(
        *common,
        varying[0],
        [float(s) for s in scales.flat],
        [int(z) for z in zero_points.flat],
        *bounds,
        builtin_signedness=builtin,
    )


def normalized_type(attr: Attribute) -> Attribute | None:
    """`attr` with a normalizable sub-channel element type replaced, else None (tensors only)."""
    if not isa(attr, TensorType | UnrankedTensorType):
        return None
    element = attr.element_type
    if (
        not isinstance(element, UniformQuantizedType)
        or (new := normalized_element(element)) is None
    ):
        return None
    if isinstance(attr, TensorType):
        return TensorType(new, attr.get_shape())
    return UnrankedTensorType(new)


@dataclass(frozen=True)
class NormalizeQuantTypesPass(ModulePass):
    """Rewrite sub-channel tensor types to per-layer or per-axis where that is exact."""

    name = "normalize-quant-types"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewriter = Rewriter()
        for inner in list(op.walk()):
            for region in inner.regions:
                for block in region.blocks:
                    for arg in list(block.args):
                        if (new := normalized_type(arg.type)) is not None:
                            rewriter.replace_value_with_new_type(arg, new)
            for result in list(inner.results):
                if (new := normalized_type(result.type)) is not None:
                    rewriter.replace_value_with_new_type(result, new)
            if isinstance(inner, func.FuncOp):
                signature = inner.function_type
                inputs = [normalized_type(t) or t for t in signature.inputs.data]
                outputs = [normalized_type(t) or t for t in signature.outputs.data]
                inner.function_type = FunctionType.from_lists(inputs, outputs)
