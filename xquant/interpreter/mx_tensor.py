"""Interpreter implementations of the `mx_tensor` ops, and of linalg named ops on MX operands.

An `!mx_tensor.tensor` value is an `xquant.numerics.mx.MxValue` (the scale
array and the data arrays); every op calls the numerics in
`xquant.numerics.mx`, so unlowered IR is the reference that the lowerings
are compared against.

linalg named ops (add, sub, mul, div, max, min, matmul) are overridden here to
accept MX operands and the `accumulator_type` attribute: an MX operand
contributes its dequantized (f32) values; every input is cast to the
computation type (`accumulator_type`, else the output element type), the op
runs in that type (matmul accumulates over `k` in loop order, starting from
the output cast to that type), and the result is rounded to the output
element type. Ops without either go to the plain linalg implementation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import InterpretationError

from xquant.dialects.mx_tensor.ops import (
    ConstructOp,
    DeconstructOp,
    DequantizeOp,
    EmptyOp,
    ExtractSliceOp,
    InsertSliceOp,
    QuantizeOp,
)
from xquant.dialects.mx_tensor.slicing import DimSlice, check_offsets, plan_slice
from xquant.dialects.mx_tensor.types import MxTensorType
from xquant.interpreter.linalg import LinalgFunctions, binary, cast_signed
from xquant.numerics import mx
from xquant.numerics.dtypes import cast_float
from xquant.numerics.values import dtype_of, element_type, float_matmul

__all__ = [
    "MxTensorFunctions",
    "codes_of",
    "dequantize_value",
    "elements_of",
    "quantize_value",
]


# ---------------------------------------------------------------------------------------
# values


def codes_of(value: mx.MxValue, mx_type: MxTensorType) -> np.ndarray:
    """The element bit patterns of an MX value (joined from split storage if needed)."""
    if mx_type.is_split:
        return mx.join_storage(value.data, mx_type.storage_types)
    return mx.element_codes(value.data[0], mx.element_format(mx_type.compute_type))


def elements_of(value: mx.MxValue, mx_type: MxTensorType) -> np.ndarray:
    """The elements as an array of the compute type's dtype."""
    if not mx_type.is_split:
        return value.data[0]
    fmt = mx.element_format(mx_type.compute_type)
    return mx.elements_from_codes(codes_of(value, mx_type), fmt)


def quantize_value(
    x: np.ndarray,
    mx_type: MxTensorType,
    algorithm: mx.Algorithm,
    tensor_scale: Any = None,
) -> mx.MxValue:
    """`mx_tensor.quantize` of `x` to `mx_type` (`tensor_scale`: the NVFP4 per-tensor scale)."""
    fmt = mx.element_format(mx_type.compute_type)
    if algorithm is mx.Algorithm.NVFP4:
        scale, elements = mx.quantize_nvfp4(x, mx_type.scale_shape, tensor_scale)
    else:
        bytes_, elements = mx.quantize(
            x, mx_type.scale_shape, mx_type.compute_type, algorithm
        )
        scale = mx.scale_from_bytes(bytes_, mx_type.scale_type)
    if not mx_type.is_split:
        return mx.MxValue(scale, (elements,))
    parts = mx.split_storage(mx.element_codes(elements, fmt), mx_type.storage_types)
    return mx.MxValue(scale, tuple(parts))


def dequantize_value(
    value: mx.MxValue,
    mx_type: MxTensorType,
    result_dtype: Any = np.float32,
    tensor_scale: Any = None,
) -> np.ndarray:
    """`mx_tensor.dequantize`: `decode(element) * scale` in f32 (`* (tensor_scale * scale)` with an
    NVFP4 per-tensor scale), rounded once to `result_dtype`."""
    return mx.dequantize(
        value.scale,
        mx_type.scale_type,
        elements_of(value, mx_type),
        mx_type.compute_type,
        result_dtype,
        tensor_scale,
    )


def _tensor_scale(args: Sequence[Any]) -> np.float32 | None:
    """The optional rank-0 `tensor<f32>` per-tensor scale operand as a scalar."""
    if not args:
        return None
    return np.float32(np.asarray(args[0]).reshape(()))


def _mx_type(attr: Attribute) -> MxTensorType:
    assert isinstance(attr, MxTensorType)
    return attr


def _offsets(static: Sequence[int], dynamic: Sequence[Any]) -> list[int]:
    values = iter(dynamic)
    return [int(next(values)) if o == DYNAMIC_INDEX else int(o) for o in static]


def _plan(
    op: ExtractSliceOp | InsertSliceOp,
    source: MxTensorType,
    tile: MxTensorType,
    args: PythonValues,
):
    plans = plan_slice(
        source,
        tile,
        op.static_sizes.get_values(),
        op.static_strides.get_values(),
        isinstance(op, InsertSliceOp),
    )
    dynamic = args[-len(op.offsets) :] if op.offsets else ()
    offsets = _offsets(op.static_offsets.get_values(), dynamic)
    if (problem := check_offsets(plans, offsets, source.get_shape())) is not None:
        raise InterpretationError(f"{op.name}: {problem}")
    return plans, offsets


def _data_window(
    plans: Sequence[DimSlice], offsets: Sequence[int]
) -> tuple[slice, ...]:
    return tuple(slice(o, o + p.size) for p, o in zip(plans, offsets, strict=True))


def _scale_window(
    plans: Sequence[DimSlice], offsets: Sequence[int]
) -> tuple[slice, ...]:
    return tuple(
        slice(p.scale_offset(o), p.scale_offset(o) + p.scale_size)
        for p, o in zip(plans, offsets, strict=True)
    )


# ---------------------------------------------------------------------------------------
# linalg named ops with MX operands


def _computation_inputs(
    op: Operation, args: PythonValues, compute: Attribute
) -> list[Any]:
    """Every input as an array of the computation type (MX operands dequantized first)."""
    values: list[Any] = []
    for operand, value in zip(op.operands, args, strict=False):
        if isinstance(value, mx.MxValue):
            mx_type = _mx_type(operand.type)
            values.append(
                cast_float(dequantize_value(value, mx_type), dtype_of(compute))
            )
            continue
        values.append(
            cast_signed(np.asarray(value), element_type(operand.type), compute)
        )
    return values


def _computation_type(op: Operation) -> Attribute:
    if (acc := op.attributes.get("accumulator_type")) is not None:
        return acc
    return element_type(op.operands[-1].type)


def _is_extended(op: Operation, args: PythonValues) -> bool:
    return "accumulator_type" in op.attributes or any(
        isinstance(a, mx.MxValue) for a in args
    )


def _run_elementwise(kind: str, op: Operation, args: PythonValues) -> PythonValues:
    compute = _computation_type(op)
    out_type = element_type(op.operands[-1].type)
    n_inputs = len(op.operands) - 1
    a, b = _computation_inputs(op, args[:n_inputs], compute)
    with np.errstate(all="ignore"):
        result = binary(kind, compute)(a, b)
    return (cast_signed(result, compute, out_type),)


def _run_matmul(op: Operation, args: PythonValues) -> PythonValues:
    compute = _computation_type(op)
    out_type = element_type(op.operands[-1].type)
    a, b = _computation_inputs(op, args[:2], compute)
    acc = cast_signed(np.asarray(args[2]), out_type, compute)
    with np.errstate(all="ignore"):
        a, b, acc = np.asarray(a), np.asarray(b), np.asarray(acc)
        if a.dtype == b.dtype == acc.dtype and a.ndim == b.ndim == 2:
            acc = float_matmul(a, b, acc)
        else:
            for k in range(a.shape[1]):
                acc = acc + a[:, k : k + 1] * b[k : k + 1, :]
    return (cast_signed(acc, compute, out_type),)


def _named(kind: str):
    def run(
        self: MxTensorFunctions,
        interpreter: Interpreter,
        op: Operation,
        args: PythonValues,
    ) -> PythonValues:
        if not _is_extended(op, args):
            # `impl`-wrapped: returns OpImplResult(values, terminator)
            return getattr(self.plain_linalg, f"run_{kind}")(
                interpreter, op, args
            ).values
        if not op.results:
            raise InterpretationError(
                f"{op.name} with MX operands needs tensor semantics"
            )
        if kind == "matmul":
            return _run_matmul(op, args)
        return _run_elementwise(kind, op, args)

    return run


@register_impls
class MxTensorFunctions(InterpreterFunctions):
    """The `mx_tensor` ops on `MxValue`s, plus linalg named ops that accept them."""

    def __init__(self) -> None:
        self.plain_linalg = LinalgFunctions()

    @impl(EmptyOp)
    def run_empty(
        self, interpreter: Interpreter, op: EmptyOp, args: PythonValues
    ) -> PythonValues:
        mx_type = _mx_type(op.result.type)
        scale = np.zeros(mx_type.scale_shape, dtype=dtype_of(mx_type.scale))
        data = tuple(
            np.zeros(mx_type.get_shape(), dtype=dtype_of(part))
            for part in mx_type.data.data
        )
        return (mx.MxValue(scale, data),)

    @impl(ConstructOp)
    def run_construct(
        self, interpreter: Interpreter, op: ConstructOp, args: PythonValues
    ) -> PythonValues:
        return (
            mx.MxValue(np.asarray(args[0]), tuple(np.asarray(a) for a in args[1:])),
        )

    @impl(DeconstructOp)
    def run_deconstruct(
        self, interpreter: Interpreter, op: DeconstructOp, args: PythonValues
    ) -> PythonValues:
        value: mx.MxValue = args[0]
        mx_type = _mx_type(op.input.type)
        if op.storage_types is None:
            return (value.scale, *value.data)
        parts = mx.split_storage(codes_of(value, mx_type), op.storage_types.data)
        return (value.scale, *parts)

    @impl(QuantizeOp)
    def run_quantize(
        self, interpreter: Interpreter, op: QuantizeOp, args: PythonValues
    ) -> PythonValues:
        return (
            quantize_value(
                np.asarray(args[0]),
                _mx_type(op.result.type),
                op.algorithm_kind,
                _tensor_scale(args[1:]),
            ),
        )

    @impl(DequantizeOp)
    def run_dequantize(
        self, interpreter: Interpreter, op: DequantizeOp, args: PythonValues
    ) -> PythonValues:
        result_type = op.result.type
        assert isinstance(result_type, TensorType)
        return (
            dequantize_value(
                args[0],
                _mx_type(op.input.type),
                dtype_of(result_type),
                _tensor_scale(args[1:]),
            ),
        )

    @impl(ExtractSliceOp)
    def run_extract_slice(
        self, interpreter: Interpreter, op: ExtractSliceOp, args: PythonValues
    ) -> PythonValues:
        value: mx.MxValue = args[0]
        plans, offsets = _plan(
            op, _mx_type(op.source.type), _mx_type(op.result.type), args
        )
        window = _data_window(plans, offsets)
        scale = np.array(value.scale[_scale_window(plans, offsets)])
        return (mx.MxValue(scale, tuple(np.array(d[window]) for d in value.data)),)

    @impl(InsertSliceOp)
    def run_insert_slice(
        self, interpreter: Interpreter, op: InsertSliceOp, args: PythonValues
    ) -> PythonValues:
        tile: mx.MxValue = args[0]
        dest: mx.MxValue = args[1]
        plans, offsets = _plan(
            op, _mx_type(op.dest.type), _mx_type(op.source.type), args
        )
        scale = np.array(dest.scale)
        scale[_scale_window(plans, offsets)] = tile.scale
        data: list[np.ndarray] = []
        window = _data_window(plans, offsets)
        for dest_part, tile_part in zip(dest.data, tile.data, strict=True):
            part = np.array(dest_part)
            part[window] = tile_part
            data.append(part)
        return (mx.MxValue(scale, tuple(data)),)

    run_add = impl(linalg.AddOp)(_named("add"))
    run_sub = impl(linalg.SubOp)(_named("sub"))
    run_mul = impl(linalg.MulOp)(_named("mul"))
    run_max = impl(linalg.MaxOp)(_named("max"))
    run_min = impl(linalg.MinOp)(_named("min"))
    run_matmul = impl(linalg.MatmulOp)(_named("matmul"))


FUNCTIONS: list[InterpreterFunctions] = [MxTensorFunctions()]
