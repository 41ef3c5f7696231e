"""What every pattern of `stablehlo-legalize-quant-to-math` uses: storage types,
the bridges to and from them, conversions between element types (the spec's
`to_destination_type`), replacing an op by built ops, and the checks every
lowering makes (static shapes, a signed expressed type)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.utils.hints import isa

from xquant.asm.diagnostics import OpDiagnostic
from xquant.dialects.quant.types import UniformQuantizedType
from xquant.dialects.stablehlo.type_utils import is_quantized, quantized
from xquant.numerics.values import element_type
from xquant.transforms.utils.quant_emitters import require_signed_expressed
from xquant.transforms.utils.stablehlo_emitters import (
    HloBuilder,
    emit_dequantize_upstream,
    emit_quantize_upstream,
    emit_requantize,
    emit_requantize_upstream,
    is_static,
    retype,
    storage_type,
)


def storage_tensor_type(t: Attribute) -> Attribute | None:
    """A tensor of quantized elements as one of its storage integers, its encoding
    (e.g. `#stablehlo.bounds`) kept; None when not quantized."""
    q = quantized(t)
    if q is None or not isa(t, TensorType):
        return None
    return retype(t, storage_type(q))


def op_types(op: Operation) -> list[Attribute]:
    """The op's operand and result types."""
    return [*op.operand_types, *op.result_types]


def touches_quantized(op: Operation) -> bool:
    """Whether an operand or result of the op is quantized."""
    return any(is_quantized(t) for t in op_types(op))


def to_storage(b: HloBuilder, value: SSAValue) -> SSAValue:
    """The storage integers of a quantized tensor (a bridging bitcast), else the value itself."""
    new_type = storage_tensor_type(value.type)
    return value if new_type is None else b.bitcast(value, new_type)


def to_float(b: HloBuilder, value: SSAValue) -> SSAValue:
    """Dequantize a quantized tensor; other values pass through."""
    q = quantized(value.type)
    return value if q is None else emit_dequantize_upstream(b, to_storage(b, value), q)


def converted_to(b: HloBuilder, value: SSAValue, target: Attribute) -> SSAValue:
    """`value` converted to element type `target` (the spec's `to_destination_type`), as storage integers."""
    source = element_type(value.type)
    if source == target:
        return to_storage(b, value)
    source_q, target_q = (
        quantized(value.type),
        target if isinstance(target, UniformQuantizedType) else None,
    )
    if source_q is not None and target_q is not None:
        stored = to_storage(b, value)
        upstream = emit_requantize_upstream(
            b, stored, source_q, target_q, storage_type(target_q)
        )
        if upstream is not None:
            return upstream
        return emit_requantize(b, stored, source_q, target_q)
    if target_q is not None:
        return emit_quantize_upstream(b, value, target_q)
    return b.convert(to_float(b, value), target)


def replace_op(
    rewriter: PatternRewriter, op: Operation, b: HloBuilder, results: Sequence[SSAValue]
) -> None:
    """Insert the built ops and replace `op`'s results, bridging back to quantized types."""
    bridged = [
        b.bitcast(value, old.type) if value.type != old.type else value
        for value, old in zip(results, op.results, strict=True)
    ]
    rewriter.insert(b.ops, InsertPoint.before(op))
    rewriter.replace(op, [], bridged)


def require_static(op: Operation) -> None:
    if not all(is_static(t) for t in op_types(op) if isa(t, TensorType)):
        raise OpDiagnostic(
            op, f"'{op.name}' op with quantized dynamic shapes is not supported"
        )
    require_signed_expressed_types(op)


def require_signed_expressed_types(op: Operation) -> None:
    """`require_signed_expressed` on every quantized type the op touches: the
    lowering computes in the expressed type, negative values included."""
    for t in op_types(op):
        el = t.get_element_type() if isa(t, TensorType) else t
        if isinstance(el, UniformQuantizedType):
            require_signed_expressed(op, el)
