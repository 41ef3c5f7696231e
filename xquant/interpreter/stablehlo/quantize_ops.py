"""StableHLO interpreter: uniform_quantize and uniform_dequantize."""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.type_utils import quantized
from xquant.numerics import uniform


@register_impls
class QuantizeFunctions(InterpreterFunctions):
    """Uniform_quantize and uniform_dequantize."""

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


FUNCTIONS: list[InterpreterFunctions] = [QuantizeFunctions()]
