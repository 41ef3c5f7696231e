"""`builtin` support: unrealized_conversion_cast and constant attributes as numpy values."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects import builtin
from xdsl.dialects.builtin import UnrealizedConversionCastOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    impl,
    impl_attr,
    register_impls,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import InterpretationError
from xdsl.utils.hints import isa

from xquant.dialects.quant.types import StorageQuantizedType
from xquant.interpreter.arith import attribute_value
from xquant.interpreter.quant import reinterpret
from xquant.numerics.values import dtype_of, element_type, int_info, wrap

__all__ = ["BuiltinFunctions"]


def _holder(t: Attribute) -> np.dtype[Any] | None:
    try:
        return dtype_of(t)
    except (ValueError, TypeError):
        return None


def _same_width_integers(a: Attribute, b: Attribute) -> bool:
    ea, eb = element_type(a), element_type(b)
    return (
        isa(ea, builtin.IntegerType)
        and isa(eb, builtin.IntegerType)
        and ea.width.data == eb.width.data
    )


def _attribute_value_impl(
    attr_type: type[Attribute],
) -> Callable[[InterpreterFunctions, Interpreter, Attribute, Attribute], Any]:
    """An `impl_attr` for `attr_type` (one function object per type: `impl_attr` marks the function)."""

    @impl_attr(attr_type)
    def value(
        self: InterpreterFunctions,
        interpreter: Interpreter,
        attr: Attribute,
        attr_type: Attribute,
    ) -> Any:
        return attribute_value(attr, attr_type)

    return value


def _stored_view(source: Attribute, target: Attribute, value: Any) -> Any:
    """Between a quantized type and its stored values (what `lower-quant-ops` casts
    for float and quantile storage): the same bits, held as `quant.scast` holds them."""
    into, out_of = element_type(target), element_type(source)
    quantized = into if isinstance(into, StorageQuantizedType) else out_of
    if not isinstance(quantized, StorageQuantizedType) or quantized.float_storage:
        return value if isinstance(quantized, StorageQuantizedType) else None
    signed = quantized.is_signed if quantized is into else True
    result = reinterpret(np.asarray(value), quantized.storage_width, signed)
    return result[()] if np.ndim(value) == 0 and result.ndim == 0 else result


@register_impls
class BuiltinFunctions(InterpreterFunctions):
    @impl(UnrealizedConversionCastOp)
    def run_cast(
        self,
        interpreter: Interpreter,
        op: UnrealizedConversionCastOp,
        args: tuple[Any, ...],
    ):
        results: list[Any] = []
        for o, r, value in zip(op.operands, op.results, args):
            if o.type == r.type:
                results.append(value)
                continue
            stored = _stored_view(o.type, r.type, value)
            if stored is not None:
                results.append(stored)
                continue
            try:
                results.append(interpreter.cast_value(o.type, r.type, value))
                continue
            except InterpretationError:
                pass  # no registered cast between these types: by the holders below
            dt = _holder(r.type)
            arr = np.asarray(value)
            if _same_width_integers(o.type, r.type):
                # i4 <-> ui4 (upstream's signless conversion of unsigned types): the
                # same bits, read with the target's signedness.
                wrapped = wrap(arr.astype(np.int64), int_info(element_type(r.type)))
                results.append(
                    wrapped if isinstance(value, np.ndarray) else wrapped[()]
                )
            elif (
                dt is not None and arr.dtype != dt and arr.dtype.itemsize == dt.itemsize
            ):
                v = arr.view(dt)
                results.append(v if isinstance(value, np.ndarray) else v[()])
            else:
                results.append(value)
        return tuple(results)

    # Constants of these types become numpy values through `attribute_value`.
    tensor_attr_value = _attribute_value_impl(builtin.TensorType)
    f16_attr_value = _attribute_value_impl(builtin.Float16Type)
    f32_attr_value = _attribute_value_impl(builtin.Float32Type)
    f64_attr_value = _attribute_value_impl(builtin.Float64Type)
    int_attr_value = _attribute_value_impl(builtin.IntegerType)
    index_attr_value = _attribute_value_impl(builtin.IndexType)


FUNCTIONS: list[InterpreterFunctions] = [BuiltinFunctions()]
