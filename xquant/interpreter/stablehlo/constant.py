"""StableHLO interpreter: constant and custom_call (the `check.*` targets included)."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import DenseResourceAttr
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.utils.exceptions import InterpretationError

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.type_utils import quantized
from xquant.interpreter.check import CUSTOM_CALL_CHECKS, report_check
from xquant.interpreter.quant import reinterpret
from xquant.interpreter.resources import resource_value
from xquant.interpreter.stablehlo.values import (
    as_result,
    to_float,
)
from xquant.numerics.values import dense_value


@register_impls
class ConstantFunctions(InterpreterFunctions):
    """Constant and custom_call (the `check.*` targets included)."""

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
        return (as_result(value, op.output.type),)

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


FUNCTIONS: list[InterpreterFunctions] = [ConstantFunctions()]
