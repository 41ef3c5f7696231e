"""Interpreter implementations of the `stablehlo` dialect, on numpy arrays.

Values: a tensor is a numpy array (0-d for rank 0); a tensor of
`!quant.uniform` holds its storage integers. Quantized semantics follow the
spec and the project's numeric contract (`xquant.numerics.uniform`):

- element-wise ops, compare, select, clamp: dequantize the quantized
  operands, compute in the expressed type, quantize into the result type
  (`dequantize_op_quantize`);
- dot_general, convolution with quantized operands and result: an exact
  integer sum of zero-centred storage values, rescaled once in float64
  (`uniform.contraction_rescale`), as `stablehlo-legalize-quant-to-math`
  lowers them, so both agree bit for bit; where that form does not apply,
  and for hybrid ops (float lhs: only the rhs is dequantized), floats as above;
- data movement (reshape, transpose, gather, ...) moves storage integers;
- reduce / reduce_window / select_and_scatter first convert inputs and init
  values to the body's (possibly wider) accumulator type (a requantize for
  quantized types), then run the body, vectorized over whole arrays, as a
  binary tree; results keep the accumulator type.

The pieces live beside this module, one concept each: `stablehlo_values`
(storage arrays and element-type conversions), `stablehlo_elementwise` (the
kernel tables), `stablehlo_reductions` (bodies run on whole arrays),
`stablehlo_kernels` (gather, dot_general, convolution, windows) and `check`
(the check ops, and `custom_call @check.*`'s comparisons and recording).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from xdsl.dialects.builtin import DenseResourceAttr
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import InterpretationError

from xquant.dialects import stablehlo as shlo
from xquant.dialects.quant.types import UniformQuantizedType
from xquant.dialects.stablehlo import bitwise, math_extra
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo import reductions as red
from xquant.dialects.stablehlo.quantization import quantized, shape_of
from xquant.dialects.stablehlo.syntax import array_values
from xquant.interpreter import stablehlo_kernels as kernels
from xquant.interpreter.check import CUSTOM_CALL_CHECKS, report_check
from xquant.interpreter.quant import reinterpret
from xquant.interpreter.resources import resource_value
from xquant.interpreter.stablehlo_elementwise import COMPARISONS, elementwise
from xquant.interpreter.stablehlo_reductions import (
    broadcast_view,
    reduce_arrays,
    run_body,
)
from xquant.interpreter.stablehlo_values import (
    as_array,
    convert_to,
    convert_values,
    from_float,
    holder_dtype,
    to_float,
)
from xquant.numerics import uniform
from xquant.numerics.values import dense_value, dtype_of, is_float_dtype


def _result(value: np.ndarray, t: Attribute) -> np.ndarray:
    return np.asarray(as_array(value, t))  # views stay views; rank 0 stays rank 0


def _results(values: Sequence[np.ndarray], types: Sequence[Attribute]) -> PythonValues:
    return tuple(_result(v, t) for v, t in zip(values, types, strict=True))


def _in_accumulator_types(
    op: shlo.ReduceOp | shlo.ReduceWindowOp, args: PythonValues
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The inputs and the init values, each converted to its body accumulator type."""
    count = len(op.inputs)
    accumulators = red.accumulator_types(op.body)
    values = [
        convert_to(np.asarray(a), v.type, t)
        for a, v, t in zip(args[:count], op.inputs, accumulators, strict=True)
    ]
    inits = [
        convert_to(np.asarray(a), v.type, t)
        for a, v, t in zip(args[count:], op.init_values, accumulators, strict=True)
    ]
    return values, inits


@register_impls
class StableHloFunctions(InterpreterFunctions):
    """Implementations of every `stablehlo` op of the subset."""

    # --- constants and calls

    @impl(shlo.ConstantOp)
    def run_constant(
        self, interpreter: Interpreter, op: shlo.ConstantOp, args: PythonValues
    ) -> PythonValues:
        value = (
            resource_value(op.value)
            if isinstance(op.value, DenseResourceAttr)
            else dense_value(op.value)
        )
        if (q := quantized(op.output.type)) is not None:
            value = reinterpret(value, q.storage_width, q.is_signed)
        return (_result(value, op.output.type),)

    @impl(shlo.CustomCallOp)
    def run_custom_call(
        self, interpreter: Interpreter, op: shlo.CustomCallOp, args: PythonValues
    ) -> PythonValues:
        target = op.call_target_name.data
        comparison = CUSTOM_CALL_CHECKS.get(target)
        if comparison is None:
            raise InterpretationError(f"unsupported custom_call target @{target}")
        if len(args) != 2:
            raise InterpretationError(f"@{target} takes 2 operands, got {len(args)}")
        actual, expected = (
            to_float(a, t) for a, t in zip(args, op.operand_types, strict=True)
        )
        passed = report_check(op, comparison(actual, expected))
        return tuple(np.array(passed) for _ in op.results)

    # --- element-wise

    @impl(ew.ClampOp)
    def run_clamp(
        self, interpreter: Interpreter, op: ew.ClampOp, args: PythonValues
    ) -> PythonValues:
        low, value, high = (
            to_float(a, t) for a, t in zip(args, op.operand_types, strict=True)
        )
        result = np.minimum(np.maximum(value, low), high)
        return (_result(from_float(result, op.result.type), op.result.type),)

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
            return (_result(np.where(pred, on_true, on_false), result_type),)
        chosen = np.where(
            pred,
            to_float(on_true, op.on_true.type),
            to_float(on_false, op.on_false.type),
        )
        return (_result(from_float(chosen, result_type), result_type),)

    @impl(ew.ConvertOp)
    def run_convert(
        self, interpreter: Interpreter, op: ew.ConvertOp, args: PythonValues
    ) -> PythonValues:
        return (
            _result(
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

    # --- quantization

    @impl(shlo.UniformQuantizeOp)
    def run_uniform_quantize(
        self, interpreter: Interpreter, op: shlo.UniformQuantizeOp, args: PythonValues
    ) -> PythonValues:
        result_q = quantized(op.result.type)
        assert result_q is not None
        value = np.asarray(args[0])
        if (operand_q := quantized(op.operand.type)) is not None:
            return (uniform.requantize(value, operand_q, result_q),)
        return (uniform.quantize(value, result_q),)

    @impl(shlo.UniformDequantizeOp)
    def run_uniform_dequantize(
        self, interpreter: Interpreter, op: shlo.UniformDequantizeOp, args: PythonValues
    ) -> PythonValues:
        operand_q = quantized(op.operand.type)
        assert operand_q is not None
        return (uniform.dequantize(np.asarray(args[0]), operand_q),)

    # --- structural

    @impl(shlo.ReshapeOp)
    def run_reshape(
        self, interpreter: Interpreter, op: shlo.ReshapeOp, args: PythonValues
    ) -> PythonValues:
        return (np.asarray(args[0]).reshape(shape_of(op.result.type)),)

    @impl(shlo.TransposeOp)
    def run_transpose(
        self, interpreter: Interpreter, op: shlo.TransposeOp, args: PythonValues
    ) -> PythonValues:
        return (np.ascontiguousarray(np.transpose(np.asarray(args[0]), op.dims)),)

    @impl(shlo.BroadcastInDimOp)
    def run_broadcast_in_dim(
        self, interpreter: Interpreter, op: shlo.BroadcastInDimOp, args: PythonValues
    ) -> PythonValues:
        value, shape = np.asarray(args[0]), shape_of(op.result.type)
        expanded = [1] * len(shape)
        for operand_dim, result_dim in enumerate(op.dims):
            expanded[result_dim] = value.shape[operand_dim]
        order = sorted(range(len(op.dims)), key=lambda i: op.dims[i])
        placed = np.transpose(value, order).reshape(expanded)
        result = broadcast_view(placed, shape)
        return (
            _result(
                convert_to(result, op.operand.type, op.result.type), op.result.type
            ),
        )

    @impl(shlo.ConcatenateOp)
    def run_concatenate(
        self, interpreter: Interpreter, op: shlo.ConcatenateOp, args: PythonValues
    ) -> PythonValues:
        return (
            np.concatenate([np.asarray(a) for a in args], axis=op.dimension.value.data),
        )

    @impl(shlo.SliceOp)
    def run_slice(
        self, interpreter: Interpreter, op: shlo.SliceOp, args: PythonValues
    ) -> PythonValues:
        index = tuple(
            slice(s, limit, st)
            for s, limit, st in zip(
                array_values(op.start_indices),
                array_values(op.limit_indices),
                array_values(op.strides),
            )
        )
        return (np.ascontiguousarray(np.asarray(args[0])[index]),)

    @impl(shlo.IotaOp)
    def run_iota(
        self, interpreter: Interpreter, op: shlo.IotaOp, args: PythonValues
    ) -> PythonValues:
        shape = shape_of(op.output.type)
        dim = op.iota_dimension.value.data
        line = np.arange(shape[dim]).reshape(
            [-1 if d == dim else 1 for d in range(len(shape))]
        )
        return (_result(broadcast_view(line, shape), op.output.type),)

    @impl(shlo.GatherOp)
    def run_gather(
        self, interpreter: Interpreter, op: shlo.GatherOp, args: PythonValues
    ) -> PythonValues:
        numbers = op.dimension_numbers
        result = kernels.gather(
            np.asarray(args[0]),
            np.asarray(args[1]),
            offset_dims=numbers.offset_dims,
            collapsed_slice_dims=numbers.collapsed_slice_dims,
            operand_batching_dims=numbers.operand_batching_dims,
            start_indices_batching_dims=numbers.start_indices_batching_dims,
            start_index_map=numbers.start_index_map,
            index_vector_dim=numbers.index_vector_dim,
            slice_sizes=op.sizes,
            result_shape=shape_of(op.result.type),
        )
        return (np.asarray(result),)  # rank 0 stays rank 0

    # --- contractions

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
        # Floats accumulate in their own type, in loop order (see kernels.dot_general).
        accumulator = np.int64 if integer else lhs.dtype
        product = kernels.dot_general(
            lhs, rhs, numbers.lhs_batching, numbers.rhs_batching, numbers.lhs_contracting,
            numbers.rhs_contracting, accumulator,
        )  # fmt: skip
        return (_finish_contraction(product, lhs.dtype, op.result.type, rescale),)

    @impl(shlo.ConvolutionOp)
    def run_convolution(
        self, interpreter: Interpreter, op: shlo.ConvolutionOp, args: PythonValues
    ) -> PythonValues:
        numbers = op.dimension_numbers
        lhs, rhs, rescale = _contraction_operands(
            op, args, numbers.output_feature_dimension.data
        )
        strides, padding, lhs_dilation, rhs_dilation, reversal = op.window()
        integer = not is_float_dtype(lhs.dtype)
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
            accumulator=np.int64 if integer else np.float64,
        )
        return (_finish_contraction(product, lhs.dtype, op.result.type, rescale),)

    # --- reductions

    @impl_terminator(shlo.ReturnOp)
    def run_return(
        self, interpreter: Interpreter, op: shlo.ReturnOp, args: PythonValues
    ):
        return ReturnedValues(args), ()

    @impl(shlo.ReduceOp)
    def run_reduce(
        self, interpreter: Interpreter, op: shlo.ReduceOp, args: PythonValues
    ) -> PythonValues:
        dims = op.reduced_dimensions
        values, inits = _in_accumulator_types(op, args)
        inputs = [
            np.moveaxis(v, dims, range(v.ndim - len(dims), v.ndim)) if dims else v
            for v in values
        ]
        results = reduce_arrays(interpreter, op.body, inputs, inits, len(dims), op.name)
        return _results(results, op.result_types)

    @impl(shlo.ReduceWindowOp)
    def run_reduce_window(
        self, interpreter: Interpreter, op: shlo.ReduceWindowOp, args: PythonValues
    ) -> PythonValues:
        rank = len(shape_of(op.inputs[0].type))
        window, strides, padding = op.window(rank)
        base_dilations, window_dilations = op.dilations(rank)
        out_shape = shape_of(op.result_types[0])
        values, inits = _in_accumulator_types(op, args)
        stacks: list[NDArray[Any]] = []
        for value, init in zip(values, inits, strict=True):
            padded = kernels.pad_dilate(
                value, padding, [d - 1 for d in base_dilations], init
            )
            views = kernels.window_views(
                padded, window, strides, window_dilations, out_shape
            )
            stacks.append(
                np.stack(views, axis=-1)
                if views
                else np.zeros((*out_shape, 0), value.dtype)
            )
        results = reduce_arrays(interpreter, op.body, stacks, inits, 1, op.name)
        return _results(results, op.result_types)

    @impl(shlo.SelectAndScatterOp)
    def run_select_and_scatter(
        self, interpreter: Interpreter, op: shlo.SelectAndScatterOp, args: PythonValues
    ) -> PythonValues:
        operand, source, init = (np.asarray(a) for a in args)
        shape = shape_of(op.operand.type)
        window, strides, padding = op.window(len(shape))
        source_shape = shape_of(op.source.type)
        accumulator = red.accumulator_types(op.scatter)[0]
        selected = _select_positions(
            interpreter, op, operand, shape, window, strides, padding, source_shape
        )
        contributions = convert_to(source, op.source.type, accumulator).reshape(-1)
        result = (
            broadcast_view(convert_to(init, op.init_value.type, accumulator), shape)
            .copy()
            .reshape(-1)
        )
        targets = selected.reshape(-1)
        valid = targets >= 0
        targets, contributions = targets[valid], contributions[valid]
        order = np.argsort(targets, kind="stable")
        targets, contributions = targets[order], contributions[order]
        rank_in_group = np.arange(targets.size) - np.searchsorted(
            targets, targets, side="left"
        )
        for round_index in range(int(rank_in_group.max()) + 1 if targets.size else 0):
            pick = rank_in_group == round_index
            where = targets[pick]
            (combined,) = run_body(
                interpreter, op.scatter, [result[where], contributions[pick]], op.name
            )
            result[where] = combined
        return (_result(result.reshape(shape), op.result.type),)


def _select_positions(
    interpreter: Interpreter,
    op: shlo.SelectAndScatterOp,
    operand: np.ndarray,
    shape: Sequence[int],
    window: Sequence[int],
    strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    source_shape: Sequence[int],
) -> np.ndarray:
    """For each window (source element), the flat operand index `select` picks (-1: none)."""
    select_type = op.select.block.args[0].type
    values = convert_to(operand, op.operand.type, select_type)
    flat_index = np.arange(math.prod(shape), dtype=np.int64).reshape(shape)
    padded_values = kernels.pad_dilate(
        values, padding, [0] * len(shape), np.zeros((), values.dtype)
    )
    # -1 fills in flat_index's dtype (int64).
    padded_index = kernels.pad_dilate(flat_index, padding, [0] * len(shape), -1)
    ones = [1] * len(shape)
    value_views = kernels.window_views(
        padded_values, window, strides, ones, source_shape
    )
    index_views = kernels.window_views(
        padded_index, window, strides, ones, source_shape
    )
    best_value = np.array(value_views[0], copy=True)
    best_index = np.array(index_views[0], copy=True)
    for candidate_value, candidate_index in zip(value_views[1:], index_views[1:]):
        (keep,) = run_body(
            interpreter, op.select, [best_value, candidate_value], op.name
        )
        take = (candidate_index >= 0) & (
            (best_index < 0) | ~np.asarray(keep, dtype=bool)
        )
        best_value = np.where(take, candidate_value, best_value)
        best_index = np.where(take, candidate_index, best_index)
    return best_index


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
    return _result(result, result_type)


def _total_order(x: np.ndarray) -> np.ndarray:
    bits = np.dtype(f"int{x.dtype.itemsize * 8}")
    raw = x.view(bits).astype(np.int64)
    top = np.int64(1) << (x.dtype.itemsize * 8 - 1)
    return np.where(raw < 0, -(raw + top) - 1, raw)


def _elementwise_impl(op_class: type[Operation]) -> Callable[..., PythonValues]:
    @impl(op_class)
    def run(
        self: InterpreterFunctions,
        interpreter: Interpreter,
        op: Operation,
        args: PythonValues,
    ) -> PythonValues:
        return (_result(elementwise(op, args), op.result_types[0]),)

    return run


ElementwiseFunctions = register_impls(
    type(
        "ElementwiseFunctions",
        (InterpreterFunctions,),
        {
            "__doc__": "The arithmetic element-wise ops (one implementation, `elementwise`, for all).",
            **{
                f"run_{c.name.split('.', 1)[1]}": _elementwise_impl(c)
                for c in (
                    *ew.UNARY_OPS,
                    *ew.BINARY_OPS,
                    bitwise.ShiftLeftOp,
                    bitwise.ShiftRightArithmeticOp,
                    bitwise.ShiftRightLogicalOp,
                    math_extra.RemainderOp,
                )
            },
        },
    )
)

FUNCTIONS: list[InterpreterFunctions] = [
    StableHloFunctions(),
    ElementwiseFunctions(),
]
