"""StableHLO interpreter: clamp, compare, select, convert, bitcast_convert."""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Operation

from xquant.dialects.stablehlo import bitwise, math_extra
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo.type_utils import shape_of
from xquant.interpreter.functions import shared_functions
from xquant.interpreter.stablehlo.elementwise_kernels import COMPARISONS, elementwise
from xquant.interpreter.stablehlo.values import (
    as_array,
    as_result,
    convert_values,
    from_float,
    holder_dtype,
    to_float,
)
from xquant.numerics.values import is_float_dtype


def _total_order(x: np.ndarray) -> np.ndarray:
    bits = np.dtype(f"int{x.dtype.itemsize * 8}")
    raw = x.view(bits).astype(np.int64)
    top = np.int64(1) << (x.dtype.itemsize * 8 - 1)
    return np.where(raw < 0, -(raw + top) - 1, raw)


def _run(interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
    return (as_result(elementwise(op, args), op.result_types[0]),)


@register_impls
class ElementwiseOpFunctions(InterpreterFunctions):
    """Clamp, compare, select, convert, bitcast_convert."""

    @impl(ew.ClampOp)
    def run_clamp(
        self, interpreter: Interpreter, op: ew.ClampOp, args: PythonValues
    ) -> PythonValues:
        low, value, high = (
            to_float(a, t) for a, t in zip(args, op.operand_types, strict=True)
        )
        result = np.minimum(np.maximum(value, low), high)
        return (as_result(from_float(result, op.result.type), op.result.type),)

    @impl(ew.CompareOp)
    def run_compare(
        self, interpreter: Interpreter, op: ew.CompareOp, args: PythonValues
    ) -> PythonValues:
        lhs, rhs = (to_float(a, t) for a, t in zip(args, op.operand_types, strict=True))
        compare_type = None if op.compare_type is None else op.compare_type.data.value
        if compare_type == "TOTALORDER" and is_float_dtype(lhs.dtype):
            lhs, rhs = _total_order(lhs), _total_order(rhs)
        with np.errstate(invalid="ignore"):
            return (COMPARISONS[op.comparison_direction.data.value](lhs, rhs),)

    @impl(ew.SelectOp)
    def run_select(
        self, interpreter: Interpreter, op: ew.SelectOp, args: PythonValues
    ) -> PythonValues:
        pred, on_true, on_false = (np.asarray(a) for a in args)
        result_type = op.result.type
        if op.on_true.type == op.on_false.type == result_type:
            return (as_result(np.where(pred, on_true, on_false), result_type),)
        chosen = np.where(
            pred,
            to_float(on_true, op.on_true.type),
            to_float(on_false, op.on_false.type),
        )
        return (as_result(from_float(chosen, result_type), result_type),)

    @impl(ew.ConvertOp)
    def run_convert(
        self, interpreter: Interpreter, op: ew.ConvertOp, args: PythonValues
    ) -> PythonValues:
        return (
            as_result(
                convert_values(np.asarray(args[0]), op.result.type), op.result.type
            ),
        )

    @impl(ew.BitcastConvertOp)
    def run_bitcast_convert(
        self, interpreter: Interpreter, op: ew.BitcastConvertOp, args: PythonValues
    ) -> PythonValues:
        value = np.ascontiguousarray(as_array(args[0], op.operand.type))
        result_type = op.result.type
        dtype = holder_dtype(result_type)
        if value.dtype.itemsize == dtype.itemsize:
            return (value.view(dtype).reshape(shape_of(result_type)),)
        return (np.ascontiguousarray(value).view(dtype).reshape(shape_of(result_type)),)


ElementwiseFunctions = shared_functions(
    "ElementwiseFunctions",
    "The arithmetic element-wise ops (one implementation, `elementwise`, for all).",
    (
        *ew.UNARY_OPS,
        *ew.BINARY_OPS,
        bitwise.ShiftLeftOp,
        bitwise.ShiftRightArithmeticOp,
        bitwise.ShiftRightLogicalOp,
        math_extra.RemainderOp,
    ),
    _run,
)


FUNCTIONS: list[InterpreterFunctions] = [
    ElementwiseOpFunctions(),
    ElementwiseFunctions(),
]
