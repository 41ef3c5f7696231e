"""StableHLO interpreter: dot_general and convolution."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute, Operation

from xquant.dialects import stablehlo as shlo
from xquant.dialects.quant.types import UniformQuantizedType
from xquant.dialects.stablehlo.attributes import DotAlgorithmAttr
from xquant.dialects.stablehlo.type_utils import quantized, shape_of
from xquant.interpreter.errors import op_error
from xquant.interpreter.stablehlo import kernels
from xquant.interpreter.stablehlo.values import (
    as_result,
    convert_values,
    to_float,
)
from xquant.numerics import uniform
from xquant.numerics.dtypes import cast_float
from xquant.numerics.values import dtype_of, float_accumulator, is_float_dtype

Rescale = tuple[np.ndarray, int | None, UniformQuantizedType]


def _contraction_operands(
    op: Operation, args: PythonValues, rhs_axis_in_result: int | None
) -> tuple[np.ndarray, np.ndarray, Rescale | None]:
    """dot/convolution operands: zero-centred integers when the result is rescaled from an
    exact integer sum (`uniform.contraction_rescale`), else dequantized floats."""
    lhs_q, rhs_q, result_q = (
        quantized(t) for t in (*op.operand_types, op.result_types[0])
    )
    if lhs_q is not None and rhs_q is not None and result_q is not None:
        found = uniform.contraction_rescale(lhs_q, rhs_q, result_q, rhs_axis_in_result)
        if found is not None:
            lhs = np.asarray(args[0]).astype(np.int64) - lhs_q.zero_point
            rhs = _zero_centred(np.asarray(args[1]), rhs_q)
            return lhs, rhs, (*found, result_q)
    lhs, rhs = (to_float(a, t) for a, t in zip(args, op.operand_types, strict=True))
    return lhs, rhs, None


def _zero_centred(q: np.ndarray, qtype: UniformQuantizedType) -> np.ndarray:
    """`q - zero_point` in int64, per tensor or per axis."""
    zero_points = np.asarray(qtype.zero_points, np.int64).reshape(-1)
    shape = [1] * q.ndim
    if qtype.quantized_dimension is not None:
        shape[qtype.quantized_dimension] = -1
    return q.astype(np.int64) - zero_points.reshape(shape)


def _finish_contraction(
    product: np.ndarray,
    operand_dtype: np.dtype[Any],
    result_type: Attribute,
    rescale: Rescale | None = None,
) -> np.ndarray:
    """Round a wide sum to the result: rescale an integer sum, quantize floats, or cast."""
    if rescale is not None:
        result = uniform.rescale_accumulator(product, *rescale)
    elif (q := quantized(result_type)) is not None:
        result = uniform.quantize(product.astype(uniform.expressed_dtype(q)), q)
    elif is_float_dtype(operand_dtype):
        result = product.astype(dtype_of(result_type))
    else:
        result = convert_values(product, result_type)
    return as_result(result, result_type)


def _float_dot_operands(
    op: shlo.DotGeneralOp, lhs: np.ndarray, rhs: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.dtype[Any]]:
    """A float dot_general's operands and the type it sums in, in loop order.

    Without `algorithm`, XLA's rule (`float_accumulator`): results narrower
    than f32 sum in f32 and round once. With one, the operands are rounded to
    its precision types and the sum is in its accumulation type.
    """
    algorithm = op.algorithm
    if algorithm is None:
        return lhs, rhs, float_accumulator(dtype_of(op.result.type))
    dtypes = (
        algorithm.single_float_dtypes()
        if isinstance(algorithm, DotAlgorithmAttr)
        else None
    )
    if dtypes is None:
        raise op_error(op, f"unsupported dot algorithm {algorithm}")
    lhs_dtype, rhs_dtype, acc_dtype = dtypes
    return lhs.astype(lhs_dtype), rhs.astype(rhs_dtype), acc_dtype


@register_impls
class DotConvFunctions(InterpreterFunctions):
    """Dot_general and convolution."""

    @impl(shlo.DotGeneralOp)
    def run_dot_general(
        self, interpreter: Interpreter, op: shlo.DotGeneralOp, args: PythonValues
    ) -> PythonValues:
        numbers = op.dot_dimension_numbers
        rhs_q = quantized(op.rhs.type)
        rhs_axis = None if rhs_q is None else rhs_q.quantized_dimension
        lhs_rank, rhs_rank = (len(shape_of(t)) for t in op.operand_types)
        lhs, rhs, rescale = _contraction_operands(
            op,
            args,
            None
            if rhs_axis is None
            else numbers.rhs_dimension_in_result(rhs_axis, lhs_rank, rhs_rank),
        )
        integer = not is_float_dtype(lhs.dtype)
        if integer:
            accumulator: np.dtype[Any] = np.dtype(np.int64)
        elif rescale is None and quantized(op.result.type) is None:
            lhs, rhs, accumulator = _float_dot_operands(op, lhs, rhs)
        else:
            accumulator = lhs.dtype  # dequantized operands: the expressed type
        product = kernels.dot_general(
            lhs,
            rhs,
            numbers.lhs_batching,
            numbers.rhs_batching,
            numbers.lhs_contracting,
            numbers.rhs_contracting,
            accumulator,
        )
        return (_finish_contraction(product, lhs.dtype, op.result.type, rescale),)

    @impl(shlo.ConvolutionOp)
    def run_convolution(
        self, interpreter: Interpreter, op: shlo.ConvolutionOp, args: PythonValues
    ) -> PythonValues:
        """Float convolutions (dequantized operands too) sum in the result's (expressed)
        type, operands cast to it, one multiply and one add per (window position, input
        feature) in that order: the lowered linalg's (named convolutions and generic
        alike). Integer sums are exact in i64, quantized ones rescaled
        (`contraction_rescale`)."""
        numbers = op.dimension_numbers
        lhs, rhs, rescale = _contraction_operands(
            op, args, numbers.output_feature_dimension.data
        )
        strides, padding, lhs_dilation, rhs_dilation, reversal = op.window()
        integer = not is_float_dtype(lhs.dtype)
        accumulator: np.dtype[Any] = np.dtype(np.int64 if integer else np.float64)
        in_order = False
        if rescale is None:  # float operands (dequantized ones too): as lowered
            q = quantized(op.result.type)
            result_dtype = (
                dtype_of(op.result.type) if q is None else uniform.expressed_dtype(q)
            )
            in_order = all(
                is_float_dtype(d) for d in (lhs.dtype, rhs.dtype, result_dtype)
            )
            if in_order:
                lhs = cast_float(lhs, result_dtype)
                rhs = cast_float(rhs, result_dtype)
                accumulator = result_dtype
        product = kernels.convolution(
            lhs,
            rhs,
            input_batch=numbers.input_batch_dimension.data,
            input_feature=numbers.input_feature_dimension.data,
            input_spatial=numbers.input_spatial,
            kernel_input_feature=numbers.kernel_input_feature_dimension.data,
            kernel_output_feature=numbers.kernel_output_feature_dimension.data,
            kernel_spatial=numbers.kernel_spatial,
            output_batch=numbers.output_batch_dimension.data,
            output_feature=numbers.output_feature_dimension.data,
            output_spatial=numbers.output_spatial,
            strides=strides,
            padding=padding,
            lhs_dilation=lhs_dilation,
            rhs_dilation=rhs_dilation,
            reversal=reversal,
            feature_group_count=op.feature_group_count.value.data,
            batch_group_count=op.batch_group_count.value.data,
            accumulator=accumulator,
            in_order=in_order,
        )
        return (_finish_contraction(product, lhs.dtype, op.result.type, rescale),)


FUNCTIONS: list[InterpreterFunctions] = [DotConvFunctions()]
