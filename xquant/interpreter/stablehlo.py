"""Interpreter implementations of the `stablehlo` and `check` dialects, on numpy arrays.

Values: a tensor is a numpy array (0-d for rank 0); a tensor of
`!quant.uniform` holds its storage integers. Quantized semantics follow the
spec and the project's numeric contract (`xquant.numerics.uniform`):

- element-wise ops, compare, select, clamp: dequantize the quantized
  operands, compute in the expressed type, quantize into the result type
  (`dequantize_op_quantize`);
- dot_general, convolution with quantized operands and result: an exact
  integer sum of zero-centred storage values, rescaled once in float64
  (`uniform.contraction_rescale`), as `stablehlo-legalize-quant-to-math`
  lowers them, so both agree bit for bit; where that form does not apply,
  and for hybrid ops (float lhs: only the rhs is dequantized), floats as above;
- data movement (reshape, transpose, gather, ...) moves storage integers;
- reduce / reduce_window / select_and_scatter first convert inputs and init
  values to the body's (possibly wider) accumulator type (a requantize for
  quantized types), then run the body, vectorized over whole arrays, as a
  binary tree; results keep the accumulator type.

Checks (`check.*` ops and `custom_call @check.*`) compare as StableHLO's do.
Inside `recording_checks()` every check is recorded and the run continues;
outside, a failed check raises `CheckFailure`.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerType,
    Signedness,
)
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Attribute, Operation, Region
from xdsl.utils.exceptions import InterpretationError
from xdsl.utils.hints import isa

from xquant.dialects import check
from xquant.dialects import stablehlo as shlo
from xquant.dialects.quant.types import UniformQuantizedType
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo import reductions as red
from xquant.dialects.stablehlo.quantization import element_type, quantized, shape_of
from xquant.interpreter import stablehlo_kernels as kernels
from xquant.interpreter.arith import dense_value
from xquant.interpreter.common import (
    cast_float,
    dtype_of,
    int_info,
    is_float_dtype,
    wrap,
)
from xquant.interpreter.errors import OpInterpretationError
from xquant.interpreter.quant import reinterpret
from xquant.numerics import uniform
from xquant.numerics.dtypes import integer_range, storage_dtype

# ----------------------------------------------------------------------------------------
# values and conversions


def holder_dtype(t: Attribute) -> np.dtype[Any]:
    """The numpy dtype holding values of (a tensor of) `t`: storage integers for quantized types."""
    if (q := quantized(t)) is not None:
        return storage_dtype(q.storage_width, q.is_signed)
    return dtype_of(t)


def as_array(value: Any, t: Attribute) -> np.ndarray:
    """`value` as a numpy array of the holder dtype of `t` (0-d stays 0-d)."""
    array = np.asarray(value)
    dtype = holder_dtype(t)
    return array if array.dtype == dtype else array.astype(dtype)


def to_float(value: np.ndarray, t: Attribute) -> np.ndarray:
    """Dequantize if `t` is quantized, else return the value unchanged."""
    if (q := quantized(t)) is not None:
        return uniform.dequantize(np.asarray(value), q)
    return np.asarray(value)


def from_float(value: np.ndarray, t: Attribute) -> np.ndarray:
    """Quantize into `t` if it is quantized, else cast to its element dtype."""
    if (q := quantized(t)) is not None:
        return uniform.quantize(np.asarray(value), q)
    return convert_values(np.asarray(value), t)


def convert_values(value: np.ndarray, t: Attribute) -> np.ndarray:
    """`stablehlo.convert` into the (non-quantized) element type of `t`.

    Floats to integers truncate toward zero and saturate, NaN becomes 0; to
    `i1`, non-zero is true; integers wrap to narrow widths.
    """
    dtype = dtype_of(t)
    value = np.asarray(value)
    if dtype.kind == "b":
        return value != 0
    if dtype.kind in "iu" and is_float_dtype(value.dtype):
        if value.size and _fits(value, element_type(t)):
            return value.astype(dtype)  # truncates toward zero; nothing to saturate
        info = np.iinfo(dtype)
        element = element_type(t)
        width = element.width.data if isa(element, IntegerType) else dtype.itemsize * 8
        low, high = (
            (info.min, info.max)
            if width == dtype.itemsize * 8
            else integer_range(width, dtype.kind == "i")
        )
        with np.errstate(invalid="ignore"):
            wide = np.trunc(np.nan_to_num(value.astype(np.float64), nan=0.0))
        # high + 1 is a power of two, exact in float64 (high itself may not be: 2^63 - 1).
        too_big = wide >= float(high + 1)
        result = np.maximum(np.where(too_big, 0.0, wide), float(low)).astype(dtype)
        return np.where(too_big, dtype.type(high), result)
    if dtype.kind in "iu":
        return wrap(
            value.astype(np.int64) if value.dtype.kind == "b" else value,
            int_info(element_type(t)),
        )
    with np.errstate(
        all="ignore"
    ):  # one rounding (ml_dtypes' own casts go through f32)
        return cast_float(value, dtype)


def _fits(value: np.ndarray, element: Attribute) -> bool:
    """Every value is finite and inside the integer type's range (NaN fails the comparisons)."""
    if not isa(element, IntegerType):
        return False
    unsigned = element.signedness.data == Signedness.UNSIGNED
    low, high = integer_range(element.width.data, not unsigned)
    # Python float vs int compares exactly (numpy would round `high` to the float type).
    return float(value.min()) >= low and float(value.max()) <= high


def convert_to(
    value: np.ndarray, from_type: Attribute, to_type: Attribute
) -> np.ndarray:
    """The spec's `to_destination_type`: requantize between quantized types, else convert."""
    from_q, to_q = quantized(from_type), quantized(to_type)
    if element_type(from_type) == element_type(to_type):
        return np.asarray(value)
    if from_q is not None and to_q is not None:
        return uniform.requantize(np.asarray(value), from_q, to_q)
    if from_q is not None:
        return convert_values(uniform.dequantize(np.asarray(value), from_q), to_type)
    if to_q is not None:
        return uniform.quantize(
            np.asarray(value).astype(uniform.expressed_dtype(to_q)), to_q
        )
    return convert_values(np.asarray(value), to_type)


# ----------------------------------------------------------------------------------------
# element-wise arithmetic


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


FLOAT_FUNCTIONS: dict[str, Callable[..., np.ndarray]] = {
    "stablehlo.add": np.add,
    "stablehlo.subtract": np.subtract,
    "stablehlo.multiply": np.multiply,
    "stablehlo.divide": np.true_divide,
    "stablehlo.maximum": np.maximum,
    "stablehlo.minimum": np.minimum,
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
    "stablehlo.maximum": np.maximum,
    "stablehlo.minimum": np.minimum,
    "stablehlo.power": _int_power,
    "stablehlo.negate": _int_negate,
    "stablehlo.abs": _int_abs,
    "stablehlo.sign": np.sign,
}


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


# ----------------------------------------------------------------------------------------
# checks


@dataclass(frozen=True)
class CheckResult:
    """One executed check: the op, whether it passed and, if not, why."""

    op: Operation
    passed: bool
    message: str


class CheckFailure(OpInterpretationError):
    """A failed check outside `recording_checks()`, against the check op."""


_RECORDER: contextvars.ContextVar[list[CheckResult] | None] = contextvars.ContextVar(
    "xquant_checks", default=None
)


@contextlib.contextmanager
def recording_checks() -> Generator[list[CheckResult]]:
    """Record every check run inside the block (failures do not stop the run)."""
    results: list[CheckResult] = []
    token = _RECORDER.set(results)
    try:
        yield results
    finally:
        _RECORDER.reset(token)


def _report(op: Operation, failure: str | None) -> bool:
    results = _RECORDER.get()
    if results is not None:
        results.append(CheckResult(op, failure is None, failure or "ok"))
        return failure is None
    if failure is not None:
        raise CheckFailure(op, f"'{op.name}' op: {failure}")
    return True


def _index_text(flat: int, shape: Sequence[int]) -> str:
    return (
        "[" + ", ".join(str(int(i)) for i in np.unravel_index(flat, tuple(shape))) + "]"
        if shape
        else "[]"
    )


def _value_text(v: Any) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (np.integer, int)):
        # numpy's `integer` is generic; its parameter is irrelevant to `int()`.
        return str(int(cast("np.integer[Any] | int", v)))
    return repr(float(v))


def compare_exact(actual: np.ndarray, expected: np.ndarray) -> str | None:
    """None if equal (floats bitwise-equal or both NaN), else the first mismatch."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        return f"shape mismatch: {list(actual.shape)} (actual) vs {list(expected.shape)} (expected)"
    if is_float_dtype(actual.dtype):
        same = (actual == expected) | (
            np.isnan(actual.astype(np.float64)) & np.isnan(expected.astype(np.float64))
        )
    else:
        same = actual == expected
    return _first_mismatch(same, actual, expected, "")


def compare_almost(
    actual: np.ndarray, expected: np.ndarray, tolerance: float
) -> str | None:
    """|a - b| <= tolerance per element; NaN matches NaN; infinities must be equal."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if actual.shape != expected.shape:
        return f"shape mismatch: {list(actual.shape)} (actual) vs {list(expected.shape)} (expected)"
    if not is_float_dtype(actual.dtype):
        return compare_exact(actual, expected)
    a, b = actual.astype(np.float64), expected.astype(np.float64)
    with np.errstate(invalid="ignore"):
        close = np.abs(a - b) <= tolerance
    finite = np.isfinite(a) & np.isfinite(b)
    same = np.where(finite, close, (a == b) | (np.isnan(a) & np.isnan(b)))
    return _first_mismatch(same, actual, expected, f" with tolerance {tolerance:g}")


def compare_ulps(actual: np.ndarray, expected: np.ndarray, max_ulps: int) -> str | None:
    """At most `max_ulps` representable values apart (NaN matches NaN)."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    if not is_float_dtype(actual.dtype):
        return compare_exact(actual, expected)
    bits = np.dtype(f"int{actual.dtype.itemsize * 8}")
    a, b = actual.view(bits).astype(np.int64), expected.view(bits).astype(np.int64)
    top = np.int64(1) << (actual.dtype.itemsize * 8 - 1)
    a = np.where(a < 0, -(a + top), a)
    b = np.where(b < 0, -(b + top), b)
    nan = np.isnan(actual.astype(np.float64)) & np.isnan(expected.astype(np.float64))
    return _first_mismatch(
        (np.abs(a - b) <= max_ulps) | nan, actual, expected, f" within {max_ulps} ULP"
    )


def _first_mismatch(
    same: np.ndarray, actual: np.ndarray, expected: np.ndarray, how: str
) -> str | None:
    if bool(np.all(same)):
        return None
    flat = int(np.flatnonzero(~np.asarray(same).reshape(-1))[0])
    a, b = actual.reshape(-1)[flat], expected.reshape(-1)[flat]
    count = int(np.size(same) - np.count_nonzero(same))
    return (
        f"Element values don't match{how}: {_value_text(a)} (actual) vs {_value_text(b)} (expected) "
        f"at index {_index_text(flat, actual.shape)} ({count} of {np.size(same)} elements differ)"
    )


def check_eq(actual: np.ndarray, expected: np.ndarray) -> str | None:
    """`custom_call @check.eq`: exact for integers, |a-b| <= 1e-4 for floats."""
    if is_float_dtype(np.asarray(actual).dtype):
        return compare_almost(actual, expected, check.DEFAULT_TOLERANCE)
    return compare_exact(actual, expected)


CUSTOM_CALL_CHECKS: dict[str, Callable[[np.ndarray, np.ndarray], str | None]] = {
    "check.eq": check_eq,
    "check.expect_eq": compare_exact,
    "check.expect_almost_eq": lambda a, b: compare_almost(a, b, 1e-3),
    "check.expect_close": lambda a, b: compare_ulps(a, b, 3),
}


# ----------------------------------------------------------------------------------------
# reductions


def run_body(
    interpreter: Interpreter, region: Region, values: Sequence[np.ndarray], name: str
) -> list[np.ndarray]:
    """Run a reduction body on whole arrays (its ops are element-wise)."""
    return [
        np.asarray(v)
        for v in interpreter.run_ssacfg_region(region, tuple(values), name)
    ]


def tree_reduce(
    interpreter: Interpreter, region: Region, operands: list[np.ndarray], name: str
) -> list[np.ndarray]:
    """Fold the last axis with the body as a balanced binary tree (one body run per level)."""
    length = operands[0].shape[-1]
    while length > 1:
        half = length // 2
        lhs = [v[..., :half] for v in operands]
        rhs = [v[..., half : 2 * half] for v in operands]
        combined = run_body(interpreter, region, [*lhs, *rhs], name)
        if length % 2:
            combined = [
                np.concatenate([c, v[..., 2 * half :]], axis=-1)
                for c, v in zip(combined, operands)
            ]
        operands = combined
        length = operands[0].shape[-1]
    return [v[..., 0] for v in operands]


def _broadcast(value: np.ndarray, shape: Sequence[int]) -> np.ndarray:
    """A read-only broadcast view (no op writes into its operands; the few that write copy first)."""
    return np.broadcast_to(value, tuple(shape))


def integer_sum(
    region: Region, inputs: list[np.ndarray], inits: list[np.ndarray]
) -> np.ndarray | None:
    """The last axis summed at once when the body is one `add` on integers, else None.

    Integer adds wrap, so any order gives the tree's result. A quantized
    accumulator sums its zero-centred values exactly in i64 with one final
    clamp, as `stablehlo-legalize-quant-to-math` lowers it (a clamp at every
    step would make the result depend on the order).
    """
    if len(inputs) != 1 or red.combiner_name(region) != "stablehlo.add":
        return None
    acc = element_type(region.block.args[0].type)
    x, init = inputs[0], inits[0]
    q = quantized(acc)
    if q is not None and q.is_per_layer:
        z = q.zero_point
        total = x.sum(axis=-1, dtype=np.int64) + (
            init.astype(np.int64) - (x.shape[-1] * z)
        )
        clipped = np.clip(total, q.storage_min, q.storage_max)
        return clipped.astype(uniform.storage_numpy_dtype(q))
    if isinstance(acc, IntegerType) and int_info(region.block.args[0].type).width > 1:
        return x.sum(axis=-1, dtype=x.dtype) + init
    return None


def reduce_arrays(
    interpreter: Interpreter,
    region: Region,
    inputs: list[np.ndarray],
    inits: list[np.ndarray],
    axis_count: int,
    name: str,
) -> list[np.ndarray]:
    """Reduce the last `axis_count` axes of `inputs` (already in the body's types), then fold in the inits."""
    kept = inputs[0].shape[: inputs[0].ndim - axis_count]
    flat = [v.reshape(*kept, -1) for v in inputs]
    if flat[0].shape[-1] == 0:
        return [_broadcast(i, kept) for i in inits]
    if (total := integer_sum(region, flat, inits)) is not None:
        return [total]
    partial = tree_reduce(interpreter, region, flat, name)
    return run_body(
        interpreter, region, [*(_broadcast(i, kept) for i in inits), *partial], name
    )


# ----------------------------------------------------------------------------------------
# implementations


def _result(value: np.ndarray, t: Attribute) -> np.ndarray:
    return np.asarray(as_array(value, t))  # views stay views; rank 0 stays rank 0


@register_impls
class StableHloFunctions(InterpreterFunctions):
    """Implementations of every `stablehlo` op of the subset."""

    # --- constants and calls

    @impl(shlo.ConstantOp)
    def run_constant(
        self, interpreter: Interpreter, op: shlo.ConstantOp, args: PythonValues
    ) -> PythonValues:
        value = dense_value(op.value)
        if (q := quantized(op.output.type)) is not None:
            value = reinterpret(value, q.storage_width, q.is_signed)
        return (_result(value, op.output.type),)

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
        passed = _report(op, comparison(actual, expected))
        return tuple(np.array(passed) for _ in op.results)

    # --- element-wise

    @impl(ew.ClampOp)
    def run_clamp(
        self, interpreter: Interpreter, op: ew.ClampOp, args: PythonValues
    ) -> PythonValues:
        low, value, high = (
            to_float(a, t) for a, t in zip(args, op.operand_types, strict=True)
        )
        result = np.minimum(np.maximum(value, low), high)
        return (_result(from_float(result, op.result.type), op.result.type),)

    @impl(ew.CompareOp)
    def run_compare(
        self, interpreter: Interpreter, op: ew.CompareOp, args: PythonValues
    ) -> PythonValues:
        lhs, rhs = (to_float(a, t) for a, t in zip(args, op.operand_types, strict=True))
        compare_type = None if op.compare_type is None else op.compare_type.data.value
        if compare_type == "TOTALORDER" and is_float_dtype(lhs.dtype):
            lhs, rhs = _total_order(lhs), _total_order(rhs)
        with np.errstate(invalid="ignore"):
            return (COMPARISONS[op.comparison_direction.data.value](lhs, rhs),)

    @impl(ew.SelectOp)
    def run_select(
        self, interpreter: Interpreter, op: ew.SelectOp, args: PythonValues
    ) -> PythonValues:
        pred, on_true, on_false = (np.asarray(a) for a in args)
        result_type = op.result.type
        if op.on_true.type == op.on_false.type == result_type:
            return (_result(np.where(pred, on_true, on_false), result_type),)
        chosen = np.where(
            pred,
            to_float(on_true, op.on_true.type),
            to_float(on_false, op.on_false.type),
        )
        return (_result(from_float(chosen, result_type), result_type),)

    @impl(ew.ConvertOp)
    def run_convert(
        self, interpreter: Interpreter, op: ew.ConvertOp, args: PythonValues
    ) -> PythonValues:
        return (
            _result(
                convert_values(np.asarray(args[0]), op.result.type), op.result.type
            ),
        )

    @impl(ew.BitcastConvertOp)
    def run_bitcast_convert(
        self, interpreter: Interpreter, op: ew.BitcastConvertOp, args: PythonValues
    ) -> PythonValues:
        value = np.ascontiguousarray(as_array(args[0], op.operand.type))
        result_type = op.result.type
        dtype = holder_dtype(result_type)
        if value.dtype.itemsize == dtype.itemsize:
            return (value.view(dtype).reshape(shape_of(result_type)),)
        return (np.ascontiguousarray(value).view(dtype).reshape(shape_of(result_type)),)

    # --- quantization

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

    # --- structural

    @impl(shlo.ReshapeOp)
    def run_reshape(
        self, interpreter: Interpreter, op: shlo.ReshapeOp, args: PythonValues
    ) -> PythonValues:
        return (np.asarray(args[0]).reshape(shape_of(op.result.type)),)

    @impl(shlo.TransposeOp)
    def run_transpose(
        self, interpreter: Interpreter, op: shlo.TransposeOp, args: PythonValues
    ) -> PythonValues:
        return (np.ascontiguousarray(np.transpose(np.asarray(args[0]), op.dims)),)

    @impl(shlo.BroadcastInDimOp)
    def run_broadcast_in_dim(
        self, interpreter: Interpreter, op: shlo.BroadcastInDimOp, args: PythonValues
    ) -> PythonValues:
        value, shape = np.asarray(args[0]), shape_of(op.result.type)
        expanded = [1] * len(shape)
        for operand_dim, result_dim in enumerate(op.dims):
            expanded[result_dim] = value.shape[operand_dim]
        order = sorted(range(len(op.dims)), key=lambda i: op.dims[i])
        placed = np.transpose(value, order).reshape(expanded)
        result = _broadcast(placed, shape)
        return (
            _result(
                convert_to(result, op.operand.type, op.result.type), op.result.type
            ),
        )

    @impl(shlo.ConcatenateOp)
    def run_concatenate(
        self, interpreter: Interpreter, op: shlo.ConcatenateOp, args: PythonValues
    ) -> PythonValues:
        return (
            np.concatenate([np.asarray(a) for a in args], axis=op.dimension.value.data),
        )

    @impl(shlo.SliceOp)
    def run_slice(
        self, interpreter: Interpreter, op: shlo.SliceOp, args: PythonValues
    ) -> PythonValues:
        from xquant.dialects.stablehlo.syntax import array_values

        index = tuple(
            slice(s, limit, st)
            for s, limit, st in zip(
                array_values(op.start_indices),
                array_values(op.limit_indices),
                array_values(op.strides),
            )
        )
        return (np.ascontiguousarray(np.asarray(args[0])[index]),)

    @impl(shlo.IotaOp)
    def run_iota(
        self, interpreter: Interpreter, op: shlo.IotaOp, args: PythonValues
    ) -> PythonValues:
        shape = shape_of(op.output.type)
        dim = op.iota_dimension.value.data
        line = np.arange(shape[dim]).reshape(
            [-1 if d == dim else 1 for d in range(len(shape))]
        )
        return (_result(_broadcast(line, shape), op.output.type),)

    @impl(shlo.GatherOp)
    def run_gather(
        self, interpreter: Interpreter, op: shlo.GatherOp, args: PythonValues
    ) -> PythonValues:
        numbers = op.dimension_numbers
        result = kernels.gather(
            np.asarray(args[0]),
            np.asarray(args[1]),
            offset_dims=numbers.offset_dims,
            collapsed_slice_dims=numbers.collapsed_slice_dims,
            operand_batching_dims=numbers.operand_batching_dims,
            start_indices_batching_dims=numbers.start_indices_batching_dims,
            start_index_map=numbers.start_index_map,
            index_vector_dim=numbers.index_vector_dim,
            slice_sizes=op.sizes,
            result_shape=shape_of(op.result.type),
        )
        return (np.asarray(result),)  # rank 0 stays rank 0

    # --- contractions

    @impl(shlo.DotGeneralOp)
    def run_dot_general(
        self, interpreter: Interpreter, op: shlo.DotGeneralOp, args: PythonValues
    ) -> PythonValues:
        numbers = op.dot_dimension_numbers
        rhs_q = quantized(op.rhs.type)
        rhs_axis = None if rhs_q is None else rhs_q.quantized_dimension
        lhs_rank, rhs_rank = (len(shape_of(t)) for t in op.operand_types)
        lhs, rhs, rescale = _contraction_operands(
            op,
            args,
            None
            if rhs_axis is None
            else numbers.rhs_dimension_in_result(rhs_axis, lhs_rank, rhs_rank),
        )
        integer = not is_float_dtype(lhs.dtype)
        accumulator = np.int64 if integer else np.float64
        product = kernels.dot_general(
            lhs, rhs, numbers.lhs_batching, numbers.rhs_batching, numbers.lhs_contracting,
            numbers.rhs_contracting, accumulator,
        )  # fmt: skip
        return (_finish_contraction(product, lhs.dtype, op.result.type, rescale),)

    @impl(shlo.ConvolutionOp)
    def run_convolution(
        self, interpreter: Interpreter, op: shlo.ConvolutionOp, args: PythonValues
    ) -> PythonValues:
        numbers = op.dimension_numbers
        lhs, rhs, rescale = _contraction_operands(
            op, args, numbers.output_feature_dimension.data
        )
        strides, padding, lhs_dilation, rhs_dilation, reversal = op.window()
        integer = not is_float_dtype(lhs.dtype)
        product = kernels.convolution(
            lhs,
            rhs,
            input_batch=numbers.input_batch_dimension.data,
            input_feature=numbers.input_feature_dimension.data,
            input_spatial=numbers.input_spatial,
            kernel_input_feature=numbers.kernel_input_feature_dimension.data,
            kernel_output_feature=numbers.kernel_output_feature_dimension.data,
            kernel_spatial=numbers.kernel_spatial,
            output_batch=numbers.output_batch_dimension.data,
            output_feature=numbers.output_feature_dimension.data,
            output_spatial=numbers.output_spatial,
            strides=strides,
            padding=padding,
            lhs_dilation=lhs_dilation,
            rhs_dilation=rhs_dilation,
            reversal=reversal,
            feature_group_count=op.feature_group_count.value.data,
            batch_group_count=op.batch_group_count.value.data,
            accumulator=np.int64 if integer else np.float64,
        )
        return (_finish_contraction(product, lhs.dtype, op.result.type, rescale),)

    # --- reductions

    @impl_terminator(shlo.ReturnOp)
    def run_return(
        self, interpreter: Interpreter, op: shlo.ReturnOp, args: PythonValues
    ):
        return ReturnedValues(args), ()

    @impl(shlo.ReduceOp)
    def run_reduce(
        self, interpreter: Interpreter, op: shlo.ReduceOp, args: PythonValues
    ) -> PythonValues:
        count = len(op.inputs)
        accumulators = red.accumulator_types(op.body)
        dims = op.reduced_dimensions
        inputs: list[NDArray[Any]] = []
        inits: list[NDArray[Any]] = []
        for index in range(count):
            value = convert_to(
                np.asarray(args[index]), op.inputs[index].type, accumulators[index]
            )
            moved = (
                np.moveaxis(value, dims, range(value.ndim - len(dims), value.ndim))
                if dims
                else value
            )
            inputs.append(moved)
            inits.append(
                convert_to(
                    np.asarray(args[count + index]),
                    op.init_values[index].type,
                    accumulators[index],
                )
            )
        results = reduce_arrays(interpreter, op.body, inputs, inits, len(dims), op.name)
        return tuple(
            _result(r, t) for r, t in zip(results, op.result_types, strict=True)
        )

    @impl(shlo.ReduceWindowOp)
    def run_reduce_window(
        self, interpreter: Interpreter, op: shlo.ReduceWindowOp, args: PythonValues
    ) -> PythonValues:
        count = len(op.inputs)
        accumulators = red.accumulator_types(op.body)
        rank = len(shape_of(op.inputs[0].type))
        window, strides, padding = op.window(rank)
        base_dilations, window_dilations = op.dilations(rank)
        out_shape = shape_of(op.result_types[0])
        stacks: list[NDArray[Any]] = []
        inits: list[NDArray[Any]] = []
        for index in range(count):
            init = convert_to(
                np.asarray(args[count + index]),
                op.init_values[index].type,
                accumulators[index],
            )
            value = convert_to(
                np.asarray(args[index]), op.inputs[index].type, accumulators[index]
            )
            padded = kernels.pad_dilate(
                value, padding, [d - 1 for d in base_dilations], init
            )
            views = kernels.window_views(
                padded, window, strides, window_dilations, out_shape
            )
            stacks.append(
                np.stack(views, axis=-1)
                if views
                else np.zeros((*out_shape, 0), value.dtype)
            )
            inits.append(init)
        results = reduce_arrays(interpreter, op.body, stacks, inits, 1, op.name)
        return tuple(
            _result(r, t) for r, t in zip(results, op.result_types, strict=True)
        )

    @impl(shlo.SelectAndScatterOp)
    def run_select_and_scatter(
        self, interpreter: Interpreter, op: shlo.SelectAndScatterOp, args: PythonValues
    ) -> PythonValues:
        operand, source, init = (np.asarray(a) for a in args)
        shape = shape_of(op.operand.type)
        window, strides, padding = op.window(len(shape))
        source_shape = shape_of(op.source.type)
        accumulator = red.accumulator_types(op.scatter)[0]
        selected = _select_positions(
            interpreter, op, operand, shape, window, strides, padding, source_shape
        )
        contributions = convert_to(source, op.source.type, accumulator).reshape(-1)
        result = (
            _broadcast(convert_to(init, op.init_value.type, accumulator), shape)
            .copy()
            .reshape(-1)
        )
        targets = selected.reshape(-1)
        valid = targets >= 0
        targets, contributions = targets[valid], contributions[valid]
        order = np.argsort(targets, kind="stable")
        targets, contributions = targets[order], contributions[order]
        rank_in_group = np.arange(targets.size) - np.searchsorted(
            targets, targets, side="left"
        )
        for round_index in range(int(rank_in_group.max()) + 1 if targets.size else 0):
            pick = rank_in_group == round_index
            where = targets[pick]
            (combined,) = run_body(
                interpreter, op.scatter, [result[where], contributions[pick]], op.name
            )
            result[where] = combined
        return (_result(result.reshape(shape), op.result.type),)


def _select_positions(
    interpreter: Interpreter,
    op: shlo.SelectAndScatterOp,
    operand: np.ndarray,
    shape: Sequence[int],
    window: Sequence[int],
    strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    source_shape: Sequence[int],
) -> np.ndarray:
    """For each window (source element), the flat operand index `select` picks (-1: none)."""
    select_type = op.select.block.args[0].type
    values = convert_to(operand, op.operand.type, select_type)
    flat_index = np.arange(math.prod(shape), dtype=np.int64).reshape(shape)
    padded_values = kernels.pad_dilate(
        values, padding, [0] * len(shape), np.zeros((), values.dtype)
    )
    # -1 fills in flat_index's dtype (int64).
    padded_index = kernels.pad_dilate(flat_index, padding, [0] * len(shape), -1)
    ones = [1] * len(shape)
    value_views = kernels.window_views(
        padded_values, window, strides, ones, source_shape
    )
    index_views = kernels.window_views(
        padded_index, window, strides, ones, source_shape
    )
    best_value = np.array(value_views[0], copy=True)
    best_index = np.array(index_views[0], copy=True)
    for candidate_value, candidate_index in zip(value_views[1:], index_views[1:]):
        (keep,) = run_body(
            interpreter, op.select, [best_value, candidate_value], op.name
        )
        take = (candidate_index >= 0) & (
            (best_index < 0) | ~np.asarray(keep, dtype=bool)
        )
        best_value = np.where(take, candidate_value, best_value)
        best_index = np.where(take, candidate_index, best_index)
    return best_index


Rescale = tuple[np.ndarray, int | None, UniformQuantizedType]


def _contraction_operands(
    op: Operation, args: PythonValues, rhs_axis_in_result: int | None
) -> tuple[np.ndarray, np.ndarray, Rescale | None]:
    """dot/convolution operands: zero-centred integers when the result is rescaled from an
    exact integer sum (`uniform.contraction_rescale`), else dequantized floats."""
    lhs_q, rhs_q, result_q = (
        quantized(t) for t in (*op.operand_types, op.result_types[0])
    )
    if lhs_q is not None and rhs_q is not None and result_q is not None:
        found = uniform.contraction_rescale(lhs_q, rhs_q, result_q, rhs_axis_in_result)
        if found is not None:
            lhs = np.asarray(args[0]).astype(np.int64) - lhs_q.zero_point
            rhs = _zero_centred(np.asarray(args[1]), rhs_q)
            return lhs, rhs, (*found, result_q)
    lhs, rhs = (to_float(a, t) for a, t in zip(args, op.operand_types, strict=True))
    return lhs, rhs, None


def _zero_centred(q: np.ndarray, qtype: UniformQuantizedType) -> np.ndarray:
    """`q - zero_point` in int64, per tensor or per axis."""
    zero_points = np.asarray(qtype.zero_points, np.int64).reshape(-1)
    shape = [1] * q.ndim
    if qtype.quantized_dimension is not None:
        shape[qtype.quantized_dimension] = -1
    return q.astype(np.int64) - zero_points.reshape(shape)


def _finish_contraction(
    product: np.ndarray,
    operand_dtype: np.dtype[Any],
    result_type: Attribute,
    rescale: Rescale | None = None,
) -> np.ndarray:
    """Round a wide sum to the result: rescale an integer sum, quantize floats, or cast."""
    if rescale is not None:
        result = uniform.rescale_accumulator(product, *rescale)
    elif (q := quantized(result_type)) is not None:
        result = uniform.quantize(product.astype(uniform.expressed_dtype(q)), q)
    elif is_float_dtype(operand_dtype):
        result = product.astype(dtype_of(result_type))
    else:
        result = convert_values(product, result_type)
    return _result(result, result_type)


def _total_order(x: np.ndarray) -> np.ndarray:
    bits = np.dtype(f"int{x.dtype.itemsize * 8}")
    raw = x.view(bits).astype(np.int64)
    top = np.int64(1) << (x.dtype.itemsize * 8 - 1)
    return np.where(raw < 0, -(raw + top) - 1, raw)


@register_impls
class CheckFunctions(InterpreterFunctions):
    """The `check` dialect: compare, record, fail with the element index and both values."""

    @impl(check.ExpectEqOp)
    def run_expect_eq(
        self, interpreter: Interpreter, op: check.ExpectEqOp, args: PythonValues
    ) -> PythonValues:
        _report(op, compare_exact(np.asarray(args[0]), np.asarray(args[1])))
        return ()

    @impl(check.ExpectEqConstOp)
    def run_expect_eq_const(
        self, interpreter: Interpreter, op: check.ExpectEqConstOp, args: PythonValues
    ) -> PythonValues:
        _report(op, compare_exact(np.asarray(args[0]), _literal(op.value, op.lhs.type)))
        return ()

    @impl(check.ExpectAlmostEqOp)
    def run_expect_almost_eq(
        self, interpreter: Interpreter, op: check.ExpectAlmostEqOp, args: PythonValues
    ) -> PythonValues:
        tolerance = (
            check.DEFAULT_TOLERANCE if op.tolerance is None else op.tolerance.value.data
        )
        actual, expected = (
            to_float(a, t) for a, t in zip(args, op.operand_types, strict=True)
        )
        _report(op, compare_almost(actual, expected, tolerance))
        return ()

    @impl(check.ExpectAlmostEqConstOp)
    def run_expect_almost_eq_const(
        self,
        interpreter: Interpreter,
        op: check.ExpectAlmostEqConstOp,
        args: PythonValues,
    ) -> PythonValues:
        tolerance = (
            check.DEFAULT_TOLERANCE if op.tolerance is None else op.tolerance.value.data
        )
        actual = to_float(np.asarray(args[0]), op.lhs.type)
        expected = to_float(_literal(op.value, op.lhs.type), op.lhs.type)
        _report(op, compare_almost(actual, expected, tolerance))
        return ()

    @impl(check.ExpectCloseOp)
    def run_expect_close(
        self, interpreter: Interpreter, op: check.ExpectCloseOp, args: PythonValues
    ) -> PythonValues:
        _report(op, compare_ulps(np.asarray(args[0]), np.asarray(args[1]), op.max_ulps))
        return ()


def _literal(value: DenseIntOrFPElementsAttr, t: Attribute) -> np.ndarray:
    array = dense_value(value)
    if isinstance(q := element_type(t), UniformQuantizedType):
        return reinterpret(array, q.storage_width, q.is_signed)
    return array


def _elementwise_impl(op_class: type[Operation]) -> Callable[..., PythonValues]:
    @impl(op_class)
    def run(
        self: InterpreterFunctions,
        interpreter: Interpreter,
        op: Operation,
        args: PythonValues,
    ) -> PythonValues:
        return (_result(elementwise(op, args), op.result_types[0]),)

    return run


ElementwiseFunctions = register_impls(
    type(
        "ElementwiseFunctions",
        (InterpreterFunctions,),
        {
            "__doc__": "The arithmetic element-wise ops (one implementation, `elementwise`, for all).",
            **{
                f"run_{c.name.split('.', 1)[1]}": _elementwise_impl(c)
                for c in (*ew.UNARY_OPS, *ew.BINARY_OPS)
            },
        },
    )
)

FUNCTIONS: list[InterpreterFunctions] = [
    StableHloFunctions(),
    ElementwiseFunctions(),
    CheckFunctions(),
]
