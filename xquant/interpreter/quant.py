"""Interpreter implementations of `quant.qcast`, `quant.dcast` and `quant.scast`.

They call the numeric contract in `xquant.numerics.uniform` directly, so
unlowered IR runs and is the reference the lowerings are compared against.
A tensor of `!quant.uniform` holds its storage integers; `scast` is a view.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute, Operation

from xquant.dialects.quant.nf4 import double_quantized_of
from xquant.dialects.quant.ops import (
    DequantizeCastOp,
    QuantizeCastOp,
    StorageCastOp,
)
from xquant.dialects.quant.superblock import superblock_of
from xquant.dialects.quant.types import StorageQuantizedType, UniformQuantizedType
from xquant.interpreter import nf4, superblock
from xquant.interpreter.errors import op_error
from xquant.numerics import uniform
from xquant.numerics.dtypes import storage_dtype
from xquant.numerics.values import element_type


def _uniform(op: Operation, attr: Attribute) -> UniformQuantizedType:
    # `!quant.any` and `!quant.calibrated` verify but carry no scale to compute with.
    if not isinstance(attr, UniformQuantizedType):
        raise op_error(
            op,
            f"only !quant.uniform element types can be interpreted, not {attr}",
        )
    return attr


def _like_input(value: Any, result: np.ndarray) -> Any:
    """Scalars stay numpy scalars; tensors stay arrays."""
    return result[()] if np.ndim(value) == 0 and result.ndim == 0 else result


@register_impls
class QuantFunctions(InterpreterFunctions):
    @impl(QuantizeCastOp)
    def run_qcast(
        self, interpreter: Interpreter, op: QuantizeCastOp, args: PythonValues
    ) -> PythonValues:
        if (block := superblock_of(op.result.type)) is not None:
            return (superblock.qcast(op, block, args[0]),)
        if (dq := double_quantized_of(op.result.type)) is not None:
            return (nf4.qcast(op, dq, args[0]),)
        qtype = _uniform(op, element_type(op.result.type))
        try:
            result = uniform.quantize(np.asarray(args[0]), qtype)
        except ValueError as err:  # a quantile table indexed by float storage
            raise op_error(op, str(err)) from err
        return (_like_input(args[0], result),)

    @impl(DequantizeCastOp)
    def run_dcast(
        self, interpreter: Interpreter, op: DequantizeCastOp, args: PythonValues
    ) -> PythonValues:
        if (block := superblock_of(op.input.type)) is not None:
            return (superblock.dcast(op, block, args[0]),)
        if (dq := double_quantized_of(op.input.type)) is not None:
            return (nf4.dcast(op, dq, args[0]),)
        qtype = _uniform(op, element_type(op.input.type))
        try:
            result = uniform.dequantize(np.asarray(args[0]), qtype)
        except ValueError as err:  # a stored value without a table entry
            raise op_error(op, str(err)) from err
        return (_like_input(args[0], result),)

    @impl(StorageCastOp)
    def run_scast(
        self, interpreter: Interpreter, op: StorageCastOp, args: PythonValues
    ) -> PythonValues:
        # Both sides hold the same bits; only the signedness of the holder may change
        # (`u8` storage is uint8, signless `i8` is int8).
        in_elem, out_elem = element_type(op.input.type), element_type(op.result.type)
        if (block := superblock_of(out_elem)) is not None:
            return (superblock.to_quantized(op, block, args[0]),)
        if superblock_of(in_elem) is not None:
            return (superblock.to_storage(op, args[0]),)
        if (dq := double_quantized_of(out_elem)) is not None:
            shape = tuple(cast(TensorType[Attribute], op.result.type).get_shape())
            return (nf4.to_quantized(op, dq, shape, args[0]),)
        if double_quantized_of(in_elem) is not None:
            return (nf4.to_storage(op, args[0]),)
        quantized = in_elem if isinstance(in_elem, StorageQuantizedType) else out_elem
        assert isinstance(quantized, StorageQuantizedType)
        width = quantized.storage_width
        signed = (
            quantized.is_signed if isinstance(out_elem, StorageQuantizedType) else True
        )
        return (_like_input(args[0], reinterpret(np.asarray(args[0]), width, signed)),)


def reinterpret(value: np.ndarray, width: int, signed: bool) -> np.ndarray:
    """The same `width` low bits, held as a signed (sign-extended) or unsigned integer."""
    dtype = storage_dtype(width, signed)
    if value.dtype == dtype:
        return value
    if width == dtype.itemsize * 8:
        return value.view(dtype)
    mask, half = (1 << width) - 1, 1 << (width - 1)
    bits = value.astype(np.int64) & mask
    return ((bits ^ half) - half if signed else bits).astype(dtype)


FUNCTIONS: list[InterpreterFunctions] = [QuantFunctions()]
