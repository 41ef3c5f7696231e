"""StableHLO interpreter: reshape, transpose, broadcast_in_dim, concatenate, slice, iota, gather."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, FloatData, IntAttr
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute

from xquant.dialects import stablehlo as shlo
from xquant.dialects.quant.types import UniformQuantizedType
from xquant.dialects.stablehlo import dynamism, misc
from xquant.dialects.stablehlo.syntax import array_values
from xquant.dialects.stablehlo.type_utils import quantized, shape_of, type_text
from xquant.interpreter.errors import op_error
from xquant.interpreter.stablehlo import kernels
from xquant.interpreter.stablehlo.reduction_bodies import (
    broadcast_view,
)
from xquant.interpreter.stablehlo.values import (
    as_result,
    convert_to,
)


def _moved_axis_type(
    operand_type: Attribute, dims: list[int], shape: Sequence[int]
) -> Attribute:
    """The operand's element type as it stands in the broadcast result.

    A per-axis operand's quantized dimension moves to `dims[axis]`, and a single
    scale broadcasts along it (the spec's `broadcast_in_dim` C6), so the storage
    integers keep their meaning; other types are returned unchanged.
    """
    q = quantized(operand_type)
    axis = None if q is None else q.quantized_dimension
    if q is None or axis is None or not q.is_per_axis:
        return operand_type
    target = dims[axis]
    scales, zero_points = list(q.scales.reshape(-1)), list(q.zero_points.reshape(-1))
    if len(scales) == 1 and shape[target] != 1:
        scales, zero_points = scales * shape[target], zero_points * shape[target]
    return UniformQuantizedType(
        q.storage_type,
        q.signed,
        q.storage_min_attr,
        q.storage_max_attr,
        q.expressed_type,
        q.granularity,
        ArrayAttr([IntAttr(target)]),
        q.block_sizes_attr,
        ArrayAttr([IntAttr(len(scales))]),
        ArrayAttr(FloatData(float(s)) for s in scales),
        ArrayAttr(IntAttr(int(z)) for z in zero_points),
    )


@register_impls
class StructuralFunctions(InterpreterFunctions):
    """Reshape, transpose, broadcast_in_dim, concatenate, slice, iota, gather."""

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
        value, shape, dims = np.asarray(args[0]), shape_of(op.result.type), op.dims
        expanded = [1] * len(shape)
        for operand_dim, result_dim in enumerate(dims):
            expanded[result_dim] = value.shape[operand_dim]
        order = sorted(range(len(dims)), key=dims.__getitem__)
        placed = np.transpose(value, order).reshape(expanded)
        result = broadcast_view(placed, shape)
        source = _moved_axis_type(op.operand.type, list(dims), shape)
        return (as_result(convert_to(result, source, op.result.type), op.result.type),)

    @impl(misc.BroadcastOp)
    def run_broadcast(
        self, interpreter: Interpreter, op: misc.BroadcastOp, args: PythonValues
    ) -> PythonValues:
        value = np.asarray(args[0])
        sizes = list(array_values(op.broadcast_sizes))
        shape = [*sizes, *value.shape]
        result = broadcast_view(value, shape)
        dims = list(range(len(sizes), len(shape)))
        source = _moved_axis_type(op.operand.type, dims, shape)
        return (as_result(convert_to(result, source, op.result.type), op.result.type),)

    @impl(misc.TorchIndexSelectOp)
    def run_torch_index_select(
        self, interpreter: Interpreter, op: misc.TorchIndexSelectOp, args: PythonValues
    ) -> PythonValues:
        """`operand[b..., index[b..., i...], rest...]` over the batch dims `b`."""
        operand, index = np.asarray(args[0]), np.asarray(args[1])
        dim, batch = op.axes()
        if not 0 <= batch <= min(dim, index.ndim) or dim >= operand.ndim:
            raise op_error(
                op,
                f"dim {dim} and batch_dims {batch} do not fit operand rank "
                f"{operand.ndim} and index rank {index.ndim}",
            )
        positions = index.astype(np.int64)
        size = operand.shape[dim]
        if positions.size and (positions.min() < 0 or positions.max() >= size):
            raise op_error(op, f"index out of range [0, {size}) along dim {dim}")
        # Result dims: operand[:dim] ++ index[batch:] ++ operand[dim + 1:]; gather
        # with the batch dims shared by operand and index.
        lead = operand.shape[:dim]
        tail = operand.shape[dim + 1 :]
        picked = index.shape[batch:]
        grids = np.indices((*lead, *picked), sparse=True)
        at = positions[
            tuple(grids[i] for i in range(batch))
            + tuple(grids[len(lead) + j] for j in range(len(picked)))
        ]
        selector = (*grids[: len(lead)], at)
        moved = np.moveaxis(operand, dim, len(lead))
        result = moved[(*selector, Ellipsis)]
        result = result.reshape((*lead, *picked, *tail))
        return (as_result(result, op.result.type),)

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
        return (as_result(broadcast_view(line, shape), op.output.type),)

    @impl(dynamism.DynamicIotaOp)
    def run_dynamic_iota(
        self, interpreter: Interpreter, op: dynamism.DynamicIotaOp, args: PythonValues
    ) -> PythonValues:
        shape = [int(n) for n in np.asarray(args[0]).reshape(-1)]
        declared = shape_of(op.result.type)
        if len(shape) != len(declared) or any(
            n < 0 or (d >= 0 and n != d) for n, d in zip(shape, declared)
        ):
            raise op_error(
                op,
                f"output shape {shape} does not fit the result type "
                f"{type_text(op.result.type)}",
            )
        dim = op.iota_dimension.value.data
        line = np.arange(shape[dim]).reshape(
            [-1 if d == dim else 1 for d in range(len(shape))]
        )
        return (as_result(broadcast_view(line, shape), op.result.type),)

    @impl(dynamism.GetDimensionSizeOp)
    def run_get_dimension_size(
        self,
        interpreter: Interpreter,
        op: dynamism.GetDimensionSizeOp,
        args: PythonValues,
    ) -> PythonValues:
        """The run-time size of dimension `dimension`, as a `tensor<i32>`."""
        size = np.shape(args[0])[op.dimension.value.data]
        return (as_result(np.array(size, np.int32), op.result.type),)

    @impl(dynamism.DynamicReshapeOp)
    def run_dynamic_reshape(
        self,
        interpreter: Interpreter,
        op: dynamism.DynamicReshapeOp,
        args: PythonValues,
    ) -> PythonValues:
        """reshape to the shape `output_shape` holds at run time."""
        value = np.asarray(args[0])
        shape = [int(n) for n in np.asarray(args[1]).reshape(-1)]
        declared = shape_of(op.result.type)
        if (
            len(shape) != len(declared)
            or any(n < 0 or (d >= 0 and n != d) for n, d in zip(shape, declared))
            or math.prod(shape) != value.size
        ):
            raise op_error(
                op,
                f"output shape {shape} does not fit the operand "
                f"{type_text(op.operand.type)} of {value.size} elements and the "
                f"result type {type_text(op.result.type)}",
            )
        return (as_result(value.reshape(shape), op.result.type),)

    @impl(dynamism.DynamicBroadcastInDimOp)
    def run_dynamic_broadcast_in_dim(
        self,
        interpreter: Interpreter,
        op: dynamism.DynamicBroadcastInDimOp,
        args: PythonValues,
    ) -> PythonValues:
        """broadcast_in_dim to the shape `output_dimensions` holds at run time."""
        value = np.asarray(args[0])
        shape = [int(n) for n in np.asarray(args[1]).reshape(-1)]
        declared = shape_of(op.result.type)
        dims = [int(d) for d in op.broadcast_dimensions.get_values()]
        if (
            len(shape) != len(declared)
            or any(n < 0 or (d >= 0 and n != d) for n, d in zip(shape, declared))
            or any(value.shape[i] not in (1, shape[d]) for i, d in enumerate(dims))
        ):
            raise op_error(
                op,
                f"output dimensions {shape} do not fit the operand "
                f"{type_text(op.operand.type)} and the result type "
                f"{type_text(op.result.type)}",
            )
        expanded = [1] * len(shape)
        for operand_dim, result_dim in enumerate(dims):
            expanded[result_dim] = value.shape[operand_dim]
        order = sorted(range(len(dims)), key=dims.__getitem__)
        placed = np.transpose(value, order).reshape(expanded)
        return (as_result(broadcast_view(placed, shape), op.result.type),)

    @impl(dynamism.RealDynamicSliceOp)
    def run_real_dynamic_slice(
        self,
        interpreter: Interpreter,
        op: dynamism.RealDynamicSliceOp,
        args: PythonValues,
    ) -> PythonValues:
        """`operand[start:limit:stride]` per dim; bounds outside the operand are an error."""
        operand = np.asarray(args[0])
        start, limit, strides = (
            [int(v) for v in np.asarray(a).reshape(-1)] for a in args[1:4]
        )
        slices: list[slice] = []
        for d, n in enumerate(operand.shape):
            lo, hi, step = start[d], limit[d], strides[d]
            if not (0 <= lo <= hi <= n and step >= 1):
                raise op_error(
                    op,
                    f"dimension {d}: start {lo}, limit {hi} and stride {step} do not "
                    f"slice a dimension of size {n}",
                )
            slices.append(slice(lo, hi, step))
        result = operand[tuple(slices)]
        declared = shape_of(op.result.type)
        if any(d >= 0 and d != n for d, n in zip(declared, result.shape)):
            raise op_error(
                op,
                f"the slice has shape {list(result.shape)}, the result type is "
                f"{type_text(op.result.type)}",
            )
        return (as_result(result, op.result.type),)

    @impl(dynamism.SetDimensionSizeOp)
    def run_set_dimension_size(
        self,
        interpreter: Interpreter,
        op: dynamism.SetDimensionSizeOp,
        args: PythonValues,
    ) -> PythonValues:
        """The operand's first `size` entries along `dimension` (its dynamic size)."""
        operand = np.asarray(args[0])
        size = int(np.asarray(args[1]))
        dim = op.dimension.value.data
        if not 0 <= size <= operand.shape[dim]:
            raise op_error(
                op,
                f"size {size} is outside [0, {operand.shape[dim]}] "
                f"(the size of dimension {dim})",
            )
        index = tuple(
            slice(0, size) if d == dim else slice(None) for d in range(operand.ndim)
        )
        return (as_result(operand[index], op.result.type),)

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


FUNCTIONS: list[InterpreterFunctions] = [StructuralFunctions()]
