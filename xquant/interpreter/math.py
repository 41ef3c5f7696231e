"""Vectorized `math` dialect implementations (scalars and arrays alike).

Floats of ml_dtypes types are computed in float32 (an exact widening) and
rounded back once; float16 goes through numpy's own float16 loops.
`math.round` rounds half away from zero, `math.roundeven` half to even.
"""

from __future__ import annotations

import math as _pymath
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from xdsl.dialects import math
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Operation

from xquant.numerics.dtypes import cast_float
from xquant.numerics.values import (
    as_value,
    dtype_of,
    finish,
    int_info,
    signed_view,
    unsigned_view,
    wrap,
)

__all__ = ["MathFunctions", "round_half_away"]

_NATIVE = {np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)}


def apply_float(fn: Callable[..., Any], dt: np.dtype[Any], *xs: Any) -> Any:
    if dt in _NATIVE:
        return fn(*xs)
    wide = [
        np.asarray(x).astype(np.float32)
        if type(x) is not np.ndarray
        else x.astype(np.float32)
        for x in xs
    ]
    r = np.asarray(fn(*wide))
    out = cast_float(r, dt)
    scalar = all(type(x) is not np.ndarray for x in xs)
    return finish(out) if scalar else out


def round_half_away(x: Any) -> Any:
    """Round to nearest, ties away from zero (C `round`), keeping -0 and NaN."""
    t = np.trunc(x)
    with np.errstate(invalid="ignore"):
        away = np.abs(x - t) >= 0.5
    # Typed, it picks np.where's three-argument overload.
    up: ArrayLike = t + np.sign(x)
    return (
        finish(np.where(away, up, t))
        if type(x) is not np.ndarray
        else np.where(away, up, t).astype(x.dtype, copy=False)
    )


def _erf(x: Any) -> Any:
    f = np.frompyfunc(_pymath.erf, 1, 1)
    return np.asarray(f(np.asarray(x, dtype=np.float64)), dtype=np.float64)


def _rsqrt(x: Any) -> Any:
    one = np.asarray(1, dtype=np.asarray(x).dtype)
    return one / np.sqrt(x)


def _unary(fn: Callable[[Any], Any], exact_native: bool = True):
    def run(
        self: Any, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> PythonValues:
        dt = dtype_of(op.operands[0].type)
        x = as_value(args[0], dt)
        if exact_native:
            return (apply_float(fn, dt, x),)
        # computed in float64 and rounded once to the type
        r = cast_float(np.asarray(fn(np.asarray(x).astype(np.float64))), dt)
        return (finish(r) if type(x) is not np.ndarray else r,)

    return run


def _binary(fn: Callable[[Any, Any], Any]):
    def run(
        self: Any, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> PythonValues:
        dt = dtype_of(op.operands[0].type)
        a, b = as_value(args[0], dt), as_value(args[1], dt)
        return (apply_float(fn, dt, a, b),)

    return run


def _bit_length(u: np.ndarray) -> np.ndarray:
    u = np.asarray(u).astype(np.uint64)
    hi = (u >> np.uint64(32)).astype(np.float64)
    lo = (u & np.uint64(0xFFFFFFFF)).astype(np.float64)
    return np.where(hi > 0, 32 + np.frexp(hi)[1], np.frexp(lo)[1]).astype(np.int64)


def _int_unary(fn: Callable[[Any, Any], Any]):
    def run(
        self: Any, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> PythonValues:
        info = int_info(op.operands[0].type)
        x = as_value(args[0], info.dtype)
        r = wrap(np.asarray(fn(x, info)).astype(np.int64), info)
        return (finish(np.asarray(r)) if type(x) is not np.ndarray else r,)

    return run


def _absi(x: Any, info: Any) -> Any:
    return np.abs(np.asarray(signed_view(x, info)).astype(np.int64))


def _ctpop(x: Any, info: Any) -> Any:
    return np.bitwise_count(np.asarray(unsigned_view(x, info)).astype(np.uint64))


def _ctlz(x: Any, info: Any) -> Any:
    return info.width - _bit_length(unsigned_view(x, info))


def _cttz(x: Any, info: Any) -> Any:
    u = np.asarray(unsigned_view(x, info)).astype(np.uint64)
    low = u & (~u + np.uint64(1))
    return np.where(u == 0, info.width, _bit_length(low) - 1)


@register_impls
class MathFunctions(InterpreterFunctions):
    run_absf = impl(math.AbsFOp)(_unary(np.abs))
    run_ceil = impl(math.CeilOp)(_unary(np.ceil))
    run_floor = impl(math.FloorOp)(_unary(np.floor))
    run_trunc = impl(math.TruncOp)(_unary(np.trunc))
    run_roundeven = impl(math.RoundEvenOp)(_unary(np.rint))
    run_round = impl(math.RoundOp)(_unary(round_half_away))
    run_sqrt = impl(math.SqrtOp)(_unary(np.sqrt))
    run_rsqrt = impl(math.RsqrtOp)(_unary(_rsqrt))
    run_cbrt = impl(math.CbrtOp)(_unary(np.cbrt))
    run_exp = impl(math.ExpOp)(_unary(np.exp))
    run_exp2 = impl(math.Exp2Op)(_unary(np.exp2))
    run_expm1 = impl(math.ExpM1Op)(_unary(np.expm1))
    run_log = impl(math.LogOp)(_unary(np.log))
    run_log2 = impl(math.Log2Op)(_unary(np.log2))
    run_log10 = impl(math.Log10Op)(_unary(np.log10))
    run_log1p = impl(math.Log1pOp)(_unary(np.log1p))
    run_sin = impl(math.SinOp)(_unary(np.sin))
    run_cos = impl(math.CosOp)(_unary(np.cos))
    run_tan = impl(math.TanOp)(_unary(np.tan))
    run_asin = impl(math.AsinOp)(_unary(np.arcsin))
    run_acos = impl(math.AcosOp)(_unary(np.arccos))
    run_atan = impl(math.AtanOp)(_unary(np.arctan))
    run_sinh = impl(math.SinhOp)(_unary(np.sinh))
    run_cosh = impl(math.CoshOp)(_unary(np.cosh))
    run_tanh = impl(math.TanhOp)(_unary(np.tanh))
    run_asinh = impl(math.AsinhOp)(_unary(np.arcsinh))
    run_acosh = impl(math.AcoshOp)(_unary(np.arccosh))
    run_atanh = impl(math.AtanhOp)(_unary(np.arctanh))
    run_erf = impl(math.ErfOp)(_unary(_erf, exact_native=False))
    run_atan2 = impl(math.Atan2Op)(_binary(np.arctan2))
    run_powf = impl(math.PowFOp)(_binary(np.power))
    run_copysign = impl(math.CopySignOp)(_binary(np.copysign))
    run_absi = impl(math.AbsIOp)(_int_unary(_absi))
    run_ctpop = impl(math.CtPopOp)(_int_unary(_ctpop))
    run_ctlz = impl(math.CountLeadingZerosOp)(_int_unary(_ctlz))
    run_cttz = impl(math.CountTrailingZerosOp)(_int_unary(_cttz))

    @impl(math.FmaOp)
    def run_fma(
        self, interpreter: Interpreter, op: math.FmaOp, args: PythonValues
    ) -> PythonValues:
        dt = dtype_of(op.operands[0].type)
        a, b, c = (as_value(v, dt) for v in args)
        scalar = all(type(v) is not np.ndarray for v in (a, b, c))
        if dt == np.float64:
            fma: Callable[[float, float, float], float] | None = getattr(
                _pymath, "fma", None
            )
            if fma is not None:
                r = np.frompyfunc(fma, 3, 1)(a, b, c)
                r = np.asarray(r, dtype=np.float64)
            else:
                r = np.asarray(a * b + c)
        else:
            # the product of two <= 24-bit significands is exact in float64
            w = [np.asarray(v).astype(np.float64) for v in (a, b, c)]
            r = cast_float(w[0] * w[1] + w[2], dt)
        return (finish(r) if scalar else r,)

    @impl(math.FPowIOp)
    def run_fpowi(
        self, interpreter: Interpreter, op: math.FPowIOp, args: PythonValues
    ) -> PythonValues:
        dt = dtype_of(op.operands[0].type)
        x = as_value(args[0], dt)
        n = np.asarray(args[1]).astype(np.float64)

        def power(a: Any) -> Any:
            return np.power(a, n.astype(np.asarray(a).dtype))

        return (apply_float(power, dt, x),)

    @impl(math.IPowIOp)
    def run_ipowi(
        self, interpreter: Interpreter, op: math.IPowIOp, args: PythonValues
    ) -> PythonValues:
        info = int_info(op.operands[0].type)
        a = np.asarray(signed_view(as_value(args[0], info.dtype), info)).astype(
            np.int64
        )
        b = np.asarray(signed_view(as_value(args[1], info.dtype), info)).astype(
            np.int64
        )
        pos = np.power(a, np.maximum(b, 0))
        neg = np.where(a == 1, 1, np.where(a == -1, np.where(b % 2 == 0, 1, -1), 0))
        r = wrap(np.where(b < 0, neg, pos).astype(np.int64), info)
        scalar = type(args[0]) is not np.ndarray and type(args[1]) is not np.ndarray
        return (finish(np.asarray(r)) if scalar else r,)


FUNCTIONS: list[InterpreterFunctions] = [MathFunctions()]
