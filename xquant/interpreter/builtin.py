"""`builtin` support: unrealized_conversion_cast and constant attributes as numpy values."""

from __future__ import annotations

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

from xquant.interpreter.arith import attribute_value
from xquant.interpreter.common import dtype_of

__all__ = ["BuiltinFunctions"]


def _holder(t: Attribute) -> np.dtype[Any] | None:
    try:
        return dtype_of(t)
    except (ValueError, TypeError):
        return None


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
            try:
                results.append(interpreter.cast_value(o.type, r.type, value))
                continue
            except Exception:
                pass
            dt = _holder(r.type)
            arr = np.asarray(value)
            if dt is not None and arr.dtype != dt and arr.dtype.itemsize == dt.itemsize:
                v = arr.view(dt)
                results.append(v if isinstance(value, np.ndarray) else v[()])
            else:
                results.append(value)
        return tuple(results)

    @impl_attr(builtin.TensorType)
    def tensor_attr_value(
        self, interpreter: Interpreter, attr: Attribute, attr_type: Attribute
    ) -> Any:
        return attribute_value(attr, attr_type)

    @impl_attr(builtin.Float16Type)
    def f16_attr_value(
        self, interpreter: Interpreter, attr: Attribute, attr_type: Attribute
    ) -> Any:
        return attribute_value(attr, attr_type)

    @impl_attr(builtin.Float32Type)
    def f32_attr_value(
        self, interpreter: Interpreter, attr: Attribute, attr_type: Attribute
    ) -> Any:
        return attribute_value(attr, attr_type)

    @impl_attr(builtin.Float64Type)
    def f64_attr_value(
        self, interpreter: Interpreter, attr: Attribute, attr_type: Attribute
    ) -> Any:
        return attribute_value(attr, attr_type)

    @impl_attr(builtin.IntegerType)
    def int_attr_value(
        self, interpreter: Interpreter, attr: Attribute, attr_type: Attribute
    ) -> Any:
        return attribute_value(attr, attr_type)

    @impl_attr(builtin.IndexType)
    def index_attr_value(
        self, interpreter: Interpreter, attr: Attribute, attr_type: Attribute
    ) -> Any:
        return attribute_value(attr, attr_type)


FUNCTIONS: list[InterpreterFunctions] = [BuiltinFunctions()]
