"""`tensor` dialect on numpy arrays. Tensors are immutable values: every op returns a new
array (or a read-only view) and never writes into an operand."""

from __future__ import annotations

import functools
import math
from typing import Any, cast

import numpy as np
from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import InterpretationError

from xquant.interpreter.errors import op_error
from xquant.numerics.values import as_value, dtype_of

__all__ = ["TensorFunctions", "check_shape", "mixed_values"]


def mixed_values(static: tuple[int, ...], dynamic: PythonValues) -> list[int]:
    """Static values with DYNAMIC_INDEX placeholders filled from the dynamic operands."""
    it = iter(dynamic)
    return [int(next(it)) if v == DYNAMIC_INDEX else int(v) for v in static]


def _static(attr: Any) -> tuple[int, ...]:
    return tuple(attr.get_values())


def check_shape(value: np.ndarray, typ: Any, what: str) -> None:
    if isinstance(typ, TensorType):
        shape = typ.get_shape()
        if len(shape) != value.ndim or any(
            s != DYNAMIC_INDEX and s != v for s, v in zip(shape, value.shape)
        ):
            raise InterpretationError(
                f"{what}: value of shape {list(value.shape)} does not match type {typ}"
            )


def _result_shape(result_type: Any, dynamic: PythonValues) -> tuple[int, ...]:
    it = iter(dynamic)
    return tuple(
        int(next(it)) if s == DYNAMIC_INDEX else s for s in result_type.get_shape()
    )


@functools.lru_cache(maxsize=1024)
def _zeros_view(shape: tuple[int, ...], dt: np.dtype[Any]) -> np.ndarray:
    """`tensor.empty`: contents are unspecified, zeros keep runs deterministic.

    A read-only zero-stride view of one zero costs nothing, where 8 MB of
    fresh zeros cost as much as the op filling them; being immutable, one view
    serves every op of that shape (every implementation copies before writing).
    """
    return np.broadcast_to(np.zeros((), dtype=dt), shape)


def _reduce_rank(value: np.ndarray, sizes: list[int], result_type: Any) -> np.ndarray:
    """Drop unit dims of a slice so that it matches a rank-reduced result type."""
    res_shape = result_type.get_shape()
    if len(res_shape) == len(sizes):
        return value
    kept: list[int] = []
    j = 0
    for s in sizes:
        if j < len(res_shape) and (res_shape[j] == s or res_shape[j] == DYNAMIC_INDEX):
            kept.append(s)
            j += 1
        elif s != 1:
            raise InterpretationError(
                f"slice of sizes {sizes} does not match result type {result_type}"
            )
    return value.reshape(kept)


def _slices(
    offsets: list[int], sizes: list[int], strides: list[int]
) -> tuple[slice, ...]:
    return tuple(
        slice(o, o + (n - 1) * st + 1 if n > 0 else o, st)
        for o, n, st in zip(offsets, sizes, strides)
    )


def _slice_bounds(
    op: tensor.ExtractSliceOp | tensor.InsertSliceOp,
    dynamic: PythonValues,
    shape: tuple[int, ...],
) -> tuple[list[int], list[int], list[int]]:
    """(offsets, sizes, strides) of a slice op, its dynamic values filled in; each slice must fit `shape`."""
    n_off, n_size = len(op.offsets), len(op.sizes)
    offsets = mixed_values(_static(op.static_offsets), dynamic[:n_off])
    sizes = mixed_values(_static(op.static_sizes), dynamic[n_off : n_off + n_size])
    strides = mixed_values(_static(op.static_strides), dynamic[n_off + n_size :])
    for d, (o, n, st) in enumerate(zip(offsets, sizes, strides)):
        if o < 0 or n < 0 or (n > 0 and o + (n - 1) * st >= shape[d]):
            raise InterpretationError(
                f"{op.name}: slice offset {o} size {n} stride {st} out of bounds for dim {d} of size {shape[d]}"
            )
    return offsets, sizes, strides


@register_impls
class TensorFunctions(InterpreterFunctions):
    @impl(tensor.EmptyOp)
    def run_empty(
        self, interpreter: Interpreter, op: tensor.EmptyOp, args: PythonValues
    ) -> PythonValues:
        typ = op.tensor.type
        return (_zeros_view(_result_shape(typ, args), dtype_of(typ)),)

    @impl(tensor.SplatOp)
    def run_splat(
        self, interpreter: Interpreter, op: tensor.SplatOp, args: PythonValues
    ) -> PythonValues:
        typ = op.result.type
        dt = dtype_of(typ)
        return (np.full(_result_shape(typ, args[1:]), as_value(args[0], dt), dtype=dt),)

    @impl(tensor.FromElementsOp)
    def run_from_elements(
        self, interpreter: Interpreter, op: tensor.FromElementsOp, args: PythonValues
    ) -> PythonValues:
        typ = op.result.type
        dt = dtype_of(typ)
        arr = np.array([as_value(a, dt) for a in args], dtype=dt)
        return (arr.reshape(typ.get_shape()),)

    @impl(tensor.DimOp)
    def run_dim(
        self, interpreter: Interpreter, op: tensor.DimOp, args: PythonValues
    ) -> PythonValues:
        src, index = args
        shape = np.shape(src)
        if not 0 <= int(index) < len(shape):
            raise op_error(
                op, f"dimension {int(index)} is out of range for rank {len(shape)}"
            )
        return (np.int64(shape[int(index)]),)

    @impl(tensor.CastOp)
    def run_cast(
        self, interpreter: Interpreter, op: tensor.CastOp, args: PythonValues
    ) -> PythonValues:
        value = np.asarray(args[0])
        check_shape(value, op.dest.type, "tensor.cast")
        return (args[0],)

    @impl(tensor.ReshapeOp)
    def run_reshape(
        self, interpreter: Interpreter, op: tensor.ReshapeOp, args: PythonValues
    ) -> PythonValues:
        src, shape_value = args
        src = np.asarray(src)
        shape = [int(s) for s in np.asarray(shape_value).reshape(-1)]
        # compat's tensor.reshape (the class registered) also has unranked results.
        typ = cast(Attribute, op.result.type)
        # The verifier can only compare static shapes; the shape operand is a runtime value.
        if isinstance(typ, TensorType) and any(
            t not in (s, DYNAMIC_INDEX) for t, s in zip(typ.get_shape(), shape)
        ):
            raise op_error(
                op, f"runtime shape {shape} does not match result type {typ}"
            )
        if any(s < 0 for s in shape) or math.prod(shape) != src.size:
            raise op_error(
                op,
                f"runtime shape {shape} has {math.prod(shape)} elements, the source {src.size}",
            )
        return (src.reshape(shape),)

    @impl(tensor.CollapseShapeOp)
    def run_collapse_shape(
        self, interpreter: Interpreter, op: tensor.CollapseShapeOp, args: PythonValues
    ) -> PythonValues:
        src = np.asarray(args[0])
        # Typed as arrays of IntegerAttr; a dense array (`get_values`) is accepted too.
        groups: list[list[int]] = [
            list(cast(Any, g).get_values())
            if hasattr(g, "get_values")
            else [a.value.data for a in g.data]
            for g in op.reassociation.data
        ]
        shape = tuple(int(np.prod([src.shape[i] for i in g])) for g in groups)
        return (src.reshape(shape),)

    @impl(tensor.ExpandShapeOp)
    def run_expand_shape(
        self, interpreter: Interpreter, op: tensor.ExpandShapeOp, args: PythonValues
    ) -> PythonValues:
        src = np.asarray(args[0])
        shape = mixed_values(_static(op.static_output_shape), args[1:])
        return (src.reshape(shape),)

    @impl(tensor.ExtractOp)
    def run_extract(
        self, interpreter: Interpreter, op: tensor.ExtractOp, args: PythonValues
    ) -> PythonValues:
        src, *idx = args
        src = np.asarray(src)
        # Works for scalar indices and, inside vectorized linalg bodies, index arrays (a gather).
        for d, i in enumerate(idx):
            if np.any(np.less(i, 0)) or np.any(np.greater_equal(i, src.shape[d])):
                raise InterpretationError(
                    f"tensor.extract: index out of bounds for dim {d} of size {src.shape[d]}"
                )
        return (src[tuple(idx)],)

    @impl(tensor.InsertOp)
    def run_insert(
        self, interpreter: Interpreter, op: tensor.InsertOp, args: PythonValues
    ) -> PythonValues:
        scalar, dest, *idx = args
        out = np.array(dest, copy=True)
        index = tuple(int(i) for i in idx)
        # numpy would wrap a negative index around instead of failing.
        for d, (i, size) in enumerate(zip(index, out.shape)):
            if not 0 <= i < size:
                raise op_error(
                    op, f"index {i} out of bounds for dim {d} of size {size}"
                )
        out[index] = scalar
        return (out,)

    @impl(tensor.ExtractSliceOp)
    def run_extract_slice(
        self, interpreter: Interpreter, op: tensor.ExtractSliceOp, args: PythonValues
    ) -> PythonValues:
        src = np.asarray(args[0])
        offsets, sizes, strides = _slice_bounds(op, args[1:], src.shape)
        value = src[_slices(offsets, sizes, strides)]
        return (_reduce_rank(value, sizes, op.result.type),)

    @impl(tensor.InsertSliceOp)
    def run_insert_slice(
        self, interpreter: Interpreter, op: tensor.InsertSliceOp, args: PythonValues
    ) -> PythonValues:
        source, dest = np.asarray(args[0]), np.asarray(args[1])
        offsets, sizes, strides = _slice_bounds(op, args[2:], dest.shape)
        out = np.array(dest, copy=True)
        out[_slices(offsets, sizes, strides)] = source.reshape(sizes)
        return (out,)

    @impl(tensor.ConcatOp)
    def run_concat(
        self, interpreter: Interpreter, op: tensor.ConcatOp, args: PythonValues
    ) -> PythonValues:
        return (np.concatenate([np.asarray(a) for a in args], axis=op.dim.value.data),)

    @impl(tensor.PadOp)
    def run_pad(
        self, interpreter: Interpreter, op: tensor.PadOp, args: PythonValues
    ) -> PythonValues:
        src = np.asarray(args[0])
        n_low = len(op.low)
        low = mixed_values(_static(op.static_low), args[1 : 1 + n_low])
        high = mixed_values(_static(op.static_high), args[1 + n_low :])
        dt = dtype_of(op.result.type)
        block = op.region.block
        yield_op = block.last_op
        assert yield_op is not None
        yielded = yield_op.operands[0]
        out_shape = tuple(s + lo + hi for s, lo, hi in zip(src.shape, low, high))
        inner = tuple(slice(lo, lo + s) for lo, s in zip(low, src.shape))
        if (
            all(getattr(o, "parent_block", None) is not block for o in (yielded.owner,))
            and yielded not in block.args
        ):
            # constant padding: the yielded value is defined outside the region
            pad_value = as_value(interpreter.get_values((yielded,))[0], dt)
            out = np.full(out_shape, pad_value, dtype=dt)
        else:
            out = np.empty(out_shape, dtype=dt)
            for idx in np.ndindex(*out_shape):
                (v,) = interpreter.run_ssacfg_region(
                    op.region, tuple(np.int64(i) for i in idx), "tensor.pad"
                )
                out[idx] = v
        out[inner] = src
        return (out,)

    @impl_terminator(tensor.YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: tensor.YieldOp, args: PythonValues
    ):
        return ReturnedValues(args), ()


FUNCTIONS: list[InterpreterFunctions] = [TensorFunctions()]
