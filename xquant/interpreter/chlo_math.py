"""Interpreter implementations of chlo's element-wise math and `chlo.top_k`.

An op that `chlo-legalize-to-stablehlo` expands (`chlo.erf`, `chlo.zeta`,
`chlo.mulhi`, `chlo.next_after`, ...) runs that expansion, upstream's StableHLO ops
in upstream's order, so the interpreter and the lowered IR compute the same bits;
the expansions are built once per (op, types, properties); complex values are
not expanded (the interpreter has no complex element types).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ComplexType, FloatAttr, IntegerAttr
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Block, Operation, Region
from xdsl.utils.exceptions import InterpretationError

from xquant.dialects import chlo
from xquant.interpreter.chlo import align
from xquant.interpreter.functions import shared_functions
from xquant.interpreter.stablehlo.values import as_result
from xquant.numerics.values import dtype_of, element_type
from xquant.transforms.utils.chlo_decompositions import expand

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

_EXPANSIONS: dict[tuple[Any, ...], Region | None] = {}


def expansion_region(op: Operation) -> Region | None:
    """A one-block region computing chlo `op` from its block arguments (upstream's
    expansion, `chlo_decompositions.expand`), or None; built once per op kind,
    types and properties."""
    key: tuple[Any, ...] = (
        op.name,
        tuple(v.type for v in op.operands),
        tuple(r.type for r in op.results),
        tuple(sorted(op.properties.items())),
    )
    if isinstance(op, chlo.ScanOp):
        key = ("chlo.scan", op)  # the expansion copies this op's own body
    if key not in _EXPANSIONS:
        block = Block(arg_types=[v.type for v in op.operands])
        # complex values: the interpreter has no stablehlo.real/imag/complex
        complex_values = any(
            isinstance(element_type(v.type), ComplexType)
            for v in (*op.operands, *op.results)
        )
        expanded = None if complex_values else expand(op, block.args)
        if expanded is None:
            _EXPANSIONS[key] = None
        else:
            b, values = expanded
            block.add_ops([*b.ops, func.ReturnOp(*values)])
            _EXPANSIONS[key] = Region(block)
    return _EXPANSIONS[key]


def broadcast_target_region(op: chlo.BroadcastBinaryOp) -> Region | None:
    """For a broadcasting op whose element-wise op is a chlo op (`broadcast_zeta`, ...):
    that op's expansion on operands of the result's shape."""
    key = ("broadcast", op.name, op.result.type)
    if key not in _EXPANSIONS:
        target = TARGETS[op.name]
        block = Block(arg_types=[op.result.type, op.result.type])
        probe = target(block.args[0], block.args[1])
        expanded = expand(probe, block.args)
        probe.drop_all_references()
        if expanded is None:
            _EXPANSIONS[key] = None
        else:
            b, values = expanded
            block.add_ops([*b.ops, func.ReturnOp(*values)])
            _EXPANSIONS[key] = Region(block)
    return _EXPANSIONS[key]


TARGETS: dict[str, type[chlo.ChloBinaryOp]] = {
    "chlo.broadcast_next_after": chlo.NextAfterOp,
    "chlo.broadcast_polygamma": chlo.PolygammaOp,
    "chlo.broadcast_zeta": chlo.ZetaOp,
}


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
    region = expansion_region(op)
    if region is not None:
        return interpreter.run_ssacfg_region(region, args, op.name)
    if isinstance(op, chlo.ConstantLikeOp):
        return _constant_like(op, args)
    if not isinstance(op, chlo.ChloUnaryOp):
        raise InterpretationError(
            f"{op.name} on {', '.join(str(v.type) for v in op.operands)} is not supported"
        )
    function = NUMPY_FUNCTIONS.get(op.name)
    if function is None:
        raise InterpretationError(f"{op.name} on {op.operand.type} is not supported")
    x: Any = np.asarray(args[0])
    with np.errstate(all="ignore"):
        result = np.asarray(function(x)).astype(x.dtype)
    return (as_result(result, op.result.type),)


def _constant_like(op: chlo.ConstantLikeOp, args: PythonValues) -> PythonValues:
    """A dynamically shaped `constant_like`: the value at the operand's runtime shape."""
    value = op.value
    if not isinstance(value, FloatAttr | IntegerAttr):
        raise InterpretationError(f"chlo.constant_like of {value} is not supported")
    number = cast("FloatAttr | IntegerAttr[Any]", value).value.data
    shape: tuple[int, ...] = np.shape(args[0])
    result = np.full(shape, number, dtype=dtype_of(op.result.type))
    return (as_result(result, op.result.type),)


def _run_broadcast(
    interpreter: Interpreter, op: Operation, args: PythonValues
) -> PythonValues:
    assert isinstance(op, chlo.BroadcastBinaryOp)
    region = broadcast_target_region(op)
    if region is None:
        raise InterpretationError(f"{op.name} on {op.result.type} is not supported")
    lhs, rhs = align(np.asarray(args[0]), np.asarray(args[1]), op.dims)
    lhs, rhs = np.broadcast_arrays(lhs, rhs)
    return interpreter.run_ssacfg_region(
        region, (np.ascontiguousarray(lhs), np.ascontiguousarray(rhs)), op.name
    )


ChloUnaryFunctions = shared_functions(
    "ChloUnaryFunctions",
    "chlo's element-wise math and `chlo.constant_like`: their expansions.",
    [
        *chlo.UNARY_OPS,
        *chlo.PREDICATE_OPS,
        *chlo.BINARY_OPS,
        chlo.ConstantLikeOp,
        chlo.RaggedDotOp,
        chlo.ScanOp,
    ],
    _run,
)

ChloBroadcastMathFunctions = shared_functions(
    "ChloBroadcastMathFunctions",
    "chlo's broadcasting ops whose element-wise op is a chlo op (`broadcast_zeta`, ...).",
    chlo.CHLO_TARGET_BROADCASTS,
    _run_broadcast,
)

FUNCTIONS: list[InterpreterFunctions] = [
    ChloMathFunctions(),
    ChloUnaryFunctions(),
    ChloBroadcastMathFunctions(),
]
