"""StableHLO expansions of chlo's element-wise math, as upstream's `chlo-legalize-to-stablehlo`.

From `stablehlo/transforms/ChloLegalizeToStablehlo.cpp` and
`ChloDecompositionPatterns.td`: the same ops in the same order, the same f32
coefficients (Cephes/Eigen), 16-bit floats upcast to f32 and back
(`materializeWithUpcast`). `EXPANSIONS` maps an op name to its builder;
the real-input forms of `ChloDecompositionPatternsMath.td` (asin, acos, asinh,
acosh, as generated there) are reproduced too, and `materializeLgamma` /
`materializeDigamma` (Lanczos' approximation, g = 7, n = 9; f32 and f64 as they
are, f16/bf16 through f32). Ops without an entry (f64 `erf`/`erfc`/`erf_inv`,
complex inputs) stay chlo: their upstream expansions are not reproduced here, and
a different formula would be a different result.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, cast

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    BoolAttr,
    ComplexType,
    DenseArrayBase,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    f32,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.utils.hints import isa

from xquant.dialects.chlo import ConstantLikeOp, RaggedDotOp, ScanOp, TopKOp
from xquant.dialects.shape import ShapeOfOp
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo import math_extra
from xquant.dialects.stablehlo.attributes import (
    ComparisonDirection,
    ComparisonDirectionAttr,
    ComparisonType,
    ComparisonTypeAttr,
    DotDimensionNumbersAttr,
)
from xquant.dialects.stablehlo.attributes import Precision as ShloPrecision
from xquant.dialects.stablehlo.attributes import PrecisionAttr as ShloPrecisionAttr
from xquant.dialects.stablehlo.bitwise import (
    AndOp,
    OrOp,
    ShiftRightArithmeticOp,
    ShiftRightLogicalOp,
)
from xquant.dialects.stablehlo.control_flow import SortOp, WhileOp
from xquant.dialects.stablehlo.dot_conv import DotGeneralOp
from xquant.dialects.stablehlo.dynamism import (
    DynamicBroadcastInDimOp,
    DynamicIotaOp,
    DynamicReshapeOp,
    DynamicSliceOp,
    DynamicUpdateSliceOp,
    GetDimensionSizeOp,
    RealDynamicSliceOp,
    SetDimensionSizeOp,
)
from xquant.dialects.stablehlo.reductions import ReturnOp
from xquant.dialects.stablehlo.structural import (
    BroadcastInDimOp,
    ConcatenateOp,
    IotaOp,
    ReshapeOp,
    SliceOp,
)
from xquant.dialects.stablehlo.types import TypeExtensionsAttr
from xquant.numerics.values import dtype_of, element_type, int_info, with_element
from xquant.transforms.utils.chlo_complex_math import expand_complex
from xquant.transforms.utils.stablehlo_emitters import HloBuilder, is_static, shape_of

ERF_T = (
    +7.853861353153693e-5,
    -8.010193625184903e-4,
    +5.188327685732524e-3,
    -2.685381193529856e-2,
    +1.128358514861418e-1,
    -3.761262582423300e-1,
    +1.128379165726710e0,
)
ERFC_P = (
    +2.326819970068386e-2,
    -1.387039388740657e-1,
    +3.687424674597105e-1,
    -5.824733027278666e-1,
    +6.210004621745983e-1,
    -4.944515323274145e-1,
    +3.404879937665872e-1,
    -2.741127028184656e-1,
    +5.638259427386472e-1,
)
ERFC_R = (
    -1.047766399936249e1,
    +1.297719955372516e1,
    -7.495518717768503e0,
    +2.921019019210786e0,
    -1.015265279202700e0,
    +4.218463358204948e-1,
    -2.820767439740514e-1,
    +5.641895067754075e-1,
)
ERF_ALPHA = (
    -2.72614225801306e-10,
    2.77068142495902e-08,
    -2.10102402082508e-06,
    -5.69250639462346e-05,
    -7.34990630326855e-04,
    -2.95459980854025e-03,
    -1.60960333262415e-02,
)
ERF_BETA = (
    -1.45660718464996e-05,
    -2.13374055278905e-04,
    -1.68282697438203e-03,
    -7.37332916720468e-03,
    -1.42647390514189e-02,
)
MAXLOG_F32 = 88.72283905206835


class _Math:
    """Upstream's helpers (`getConstantLike`, `materializePolynomialApproximation`) on a builder.

    With `full_constants`, a constant on a static shape is one splat
    `stablehlo.constant` of that shape, as upstream's pass prints it; without, a
    rank-0 constant and a `broadcast_in_dim` (the same values, no full-size
    attribute: the interpreter's form)."""

    def __init__(self, b: HloBuilder, full_constants: bool = False):
        self.b = b
        self.full_constants = full_constants

    def const(self, value: float, like: SSAValue) -> SSAValue:
        element = element_type(like.type)
        if isinstance(element, IntegerType):
            return self.splat(int(value), like)
        if isinstance(element, ComplexType):
            return self.splat((value, 0.0), like)
        if isinstance(element, Float32Type):
            value = float(np.float32(value))  # a C++ `float` literal
        return self.splat(value, like)

    def splat(self, value: float | tuple[float, float], like: SSAValue) -> SSAValue:
        element, shape = element_type(like.type), shape_of(like.type)
        encoding = like.type.encoding if isa(like.type, TensorType[Attribute]) else None
        if isinstance(encoding, TypeExtensionsAttr) and not isinstance(value, tuple):
            # upstream's getConstantLike on a bounded dynamic shape
            bounded = _bounded_constant(self.b, value, element, shape, encoding, like)
            if bounded is not None:
                return bounded
        if isinstance(value, tuple) or (
            self.full_constants and all(n >= 0 for n in shape)
        ):
            # a splat of the full shape (complex: always, xquant's broadcast
            # emitters take real numbers)
            values = cast("list[float]", [value])
            return self.b.constant(values, element, shape)
        return self.b.splat(value, element, shape)

    def mul(self, a: SSAValue, c: SSAValue) -> SSAValue:
        return self.b.binary(ew.MultiplyOp, a, c)

    def add(self, a: SSAValue, c: SSAValue) -> SSAValue:
        return self.b.binary(ew.AddOp, a, c)

    def sub(self, a: SSAValue, c: SSAValue) -> SSAValue:
        return self.b.binary(ew.SubtractOp, a, c)

    def div(self, a: SSAValue, c: SSAValue) -> SSAValue:
        return self.b.binary(ew.DivideOp, a, c)

    def lt(self, a: SSAValue, c: SSAValue) -> SSAValue:
        return self.cmp(ComparisonDirection.LT, a, c)

    def cmp(self, direction: ComparisonDirection, a: SSAValue, c: SSAValue) -> SSAValue:
        """`compare`; on a bounded operand the i1 result keeps the bounds."""
        encoding = a.type.encoding if isa(a.type, TensorType[Attribute]) else None
        if isinstance(encoding, TypeExtensionsAttr):
            return self.b.add(
                ew.CompareOp.create(
                    operands=[a, c],
                    result_types=[TensorType(i1, shape_of(a.type), encoding)],
                    properties={
                        "comparison_direction": ComparisonDirectionAttr(direction)
                    },
                )
            )
        return self.b.compare(direction, a, c)

    def select(self, p: SSAValue, a: SSAValue, c: SSAValue) -> SSAValue:
        return self.b.add(ew.SelectOp.create(operands=[p, a, c], result_types=[a.type]))

    def polynomial(self, x: SSAValue, coefficients: Sequence[float]) -> SSAValue:
        poly = self.const(coefficients[0], x)
        for c in coefficients[1:]:
            poly = self.add(self.mul(poly, x), self.const(c, x))
        return poly


def _erfc_ge_one_f32(m: _Math, x: SSAValue) -> SSAValue:
    x_sq = m.mul(x, x)
    z = m.b.unary(ew.NegateOp, x_sq)
    abs_x = m.b.unary(ew.AbsOp, x)
    one = m.const(1.0, x)
    reciprocal_x_sq = m.div(one, x_sq)
    exp_z = m.b.unary(ew.ExpOp, z)
    one_div_abs_x = m.div(one, abs_x)
    exp_z_over_abs_x = m.mul(exp_z, one_div_abs_x)
    two = m.const(2.0, x)
    abs_x_lt_two = m.lt(abs_x, two)
    pol_p = m.polynomial(reciprocal_x_sq, ERFC_P)
    pol_r = m.polynomial(reciprocal_x_sq, ERFC_R)
    poly = m.select(abs_x_lt_two, pol_p, pol_r)
    approx = m.mul(exp_z_over_abs_x, poly)
    z_lt_maxlog = m.lt(z, m.const(-MAXLOG_F32, x))
    zero = m.const(0.0, x)
    clamped = m.select(z_lt_maxlog, zero, approx)
    x_lt_zero = m.lt(x, zero)
    return m.select(x_lt_zero, m.sub(two, clamped), clamped)


def _erf_le_one_f32(m: _Math, x: SSAValue) -> SSAValue:
    return m.mul(x, m.polynomial(m.mul(x, x), ERF_T))


def erf_f32(m: _Math, x: SSAValue) -> SSAValue:
    """`materializeErfApproximationF32` (Eigen's rational approximation on [-4, 4])."""
    x = m.b.clamp(m.const(-4.0, x), x, m.const(4.0, x))
    x_sq = m.mul(x, x)
    alpha = m.polynomial(x_sq, ERF_ALPHA)
    beta = m.polynomial(x_sq, ERF_BETA)
    erf = m.div(m.mul(x, alpha), beta)
    return m.b.clamp(m.const(-1.0, x), erf, m.const(1.0, x))


def erfc_f32(m: _Math, x: SSAValue) -> SSAValue:
    """`materializeErfcApproximationF32`."""
    erfc_approx = _erfc_ge_one_f32(m, x)
    one = m.const(1.0, x)
    erf_based = m.sub(one, _erf_le_one_f32(m, x))
    abs_x = m.b.unary(ew.AbsOp, x)
    return m.select(m.lt(abs_x, one), erf_based, erfc_approx)


def _exp_pair(m: _Math, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    log_one_half = m.b.unary(ew.LogOp, m.const(0.5, x))
    exp_add = m.b.unary(ew.ExpOp, m.add(x, log_one_half))
    exp_sub = m.b.unary(ew.ExpOp, m.sub(log_one_half, x))
    return exp_add, exp_sub


def cosh(m: _Math, x: SSAValue) -> SSAValue:
    """`materializeCoshApproximation`: e^(x + log 1/2) + e^(log 1/2 - x)."""
    exp_add, exp_sub = _exp_pair(m, x)
    return m.add(exp_add, exp_sub)


def sinh(m: _Math, x: SSAValue) -> SSAValue:
    """`materializeSinhApproximation`: expm1-based for |x| < 1, else the exp pair
    (complex values: the exp pair only)."""
    exp_add, exp_sub = _exp_pair(m, x)
    large = m.sub(exp_add, exp_sub)
    if isinstance(element_type(x.type), ComplexType):
        return large
    expm1 = m.b.unary(ew.Expm1Op, x)
    one = m.const(1.0, x)
    one_half = m.const(0.5, x)
    ratio = m.div(expm1, m.add(expm1, one))
    small = m.mul(one_half, m.add(expm1, ratio))
    abs_x = m.b.unary(ew.AbsOp, x)
    return m.select(m.lt(abs_x, one), small, large)


def square(m: _Math, x: SSAValue) -> SSAValue:
    """`x * x`; on complex values (re^2 - im^2, 2 re im), the real part 0 where
    |re| == |im| and re is finite (ChloDecompositionPatterns.td)."""
    element = element_type(x.type)
    if not isinstance(element, ComplexType):
        return m.mul(x, x)
    b = m.b
    part = with_element(x.type, cast(Attribute, element.element_type))  # pyright: ignore[reportUnknownMemberType]
    real = b.add(math_extra.RealOp.create(operands=[x], result_types=[part]))
    finite = b.add(
        math_extra.IsFiniteOp.create(
            operands=[real], result_types=[with_element(part, i1)]
        )
    )
    abs_real = b.unary(ew.AbsOp, real)
    imag = b.add(math_extra.ImagOp.create(operands=[x], result_types=[part]))
    abs_imag = b.unary(ew.AbsOp, imag)
    equal = b.compare(ComparisonDirection.EQ, abs_real, abs_imag)
    exact_zero = b.binary(AndOp, finite, equal)
    zero = m.const(0.0, real)
    difference = m.mul(m.sub(real, imag), m.add(real, imag))
    real_part = m.select(exact_zero, zero, difference)
    two = m.const(2.0, real)
    imag_part = m.mul(two, m.mul(real, imag))
    return b.add(
        math_extra.ComplexOp.create(
            operands=[real_part, imag_part], result_types=[x.type]
        )
    )


def atan(m: _Math, x: SSAValue) -> SSAValue:
    """`atan2(x, 1)` (ChloDecompositionPatterns.td, non-complex)."""
    return m.b.binary(math_extra.Atan2Op, x, m.const(1.0, x))


def atanh(m: _Math, x: SSAValue) -> SSAValue:
    """`(log1p(x) - log1p(-x)) * 0.5`, NaN where |x| > 1 (ChloDecompositionPatterns.td)."""
    too_big = m.b.compare(
        ComparisonDirection.GT, m.b.unary(ew.AbsOp, x), m.const(1.0, x)
    )
    nan = m.const(float("nan"), x)
    difference = m.sub(
        m.b.unary(ew.Log1pOp, x), m.b.unary(ew.Log1pOp, m.b.unary(ew.NegateOp, x))
    )
    return m.select(too_big, nan, m.mul(difference, m.const(0.5, x)))


def _max_finite(x: SSAValue) -> float:
    # numpy's finfo lacks bf16; ml_dtypes.finfo is untyped
    info = cast("np.finfo[np.floating[Any]]", ml_dtypes.finfo(dtype_of(x.type)))
    return float(info.max)


def asin(m: _Math, x: SSAValue) -> SSAValue:
    """`2 * atan2(x, 1 + sqrt((1 - x) * (1 + x)))`, as `ta + ta` (ChloDecompositionPatternsMath.td)."""
    one = m.const(1.0, x)
    root = m.b.unary(ew.SqrtOp, m.mul(m.sub(one, x), m.add(one, x)))
    ta = m.b.binary(math_extra.Atan2Op, x, m.add(one, root))
    return m.add(ta, ta)


def acos(m: _Math, x: SSAValue) -> SSAValue:
    """`atan2(sqrt((1 - x) * (1 + x)), x)` (ChloDecompositionPatternsMath.td)."""
    one = m.const(1.0, x)
    root = m.b.unary(ew.SqrtOp, m.mul(m.sub(one, x), m.add(one, x)))
    return m.b.binary(math_extra.Atan2Op, root, x)


def acosh(m: _Math, x: SSAValue) -> SSAValue:
    """`log(2) + log(x)` for x >= max/2, else `log1p(sqrt(x - 1) * (sqrt(x + 1) + sqrt(x - 1)))`."""
    largest = m.const(_max_finite(x), x)
    two = m.const(2.0, x)
    large = m.b.compare(ComparisonDirection.GE, x, m.div(largest, two))
    log_form = m.add(m.b.unary(ew.LogOp, two), m.b.unary(ew.LogOp, x))
    one = m.const(1.0, x)
    sqrt_below = m.b.unary(ew.SqrtOp, m.sub(x, one))
    sqrt_above = m.b.unary(ew.SqrtOp, m.add(x, one))
    small = m.b.unary(ew.Log1pOp, m.mul(sqrt_below, m.add(sqrt_above, sqrt_below)))
    return m.select(large, log_form, small)


def asinh(m: _Math, x: SSAValue) -> SSAValue:
    """`sign(x) * (log(2) + log|x|)` for |x| >= sqrt(max), else
    `sign(x) * log1p(|x| + x^2 / (1 + sqrt(1 + x^2)))` (ChloDecompositionPatternsMath.td)."""
    sign = m.b.unary(ew.SignOp, x)
    ax = m.b.unary(ew.AbsOp, x)
    large = m.b.compare(
        ComparisonDirection.GE,
        ax,
        m.b.unary(ew.SqrtOp, m.const(_max_finite(x), x)),
    )
    log_form = m.add(m.b.unary(ew.LogOp, m.const(2.0, x)), m.b.unary(ew.LogOp, ax))
    ax2 = m.mul(ax, ax)
    one = m.const(1.0, x)
    denominator = m.add(one, m.b.unary(ew.SqrtOp, m.add(one, ax2)))
    small = m.b.unary(ew.Log1pOp, m.add(ax, m.div(ax2, denominator)))
    return m.mul(sign, m.select(large, log_form, small))


def tan(m: _Math, x: SSAValue) -> SSAValue:
    """`stablehlo.tan`."""
    return m.b.add(math_extra.TanOp(x))


ERF_INV_W_LT_5 = (
    2.81022636e-08,
    3.43273939e-07,
    -3.5233877e-06,
    -4.39150654e-06,
    0.00021858087,
    -0.00125372503,
    -0.00417768164,
    0.246640727,
    1.50140941,
)
ERF_INV_W_GE_5 = (
    -0.000200214257,
    0.000100950558,
    0.00134934322,
    -0.00367342844,
    0.00573950773,
    -0.0076224613,
    0.00943887047,
    1.00167406,
    2.83297682,
)


def erf_inv_f32(m: _Math, x: SSAValue) -> SSAValue:
    """`erfInv32` (Giles' approximation; erf_inv(+-1) = +-inf)."""
    minus_x_sq = m.mul(x, m.b.unary(ew.NegateOp, x))
    w = m.b.unary(ew.NegateOp, m.b.unary(ew.Log1pOp, minus_x_sq))
    lt = m.lt(w, m.const(5.0, x))
    w = m.select(
        lt,
        m.sub(w, m.const(2.5, x)),
        m.sub(m.b.unary(ew.SqrtOp, w), m.const(3.0, x)),
    )

    def coefficient(i: int) -> SSAValue:
        return m.select(
            lt, m.const(ERF_INV_W_LT_5[i], x), m.const(ERF_INV_W_GE_5[i], x)
        )

    p = coefficient(0)
    for i in range(1, len(ERF_INV_W_LT_5)):
        p = m.add(coefficient(i), m.mul(p, w))
    result = m.mul(p, x)
    is_one = m.cmp(ComparisonDirection.EQ, m.b.unary(ew.AbsOp, x), m.const(1.0, x))
    return m.select(is_one, m.mul(x, m.const(float("inf"), x)), result)


LANCZOS_GAMMA = 7.0
"""`kLanczosGamma` (g): with `LANCZOS_COEFFICIENTS`, the [7, 9] Lanczos approximation."""
LANCZOS_BASE = 0.99999999999980993227684700473478
LANCZOS_COEFFICIENTS = (
    676.520368121885098567009190444019,
    -1259.13921672240287047156078755283,
    771.3234287776530788486528258894,
    -176.61502916214059906584551354,
    12.507343278686904814458936853,
    -0.13857109526572011689554707,
    9.984369578019570859563e-6,
    1.50563273514931155834e-7,
)


def _lanczos_z(m: _Math, x: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue, SSAValue]:
    """`z = -x` if `x < 1/2` (reflect) else `x - 1`: (half, need_to_reflect, one, z)."""
    half = m.const(0.5, x)
    need_to_reflect = m.lt(x, half)
    neg_x = m.b.unary(ew.NegateOp, x)
    one = m.const(1.0, x)
    x_sub_one = m.sub(x, one)
    return half, need_to_reflect, one, m.select(need_to_reflect, neg_x, x_sub_one)


def _lanczos_log_t(m: _Math, z: SSAValue) -> tuple[SSAValue, SSAValue]:
    """`t = g + 1/2 + z` and `log(t) = log(g + 1/2) + log1p(z / (g + 1/2))`."""
    lanczos_plus_half = m.const(LANCZOS_GAMMA + 0.5, z)
    t = m.add(lanczos_plus_half, z)
    log_term = m.const(math.log(LANCZOS_GAMMA + 0.5), z)
    log1p_term = m.b.unary(ew.Log1pOp, m.div(z, lanczos_plus_half))
    return t, m.add(log_term, log1p_term)


def _is_inf(m: _Math, x: SSAValue) -> SSAValue:
    """`chlo.is_inf` as upstream expands it: `is_pos_inf(abs(x))`, `x == +inf`."""
    return m.b.compare(
        ComparisonDirection.EQ, m.b.unary(ew.AbsOp, x), m.const(math.inf, x)
    )


def lgamma(m: _Math, x: SSAValue) -> SSAValue:
    """`materializeLgamma`: Lanczos' approximation, Euler's reflection below 1/2,
    `+inf` at `+-inf`."""
    half, need_to_reflect, one, z = _lanczos_z(m, x)
    a = m.const(LANCZOS_BASE, x)
    for i, c in enumerate(LANCZOS_COEFFICIENTS):
        coefficient = m.const(c, x)
        one_based_index = m.const(float(i + 1), x)
        a = m.add(a, m.div(coefficient, m.add(z, one_based_index)))
    t, log_t = _lanczos_log_t(m, z)
    # r = (z + 1/2 - t / log(t)) * log(t), not (z + 1/2) * log(t) - t (overflow).
    t_div_log_t = m.div(t, log_t)
    r = m.mul(m.sub(m.add(z, half), t_div_log_t), log_t)
    log_a = m.b.unary(ew.LogOp, a)
    result = m.add(m.add(m.const((math.log(2) + math.log(math.pi)) / 2, x), r), log_a)
    # Reflection: lgamma(x) = log(pi) - lgamma(1 - x) - log(abs(sin(pi * x))),
    # with abs(frac(x)) folded into [0, 1/2] for the sine.
    abs_x = m.b.unary(ew.AbsOp, x)
    abs_frac = m.sub(abs_x, m.b.unary(ew.FloorOp, abs_x))
    reduce_abs_frac = m.lt(half, abs_frac)
    abs_frac = m.select(reduce_abs_frac, m.sub(one, abs_frac), abs_frac)
    reflection_denom = m.b.unary(
        ew.LogOp, m.b.unary(ew.SineOp, m.mul(m.const(math.pi, x), abs_frac))
    )
    reflection = m.sub(m.sub(m.const(math.log(math.pi), x), reflection_denom), result)
    # Where log(sin) is infinite it wins (not -inf - inf = nan).
    finite_denom = m.b.add(
        math_extra.IsFiniteOp.create(
            operands=[reflection_denom],
            result_types=[with_element(reflection_denom.type, i1)],
        )
    )
    neg_denom = m.b.unary(ew.NegateOp, reflection_denom)
    reflection = m.select(finite_denom, reflection, neg_denom)
    result = m.select(need_to_reflect, reflection, result)
    x_is_inf = _is_inf(m, x)
    return m.select(x_is_inf, m.const(math.inf, x), result)


def digamma(m: _Math, x: SSAValue) -> SSAValue:
    """`materializeDigamma`: the derivative of Lanczos' approximation, the reflection
    `digamma(1 - x) - pi * cot(pi * x)` below 1/2, NaN at the poles (0, -1, ...)."""
    _, need_to_reflect, _, z = _lanczos_z(m, x)
    zero = m.const(0.0, x)
    a = m.const(LANCZOS_BASE, x)
    a_prime = zero
    for i, c in enumerate(LANCZOS_COEFFICIENTS):
        coefficient = m.const(c, x)
        one_based_index = m.const(float(i + 1), x)
        z_term = m.add(z, one_based_index)
        a_prime = m.sub(a_prime, m.div(coefficient, m.mul(z_term, z_term)))
        a = m.add(a, m.div(coefficient, z_term))
    t, log_t = _lanczos_log_t(m, z)
    a_prime_div_a = m.div(a_prime, a)
    lanczos_gamma_div_t = m.div(m.const(LANCZOS_GAMMA, x), t)
    result = m.sub(m.add(log_t, a_prime_div_a), lanczos_gamma_div_t)
    # cot(pi * x) on x moved into [-1/2, 1/2]: x + abs(floor(x + 1/2)).
    reduced_x = m.add(
        x,
        m.b.unary(ew.AbsOp, m.b.unary(ew.FloorOp, m.add(x, m.const(0.5, x)))),
    )
    pi = m.const(math.pi, x)
    pi_mul_reduced_x = m.mul(pi, reduced_x)
    cos = m.b.unary(ew.CosineOp, pi_mul_reduced_x)
    sin = m.b.unary(ew.SineOp, pi_mul_reduced_x)
    reflection = m.sub(result, m.div(m.mul(pi, cos), sin))
    result = m.select(need_to_reflect, reflection, result)
    is_le_zero = m.b.compare(ComparisonDirection.LE, x, zero)
    is_int = m.b.compare(ComparisonDirection.EQ, x, m.b.unary(ew.FloorOp, x))
    is_pole = m.b.binary(AndOp, is_le_zero, is_int)
    return m.select(is_pole, m.const(math.nan, x), result)


def _upcast_below_f32(
    body: Callable[[_Math, SSAValue], SSAValue],
) -> Callable[[_Math, SSAValue], SSAValue | None]:
    """`materializeWithUpcast` to f32 for a body that takes any float: f32 and f64
    as they are, f16/bf16 through f32, others unexpanded."""

    def expand(m: _Math, x: SSAValue) -> SSAValue | None:
        element = element_type(x.type)
        if isinstance(element, Float32Type | Float64Type):
            return body(m, x)
        return _upcast(body)(m, x)

    return expand


def _upcast(
    body: Callable[[_Math, SSAValue], SSAValue],
) -> Callable[[_Math, SSAValue], SSAValue | None]:
    """`materializeWithUpcast` to f32: f32 as is, f16/bf16 through f32, others unexpanded."""

    def expand(m: _Math, x: SSAValue) -> SSAValue | None:
        element = element_type(x.type)
        name = getattr(element, "name", "")
        if isinstance(element, Float32Type):
            return body(m, x)
        if name not in ("f16", "bf16"):
            return None
        wide = m.b.convert(x, f32)
        return m.b.convert(body(m, wide), element)

    return expand


def _float_only(
    body: Callable[[_Math, SSAValue], SSAValue],
) -> Callable[[_Math, SSAValue], SSAValue | None]:
    def expand(m: _Math, x: SSAValue) -> SSAValue | None:
        element = element_type(x.type)
        return (
            body(m, x) if getattr(element, "name", "").startswith(("f", "bf")) else None
        )

    return expand


def _any(
    body: Callable[[_Math, SSAValue], SSAValue],
) -> Callable[[_Math, SSAValue], SSAValue | None]:
    return body


def expand_top_k(op: TopKOp) -> HloBuilder | None:
    """`ConvertTopKOp` for static shapes: an i32 iota along the last dimension, a sort of
    (operand, iota) on `GT` (`TOTALORDER` for floats, `createSortOp`), and slices of the
    first `k`. The builder's last two ops give values and indices."""
    operand_type = op.operand.type
    if not isa(operand_type, TensorType[Attribute]):
        return None
    shape = list(operand_type.get_shape())
    if not shape:
        return None
    dynamic = any(size < 0 for size in shape)
    element = operand_type.get_element_type()
    last = len(shape) - 1
    k = op.k.value.data if shape[-1] < 0 else min(op.k.value.data, shape[-1])
    b = HloBuilder()
    limit_shape: SSAValue | None = None
    if dynamic:
        op_shape, limit_shape = _top_k_shapes(b, op.operand, shape, k)
        iota = b.add(
            DynamicIotaOp.create(
                operands=[op_shape],
                result_types=[TensorType(i32, shape)],
                properties={"iota_dimension": IntegerAttr(last, i64)},
            )
        )
    else:
        iota = b.add(
            IotaOp.create(
                result_types=[TensorType(i32, shape)],
                properties={"iota_dimension": IntegerAttr(last, i64)},
            )
        )
    scalar, index_scalar = TensorType(element, []), TensorType(i32, [])
    block = Block(arg_types=[scalar, scalar, index_scalar, index_scalar])
    properties: dict[str, Attribute] = {
        "comparison_direction": ComparisonDirectionAttr(ComparisonDirection.GT)
    }
    if not isinstance(element, IntegerType):
        properties["compare_type"] = ComparisonTypeAttr(ComparisonType.TOTALORDER)
    compare = ew.CompareOp.create(
        operands=[block.args[0], block.args[1]],
        result_types=[TensorType(i1, [])],
        properties=properties,
    )
    block.add_ops([compare, ReturnOp.create(operands=[compare.results[0]])])
    stable = op.is_stable if op.is_stable is not None else BoolAttr.from_bool(True)
    sort = SortOp.create(
        operands=[op.operand, iota],
        result_types=[operand_type, TensorType(i32, shape)],
        properties={"dimension": IntegerAttr(last, i64), "is_stable": stable},
        regions=[Region(block)],
    )
    b.ops.append(sort)
    if limit_shape is not None:
        rank = len(shape)
        start = b.constant([0] * rank, i64, [rank])
        strides = b.constant([1] * rank, i64, [rank])
        for result, result_type in zip(
            sort.results, (op.values.type, op.indices.type), strict=True
        ):
            b.add(
                RealDynamicSliceOp.create(
                    operands=[result, start, limit_shape, strides],
                    result_types=[result_type],
                )
            )
        return b
    limits = [*shape[:-1], k]
    for result, result_type in zip(
        sort.results, (op.values.type, op.indices.type), strict=True
    ):
        b.ops.append(
            SliceOp.create(
                operands=[result],
                result_types=[result_type],
                properties={
                    "start_indices": DenseArrayBase.from_list(i64, [0] * len(shape)),
                    "limit_indices": DenseArrayBase.from_list(i64, limits),
                    "strides": DenseArrayBase.from_list(i64, [1] * len(shape)),
                },
            )
        )
    return b


def _top_k_shapes(
    b: HloBuilder, operand: SSAValue, shape: Sequence[int], k: int
) -> tuple[SSAValue, SSAValue]:
    """`ConvertTopKOp`'s run-time shapes: the operand's (`get_dimension_size` ->
    i64 -> `tensor<1xi64>` per dynamic dimension, constants for static ones,
    concatenated) and the result's (the last size replaced by `k`)."""
    pieces: list[SSAValue] = []
    for i, size in enumerate(shape):
        if size < 0:
            size_i32 = b.add(
                GetDimensionSizeOp.create(
                    operands=[operand],
                    result_types=[TensorType(i32, [])],
                    properties={"dimension": IntegerAttr(i, i64)},
                )
            )
            size_i64 = b.add(ew.ConvertOp(size_i32, TensorType(i64, [])))
        else:
            size_i64 = b.constant([size], i64, [])
        pieces.append(b.add(ReshapeOp(size_i64, TensorType(i64, [1]))))
    rank = len(shape)

    def concat(values: list[SSAValue]) -> SSAValue:
        return b.add(
            ConcatenateOp.create(
                operands=values,
                result_types=[TensorType(i64, [rank])],
                properties={"dimension": IntegerAttr(0, i64)},
            )
        )

    op_shape = concat(pieces)
    last = b.add(ReshapeOp(b.constant([k], i64, []), TensorType(i64, [1])))
    return op_shape, concat([*pieces[:-1], last])


# ----- f64 erf/erfc/erf_inv (Cephes; `materializeErf*ApproximationF64`, `erfInv64`)

ERFC_F64_MAXLOG = 7.09782712893383996843e2
ERFC_F64_P = (
    2.46196981473530512524e-10,
    5.64189564831068821977e-1,
    7.46321056442269912687e0,
    4.86371970985681366614e1,
    1.96520832956077098242e2,
    5.26445194995477358631e2,
    9.34528527171957607540e2,
    1.02755188689515710272e3,
    5.57535335369399327526e2,
)
ERFC_F64_Q = (
    1.00000000000000000000e0,
    1.32281951154744992508e1,
    8.67072140885989742329e1,
    3.54937778887819891062e2,
    9.75708501743205489753e2,
    1.82390916687909736289e3,
    2.24633760818710981792e3,
    1.65666309194161350182e3,
    5.57535340817727675546e2,
)
ERFC_F64_R = (
    5.64189583547755073984e-1,
    1.27536670759978104416e0,
    5.01905042251180477414e0,
    6.16021097993053585195e0,
    7.40974269950448939160e0,
    2.97886665372100240670e0,
)
ERFC_F64_S = (
    1.00000000000000000000e0,
    2.26052863220117276590e0,
    9.39603524938001434673e0,
    1.20489539808096656605e1,
    1.70814450747565897222e1,
    9.60896809063285878198e0,
    3.36907645100081516050e0,
)
ERF_F64_T = (
    9.60497373987051638749e0,
    9.00260197203842689217e1,
    2.23200534594684319226e3,
    7.00332514112805075473e3,
    5.55923013010394962768e4,
)
ERF_F64_U = (
    1.00000000000000000000e0,
    3.35617141647503099647e1,
    5.21357949780152679795e2,
    4.59432382970980127987e3,
    2.26290000613890934246e4,
    4.92673942608635921086e4,
)


def _erfc_ge_one_f64(m: _Math, x: SSAValue) -> SSAValue:
    """`materializeErfcApproximationF64ForMagnituteGeOne`."""
    x_sq = m.mul(x, x)
    z = m.b.unary(ew.NegateOp, x_sq)
    exp_z = m.b.unary(ew.ExpOp, z)
    abs_x = m.b.unary(ew.AbsOp, x)
    pol_p = m.polynomial(abs_x, ERFC_F64_P)
    exp_z_mul_p = m.mul(exp_z, pol_p)
    pol_q = m.polynomial(abs_x, ERFC_F64_Q)
    approx_1_8 = m.div(exp_z_mul_p, pol_q)
    pol_r = m.polynomial(abs_x, ERFC_F64_R)
    exp_z_mul_r = m.mul(exp_z, pol_r)
    pol_s = m.polynomial(abs_x, ERFC_F64_S)
    approx_8_inf = m.div(exp_z_mul_r, pol_s)
    eight = m.const(8.0, x)
    approx = m.select(m.lt(abs_x, eight), approx_1_8, approx_8_inf)
    z_lt_neg_maxlog = m.lt(z, m.const(-ERFC_F64_MAXLOG, x))
    zero = m.const(0.0, x)
    clamped = m.select(z_lt_neg_maxlog, zero, approx)
    x_lt_zero = m.lt(x, zero)
    two = m.const(2.0, x)
    return m.select(x_lt_zero, m.sub(two, clamped), clamped)


def _erf_le_one_f64(m: _Math, x: SSAValue) -> SSAValue:
    """`materializeErfApproximationF64ForMagnituteLeOne`: x T(x^2) / U(x^2)."""
    x_sq = m.mul(x, x)
    poly_t = m.polynomial(x_sq, ERF_F64_T)
    x_mul_t = m.mul(x, poly_t)
    poly_u = m.polynomial(x_sq, ERF_F64_U)
    return m.div(x_mul_t, poly_u)


def erf_f64(m: _Math, x: SSAValue) -> SSAValue:
    """`materializeErfApproximationF64`."""
    erf_approx = _erf_le_one_f64(m, x)
    one = m.const(1.0, x)
    erfc_approx = _erfc_ge_one_f64(m, x)
    erfc_based = m.sub(one, erfc_approx)
    abs_x = m.b.unary(ew.AbsOp, x)
    return m.select(m.lt(abs_x, one), erf_approx, erfc_based)


def erfc_f64(m: _Math, x: SSAValue) -> SSAValue:
    """`materializeErfcApproximationF64`."""
    erfc_approx = _erfc_ge_one_f64(m, x)
    one = m.const(1.0, x)
    erf_approx = _erf_le_one_f64(m, x)
    erf_based = m.sub(one, erf_approx)
    abs_x = m.b.unary(ew.AbsOp, x)
    return m.select(m.lt(abs_x, one), erf_based, erfc_approx)


ERF_INV_F64_W_LT_625 = (
    -3.6444120640178196996e-21,
    -1.685059138182016589e-19,
    1.2858480715256400167e-18,
    1.115787767802518096e-17,
    -1.333171662854620906e-16,
    2.0972767875968561637e-17,
    6.6376381343583238325e-15,
    -4.0545662729752068639e-14,
    -8.1519341976054721522e-14,
    2.6335093153082322977e-12,
    -1.2975133253453532498e-11,
    -5.4154120542946279317e-11,
    1.051212273321532285e-09,
    -4.1126339803469836976e-09,
    -2.9070369957882005086e-08,
    4.2347877827932403518e-07,
    -1.3654692000834678645e-06,
    -1.3882523362786468719e-05,
    0.0001867342080340571352,
    -0.00074070253416626697512,
    -0.0060336708714301490533,
    0.24015818242558961693,
    1.6536545626831027356,
)
ERF_INV_F64_W_LT_16 = (
    2.2137376921775787049e-09,
    9.0756561938885390979e-08,
    -2.7517406297064545428e-07,
    1.8239629214389227755e-08,
    1.5027403968909827627e-06,
    -4.013867526981545969e-06,
    2.9234449089955446044e-06,
    1.2475304481671778723e-05,
    -4.7318229009055733981e-05,
    6.8284851459573175448e-05,
    2.4031110387097893999e-05,
    -0.0003550375203628474796,
    0.00095328937973738049703,
    -0.0016882755560235047313,
    0.0024914420961078508066,
    -0.0037512085075692412107,
    0.005370914553590063617,
    1.0052589676941592334,
    3.0838856104922207635,
)
ERF_INV_F64_W_GE_16 = (
    -2.7109920616438573243e-11,
    -2.5556418169965252055e-10,
    1.5076572693500548083e-09,
    -3.7894654401267369937e-09,
    7.6157012080783393804e-09,
    -1.4960026627149240478e-08,
    2.9147953450901080826e-08,
    -6.7711997758452339498e-08,
    2.2900482228026654717e-07,
    -9.9298272942317002539e-07,
    4.5260625972231537039e-06,
    -1.9681778105531670567e-05,
    7.5995277030017761139e-05,
    -0.00021503011930044477347,
    -0.00013871931833623122026,
    1.0103004648645343977,
    4.8499064014085844221,
)


def erf_inv_f64(m: _Math, x: SSAValue) -> SSAValue:
    """`erfInv64` (Giles' f64 approximation, three ranges of w)."""
    minus_x_sq = m.mul(x, m.b.unary(ew.NegateOp, x))
    w = m.b.unary(ew.NegateOp, m.b.unary(ew.Log1pOp, minus_x_sq))
    lt625 = m.lt(w, m.const(6.25, x))
    lt16 = m.lt(w, m.const(16.0, x))

    def coefficient(i: int) -> SSAValue:
        c = m.const(ERF_INV_F64_W_LT_625[i], x)
        if i < 19:
            c = m.select(lt625, c, m.const(ERF_INV_F64_W_LT_16[i], x))
        if i < 17:
            c = m.select(lt16, c, m.const(ERF_INV_F64_W_GE_16[i], x))
        return c

    sqrt_w = m.b.unary(ew.SqrtOp, w)
    w_minus_3125 = m.sub(w, m.const(3.125, x))
    select2 = m.select(lt16, m.const(3.25, w), m.const(5.0, w))
    select2_result = m.sub(sqrt_w, select2)
    w = m.select(lt625, w_minus_3125, select2_result)
    p = coefficient(0)
    for i in range(1, 17):
        p = m.add(coefficient(i), m.mul(p, w))
    for i in range(17, 19):
        p = m.select(lt16, m.add(coefficient(i), m.mul(p, w)), p)
    for i in range(19, 23):
        p = m.select(lt625, m.add(coefficient(i), m.mul(p, w)), p)
    result = m.mul(p, x)
    is_one = m.b.compare(
        ComparisonDirection.EQ, m.b.unary(ew.AbsOp, x), m.const(1.0, x)
    )
    return m.select(is_one, m.mul(x, m.const(math.inf, x)), result)


# ----- bessel_i1e (`materializeBesselI1eApproximation`, Cephes' Chebyshev series)

BESSEL_I1E_F32_A = (
    9.38153738649577178388e-9,
    -4.44505912879632808065e-8,
    2.00329475355213526229e-7,
    -8.56872026469545474066e-7,
    3.47025130813767847674e-6,
    -1.32731636560394358279e-5,
    4.78156510755005422638e-5,
    -1.61760815825896745588e-4,
    5.12285956168575772895e-4,
    -1.51357245063125314899e-3,
    4.15642294431288815669e-3,
    -1.05640848946261981558e-2,
    2.47264490306265168283e-2,
    -5.29459812080949914269e-2,
    1.02643658689847095384e-1,
    -1.76416518357834055153e-1,
    2.52587186443633654823e-1,
)
BESSEL_I1E_F32_B = (
    -3.83538038596423702205e-9,
    -2.63146884688951950684e-8,
    -2.51223623787020892529e-7,
    -3.88256480887769039346e-6,
    -1.10588938762623716291e-4,
    -9.76109749136146840777e-3,
    7.78576235018280120474e-1,
)
BESSEL_I1E_F64_A = (
    2.77791411276104639959e-18,
    -2.11142121435816608115e-17,
    1.55363195773620046921e-16,
    -1.10559694773538630805e-15,
    7.60068429473540693410e-15,
    -5.04218550472791168711e-14,
    3.22379336594557470981e-13,
    -1.98397439776494371520e-12,
    1.17361862988909016308e-11,
    -6.66348972350202774223e-11,
    3.62559028155211703701e-10,
    -1.88724975172282928790e-9,
    *BESSEL_I1E_F32_A,
)
BESSEL_I1E_F64_B = (
    7.51729631084210481353e-18,
    4.41434832307170791151e-18,
    -4.65030536848935832153e-17,
    -3.20952592199342395980e-17,
    2.96262899764595013876e-16,
    3.30820231092092828324e-16,
    -1.88035477551078244854e-15,
    -3.81440307243700780478e-15,
    1.04202769841288027642e-14,
    4.27244001671195135429e-14,
    -2.10154184277266431302e-14,
    -4.08355111109219731823e-13,
    -7.19855177624590851209e-13,
    2.03562854414708950722e-12,
    1.41258074366137813316e-11,
    3.25260358301548823856e-11,
    -1.89749581235054123450e-11,
    -5.58974346219658380687e-10,
    *BESSEL_I1E_F32_B,
)


def _chebyshev(m: _Math, x: SSAValue, coefficients: Sequence[float]) -> SSAValue:
    """`materializeChebyshevPolynomialApproximation` (Clenshaw's recurrence)."""
    b0 = m.const(0.0, x)
    b1 = m.const(0.0, x)
    b2 = m.const(0.0, x)
    for c in coefficients:
        b2 = b1
        b1 = b0
        b0 = m.mul(x, b1)
        b0 = m.sub(b0, b2)
        b0 = m.add(b0, m.const(c, x))
    return m.mul(m.sub(b0, b2), m.const(0.5, x))


def bessel_i1e(m: _Math, x: SSAValue) -> SSAValue:
    """`materializeBesselI1eApproximation`: Chebyshev series on |x| <= 8 and on 32/|x|."""
    wide = isinstance(element_type(x.type), Float64Type)
    coefficients_a = BESSEL_I1E_F64_A if wide else BESSEL_I1E_F32_A
    coefficients_b = BESSEL_I1E_F64_B if wide else BESSEL_I1E_F32_B
    z = m.b.unary(ew.AbsOp, x)
    half = m.const(0.5, x)
    two = m.const(2.0, x)
    thirty_two = m.const(32.0, x)
    eight = m.const(8.0, x)
    tmp = m.sub(m.mul(half, z), two)
    x_le_8 = m.mul(z, _chebyshev(m, tmp, coefficients_a))
    tmp = m.sub(m.div(thirty_two, z), two)
    x_gt_8 = _chebyshev(m, tmp, coefficients_b)
    x_gt_8 = m.div(x_gt_8, m.b.unary(ew.SqrtOp, z))
    is_le_8 = m.b.compare(ComparisonDirection.LE, z, eight)
    selected = m.select(is_le_8, x_le_8, x_gt_8)
    return m.mul(m.b.unary(ew.SignOp, x), selected)


# ----- zeta and polygamma (`materializeZeta`, `materializePolygamma`)

ZETA_TERMS = 12
ZETA_ITERATIONS = 9
ZETA_COEFFICIENTS = (
    -7.1661652561756670113e18,
    1.8152105401943546773e17,
    -4.5979787224074726105e15,
    1.1646782814350067249e14,
    -2.950130727918164224e12,
    7.47242496e10,
    -1.8924375803183791606e9,
    47900160.0,
    -1209600.0,
    30240.0,
    -720.0,
    12.0,
)


def _smallest_subnormal(x: SSAValue) -> float:
    info = cast("np.finfo[np.floating[Any]]", ml_dtypes.finfo(dtype_of(x.type)))
    return float(info.smallest_subnormal)


def zeta(m: _Math, x: SSAValue, q: SSAValue) -> SSAValue:
    """`materializeZeta`: 9 terms of the series, then Euler-Maclaurin with 12 terms
    (Johansson 2015, formula (5)); NaN for x < 1, poles and domain errors as upstream."""
    b = m.b
    zero = m.const(0.0, q)
    one = m.const(1.0, q)
    acc = q
    neg_x = b.unary(ew.NegateOp, x)
    power_sum = b.binary(ew.PowerOp, q, neg_x)
    for _ in range(ZETA_ITERATIONS):
        acc = m.add(acc, one)
        q_neg_power = b.binary(ew.PowerOp, acc, neg_x)
        power_sum = m.add(power_sum, q_neg_power)
    acc = m.add(acc, one)
    q_neg_power = b.binary(ew.PowerOp, acc, neg_x)
    one_like_x = m.const(1.0, x)
    correction = m.div(m.mul(q_neg_power, acc), m.sub(x, one_like_x))
    rsqrt_acc = m.div(one, m.mul(acc, acc))
    horner_sum = zero
    two_terms_minus_one = 2 * ZETA_TERMS - 1
    for i in range(ZETA_TERMS - 1):
        factor_lhs = m.add(x, m.const(float(two_terms_minus_one - 1 - 2 * i), x))
        factor_rhs = m.add(x, m.const(float(two_terms_minus_one - 2 - 2 * i), x))
        horner_product = m.mul(factor_lhs, factor_rhs)
        inner = m.add(horner_sum, m.const(1.0 / ZETA_COEFFICIENTS[i], acc))
        horner_sum = m.mul(horner_product, m.mul(rsqrt_acc, inner))
    half = m.const(0.5, q_neg_power)
    x_div_acc = m.div(x, acc)
    last = m.const(1.0 / ZETA_COEFFICIENTS[ZETA_TERMS - 1], acc)
    tail = m.mul(q_neg_power, m.add(half, m.mul(x_div_acc, m.add(last, horner_sum))))
    accurate = m.add(m.add(power_sum, correction), tail)
    abs_q_neg_power = b.unary(ew.AbsOp, q_neg_power)
    abs_power_sum = b.unary(ew.AbsOp, power_sum)
    small_enough = m.lt(
        abs_q_neg_power,
        m.mul(abs_power_sum, m.const(_smallest_subnormal(acc), acc)),
    )
    output = m.select(small_enough, power_sum, accurate)
    nan = m.const(math.nan, x)
    output = m.select(m.lt(x, one_like_x), nan, output)
    q_le_zero = b.compare(ComparisonDirection.LE, q, zero)
    x_not_int = b.compare(ComparisonDirection.NE, x, b.unary(ew.FloorOp, x))
    x_domain_error = b.binary(AndOp, q_le_zero, x_not_int)
    output = m.select(x_domain_error, nan, output)
    inf = m.const(math.inf, x)
    q_is_int = b.compare(ComparisonDirection.EQ, q, b.unary(ew.FloorOp, q))
    at_pole = b.binary(AndOp, q_le_zero, q_is_int)
    two = m.const(2.0, x)
    x_is_int = b.compare(ComparisonDirection.EQ, x, b.unary(ew.FloorOp, x))
    x_is_even = b.compare(
        ComparisonDirection.EQ, b.binary(math_extra.RemainderOp, x, two), zero
    )
    x_is_even_int = b.binary(AndOp, x_is_int, x_is_even)
    output = m.select(at_pole, m.select(x_is_even_int, inf, nan), output)
    return m.select(b.compare(ComparisonDirection.EQ, x, one), inf, output)


def polygamma(m: _Math, n: SSAValue, x: SSAValue) -> SSAValue:
    """`materializePolygamma`: (-1)^(n+1) n! zeta(n + 1, x) for natural n > 0,
    digamma(x) for n = 0, NaN otherwise (the nested chlo ops expanded in place)."""
    b = m.b
    one = m.const(1.0, x)
    two = m.const(2.0, x)
    sign = m.sub(m.mul(two, b.binary(math_extra.RemainderOp, n, two)), one)
    n_plus_one = m.add(n, one)
    exp_lgamma = b.unary(ew.ExpOp, lgamma(m, n_plus_one))
    zeta_value = zeta(m, n_plus_one, x)
    result = m.mul(m.mul(sign, exp_lgamma), zeta_value)
    zero = m.const(0.0, x)
    n_eq_zero = b.compare(ComparisonDirection.EQ, n, zero)
    result = m.select(n_eq_zero, digamma(m, x), result)
    non_int = b.compare(ComparisonDirection.NE, n, b.unary(ew.FloorOp, n))
    negative = m.lt(n, zero)
    non_natural = b.binary(OrOp, non_int, negative)
    return m.select(non_natural, m.const(math.nan, x), result)


# ----- next_after, mulhi, is_inf, conj, constant_like


def next_after(m: _Math, x: SSAValue, y: SSAValue) -> SSAValue:
    """`materializeNextAfter`: on the bits, +-1 towards `y`; NaN, equal and zero cases."""
    b = m.b
    width = dtype_of(x.type).itemsize * 8
    int_type = with_element(x.type, IntegerType(width))
    x_int = b.add(ew.BitcastConvertOp(x, int_type))
    y_int = b.add(ew.BitcastConvertOp(y, int_type))
    x_is_nan = b.compare(ComparisonDirection.NE, x, x)
    y_is_nan = b.compare(ComparisonDirection.NE, y, y)
    nan_input = b.binary(OrOp, x_is_nan, y_is_nan)
    result_for_nan = m.const(math.nan, x)
    result_for_nan_int = b.add(ew.BitcastConvertOp(result_for_nan, int_type))
    sign_bit = -(1 << (width - 1))
    sign_mask = m.splat(sign_bit, x_int)
    negated_sign_mask = m.splat(~sign_bit, x_int)
    x_abs = b.binary(AndOp, x_int, negated_sign_mask)
    y_abs = b.binary(AndOp, y_int, negated_sign_mask)
    x_and_y_equal = b.compare(ComparisonDirection.EQ, x, y)
    zero = m.splat(0, x_int)
    x_is_zero = b.compare(ComparisonDirection.EQ, x_abs, zero)
    y_is_zero = b.compare(ComparisonDirection.EQ, y_abs, zero)
    x_sign = b.binary(AndOp, x_int, sign_mask)
    y_sign = b.binary(AndOp, y_int, sign_mask)
    one = m.splat(1, x_int)
    result_for_x_zero = b.binary(OrOp, y_sign, one)
    signs_disagree = b.compare(ComparisonDirection.NE, x_sign, y_sign)
    x_larger = b.compare(ComparisonDirection.GT, x_abs, y_abs)
    smaller = b.binary(OrOp, x_larger, signs_disagree)
    minus_one = m.splat(-1, x_int)
    adjustment = m.select(smaller, minus_one, one)
    result = m.add(x_int, adjustment)
    result = m.select(x_is_zero, m.select(y_is_zero, y_int, result_for_x_zero), result)
    result = m.select(x_and_y_equal, y_int, result)
    result = m.select(nan_input, result_for_nan_int, result)
    return b.add(ew.BitcastConvertOp(result, x.type))


def _int_info(value: SSAValue) -> tuple[int, bool]:
    info = int_info(value.type)
    return info.width, info.unsigned_type


def _mulhi_u64(m: _Math, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    """The 64-bit unsigned high product from 32-bit halves (ChloDecompositionPatterns.td)."""
    b = m.b
    a_hi = b.binary(ShiftRightLogicalOp, lhs, m.splat(32, lhs))
    b_hi = b.binary(ShiftRightLogicalOp, rhs, m.splat(32, rhs))
    p3 = m.mul(a_hi, b_hi)
    a_lo = b.binary(AndOp, lhs, m.splat(0xFFFFFFFF, lhs))
    p2 = m.mul(a_lo, b_hi)
    b_lo = b.binary(AndOp, rhs, m.splat(0xFFFFFFFF, rhs))
    p0 = m.mul(a_lo, b_lo)
    cy = m.add(p2, b.binary(ShiftRightLogicalOp, p0, m.splat(32, p0)))
    hi = m.add(p3, b.binary(ShiftRightLogicalOp, cy, m.splat(32, cy)))
    p1 = m.mul(a_hi, b_lo)
    mid = m.add(p1, b.binary(AndOp, cy, m.splat(0xFFFFFFFF, cy)))
    return m.add(hi, b.binary(ShiftRightLogicalOp, mid, m.splat(32, mid)))


def mulhi(m: _Math, lhs: SSAValue, rhs: SSAValue) -> SSAValue | None:
    """`chlo.mulhi` as ChloDecompositionPatterns.td: widen, multiply, shift by N,
    narrow below 64 bits; 32-bit halves for ui64; for i64, the unsigned product
    corrected for negative operands."""
    b = m.b
    width, unsigned = _int_info(lhs)
    if width < 64:
        wide_element = IntegerType(
            2 * width, Signedness.UNSIGNED if unsigned else Signedness.SIGNLESS
        )
        wide_lhs = b.add(ew.ConvertOp(lhs, with_element(lhs.type, wide_element)))
        wide_rhs = b.add(ew.ConvertOp(rhs, with_element(rhs.type, wide_element)))
        wide_mul = m.mul(wide_lhs, wide_rhs)
        shift = ShiftRightLogicalOp if unsigned else ShiftRightArithmeticOp
        shifted = b.binary(shift, wide_mul, m.splat(width, wide_mul))
        return b.add(ew.ConvertOp(shifted, lhs.type))
    if width != 64:
        return None
    if unsigned:
        return _mulhi_u64(m, lhs, rhs)
    u64 = with_element(lhs.type, IntegerType(64, Signedness.UNSIGNED))
    hi = _mulhi_u64(m, b.add(ew.ConvertOp(lhs, u64)), b.add(ew.ConvertOp(rhs, u64)))
    for negative, other in ((lhs, rhs), (rhs, lhs)):
        is_negative = m.lt(negative, m.splat(0, negative))
        other_u = b.add(ew.ConvertOp(other, u64))
        b.add(ew.ConvertOp(other, u64))  # upstream converts twice; the copy is unused
        correction = m.select(is_negative, other_u, m.splat(0, other_u))
        hi = m.sub(hi, correction)
    return b.add(ew.ConvertOp(hi, lhs.type))


def is_pos_inf(m: _Math, x: SSAValue) -> SSAValue:
    """`x == +inf`."""
    return m.b.compare(ComparisonDirection.EQ, x, m.const(math.inf, x))


def is_neg_inf(m: _Math, x: SSAValue) -> SSAValue:
    """`x == -inf`."""
    return m.b.compare(ComparisonDirection.EQ, x, m.const(-math.inf, x))


def is_inf(m: _Math, x: SSAValue) -> SSAValue:
    """`is_pos_inf(abs(x))`."""
    return is_pos_inf(m, m.b.unary(ew.AbsOp, x))


def conj(m: _Math, x: SSAValue) -> SSAValue:
    """`complex(real(x), -imag(x))`; a real `x` is its own conjugate."""
    element = element_type(x.type)
    if not isinstance(element, ComplexType):
        return x
    part = with_element(x.type, cast(Attribute, element.element_type))  # pyright: ignore[reportUnknownMemberType]
    real = m.b.add(math_extra.RealOp.create(operands=[x], result_types=[part]))
    imag = m.b.add(math_extra.ImagOp.create(operands=[x], result_types=[part]))
    negated = m.b.unary(ew.NegateOp, imag)
    return m.b.add(
        math_extra.ComplexOp.create(operands=[real, negated], result_types=[x.type])
    )


def _by_width(
    f32_body: Callable[[_Math, SSAValue], SSAValue],
    f64_body: Callable[[_Math, SSAValue], SSAValue],
) -> Callable[[_Math, SSAValue], SSAValue | None]:
    """f64 through `f64_body`; f32 (and f16/bf16 through f32) through `f32_body`."""
    narrow = _upcast(f32_body)

    def expand(m: _Math, x: SSAValue) -> SSAValue | None:
        if isinstance(element_type(x.type), Float64Type):
            return f64_body(m, x)
        return narrow(m, x)

    return expand


def _binary_upcast(
    body: Callable[[_Math, SSAValue, SSAValue], SSAValue],
) -> Callable[[_Math, SSAValue, SSAValue], SSAValue | None]:
    """`materializeWithUpcast` to f32 for two operands: f32/f64 as they are,
    f16/bf16 through f32, others unexpanded."""

    def expand(m: _Math, x: SSAValue, y: SSAValue) -> SSAValue | None:
        element = element_type(x.type)
        if isinstance(element, Float32Type | Float64Type):
            return body(m, x, y)
        if getattr(element, "name", "") not in ("f16", "bf16"):
            return None
        wide_x, wide_y = m.b.convert(x, f32), m.b.convert(y, f32)
        return m.b.convert(body(m, wide_x, wide_y), element)

    return expand


def _float_binary(
    body: Callable[[_Math, SSAValue, SSAValue], SSAValue],
) -> Callable[[_Math, SSAValue, SSAValue], SSAValue | None]:
    def expand(m: _Math, x: SSAValue, y: SSAValue) -> SSAValue | None:
        name = getattr(element_type(x.type), "name", "")
        return body(m, x, y) if name.startswith(("f", "bf")) else None

    return expand


def _complex_math(name: str) -> Callable[[_Math, SSAValue], SSAValue | None]:
    """Upstream's generated complex pattern for `name` (`chlo_complex_math`)."""

    def expand(m: _Math, x: SSAValue) -> SSAValue | None:
        return expand_complex(m.b, name, x, m.full_constants)

    return expand


def _complex_or(
    real: Callable[[_Math, SSAValue], SSAValue | None],
    complex_body: Callable[[_Math, SSAValue], SSAValue | None],
) -> Callable[[_Math, SSAValue], SSAValue | None]:
    """`complex_body` on complex values, `real` otherwise."""

    def expand(m: _Math, x: SSAValue) -> SSAValue | None:
        if isinstance(element_type(x.type), ComplexType):
            return complex_body(m, x)
        return real(m, x)

    return expand


EXPANSIONS: dict[str, Callable[[_Math, SSAValue], SSAValue | None]] = {
    "chlo.square": _any(square),
    "chlo.erf": _by_width(erf_f32, erf_f64),
    "chlo.erfc": _by_width(erfc_f32, erfc_f64),
    "chlo.erf_inv": _by_width(erf_inv_f32, erf_inv_f64),
    "chlo.cosh": _complex_or(_upcast(cosh), cosh),
    "chlo.sinh": _complex_or(_upcast(sinh), sinh),
    "chlo.atan": _float_only(atan),
    "chlo.tan": _complex_or(_float_only(tan), tan),
    "chlo.atanh": _complex_or(_float_only(atanh), _complex_math("chlo.atanh")),
    "chlo.asin": _complex_or(_float_only(asin), _complex_math("chlo.asin")),
    "chlo.acos": _float_only(acos),
    "chlo.acosh": _complex_or(_float_only(acosh), _complex_math("chlo.acosh")),
    "chlo.asinh": _complex_or(_float_only(asinh), _complex_math("chlo.asinh")),
    "chlo.lgamma": _upcast_below_f32(lgamma),
    "chlo.digamma": _upcast_below_f32(digamma),
    "chlo.bessel_i1e": _upcast_below_f32(bessel_i1e),
    "chlo.conj": _any(conj),
    "chlo.is_inf": _float_only(is_inf),
    "chlo.is_pos_inf": _float_only(is_pos_inf),
    "chlo.is_neg_inf": _float_only(is_neg_inf),
}
"""Unary chlo ops (and the `is_*inf` predicates) to their expansion on the operand."""

BINARY_EXPANSIONS: dict[str, Callable[[_Math, SSAValue, SSAValue], SSAValue | None]] = {
    "chlo.next_after": _float_binary(next_after),
    "chlo.zeta": _binary_upcast(zeta),
    "chlo.polygamma": _binary_upcast(polygamma),
    "chlo.mulhi": mulhi,
}
"""Binary chlo ops to their expansion on (lhs, rhs)."""


def expand_unary(
    name: str, x: SSAValue, result_type: Attribute, full_constants: bool = False
) -> HloBuilder | None:
    """The StableHLO ops computing chlo op `name` of `x` (the last op's result is the
    value), or None where upstream's expansion is not reproduced (or is no op)."""
    expansion = EXPANSIONS.get(name)
    if expansion is None or not isinstance(result_type, TensorType):
        return None
    b = HloBuilder()
    value = expansion(_Math(b, full_constants), x)
    if value is None or not b.ops or b.ops[-1].results[0] is not value:
        return None
    return b


def expand(
    op: Operation, operands: Sequence[SSAValue], full_constants: bool = False
) -> tuple[HloBuilder, list[SSAValue]] | None:
    """The StableHLO ops computing chlo `op` on `operands` (its own, or a region's
    arguments), and the values replacing its results; None where upstream's
    expansion is not reproduced."""
    b = HloBuilder()
    m = _Math(b, full_constants)
    value: SSAValue | None = None
    if isinstance(op, ScanOp):
        return expand_scan(op, operands, full_constants)
    if isinstance(op, RaggedDotOp):
        ragged = expand_ragged_dot(op, operands)
        return None if ragged is None else (ragged, [ragged.ops[-1].results[0]])
    if isinstance(op, ConstantLikeOp):
        value = constant_like(m, op, operands[0])
    elif op.name in EXPANSIONS and len(operands) == 1:
        value = EXPANSIONS[op.name](m, operands[0])
    elif op.name in BINARY_EXPANSIONS and len(operands) == 2:
        value = BINARY_EXPANSIONS[op.name](m, operands[0], operands[1])
    if value is None:
        return None
    return b, [value]


def constant_like(m: _Math, op: ConstantLikeOp, operand: SSAValue) -> SSAValue | None:
    """`ConvertConstantLikeOp`: one splat constant of a static result type; on a
    bounded dynamic one, a broadcast to the bounds and `set_dimension_size` per
    dynamic dimension; else `shape.shape_of` + `dynamic_broadcast_in_dim`."""
    result_type = op.result.type
    if not isa(result_type, TensorType[Attribute]):
        return None
    shape = tuple(result_type.get_shape())
    value = op.value
    if isinstance(value, FloatAttr):
        number: float | int = float(cast(FloatAttr, value).value.data)
    elif isinstance(value, IntegerAttr):
        number = int(cast("IntegerAttr[Any]", value).value.data)
    else:
        return None
    element = result_type.get_element_type()
    encoding = result_type.encoding
    if any(n < 0 for n in shape) and isinstance(encoding, TypeExtensionsAttr):
        return _bounded_constant(m.b, number, element, shape, encoding, operand)
    if any(n < 0 for n in shape):
        # Upstream: a scalar constant, `shape.shape_of` of the operand, and a
        # `dynamic_broadcast_in_dim` to it.
        scalar = m.b.constant([number], element, ())
        extents = m.b.add(
            ShapeOfOp.create(
                operands=[operand],
                result_types=[TensorType(IndexType(), [len(shape)])],
            )
        )
        return m.b.add(
            DynamicBroadcastInDimOp.create(
                operands=[scalar, extents],
                result_types=[result_type],
                properties={"broadcast_dimensions": DenseArrayBase.from_list(i64, [])},
            )
        )
    if m.full_constants or not shape:
        return m.b.constant([number], element, shape)
    return m.b.splat(number, element, shape)


def _bounded_constant(
    b: HloBuilder,
    number: float | int,
    element: Attribute,
    shape: Sequence[int],
    encoding: TypeExtensionsAttr,
    operand: SSAValue,
) -> SSAValue | None:
    """`numpyBroadcastIfNeeded` of a scalar to a bounded dynamic shape: a
    `broadcast_in_dim` to the bounds, then per dynamic dimension (in order) its
    run-time size from `operand` through `set_dimension_size`."""
    bounds = encoding.values
    if len(bounds) != len(shape) or any(
        n < 0 and bound < 0 for n, bound in zip(shape, bounds)
    ):
        return None
    full = [bound if n < 0 else n for n, bound in zip(shape, bounds)]
    value = b.add(
        BroadcastInDimOp(
            b.constant([number], element, []), [], TensorType(element, full)
        )
    )
    current = list(full)
    current_bounds = [DYNAMIC_INDEX] * len(shape)
    for d, n in enumerate(shape):
        if n >= 0:
            continue
        size = b.add(
            GetDimensionSizeOp.create(
                operands=[operand],
                result_types=[TensorType(i32, [])],
                properties={"dimension": IntegerAttr(d, i64)},
            )
        )
        current[d], current_bounds[d] = DYNAMIC_INDEX, bounds[d]
        value = b.add(
            SetDimensionSizeOp.create(
                operands=[value, size],
                result_types=[
                    TensorType(element, current, TypeExtensionsAttr(current_bounds))
                ],
                properties={"dimension": IntegerAttr(d, i64)},
            )
        )
    return value


# ----- ragged_dot (`ConvertRaggedDotOp`)


def _i64_zero(b: HloBuilder, shape: Sequence[int]) -> SSAValue:
    return b.constant([0], i64, shape)


def _ragged_mask(
    b: HloBuilder,
    lhs: SSAValue,
    zero: SSAValue,
    start: SSAValue,
    limit: SSAValue,
    iota: SSAValue,
    group_sizes_rank: int,
) -> SSAValue:
    """`applyRaggedMask`: lhs where start <= iota < limit, else zero."""
    lhs_shape = shape_of(lhs.type)
    target = TensorType(i64, lhs_shape)
    dims = list(range(group_sizes_rank - 1))
    start_b = _broadcast_to_lhs(b, start, dims, lhs, target)
    limit_b = _broadcast_to_lhs(b, limit, dims, lhs, target)
    iota_b = _broadcast_to_lhs(b, iota, list(range(len(lhs_shape))), lhs, target)
    ge_start = b.compare(ComparisonDirection.GE, iota_b, start_b)
    lt_limit = b.compare(ComparisonDirection.LT, iota_b, limit_b)
    mask = b.binary(AndOp, ge_start, lt_limit)
    return b.add(
        ew.SelectOp.create(operands=[mask, lhs, zero], result_types=[lhs.type])
    )


def _broadcast_to_lhs(
    b: HloBuilder,
    value: SSAValue,
    dims: list[int],
    lhs: SSAValue,
    target: TensorType[Attribute],
) -> SSAValue:
    """`broadcast_in_dim` to lhs's shape; on a dynamic lhs, upstream's
    `shape.shape_of` + `dynamic_broadcast_in_dim`."""
    if is_static(lhs.type):
        return b.add(BroadcastInDimOp(value, dims, target))
    return _dynamic_broadcast(b, value, dims, lhs, target)


def _dynamic_broadcast(
    b: HloBuilder,
    value: SSAValue,
    dims: list[int],
    like: SSAValue,
    target: Attribute,
) -> SSAValue:
    rank = len(shape_of(like.type))
    extents = b.add(
        ShapeOfOp.create(
            operands=[like], result_types=[TensorType(IndexType(), [rank])]
        )
    )
    return b.add(
        DynamicBroadcastInDimOp.create(
            operands=[value, extents],
            result_types=[target],
            properties={"broadcast_dimensions": DenseArrayBase.from_list(i64, dims)},
        )
    )


def _ragged_iota_shape(b: HloBuilder, lhs: SSAValue, ragged: int) -> SSAValue:
    """Mode 1's dynamic iota shape: lhs's run-time size at the ragged dimension,
    1 elsewhere, as a `tensor<rank x i64>`."""
    rank = len(shape_of(lhs.type))
    dims: list[SSAValue] = []
    for d in range(rank):
        if d == ragged:
            size = b.add(
                GetDimensionSizeOp.create(
                    operands=[lhs],
                    result_types=[TensorType(i32, [])],
                    properties={"dimension": IntegerAttr(d, i64)},
                )
            )
            size = b.add(ew.ConvertOp(size, TensorType(i64, [])))
            dims.append(b.add(ReshapeOp(size, TensorType(i64, [1]))))
        else:
            dims.append(b.constant([1], i64, [1]))
    return b.add(
        ConcatenateOp.create(
            operands=dims,
            result_types=[TensorType(i64, [rank])],
            properties={"dimension": IntegerAttr(0, i64)},
        )
    )


def _dynamic_group_slice(
    b: HloBuilder, rhs: SSAValue, group_dim: int, index: int
) -> SSAValue:
    """Mode 1 on a dynamic rhs: group `index` by `real_dynamic_slice` (start/limit
    built per dimension: constants at the group dimension, 0 and the run-time size
    elsewhere) and `dynamic_reshape` without the group dimension, as upstream."""
    rhs_shape = shape_of(rhs.type)
    rank = len(rhs_shape)
    starts: list[SSAValue] = []
    limits: list[SSAValue] = []
    for d in range(rank):
        if d == group_dim:
            starts.append(b.constant([index], i64, [1]))
            limits.append(b.constant([index + 1], i64, [1]))
        else:
            starts.append(b.constant([0], i64, [1]))
            size = b.add(
                GetDimensionSizeOp.create(
                    operands=[rhs],
                    result_types=[TensorType(i32, [])],
                    properties={"dimension": IntegerAttr(d, i64)},
                )
            )
            size = b.add(ew.ConvertOp(size, TensorType(i64, [])))
            limits.append(b.add(ReshapeOp(size, TensorType(i64, [1]))))

    def concat(values: list[SSAValue], n: int) -> SSAValue:
        return b.add(
            ConcatenateOp.create(
                operands=values,
                result_types=[TensorType(i64, [n])],
                properties={"dimension": IntegerAttr(0, i64)},
            )
        )

    start, limit = concat(starts, rank), concat(limits, rank)
    strides = b.constant([1] * rank, i64, [rank])
    element = element_type(rhs.type)
    slice_shape = list(rhs_shape)
    slice_shape[group_dim] = 1
    sliced = b.add(
        RealDynamicSliceOp.create(
            operands=[rhs, start, limit, strides],
            result_types=[TensorType(element, slice_shape)],
        )
    )
    kept = [d for d in range(rank) if d != group_dim]
    new_shape = concat([limits[d] for d in kept], rank - 1)
    return b.add(
        DynamicReshapeOp.create(
            operands=[sliced, new_shape],
            result_types=[TensorType(element, [rhs_shape[d] for d in kept])],
        )
    )


def _prepend_one(b: HloBuilder, value: SSAValue) -> SSAValue:
    """`value` reshaped to 1 x its shape: `reshape` when static, else upstream's
    `dynamic_reshape` to [1, get_dimension_size of every dimension]."""
    shape = shape_of(value.type)
    new_type = TensorType(element_type(value.type), [1, *shape])
    if is_static(value.type):
        return b.add(ReshapeOp(value, new_type))
    sizes = [b.constant([1], i64, [1])]
    for d in range(len(shape)):
        size = b.add(
            GetDimensionSizeOp.create(
                operands=[value],
                result_types=[TensorType(i32, [])],
                properties={"dimension": IntegerAttr(d, i64)},
            )
        )
        size = b.add(ew.ConvertOp(size, TensorType(i64, [])))
        sizes.append(b.add(ReshapeOp(size, TensorType(i64, [1]))))
    new_shape = b.add(
        ConcatenateOp.create(
            operands=sizes,
            result_types=[TensorType(i64, [len(shape) + 1])],
            properties={"dimension": IntegerAttr(0, i64)},
        )
    )
    return b.add(
        DynamicReshapeOp.create(operands=[value, new_shape], result_types=[new_type])
    )


def _group_size(
    b: HloBuilder, group_sizes: SSAValue, index: int, batch_shape: Sequence[int]
) -> SSAValue:
    """`getGroupSize` (static): group_sizes[..., index] reshaped to the batch shape, i64."""
    shape = list(shape_of(group_sizes.type))
    rank = len(shape)
    start = [0] * rank
    start[-1] = index
    limit = list(shape)
    limit[-1] = index + 1
    sliced = b.add(_slice(group_sizes, start, limit))
    element = element_type(group_sizes.type)
    size = b.add(ReshapeOp(sliced, TensorType(element, batch_shape)))
    if element != i64:
        size = b.add(ew.ConvertOp(size, TensorType(i64, batch_shape)))
    return size


def _slice(value: SSAValue, start: Sequence[int], limit: Sequence[int]) -> SliceOp:
    shape = [hi - lo for lo, hi in zip(start, limit, strict=True)]
    return SliceOp.create(
        operands=[value],
        result_types=[with_element(TensorType(i1, shape), element_type(value.type))],
        properties={
            "start_indices": DenseArrayBase.from_list(i64, list(start)),
            "limit_indices": DenseArrayBase.from_list(i64, list(limit)),
            "strides": DenseArrayBase.from_list(i64, [1] * len(start)),
        },
    )


def _dot(
    lhs: SSAValue,
    rhs: SSAValue,
    numbers: DotDimensionNumbersAttr,
    precision: Attribute | None,
    result_type: Attribute,
) -> DotGeneralOp:
    op = DotGeneralOp(lhs, rhs, numbers, result_type)
    if precision is not None:
        op.properties["precision_config"] = precision
    return op


def _precision(op: RaggedDotOp) -> Attribute | None:
    """`convertPrecisionConfig`: chlo's precisions as StableHLO's."""
    config = op.precision_config
    if config is None:
        return None
    return ArrayAttr(
        [ShloPrecisionAttr(ShloPrecision(p.data.value)) for p in config.data]
    )


def expand_ragged_dot(
    op: RaggedDotOp, operands: Sequence[SSAValue]
) -> HloBuilder | None:
    """`ConvertRaggedDotOp` (static or dynamic shapes; the group count static):
    mode 1 (ragged lhs free dimension) as
    one masked dot_general per group, summed; mode 2 (ragged contracting dimension)
    one per group, concatenated along a new leading dimension; mode 3 (ragged batch
    dimension) a plain dot_general, on `operands` (lhs, rhs, group_sizes). The
    builder's last op gives the result."""
    lhs, rhs, group_sizes = operands
    types = [lhs.type, rhs.type, group_sizes.type, op.result.type]
    if not all(isa(t, TensorType) for t in types):
        return None
    numbers = op.ragged_dot_dimension_numbers
    lhs_shape, rhs_shape = shape_of(lhs.type), shape_of(rhs.type)
    result_shape = shape_of(op.result.type)
    # Dynamic shapes take upstream's dynamic forms (dynamic_iota, shape_of +
    # dynamic_broadcast_in_dim, real_dynamic_slice, dynamic_reshape).
    mode_1 = len(lhs_shape) < len(rhs_shape)
    if not is_static(group_sizes.type):
        return None  # upstream: "dynamic group count not supported"
    group_shape = shape_of(group_sizes.type)
    precision = _precision(op)
    b = HloBuilder()
    lhs_batching = numbers.dims("lhs_batching_dimensions")
    rhs_batching = numbers.dims("rhs_batching_dimensions")
    lhs_contracting = numbers.dims("lhs_contracting_dimensions")
    rhs_contracting = numbers.dims("rhs_contracting_dimensions")
    (ragged,) = numbers.dims("lhs_ragged_dimensions")
    if len(lhs_shape) >= len(rhs_shape) and len(lhs_shape) >= len(result_shape):
        dims = DotDimensionNumbersAttr.get(
            lhs_batching, rhs_batching, lhs_contracting, rhs_contracting
        )
        b.add(_dot(lhs, rhs, dims, precision, op.result.type))
        return b
    batch_shape = list(group_shape[:-1])
    start = _i64_zero(b, batch_shape)
    iota_shape = [1] * len(lhs_shape)
    iota_shape[ragged] = lhs_shape[ragged]
    if lhs_shape[ragged] < 0:
        iota = b.add(
            DynamicIotaOp.create(
                operands=[_ragged_iota_shape(b, lhs, ragged)],
                result_types=[TensorType(i64, iota_shape)],
                properties={"iota_dimension": IntegerAttr(ragged, i64)},
            )
        )
    else:
        iota = b.add(
            IotaOp.create(
                result_types=[TensorType(i64, iota_shape)],
                properties={"iota_dimension": IntegerAttr(ragged, i64)},
            )
        )
    if is_static(lhs.type):
        zero = b.constant([0], element_type(lhs.type), lhs_shape)
    else:
        scalar_zero = b.constant([0], element_type(lhs.type), [])
        zero = _dynamic_broadcast(b, scalar_zero, [], lhs, lhs.type)
    group_dim = -1
    if mode_1:
        (group_dim,) = numbers.dims("rhs_group_dimensions")
        groups = rhs_shape[group_dim]
        if groups < 0:
            return None  # upstream: "dynamic group count not supported"

        def adjusted(d: int) -> int:
            return d - 1 if d > group_dim else d

        dims = DotDimensionNumbersAttr.get(
            lhs_batching,
            [adjusted(d) for d in rhs_batching],
            lhs_contracting,
            [adjusted(d) for d in rhs_contracting],
        )
    else:
        groups = group_shape[-1]
        dims = DotDimensionNumbersAttr.get(
            lhs_batching, rhs_batching, lhs_contracting, rhs_contracting
        )
    outputs: list[SSAValue] = []
    for i in range(groups):
        size = _group_size(b, group_sizes, i, batch_shape)
        limit = b.binary(ew.AddOp, start, size)
        masked = _ragged_mask(b, lhs, zero, start, limit, iota, len(group_shape))
        if mode_1 and not is_static(rhs.type):
            operand = _dynamic_group_slice(b, rhs, group_dim, i)
            dot = b.add(_dot(masked, operand, dims, precision, op.result.type))
            outputs = [dot] if i == 0 else [b.binary(ew.AddOp, outputs[0], dot)]
        elif mode_1:
            begin = [0] * len(rhs_shape)
            begin[group_dim] = i
            end = list(rhs_shape)
            end[group_dim] = i + 1
            sliced = b.add(_slice(rhs, begin, end))
            kept = [n for d, n in enumerate(rhs_shape) if d != group_dim]
            operand = b.add(ReshapeOp(sliced, TensorType(element_type(rhs.type), kept)))
            dot = b.add(_dot(masked, operand, dims, precision, op.result.type))
            outputs = [dot] if i == 0 else [b.binary(ew.AddOp, outputs[0], dot)]
        else:
            result_type = TensorType(element_type(op.result.type), result_shape[1:])
            outputs.append(b.add(_dot(masked, rhs, dims, precision, result_type)))
        start = limit
    if mode_1:
        return b
    reshaped = [_prepend_one(b, out) for out in outputs]
    b.add(
        ConcatenateOp.create(
            operands=reshaped,
            result_types=[op.result.type],
            properties={"dimension": IntegerAttr(0, i64)},
        )
    )
    return b


# ----- scan (`ConvertScanOp`, static shapes)


def _i64_scalar(b: HloBuilder, value: int) -> SSAValue:
    return b.constant([value], i64, [])


def expand_scan(
    op: ScanOp, operands: Sequence[SSAValue], upstream_form: bool = False
) -> tuple[HloBuilder, list[SSAValue]] | None:
    """`ConvertScanOp` on static shapes: a `stablehlo.while` over an i64 index whose
    body slices each input at the index (`dynamic_slice` + `reshape`), runs the scan
    body on the slices and carries, and writes each output step with
    `dynamic_update_slice`; `is_reverse` counts the position down from the end.
    The scan length is `get_dimension_size` of the first input in `upstream_form`,
    else the same static size as an i32 constant (what the interpreter and the
    linalg lowering run)."""
    inputs = list(operands[: len(op.inputs)])
    inits = list(operands[len(op.inputs) :])
    if not all(is_static(v.type) for v in [*operands, *op.results]):
        return None
    dim = op.dimension.value.data
    reverse = op.is_reverse is not None and op.is_reverse.value.data
    b = HloBuilder()
    if inputs and upstream_form:
        size = b.add(
            GetDimensionSizeOp.create(
                operands=[inputs[0]],
                result_types=[TensorType(i32, [])],
                properties={"dimension": IntegerAttr(dim, i64)},
            )
        )
    else:
        reference = inputs[0].type if inputs else op.results[0].type
        size = b.constant([shape_of(reference)[dim]], i32, [])
    scan_size = b.add(ew.ConvertOp(size, TensorType(i64, [])))
    initial: list[SSAValue] = [_i64_scalar(b, 0), *inits]
    outputs = list(op.outputs)
    for result in outputs:
        element = element_type(result.type)
        zero_value: Any = (0.0, 0.0) if isinstance(element, ComplexType) else 0
        zero = b.constant([zero_value], cast(Attribute, element), [])
        initial.append(b.add(BroadcastInDimOp(zero, [], result.type)))
    types = [v.type for v in initial]
    cond = Block(arg_types=types)
    compare = ew.CompareOp.create(
        operands=[cond.args[0], scan_size],
        result_types=[TensorType(i1, [])],
        properties={
            "comparison_direction": ComparisonDirectionAttr(ComparisonDirection.LT)
        },
    )
    cond.add_ops([compare, ReturnOp.create(operands=[compare.results[0]])])
    body = Block(arg_types=types)
    inner = HloBuilder()
    index = body.args[0]
    position: SSAValue = index
    if reverse:
        one = _i64_scalar(inner, 1)
        last = inner.binary(ew.SubtractOp, scan_size, one)
        position = inner.binary(ew.SubtractOp, last, index)
    carries = list(body.args[1 : 1 + len(inits)])
    current = list(body.args[1 + len(inits) :])
    sliced: list[SSAValue] = []
    for value in inputs:
        shape = list(shape_of(value.type))
        slice_shape = list(shape)
        slice_shape[dim] = 1
        zero_index = _i64_scalar(inner, 0)
        starts = [position if d == dim else zero_index for d in range(len(shape))]
        element = element_type(value.type)
        piece = inner.add(
            DynamicSliceOp.create(
                operands=[value, *starts],
                result_types=[TensorType(element, slice_shape)],
                properties={"slice_sizes": DenseArrayBase.from_list(i64, slice_shape)},
            )
        )
        kept = [n for d, n in enumerate(slice_shape) if d != dim]
        sliced.append(inner.add(ReshapeOp(piece, TensorType(element, kept))))
    scan_block = op.body.block
    mapping: dict[SSAValue, SSAValue] = dict(
        zip(scan_block.args, [*sliced, *carries], strict=True)
    )
    terminator = scan_block.last_op
    assert terminator is not None
    for nested in scan_block.ops:
        if nested is terminator:
            break
        inner.add(nested.clone(value_mapper=mapping))
    produced = [mapping.get(v, v) for v in terminator.operands]
    new_outputs = produced[: len(outputs)]
    new_carries = produced[len(outputs) :]
    updated: list[SSAValue] = []
    for out, element_value in zip(current, new_outputs, strict=True):
        shape = list(shape_of(out.type))
        element_shape = list(shape)
        element_shape[dim] = 1
        step = inner.add(
            ReshapeOp(element_value, TensorType(element_type(out.type), element_shape))
        )
        zero_index = _i64_scalar(inner, 0)
        starts = [position if d == dim else zero_index for d in range(len(shape))]
        updated.append(
            inner.add(
                DynamicUpdateSliceOp.create(
                    operands=[out, step, *starts], result_types=[out.type]
                )
            )
        )
    next_index = inner.binary(ew.AddOp, index, _i64_scalar(inner, 1))
    body.add_ops(
        [*inner.ops, ReturnOp.create(operands=[next_index, *new_carries, *updated])]
    )
    loop = WhileOp.create(
        operands=initial, result_types=types, regions=[Region(cond), Region(body)]
    )
    b.ops.append(loop)
    results = loop.results
    replacements = [
        *results[1 + len(inits) :],
        *results[1 : 1 + len(inits)],
    ]
    return b, list(replacements)
