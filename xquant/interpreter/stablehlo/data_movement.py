"""Interpreter implementations of StableHLO's data-movement ops: reverse, pad, dynamic_slice,
dynamic_update_slice, and map (a region applied element-wise).

Values are numpy arrays of the holder dtype (`stablehlo_values.holder_dtype`):
storage integers for `!quant.uniform`. Moving storage values is exact only when
every tensor involved has the same element type, so a quantized op whose types
differ (e.g. a padding value with another storage range) is a located "not
supported" diagnostic. Start indices are read as Python integers (a `ui64`
start past 2^63 stays exact) and clamped into `[0, dim - size]` as the spec says.

`stablehlo.map` runs its body once on whole arrays when every op of the body is
an element-wise StableHLO op on rank-0 tensors (the per-element results are
then the same); otherwise it runs the body once per element.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute, Operation, Region
from xdsl.utils.hints import isa

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo import bitwise, math_extra, misc
from xquant.dialects.stablehlo import control_flow as cf
from xquant.dialects.stablehlo import dynamism as dyn
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo.syntax import array_values
from xquant.dialects.stablehlo.type_utils import quantized
from xquant.interpreter.errors import op_error
from xquant.interpreter.stablehlo.values import as_array, holder_dtype
from xquant.numerics.values import element_type

__all__ = ["FUNCTIONS", "DataMovementFunctions", "is_elementwise_body"]

# Ops whose value at each element depends only on the operands' elements there.
_ELEMENTWISE_BODY_OPS: tuple[type[Operation], ...] = (
    *ew.ELEMENTWISE_OPS,
    *bitwise.BITWISE_OPS,
    *math_extra.MATH_EXTRA_OPS,
    shlo.ConstantOp,
    shlo.ReturnOp,
)


def _require_same_element_types(op: Operation, types: Sequence[Attribute]) -> None:
    """Data movement of quantized storage is exact only between identical element types."""
    elements = [element_type(t) for t in types]
    if not any(quantized(t) is not None for t in types):
        return
    if all(e == elements[0] for e in elements):
        return
    raise op_error(
        op,
        "quantized operands with different element types are not supported: "
        + ", ".join(str(e) for e in elements),
    )


def _start_index(value: Any) -> int:
    """A rank-0 start index as an exact Python integer (bool and unsigned included)."""
    return int(np.asarray(value).item())


def _clamped_starts(
    op: Operation, starts: Sequence[Any], shape: Sequence[int], sizes: Sequence[int]
) -> list[int]:
    """The spec's `clamp(0, start, dim - size)` per dimension; a size past the dim is an error."""
    clamped: list[int] = []
    for dim, (start, extent, size) in enumerate(zip(starts, shape, sizes, strict=True)):
        if size > extent:
            raise op_error(
                op,
                f"size {size} exceeds the runtime size {extent} of dimension {dim}",
            )
        clamped.append(min(max(_start_index(start), 0), extent - size))
    return clamped


def _window(starts: Sequence[int], sizes: Sequence[int]) -> tuple[slice, ...]:
    """The slice of `sizes` elements at `starts` per dimension."""
    return tuple(slice(s, s + k) for s, k in zip(starts, sizes, strict=True))


def _pad_placement(
    extent: int, low: int, high: int, interior: int
) -> tuple[int, slice, slice]:
    """For one dimension: the result size, the operand slice kept, and where it lands.

    Operand element `j` lands at `low + j * (interior + 1)`; negative edges crop
    whatever falls outside `[0, size)`.
    """
    step = interior + 1
    size = extent + max(extent - 1, 0) * interior + low + high
    first = max(0, -(low // step))  # the first j with low + j * step >= 0
    last = min(extent, (size - low + step - 1) // step) if size > low else 0
    if last <= first:
        return size, slice(0, 0), slice(0, 0)
    start = low + first * step
    return (
        size,
        slice(first, last),
        slice(start, start + (last - first - 1) * step + 1, step),
    )


def pad(
    op: Operation,
    value: np.ndarray,
    padding: np.ndarray,
    low: Sequence[int],
    high: Sequence[int],
    interior: Sequence[int],
) -> np.ndarray:
    """`stablehlo.pad`: interior padding between elements, then edges (negative ones crop)."""
    placements = [
        _pad_placement(n, lo, hi, i)
        for n, lo, hi, i in zip(value.shape, low, high, interior, strict=True)
    ]
    shape = [size for size, _, _ in placements]
    if any(size < 0 for size in shape):
        raise op_error(op, f"padding gives a negative result size {shape}")
    result = np.full(shape, padding, dtype=value.dtype)
    source = tuple(s for _, s, _ in placements)
    target = tuple(t for _, _, t in placements)
    result[target] = value[source]
    return result


def is_elementwise_body(region: Region) -> bool:
    """Every op of the body is an element-wise StableHLO op on rank-0 tensors."""
    for op in region.block.ops:
        if not isinstance(op, _ELEMENTWISE_BODY_OPS):
            return False
        types = [*op.operand_types, *op.result_types]
        if any(not isa(t, TensorType[Attribute]) or t.get_shape() for t in types):
            return False
    return True


def _map_shape(op: cf.MapOp, inputs: Sequence[np.ndarray]) -> tuple[int, ...]:
    """The common runtime shape of the inputs (the result type's without inputs)."""
    if not inputs:
        result_type = op.result.type
        assert isa(result_type, TensorType[Attribute])
        return tuple(result_type.get_shape())
    shape = inputs[0].shape
    for index, value in enumerate(inputs):
        if value.shape != shape:
            raise op_error(
                op,
                f"input #{index} has runtime shape {list(value.shape)}, "
                f"input #0 has {list(shape)}",
            )
    return shape


def _run_map_body(
    interpreter: Interpreter, op: cf.MapOp, values: Sequence[np.ndarray]
) -> np.ndarray:
    """The body's single result on `values` (whole arrays or rank-0 elements)."""
    (result,) = interpreter.run_ssacfg_region(op.computation, tuple(values), op.name)
    return np.asarray(result)


def _map_vectorized(
    interpreter: Interpreter,
    op: cf.MapOp,
    inputs: Sequence[np.ndarray],
    shape: tuple[int, ...],
) -> np.ndarray:
    """The body run once on the whole arrays (a constant result is broadcast)."""
    result = _run_map_body(interpreter, op, inputs)
    return np.broadcast_to(as_array(result, op.result.type), shape).copy()


def _map_per_element(
    interpreter: Interpreter,
    op: cf.MapOp,
    inputs: Sequence[np.ndarray],
    shape: tuple[int, ...],
) -> np.ndarray:
    """The body run once per element on rank-0 arrays."""
    result_type = op.result.type
    result = np.empty(shape, dtype=holder_dtype(result_type))
    for index in np.ndindex(*shape):
        element = _run_map_body(interpreter, op, [np.asarray(v[index]) for v in inputs])
        if element.shape:
            raise op_error(
                op,
                f"computation returned shape {list(element.shape)}, expected rank 0",
            )
        result[index] = as_array(element, result_type)
    return result


@register_impls
class DataMovementFunctions(InterpreterFunctions):
    """reverse, pad, dynamic_slice, dynamic_update_slice and map."""

    @impl(misc.ReverseOp)
    def run_reverse(
        self, interpreter: Interpreter, op: misc.ReverseOp, args: PythonValues
    ) -> PythonValues:
        _require_same_element_types(op, [op.operand.type, op.result.type])
        value = np.asarray(args[0])
        dims = tuple(array_values(op.dimensions))
        return (np.flip(value, axis=dims).copy(),)

    @impl(misc.PadOp)
    def run_pad(
        self, interpreter: Interpreter, op: misc.PadOp, args: PythonValues
    ) -> PythonValues:
        types = [op.operand.type, op.padding_value.type, op.result.type]
        _require_same_element_types(op, types)
        value, padding = (np.asarray(a) for a in args)
        low, high, interior = (
            array_values(op.edge_padding_low),
            array_values(op.edge_padding_high),
            array_values(op.interior_padding),
        )
        if padding.shape:
            raise op_error(op, f"padding value has runtime shape {list(padding.shape)}")
        result = pad(op, value, padding, low, high, interior)
        return (as_array(result, op.result.type),)

    @impl(dyn.DynamicSliceOp)
    def run_dynamic_slice(
        self, interpreter: Interpreter, op: dyn.DynamicSliceOp, args: PythonValues
    ) -> PythonValues:
        _require_same_element_types(op, [op.operand.type, op.result.type])
        value = np.asarray(args[0])
        sizes = array_values(op.slice_sizes)
        starts = _clamped_starts(op, args[1:], value.shape, sizes)
        result = value[_window(starts, sizes)].copy()
        return (as_array(result, op.result.type),)

    @impl(dyn.DynamicUpdateSliceOp)
    def run_dynamic_update_slice(
        self, interpreter: Interpreter, op: dyn.DynamicUpdateSliceOp, args: PythonValues
    ) -> PythonValues:
        types = [op.operand.type, op.update.type, op.result.type]
        _require_same_element_types(op, types)
        value, update = np.asarray(args[0]), np.asarray(args[1])
        if update.ndim != value.ndim:
            raise op_error(
                op,
                f"update has runtime rank {update.ndim}, operand has {value.ndim}",
            )
        starts = _clamped_starts(op, args[2:], value.shape, update.shape)
        result = value.copy()
        result[_window(starts, update.shape)] = update
        return (as_array(result, op.result.type),)

    @impl(cf.MapOp)
    def run_map(
        self, interpreter: Interpreter, op: cf.MapOp, args: PythonValues
    ) -> PythonValues:
        inputs = [np.asarray(a) for a in args]
        shape = _map_shape(op, inputs)
        if is_elementwise_body(op.computation):
            return (_map_vectorized(interpreter, op, inputs, shape),)
        return (_map_per_element(interpreter, op, inputs, shape),)


FUNCTIONS: list[InterpreterFunctions] = [DataMovementFunctions()]
