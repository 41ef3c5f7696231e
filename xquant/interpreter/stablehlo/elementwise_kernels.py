"""StableHLO's element-wise arithmetic on numpy arrays: the float, integer and boolean kernel tables.

`elementwise` runs one op on its operand arrays: quantized operands are
dequantized, computed in the expressed type and quantized into the result
type (`dequantize_op_quantize`), except where an exact integer form exists.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from xdsl.ir import Operation
from xdsl.utils.exceptions import InterpretationError

from xquant.dialects.stablehlo.type_utils import quantized
from xquant.interpreter.arith import maximumf, minimumf
from xquant.interpreter.stablehlo.values import from_float, to_float
from xquant.numerics import uniform
from xquant.numerics.values import dtype_of, element_type, int_info, wrap


def _round_afz(x: np.ndarray) -> np.ndarray:
    magnitude = np.abs(x)
    whole = np.floor(magnitude)
    rounded = whole + (magnitude - whole >= 0.5)
    return np.copysign(rounded, x).astype(x.dtype)


def _int_divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Integer division truncating toward zero; x / 0 is -1 and MIN / -1 is MIN (as XLA)."""
    safe = np.where(b == 0, 1, b)
    quotient = np.abs(a.astype(np.int64)) // np.abs(safe.astype(np.int64))
    quotient = np.where((a < 0) != (safe < 0), -quotient, quotient)
    return np.where(b == 0, -1, quotient)


def _int_power(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    base, exponent = a.astype(np.int64), b.astype(np.int64)
    result = np.ones_like(base)
    positive = np.maximum(exponent, 0)
    while np.any(positive > 0):
        result = np.where(positive & 1, result * base, result)
        base = base * base
        positive = positive >> 1
    return np.where(
        exponent < 0,
        np.where(np.abs(a) == 1, np.where(exponent % 2 == 0, 1, a), 0),
        result,
    )


def _float_sign(x: NDArray[Any]) -> NDArray[Any]:
    return np.where(x == 0, x, np.sign(x))  # sign(-0.0) is -0.0


def _rsqrt(x: NDArray[Any]) -> NDArray[Any]:
    return np.reciprocal(np.sqrt(x))


def _logistic(x: NDArray[Any]) -> NDArray[Any]:
    return np.reciprocal(np.exp(-x) + x.dtype.type(1))


def _int_add(a: NDArray[Any], b: NDArray[Any]) -> NDArray[Any]:
    return a.astype(np.int64) + b


def _int_subtract(a: NDArray[Any], b: NDArray[Any]) -> NDArray[Any]:
    return a.astype(np.int64) - b


def _int_multiply(a: NDArray[Any], b: NDArray[Any]) -> NDArray[Any]:
    return a.astype(np.int64) * b


def _int_negate(a: NDArray[Any]) -> NDArray[Any]:
    return -a.astype(np.int64)


def _int_abs(a: NDArray[Any]) -> NDArray[Any]:
    return np.abs(a.astype(np.int64))


def _int_remainder(a: NDArray[Any], b: NDArray[Any]) -> NDArray[Any]:
    """`lhs - divide(lhs, rhs) * rhs` (the spec), with `divide`'s x / 0 = -1: x % 0 is
    x, and MIN % -1 is 0 once wrapped."""
    return a.astype(np.int64) - _int_divide(a, b) * b.astype(np.int64)


FLOAT_FUNCTIONS: dict[str, Callable[..., np.ndarray]] = {
    "stablehlo.add": np.add,
    "stablehlo.subtract": np.subtract,
    "stablehlo.multiply": np.multiply,
    "stablehlo.divide": np.true_divide,
    "stablehlo.remainder": np.fmod,  # lhs - trunc(lhs / rhs) * rhs, exact; sign of lhs
    # IEEE-754 maximum/minimum: NaN propagates and -0 < +0 (np.maximum picks by position).
    "stablehlo.maximum": maximumf,
    "stablehlo.minimum": minimumf,
    "stablehlo.power": np.power,
    "stablehlo.negate": np.negative,
    "stablehlo.abs": np.abs,
    "stablehlo.sign": _float_sign,
    "stablehlo.ceil": np.ceil,
    "stablehlo.floor": np.floor,
    "stablehlo.round_nearest_afz": _round_afz,
    "stablehlo.round_nearest_even": np.rint,
    "stablehlo.sqrt": np.sqrt,
    "stablehlo.rsqrt": _rsqrt,
    "stablehlo.cbrt": np.cbrt,
    "stablehlo.exponential": np.exp,
    "stablehlo.exponential_minus_one": np.expm1,
    "stablehlo.log": np.log,
    "stablehlo.log_plus_one": np.log1p,
    "stablehlo.logistic": _logistic,
    "stablehlo.tanh": np.tanh,
    "stablehlo.sine": np.sin,
    "stablehlo.cosine": np.cos,
}

# On 8/16/32/64-bit operands of the result's dtype these wrap exactly as the spec's integers.
WRAPPING_FUNCTIONS: dict[str, Callable[..., np.ndarray]] = {
    "stablehlo.add": np.add,
    "stablehlo.subtract": np.subtract,
    "stablehlo.multiply": np.multiply,
    "stablehlo.maximum": np.maximum,
    "stablehlo.minimum": np.minimum,
    "stablehlo.negate": np.negative,
}

INTEGER_FUNCTIONS: dict[str, Callable[..., np.ndarray]] = {
    "stablehlo.add": _int_add,
    "stablehlo.subtract": _int_subtract,
    "stablehlo.multiply": _int_multiply,
    "stablehlo.divide": _int_divide,
    "stablehlo.remainder": _int_remainder,
    "stablehlo.maximum": np.maximum,
    "stablehlo.minimum": np.minimum,
    "stablehlo.power": _int_power,
    "stablehlo.negate": _int_negate,
    "stablehlo.abs": _int_abs,
    "stablehlo.sign": np.sign,
}


def _shift(name: str, a: NDArray[Any], b: NDArray[Any], width: int) -> NDArray[Any]:
    """StableHLO's shifts on `width`-bit integers (spec and reference interpreter):
    an amount outside [0, width) (read unsigned) shifts everything out, giving 0,
    or the sign for `shift_right_arithmetic`."""
    # In uint64: a 64-bit mask does not fit numpy's int64 (OverflowError).
    mask = np.uint64((1 << width) - 1)
    value = a.astype(np.int64)
    amount = b.astype(np.int64).view(np.uint64) & mask  # the amount read unsigned
    in_range = amount < np.uint64(width)
    safe = np.where(in_range, amount, np.uint64(0)).astype(np.int64)
    if name == "stablehlo.shift_left":
        shifted = np.left_shift(value, safe)
        return np.where(in_range, shifted, 0)
    if name == "stablehlo.shift_right_logical":
        bits = value.view(np.uint64) & mask
        shifted = np.right_shift(bits, safe.astype(np.uint64)).view(np.int64)
        return np.where(in_range, shifted, 0)
    sign = np.where(value < 0, -1, 0)
    return np.where(in_range, np.right_shift(value, safe), sign)


SHIFTS = frozenset(
    {
        "stablehlo.shift_left",
        "stablehlo.shift_right_logical",
        "stablehlo.shift_right_arithmetic",
    }
)


def _quantized_in_integers(
    op: Operation, values: Sequence[np.ndarray]
) -> np.ndarray | None:
    """add/subtract with one scale per channel, and max/min on one type, on storage integers.

    As `stablehlo-legalize-quant-to-math` computes them (exact, where floats
    would round i32 storage values), or None for the float path.
    """
    types = [quantized(t) for t in (*op.operand_types, op.result_types[0])]
    if any(t is None for t in types) or len(types) != 3:
        return None
    lhs_q, rhs_q, result_q = types
    assert lhs_q is not None and rhs_q is not None and result_q is not None
    if op.name in ("stablehlo.maximum", "stablehlo.minimum"):
        if not lhs_q == rhs_q == result_q:
            return None
        function = np.maximum if op.name == "stablehlo.maximum" else np.minimum
        return function(np.asarray(values[0]), np.asarray(values[1]))
    if op.name not in ("stablehlo.add", "stablehlo.subtract"):
        return None
    subtract = op.name == "stablehlo.subtract"
    found = uniform.integer_add_correction(lhs_q, rhs_q, result_q, subtract)
    if found is None:
        return None
    correction, axis = found
    lhs, rhs = (np.asarray(v).astype(np.int64) for v in values)
    value = lhs - rhs if subtract else lhs + rhs
    shape = [1] * value.ndim
    if axis is not None:
        shape[axis] = -1
    value = value + correction.reshape(shape)
    value = np.clip(value, result_q.storage_min, result_q.storage_max)
    return value.astype(uniform.storage_numpy_dtype(result_q))


BOOLEAN_FUNCTIONS: dict[str, Callable[..., np.ndarray]] = {
    "stablehlo.add": np.logical_or,
    "stablehlo.multiply": np.logical_and,
    "stablehlo.maximum": np.logical_or,
    "stablehlo.minimum": np.logical_and,
}


def elementwise(op: Operation, values: Sequence[np.ndarray]) -> np.ndarray:
    """Run an element-wise op on arrays (of any shape; reduction bodies pass whole slices)."""
    types, result_type = op.operand_types, op.result_types[0]
    if any(quantized(t) is not None for t in (*types, result_type)):
        exact = _quantized_in_integers(op, values)
        if exact is not None:
            return exact
        floats = [to_float(v, t) for v, t in zip(values, types, strict=True)]
        with np.errstate(all="ignore"):
            return from_float(FLOAT_FUNCTIONS[op.name](*floats), result_type)
    dtype = dtype_of(result_type)
    arrays = [np.asarray(v) for v in values]
    if dtype.kind == "b":
        function = BOOLEAN_FUNCTIONS.get(op.name)
        if function is None:
            raise InterpretationError(f"{op.name} is not defined on booleans")
        return function(*arrays)
    if dtype.kind in "iu":
        info = int_info(element_type(result_type))
        native = WRAPPING_FUNCTIONS.get(op.name)
        if (
            native is not None
            and info.natural
            and all(a.dtype == dtype for a in arrays)
        ):
            return native(*arrays)  # numpy wraps modulo 2**width itself
        if op.name in SHIFTS:
            return wrap(_shift(op.name, arrays[0], arrays[1], info.width), info)
        function = INTEGER_FUNCTIONS.get(op.name)
        if function is None:
            raise InterpretationError(f"{op.name} is not defined on integers")
        return wrap(np.asarray(function(*arrays)), info)
    with np.errstate(all="ignore"):
        return np.asarray(FLOAT_FUNCTIONS[op.name](*arrays)).astype(dtype, copy=False)


COMPARISONS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "EQ": np.equal,
    "NE": np.not_equal,
    "GE": np.greater_equal,
    "GT": np.greater,
    "LE": np.less_equal,
    "LT": np.less,
}
