"""StableHLO interpreter: constant and custom_call (the `check.*` targets included)."""

from __future__ import annotations

import weakref
from functools import cache

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import DenseResourceAttr
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import InterpretationError

from xquant.context import make_context
from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo.type_utils import quantized
from xquant.interpreter.check import CUSTOM_CALL_CHECKS, report_check
from xquant.interpreter.errors import op_error
from xquant.interpreter.quant import reinterpret
from xquant.interpreter.resources import resource_value
from xquant.interpreter.stablehlo.values import (
    as_result,
    convert_values,
    to_float,
)
from xquant.numerics import uniform
from xquant.numerics.values import dense_value
from xquant.transforms.odml_legalize_qdq_custom_call import (
    DEQUANTIZE_TARGET,
    QUANTIZE_TARGET,
    is_odml_quantize,
    odml_quantized_type,
)

_CONSTANTS: weakref.WeakKeyDictionary[
    Operation, tuple[Attribute, Attribute, np.ndarray]
] = weakref.WeakKeyDictionary()


@cache
def _context() -> Context:
    """The context `backend_config` types are parsed in."""
    return make_context()


def _run_odml_qdq(op: shlo.CustomCallOp, args: PythonValues) -> np.ndarray:
    """litert-torch's Q/DQ calls, whose values are typed as floats: quantize holds
    `dequantize(quantize(x))` (the real value of the quantized one, as the
    `odml-legalize-qdq-custom-call` form computes it), dequantize passes it on.
    A dequantize of anything else has no quantized type to read."""
    (result_type,) = op.result_types
    if op.call_target_name.data == QUANTIZE_TARGET:
        q = quantized(odml_quantized_type(op, _context()))
        assert q is not None  # checked by odml_quantized_type
        x = np.asarray(args[0]).astype(uniform.expressed_dtype(q))
        return as_result(
            convert_values(uniform.dequantize(uniform.quantize(x, q), q), result_type),
            result_type,
        )
    if len(op.operands) != 1 or not is_odml_quantize(op.operands[0].owner):
        raise op_error(
            op,
            f"@{DEQUANTIZE_TARGET}: operand is not the result of @{QUANTIZE_TARGET}",
        )
    return as_result(convert_values(np.asarray(args[0]), result_type), result_type)


@register_impls
class ConstantFunctions(InterpreterFunctions):
    """Constant and custom_call (the `check.*` targets included)."""

    @impl(shlo.ConstantOp)
    def run_constant(
        self, interpreter: Interpreter, op: shlo.ConstantOp, args: PythonValues
    ) -> PythonValues:
        # Kept across runs while the op lives, as arith.constant's: read-only arrays,
        # and a rewritten attribute or type is a new object, which misses.
        cached = _CONSTANTS.get(op)
        if cached is not None and cached[0] is op.value and cached[1] is op.output.type:
            return (cached[2],)
        value = (
            resource_value(op.value)
            if isinstance(op.value, DenseResourceAttr)
            else dense_value(op.value)
        )
        if (q := quantized(op.output.type)) is not None:
            value = reinterpret(value, q.storage_width, q.is_signed)
        value = as_result(value, op.output.type)
        if not isinstance(op.value, DenseResourceAttr):
            # (A blob is cached per blob: `bind_weights` may replace it in place.)
            value.flags.writeable = False
            _CONSTANTS[op] = (op.value, op.output.type, value)
        return (value,)

    @impl(shlo.CustomCallOp)
    def run_custom_call(
        self, interpreter: Interpreter, op: shlo.CustomCallOp, args: PythonValues
    ) -> PythonValues:
        target = op.call_target_name.data
        if target in (QUANTIZE_TARGET, DEQUANTIZE_TARGET):
            return (_run_odml_qdq(op, args),)
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
