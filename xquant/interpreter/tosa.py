"""Interpreter implementations of `tosa.const` and `tosa.rescale` (TOSA 1.0), on numpy arrays.

`tosa.rescale` is `xquant.numerics.tosa_rescale.rescale` (the specification's
RESCALE pseudo-code) on the operands' bit patterns. Values are the tensors'
bit patterns: a tensor of `!quant.uniform` holds its storage integers, a
signless `i8` holds int8; the result is written back as the bits of out_t.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import tosa
from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import InterpretationError

from xquant.dialects.stablehlo.type_utils import quantized
from xquant.numerics.dtypes import storage_dtype
from xquant.numerics.tosa_rescale import RescaleParameters, extend, rescale
from xquant.numerics.values import dense_value, element_type, int_info

__all__ = ["TosaFunctions", "type_width"]


def type_width(t: Attribute) -> int:
    """Bit width of the integer (or quantized storage) element type of `t`."""
    if (q := quantized(t)) is not None:
        return q.storage_width
    if not isinstance(element_type(t), IntegerType):
        raise InterpretationError(f"tosa.rescale needs integer tensors, got {t}")
    return int_info(t).width


def _to_holder(values: np.ndarray, t: Attribute) -> np.ndarray:
    """int64 `values` as the bit patterns of out_t, held as the interpreter holds a tensor of `t`."""
    if (q := quantized(t)) is not None:
        width, signed = q.storage_width, q.is_signed
    else:
        info = int_info(t)
        width, signed = info.width, not info.unsigned_type
    bits = extend(values, width, unsigned=not signed)
    return bits.astype(storage_dtype(width, signed))


def _scalar_bits(value: Any) -> int:
    flat = np.asarray(value).reshape(-1)
    if flat.size != 1:
        raise InterpretationError(
            f"tosa.rescale: a zero point must have one element, got {flat.size}"
        )
    return int(flat[0])


def _parameters(op: tosa.RescaleOp) -> RescaleParameters:
    return RescaleParameters(
        in_width=type_width(op.input.type),
        out_width=type_width(op.output.type),
        scale32=op.scale32.value.data != 0,
        rounding_mode=str(op.rounding_mode.data),
        per_channel=op.per_channel.value.data != 0,
        input_unsigned=op.input_unsigned.value.data != 0,
        output_unsigned=op.output_unsigned.value.data != 0,
    )


@register_impls
class TosaFunctions(InterpreterFunctions):
    """`tosa.const` and `tosa.rescale`."""

    @impl(tosa.ConstOp)
    def run_const(
        self, interpreter: Interpreter, op: tosa.ConstOp, args: PythonValues
    ) -> PythonValues:
        return (dense_value(op.values),)

    @impl(tosa.RescaleOp)
    def run_rescale(
        self, interpreter: Interpreter, op: tosa.RescaleOp, args: PythonValues
    ) -> PythonValues:
        params = _parameters(op)
        output_type = op.output.type
        assert isinstance(output_type, TensorType)
        values = rescale(
            np.asarray(args[0]),
            np.asarray(args[1]),
            np.asarray(args[2]),
            _scalar_bits(args[3]),
            _scalar_bits(args[4]),
            params,
        )
        return (_to_holder(values, output_type).reshape(np.shape(args[0])),)


FUNCTIONS: list[InterpreterFunctions] = [TosaFunctions()]
