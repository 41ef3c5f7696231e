"""Interpreter implementations of chlo's element-wise math and `chlo.top_k`.

An op that `chlo-legalize-to-stablehlo` expands (`chlo.erf`, `chlo.square`,
...) runs that expansion, upstream's StableHLO ops in upstream's order, so the
interpreter and the lowered IR compute the same bits; the expansions are
built once per (op, type); `chlo.lgamma`/`chlo.digamma` (f16, bf16, f32, f64) only
run that way. The others (f64 `erf`/`erfc`, complex inputs) compute with numpy
(or Python's `math`) in the operand type.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.utils.exceptions import InterpretationError

from xquant.dialects import chlo
from xquant.interpreter.functions import shared_functions
from xquant.interpreter.stablehlo.values import as_result
from xquant.transforms.utils.chlo_decompositions import expand_unary

_erf = np.vectorize(math.erf, otypes=[np.float64])
_erfc = np.vectorize(math.erfc, otypes=[np.float64])

NUMPY_FUNCTIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "chlo.square": np.square,
    "chlo.sinh": np.sinh,
    "chlo.cosh": np.cosh,
    "chlo.tan": np.tan,
    "chlo.asin": np.arcsin,
    "chlo.acos": np.arccos,
    "chlo.atan": np.arctan,
    "chlo.asinh": np.arcsinh,
    "chlo.acosh": np.arccosh,
    "chlo.atanh": np.arctanh,
    "chlo.erf": _erf,
    "chlo.erfc": _erfc,
}

_EXPANSIONS: dict[tuple[str, Attribute], Region | None] = {}


def expansion_region(op: chlo.ChloUnaryOp) -> Region | None:
    """A one-block region computing `op` from its block argument, or None."""
    key = (op.name, op.operand.type)
    if key not in _EXPANSIONS:
        block = Block(arg_types=[op.operand.type])
        b = expand_unary(op.name, block.args[0], op.result.type)
        if b is None:
            _EXPANSIONS[key] = None
        else:
            block.add_ops([*b.ops, func.ReturnOp(b.ops[-1].results[0])])
            _EXPANSIONS[key] = Region(block)
    return _EXPANSIONS[key]


def top_k(x: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The `k` largest along the last axis, descending, lower index first among ties
    (a stable sort on `x > y` in total order, NaN largest, as upstream's expansion)."""
    order = np.argsort(_descending_key(x), axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, order, axis=-1), order.astype(np.int32)


def _descending_key(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind in "iub":
        return -x.astype(np.int64)
    bits = np.dtype(f"int{x.dtype.itemsize * 8}")
    raw = x.view(bits).astype(np.int64)
    top = np.int64(1) << (x.dtype.itemsize * 8 - 1)
    return -np.where(raw < 0, -(raw + top) - 1, raw)


@register_impls
class ChloMathFunctions(InterpreterFunctions):
    """chlo's unary math and top_k."""

    @impl(chlo.TopKOp)
    def run_top_k(
        self, interpreter: Interpreter, op: chlo.TopKOp, args: PythonValues
    ) -> PythonValues:
        values, indices = top_k(np.asarray(args[0]), op.k.value.data)
        return (
            as_result(values, op.values.type),
            as_result(indices.astype(np.int64), op.indices.type),
        )


def _run(interpreter: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
    assert isinstance(op, chlo.ChloUnaryOp)
    region = expansion_region(op)
    if region is not None:
        return interpreter.run_ssacfg_region(region, args, op.name)
    function = NUMPY_FUNCTIONS.get(op.name)
    if function is None:
        raise InterpretationError(f"{op.name} on {op.operand.type} is not supported")
    x: Any = np.asarray(args[0])
    with np.errstate(all="ignore"):
        result = np.asarray(function(x)).astype(x.dtype)
    return (as_result(result, op.result.type),)


ChloUnaryFunctions = shared_functions(
    "ChloUnaryFunctions",
    "chlo's element-wise math.",
    chlo.UNARY_OPS,
    _run,
)

FUNCTIONS: list[InterpreterFunctions] = [ChloMathFunctions(), ChloUnaryFunctions()]
