"""StableHLO interpreter: reduce, reduce_window, select_and_scatter and their return."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)

from xquant.dialects import stablehlo as shlo
from xquant.dialects.quant.types import UniformQuantizedType
from xquant.dialects.stablehlo import reductions as red
from xquant.dialects.stablehlo.type_utils import shape_of
from xquant.interpreter.stablehlo import kernels
from xquant.interpreter.stablehlo.reduction_bodies import (
    broadcast_view,
    reduce_arrays,
    run_body,
)
from xquant.interpreter.stablehlo.values import (
    as_result,
    as_results,
    convert_to,
)


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


@register_impls
class ReductionFunctions(InterpreterFunctions):
    """Reduce, reduce_window, select_and_scatter and their return."""

    @impl_terminator(shlo.ReturnOp)
    def run_return(
        self, interpreter: Interpreter, op: shlo.ReturnOp, args: PythonValues
    ):
        return ReturnedValues(args), ()

    @impl(shlo.ReduceOp)
    def run_reduce(
        self, interpreter: Interpreter, op: shlo.ReduceOp, args: PythonValues
    ) -> PythonValues:
        dims = op.reduced_dimensions  # in this order: the lowered loops
        values, inits = _in_accumulator_types(op, args)
        inputs = [
            np.moveaxis(v, dims, range(v.ndim - len(dims), v.ndim)) if dims else v
            for v in values
        ]
        results = reduce_arrays(interpreter, op.body, inputs, inits, len(dims), op.name)
        return as_results(results, op.result_types)

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
        return as_results(results, op.result_types)

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
        return (as_result(result.reshape(shape), op.result.type),)


FUNCTIONS: list[InterpreterFunctions] = [ReductionFunctions()]
