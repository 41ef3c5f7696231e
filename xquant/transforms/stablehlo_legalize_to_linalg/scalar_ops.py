"""StableHLO ops on scalars as arith/math ops (upstream: `MapStablehloToScalarOp.h`).

`emit_scalar` builds the body of one element of an element-wise op (or of a
reducer's StableHLO op); `emit_convert` is StableHLO's convert semantics.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from typing import cast

import numpy as np
from xdsl.dialects import arith, complex, math
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    ComplexType,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerType,
    TensorType,
    f32,
    f64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.utils.hints import isa

from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo.math_extra import ReducePrecisionOp
from xquant.dialects.stablehlo.type_utils import is_quantized
from xquant.dialects.upstream.arith import RemFOp
from xquant.numerics.dtypes import numpy_dtype
from xquant.numerics.values import dense_value, element_type
from xquant.transforms.stablehlo_legalize_to_linalg.common import (
    Ops,
    Unsupported,
    build_generic,
    empty,
    parallel,
)
from xquant.transforms.stablehlo_legalize_to_linalg.type_conversion import (
    check_signless,
    is_bool,
    is_float,
    is_unsigned,
    signless,
)
from xquant.transforms.utils.quant_emitters import scalar_constant


def _toward_zero_bound(value: int, element: Attribute) -> float:
    """`value` in the float type `element`, rounded toward zero (so the clamp cannot overflow)."""
    dtype = numpy_dtype(element)
    with np.errstate(over="ignore"):
        rounded = np.array(value, dtype=np.float64).astype(dtype)
    while not np.isfinite(rounded) or abs(float(rounded)) > abs(value):
        rounded = np.nextafter(rounded, dtype.type(0))
    return float(rounded)


FLOAT_BINARY: dict[str, Callable[..., Operation]] = {
    "stablehlo.add": arith.AddfOp,
    "stablehlo.subtract": arith.SubfOp,
    "stablehlo.multiply": arith.MulfOp,
    "stablehlo.divide": arith.DivfOp,
    "stablehlo.maximum": arith.MaximumfOp,
    "stablehlo.minimum": arith.MinimumfOp,
    "stablehlo.power": math.PowFOp,
    "stablehlo.remainder": RemFOp,
    "stablehlo.atan2": math.Atan2Op,
}
INT_BINARY: dict[str, Callable[..., Operation]] = {
    "stablehlo.add": arith.AddiOp,
    "stablehlo.subtract": arith.SubiOp,
    "stablehlo.multiply": arith.MuliOp,
    "stablehlo.maximum": arith.MaxSIOp,
    "stablehlo.minimum": arith.MinSIOp,
}
BOOL_BINARY: dict[str, Callable[..., Operation]] = {
    "stablehlo.add": arith.OrIOp,
    "stablehlo.multiply": arith.AndIOp,
    "stablehlo.maximum": arith.MaxUIOp,
    "stablehlo.minimum": arith.MinUIOp,
}
FLOAT_UNARY: dict[str, Callable[..., Operation]] = {
    "stablehlo.negate": arith.NegfOp,
    "stablehlo.abs": math.AbsFOp,
    "stablehlo.ceil": math.CeilOp,
    "stablehlo.floor": math.FloorOp,
    "stablehlo.round_nearest_even": math.RoundEvenOp,
    "stablehlo.round_nearest_afz": math.RoundOp,
    "stablehlo.sqrt": math.SqrtOp,
    "stablehlo.rsqrt": math.RsqrtOp,
    "stablehlo.cbrt": math.CbrtOp,
    "stablehlo.exponential": math.ExpOp,
    "stablehlo.exponential_minus_one": math.ExpM1Op,
    "stablehlo.log": math.LogOp,
    "stablehlo.log_plus_one": math.Log1pOp,
    "stablehlo.tanh": math.TanhOp,
    "stablehlo.sine": math.SinOp,
    "stablehlo.cosine": math.CosOp,
    "stablehlo.tan": math.TanOp,
}
FLOAT_PREDICATES = {
    "EQ": "oeq",
    "NE": "une",
    "GE": "oge",
    "GT": "ogt",
    "LE": "ole",
    "LT": "olt",
}
INT_PREDICATES = {
    "EQ": "eq",
    "NE": "ne",
    "GE": "sge",
    "GT": "sgt",
    "LE": "sle",
    "LT": "slt",
}
# i1 is a boolean (false < true), not the signed values 0 and -1.
BOOL_PREDICATES = {
    "EQ": "eq",
    "NE": "ne",
    "GE": "uge",
    "GT": "ugt",
    "LE": "ule",
    "LT": "ult",
}


def emit_convert(
    body: Ops, hoist: Ops, x: SSAValue, source: Attribute, target: Attribute
) -> SSAValue:
    """StableHLO's convert on scalars (truncating, saturating, NaN -> 0 for float -> integer)."""
    if source == target:
        return x
    if isa(source, IntegerType) and isa(target, IntegerType):
        if is_bool(target):
            return body.add(arith.CmpiOp(x, scalar_constant(hoist, 0, source), "ne"))
        if source.width.data < target.width.data:
            cast_op = arith.ExtUIOp if is_bool(source) else arith.ExtSIOp
            return body.add(cast_op(x, target))
        return body.add(arith.TruncIOp(x, target))
    if isa(source, IntegerType):
        # Integer to not-integer: complex types went to _emit_complex, so a float.
        cast_op = arith.UIToFPOp if is_bool(source) else arith.SIToFPOp
        return body.add(cast_op(x, cast(AnyFloat, target)))
    if not isa(target, IntegerType):
        source_bits, target_bits = (
            numpy_dtype(source).itemsize,
            numpy_dtype(target).itemsize,
        )
        if source_bits == target_bits:
            # bf16 <-> f16: neither holds the other; f32 holds both exactly.
            x = body.add(arith.ExtFOp(x, f32))
            return body.add(arith.TruncFOp(x, target))
        cast_op = arith.ExtFOp if source_bits < target_bits else arith.TruncFOp
        return body.add(cast_op(x, target))
    if is_bool(target):
        return body.add(arith.CmpfOp(x, scalar_constant(hoist, 0.0, source), "une"))
    width = target.width.data
    if width == 32 and numpy_dtype(source).itemsize < 8:
        x, source = body.add(arith.ExtFOp(x, f64)), f64
    is_nan = body.add(arith.CmpfOp(x, x, "uno"))
    x = body.add(arith.SelectOp(is_nan, scalar_constant(hoist, 0.0, source), x))
    low = scalar_constant(
        hoist, _toward_zero_bound(-(1 << (width - 1)), source), source
    )
    high = scalar_constant(
        hoist, _toward_zero_bound((1 << (width - 1)) - 1, source), source
    )
    clamped = body.add(arith.MinimumfOp(body.add(arith.MaximumfOp(x, low)), high))
    converted = body.add(arith.FPToSIOp(clamped, target))
    if _toward_zero_bound((1 << (width - 1)) - 1, source) == (1 << (width - 1)) - 1:
        return converted
    # The integer maximum is not a float of this type: everything from 2^(w-1)
    # up (a power of two, exact or +inf) saturates to it.
    limit = scalar_constant(hoist, _power_of_two_or_inf(width - 1, source), source)
    too_big = body.add(arith.CmpfOp(x, limit, "oge"))
    maximum = scalar_constant(hoist, (1 << (width - 1)) - 1, target)
    return body.add(arith.SelectOp(too_big, maximum, converted))


def _power_of_two_or_inf(exponent: int, element: Attribute) -> float:
    """2^exponent in the float type `element`, or +inf where it is out of range."""
    with np.errstate(over="ignore"):
        return float(np.array(2.0**exponent).astype(numpy_dtype(element)))


def _sign(body: Ops, hoist: Ops, x: SSAValue, element: Attribute) -> SSAValue:
    zero, one, minus = (scalar_constant(hoist, v, element) for v in (0, 1, -1))
    if is_float(element):
        positive = body.add(arith.CmpfOp(x, zero, "ogt"))
        negative = body.add(arith.CmpfOp(x, zero, "olt"))
    else:
        positive = body.add(arith.CmpiOp(x, zero, "sgt"))
        negative = body.add(arith.CmpiOp(x, zero, "slt"))
    other = zero if not is_float(element) else x  # keeps NaN and the sign of zero
    return body.add(
        arith.SelectOp(positive, one, body.add(arith.SelectOp(negative, minus, other)))
    )


INT_BITWISE: dict[str, Callable[..., Operation]] = {
    "stablehlo.and": arith.AndIOp,
    "stablehlo.or": arith.OrIOp,
    "stablehlo.xor": arith.XOrIOp,
}
SHIFTS = (
    "stablehlo.shift_left",
    "stablehlo.shift_right_arithmetic",
    "stablehlo.shift_right_logical",
)


def _signed_division(
    body: Ops,
    hoist: Ops,
    lhs: SSAValue,
    rhs: SSAValue,
    element: Attribute,
    *,
    remainder: bool,
) -> SSAValue:
    """Truncating division (x / 0 = -1, MIN / -1 = MIN) or remainder (x % 0 = x,
    MIN % -1 = 0), as upstream (and XLA): the divisor is made safe first."""
    assert isa(element, IntegerType)
    minimum = -(1 << (element.width.data - 1))
    zero, one = scalar_constant(hoist, 0, element), scalar_constant(hoist, 1, element)
    minus_one = scalar_constant(hoist, -1, element)
    smallest = scalar_constant(hoist, minimum, element)
    by_zero = body.add(arith.CmpiOp(rhs, zero, "eq"))
    lhs_is_min = body.add(arith.CmpiOp(lhs, smallest, "eq"))
    rhs_is_minus_one = body.add(arith.CmpiOp(rhs, minus_one, "eq"))
    overflow = body.add(arith.AndIOp(lhs_is_min, rhs_is_minus_one))
    special = body.add(arith.OrIOp(by_zero, overflow))
    safe_rhs = body.add(arith.SelectOp(special, one, rhs))
    if remainder:
        result = body.add(arith.RemSIOp(lhs, safe_rhs))
        result = body.add(arith.SelectOp(overflow, zero, result))
        return body.add(arith.SelectOp(by_zero, lhs, result))
    result = body.add(arith.DivSIOp(lhs, safe_rhs))
    result = body.add(arith.SelectOp(overflow, smallest, result))
    return body.add(arith.SelectOp(by_zero, minus_one, result))


def _reduce_precision(
    body: Ops,
    hoist: Ops,
    x: SSAValue,
    element: Attribute,
    exponent_bits: int,
    mantissa_bits: int,
) -> SSAValue:
    """Round `x` to a float with `exponent_bits` and `mantissa_bits`, kept in its
    own type (upstream's `reducePrecision`, from XLA): round to nearest even on
    the bits, then overflow to infinity and underflow to zero; NaN stays."""
    info = np.finfo(numpy_dtype(element))
    width, src_mantissa = info.bits, int(info.nmant)
    src_exponent = width - 1 - src_mantissa
    int_type = IntegerType(width)

    def const(value: int) -> SSAValue:
        return scalar_constant(hoist, value, int_type)

    exponent_mask = ((1 << src_exponent) - 1) << src_mantissa
    bits = body.add(arith.BitcastOp(x, int_type))
    magnitude = body.add(arith.AndIOp(bits, const((1 << (width - 1)) - 1)))
    is_nan = body.add(arith.CmpiOp(magnitude, const(exponent_mask), "ugt"))
    rounded = bits
    if mantissa_bits < src_mantissa:
        shift = src_mantissa - mantissa_bits
        last_bit_mask = 1 << shift
        last_bit = body.add(arith.AndIOp(bits, const(last_bit_mask)))
        last_bit = body.add(arith.ShRUIOp(last_bit, const(shift)))
        bias = body.add(arith.AddiOp(last_bit, const((last_bit_mask >> 1) - 1)))
        rounded = body.add(arith.AddiOp(bits, bias))
        bits = body.add(arith.AndIOp(rounded, const(-last_bit_mask)))
    if exponent_bits < src_exponent:
        # The masks below keep bits the truncation left alone, so they read
        # `rounded` (MLIR's canonicalizer folds the two `andi`s the same way).
        exponent_bias = (1 << (src_exponent - 1)) - 1
        reduced_bias = (1 << (exponent_bits - 1)) - 1
        exponent = body.add(arith.AndIOp(rounded, const(exponent_mask)))
        overflows = body.add(
            arith.CmpiOp(
                exponent, const((exponent_bias + reduced_bias) << src_mantissa), "ugt"
            )
        )
        underflows = body.add(
            arith.CmpiOp(
                exponent, const((exponent_bias - reduced_bias) << src_mantissa), "ule"
            )
        )
        signed_zero = body.add(arith.AndIOp(rounded, const(-(1 << (width - 1)))))
        signed_inf = body.add(arith.OrIOp(signed_zero, const(exponent_mask)))
        bits = body.add(arith.SelectOp(overflows, signed_inf, bits))
        bits = body.add(arith.SelectOp(underflows, signed_zero, bits))
    converted = body.add(arith.BitcastOp(bits, element))
    if mantissa_bits > 0:
        return body.add(arith.SelectOp(is_nan, x, converted))
    nan = scalar_constant(hoist, float("nan"), element)
    return body.add(arith.SelectOp(is_nan, nan, converted))


def _total_order_key(
    body: Ops, hoist: Ops, x: SSAValue, element: Attribute
) -> SSAValue:
    """The float's bits as a signed integer ordered as IEEE totalOrder: negative
    values have their magnitude bits flipped (`MAX - bits`), as upstream."""
    width = numpy_dtype(element).itemsize * 8
    int_type = IntegerType(width)
    bits = body.add(arith.BitcastOp(x, int_type))
    zero = scalar_constant(hoist, 0, int_type)
    maximum = scalar_constant(hoist, (1 << (width - 1)) - 1, int_type)
    negative = body.add(arith.CmpiOp(bits, zero, "slt"))
    flipped = body.add(arith.SubiOp(maximum, bits))
    return body.add(arith.SelectOp(negative, flipped, bits))


def _shift(
    body: Ops, hoist: Ops, name: str, lhs: SSAValue, rhs: SSAValue, element: Attribute
) -> SSAValue:
    """A shift by `rhs` (read unsigned); shifting by the width or more saturates, as upstream."""
    assert isa(element, IntegerType)
    bits = scalar_constant(hoist, element.width.data, element)
    if name == "stablehlo.shift_left":
        shifted, saturated = (
            body.add(arith.ShLIOp(lhs, rhs)),
            scalar_constant(hoist, 0, element),
        )
    elif name == "stablehlo.shift_right_logical":
        shifted, saturated = (
            body.add(arith.ShRUIOp(lhs, rhs)),
            scalar_constant(hoist, 0, element),
        )
    else:
        shifted = body.add(arith.ShRSIOp(lhs, rhs))
        max_shift = scalar_constant(hoist, element.width.data - 1, element)
        saturated = body.add(arith.ShRSIOp(lhs, max_shift))
    in_range = body.add(arith.CmpiOp(rhs, bits, "ult"))
    return body.add(arith.SelectOp(in_range, shifted, saturated))


COMPLEX_BINARY: dict[str, Callable[..., Operation]] = {
    "stablehlo.add": complex.AddOp,
    "stablehlo.subtract": complex.SubOp,
    "stablehlo.multiply": complex.MulOp,
    "stablehlo.divide": complex.DivOp,
    "stablehlo.atan2": complex.Atan2Op,
    "stablehlo.power": complex.PowOp,
}
COMPLEX_UNARY: dict[str, Callable[..., Operation]] = {
    "stablehlo.sqrt": complex.SqrtOp,
    "stablehlo.rsqrt": complex.RsqrtOp,
    "stablehlo.exponential": complex.ExpOp,
    "stablehlo.exponential_minus_one": complex.Expm1Op,
    "stablehlo.log": complex.LogOp,
    "stablehlo.log_plus_one": complex.Log1pOp,
    "stablehlo.negate": complex.NegOp,
    "stablehlo.sign": complex.SignOp,
    "stablehlo.tanh": complex.TanhOp,
    "stablehlo.tan": complex.TanOp,
    "stablehlo.cosine": complex.CosOp,
    "stablehlo.sine": complex.SinOp,
    "stablehlo.abs": complex.AbsOp,
    "stablehlo.real": complex.ReOp,
    "stablehlo.imag": complex.ImOp,
}


def complex_constant(
    hoist: Ops, value: builtins.complex, element: ComplexType
) -> SSAValue:
    """`complex.constant [re, im]` (upstream materializes complex splats this way)."""
    part = element.element_type
    assert isinstance(part, AnyFloat)
    parts = ArrayAttr([FloatAttr(value.real, part), FloatAttr(value.imag, part)])
    return hoist.add(complex.ConstantOp(parts, element))


def _emit_complex(
    op: Operation,
    operands: Sequence[SSAValue],
    body: Ops,
    hoist: Ops,
    result: Attribute,
) -> SSAValue:
    """StableHLO ops on complex scalars: the `complex` dialect op of the same name."""
    name = op.name
    if name in COMPLEX_BINARY:
        return body.add(COMPLEX_BINARY[name](*operands))
    if name in COMPLEX_UNARY:
        return body.add(COMPLEX_UNARY[name](operands[0]))
    if name == "stablehlo.logistic" and isa(result, ComplexType):
        part = result.element_type
        exp = body.add(complex.ExpOp(body.add(complex.NegOp(operands[0]))))
        one = body.add(
            complex.CreateOp(
                scalar_constant(hoist, 1.0, part),
                scalar_constant(hoist, 0.0, part),
                result,
            )
        )
        return body.add(complex.DivOp(one, body.add(complex.AddOp(exp, one))))
    if isinstance(op, ew.SelectOp):
        return body.add(arith.SelectOp(*operands))
    if isinstance(op, ew.ConvertOp):
        source = element_type(op.operand_types[0])
        if source == result:
            return operands[0]
        if isa(source, ComplexType) and not isinstance(result, ComplexType):
            # complex -> real keeps the real part (upstream: `complex.re`).
            real = body.add(complex.ReOp(operands[0]))
            return emit_convert(body, hoist, real, source.element_type, result)
        raise Unsupported("convert to a complex type")
    if name == "stablehlo.complex" and isa(result, ComplexType):
        return body.add(complex.CreateOp(operands[0], operands[1], result))
    if isinstance(op, ew.CompareOp):
        direction = op.comparison_direction.data.value
        if direction in ("EQ", "NE"):
            compare = complex.EqualOp if direction == "EQ" else complex.NotEqualOp
            return body.add(compare(*operands))
    raise Unsupported(f"{name} on complex numbers")


UNSIGNED_BINARY: dict[str, Callable[..., Operation]] = {
    "stablehlo.add": arith.AddiOp,
    "stablehlo.subtract": arith.SubiOp,
    "stablehlo.multiply": arith.MuliOp,
    "stablehlo.maximum": arith.MaxUIOp,
    "stablehlo.minimum": arith.MinUIOp,
    "stablehlo.and": arith.AndIOp,
    "stablehlo.or": arith.OrIOp,
    "stablehlo.xor": arith.XOrIOp,
}


def _emit_unsigned(
    op: Operation,
    operands: Sequence[SSAValue],
    body: Ops,
    hoist: Ops,
    types: Sequence[Attribute],
    result: Attribute,
) -> SSAValue:
    """Ops on unsigned integers, on their signless values with unsigned arith ops
    (upstream's `MapStablehloToScalarOp` for `isUnsignedInteger` types)."""
    name = op.name
    element = signless(result)
    if isinstance(op, ew.ConvertOp):
        source, target = types[0], result
        if not (isa(source, IntegerType) and isa(target, IntegerType)):
            if is_unsigned(source) and not isa(target, IntegerType):
                return body.add(arith.UIToFPOp(operands[0], cast(AnyFloat, target)))
            raise Unsupported("float <-> unsigned convert")
        if source.width.data == target.width.data:
            return operands[0]
        if source.width.data > target.width.data:
            return body.add(arith.TruncIOp(operands[0], signless(target)))
        extend = arith.ExtUIOp if is_unsigned(source) else arith.ExtSIOp
        return body.add(extend(operands[0], signless(target)))
    if isinstance(op, ew.CompareOp):
        direction = op.comparison_direction.data.value
        return body.add(
            arith.CmpiOp(operands[0], operands[1], BOOL_PREDICATES[direction])
        )
    if isinstance(op, ew.SelectOp):
        return body.add(arith.SelectOp(*operands))
    if isinstance(op, ew.ClampOp):
        low, x, high = operands
        return body.add(arith.MinUIOp(body.add(arith.MaxUIOp(low, x)), high))
    if name in UNSIGNED_BINARY:
        return body.add(UNSIGNED_BINARY[name](*operands))
    if name in ("stablehlo.divide", "stablehlo.remainder"):
        # x / 0 is all ones and x % 0 is x, as upstream (and XLA).
        lhs, rhs = operands
        zero = scalar_constant(hoist, 0, element)
        by_zero = body.add(arith.CmpiOp(rhs, zero, "eq"))
        safe_rhs = body.add(
            arith.SelectOp(by_zero, scalar_constant(hoist, 1, element), rhs)
        )
        if name == "stablehlo.divide":
            quotient = body.add(arith.DivUIOp(lhs, safe_rhs))
            minus_one = scalar_constant(hoist, -1, element)
            return body.add(arith.SelectOp(by_zero, minus_one, quotient))
        remainder = body.add(arith.RemUIOp(lhs, safe_rhs))
        return body.add(arith.SelectOp(by_zero, lhs, remainder))
    if name == "stablehlo.not":
        return body.add(arith.XOrIOp(operands[0], scalar_constant(hoist, -1, element)))
    if name in ("stablehlo.shift_left", "stablehlo.shift_right_logical"):
        return _shift(body, hoist, name, operands[0], operands[1], element)
    if name == "stablehlo.popcnt":  # bit counts do not depend on signedness
        return body.add(math.CtPopOp(operands[0]))
    if name == "stablehlo.count_leading_zeros":
        return body.add(math.CountLeadingZerosOp(operands[0]))
    raise Unsupported(f"{name} on unsigned integers")


def emit_scalar(
    op: Operation, operands: Sequence[SSAValue], body: Ops, hoist: Ops
) -> SSAValue:
    """The scalar computation of one element of `op` (a StableHLO op on rank-0 values)."""
    name = op.name
    types = [element_type(t) for t in op.operand_types]
    result = element_type(op.result_types[0])
    if any(isinstance(t, ComplexType) for t in (*types, result)):
        return _emit_complex(op, operands, body, hoist, result)
    # A real number is its own real part; its imaginary part is zero.
    if name == "stablehlo.real":
        return operands[0]
    if name == "stablehlo.imag":
        return scalar_constant(hoist, 0.0, result)
    if any(is_unsigned(t) for t in (*types, result)):
        return _emit_unsigned(op, operands, body, hoist, types, result)
    for t in (*types, result):
        check_signless(t)
        if is_quantized(t):
            raise Unsupported("quantized operand")
    if isinstance(op, shlo.ConstantOp):
        if not isa(op.value, DenseIntOrFPElementsAttr):
            raise Unsupported("dense_resource constant in a body")
        return scalar_constant(
            hoist, dense_value(op.value).reshape(-1)[0].item(), result
        )
    if isinstance(op, ew.ConvertOp):
        return emit_convert(body, hoist, operands[0], types[0], result)
    if isinstance(op, ew.BitcastConvertOp):
        return body.add(arith.BitcastOp(operands[0], result))
    if isinstance(op, ew.CompareOp):
        direction = op.comparison_direction.data.value
        if op.compare_type is not None and op.compare_type.data.value == "TOTALORDER":
            if not is_float(types[0]):
                raise Unsupported("TOTALORDER compare on integers")
            lhs, rhs = (_total_order_key(body, hoist, v, types[0]) for v in operands)
            return body.add(arith.CmpiOp(lhs, rhs, INT_PREDICATES[direction]))
        if is_float(types[0]):
            return body.add(
                arith.CmpfOp(operands[0], operands[1], FLOAT_PREDICATES[direction])
            )
        predicate = INT_PREDICATES[direction]
        if is_bool(types[0]):
            predicate = BOOL_PREDICATES[direction]
        return body.add(arith.CmpiOp(operands[0], operands[1], predicate))
    if isinstance(op, ew.SelectOp):
        return body.add(arith.SelectOp(*operands))
    if isinstance(op, ew.ClampOp):
        low, x, high = operands
        if is_float(result):
            return body.add(arith.MinimumfOp(body.add(arith.MaximumfOp(low, x)), high))
        if is_bool(result):
            return body.add(arith.MinUIOp(body.add(arith.MaxUIOp(low, x)), high))
        return body.add(arith.MinSIOp(body.add(arith.MaxSIOp(low, x)), high))
    if name == "stablehlo.sign":
        return _sign(body, hoist, operands[0], result)
    if isinstance(op, ReducePrecisionOp):
        return _reduce_precision(
            body,
            hoist,
            operands[0],
            result,
            op.exponent_bits.value.data,
            op.mantissa_bits.value.data,
        )
    if name == "stablehlo.is_finite":
        infinity = scalar_constant(hoist, float("inf"), types[0])
        magnitude = body.add(math.AbsFOp(operands[0]))
        return body.add(arith.CmpfOp(magnitude, infinity, "one"))
    if is_bool(result) and name in BOOL_BINARY:
        return body.add(BOOL_BINARY[name](*operands))
    if not is_float(result):
        if name in INT_BINARY:
            return body.add(INT_BINARY[name](*operands))
        if name == "stablehlo.negate":
            return body.add(
                arith.SubiOp(scalar_constant(hoist, 0, result), operands[0])
            )
        if name == "stablehlo.abs":
            zero = scalar_constant(hoist, 0, result)
            negated = body.add(arith.SubiOp(zero, operands[0]))
            is_negative = body.add(arith.CmpiOp(operands[0], zero, "slt"))
            return body.add(arith.SelectOp(is_negative, negated, operands[0]))
        if name in INT_BITWISE:
            return body.add(INT_BITWISE[name](*operands))
        if name == "stablehlo.not":
            return body.add(
                arith.XOrIOp(operands[0], scalar_constant(hoist, -1, result))
            )
        if name == "stablehlo.divide":
            return _signed_division(
                body, hoist, operands[0], operands[1], result, remainder=False
            )
        if name == "stablehlo.remainder":
            return _signed_division(
                body, hoist, operands[0], operands[1], result, remainder=True
            )
        if name == "stablehlo.popcnt":
            return body.add(math.CtPopOp(operands[0]))
        if name == "stablehlo.count_leading_zeros":
            return body.add(math.CountLeadingZerosOp(operands[0]))
        if name in SHIFTS:
            return _shift(body, hoist, name, operands[0], operands[1], result)
        raise Unsupported(f"{name} on integers")
    if name in FLOAT_BINARY:
        return body.add(FLOAT_BINARY[name](*operands))
    if name in FLOAT_UNARY:
        return body.add(FLOAT_UNARY[name](operands[0]))
    if name == "stablehlo.logistic":
        one = scalar_constant(hoist, 1.0, result)
        denominator = body.add(
            arith.AddfOp(body.add(math.ExpOp(body.add(arith.NegfOp(operands[0])))), one)
        )
        return body.add(arith.DivfOp(one, denominator))
    raise Unsupported(name)


def convert_tensor(
    ops: Ops, value: SSAValue, result_type: TensorType[Attribute]
) -> SSAValue:
    rank = len(result_type.get_shape())
    source = element_type(value.type)
    target = result_type.get_element_type()
    hoist = Ops([])
    staged = Ops([])
    out = empty(staged, result_type)
    (result,) = build_generic(
        staged,
        [value],
        [AffineMap.identity(rank)],
        [out],
        [AffineMap.identity(rank)],
        parallel(rank),
        lambda args, body: [emit_convert(body, hoist, args[0], source, target)],
    )
    ops.ops.extend([*hoist.ops, *staged.ops])
    return result
