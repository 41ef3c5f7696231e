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
    BoolAttr,
    DenseArrayBase,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    TensorType,
    f32,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.utils.hints import isa

from xquant.dialects.chlo import TopKOp
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo import math_extra
from xquant.dialects.stablehlo.attributes import (
    ComparisonDirection,
    ComparisonDirectionAttr,
    ComparisonType,
    ComparisonTypeAttr,
)
from xquant.dialects.stablehlo.bitwise import AndOp
from xquant.dialects.stablehlo.control_flow import SortOp
from xquant.dialects.stablehlo.reductions import ReturnOp
from xquant.dialects.stablehlo.structural import IotaOp, SliceOp
from xquant.numerics.values import dtype_of, element_type, with_element
from xquant.transforms.utils.stablehlo_emitters import HloBuilder, shape_of

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
    """Upstream's helpers (`getConstantLike`, `materializePolynomialApproximation`) on a builder."""

    def __init__(self, b: HloBuilder):
        self.b = b

    def const(self, value: float, like: SSAValue) -> SSAValue:
        element = element_type(like.type)
        if isinstance(element, Float32Type):
            value = float(np.float32(value))  # a C++ `float` literal
        return self.b.splat(value, element, shape_of(like.type))

    def mul(self, a: SSAValue, c: SSAValue) -> SSAValue:
        return self.b.binary(ew.MultiplyOp, a, c)

    def add(self, a: SSAValue, c: SSAValue) -> SSAValue:
        return self.b.binary(ew.AddOp, a, c)

    def sub(self, a: SSAValue, c: SSAValue) -> SSAValue:
        return self.b.binary(ew.SubtractOp, a, c)

    def div(self, a: SSAValue, c: SSAValue) -> SSAValue:
        return self.b.binary(ew.DivideOp, a, c)

    def lt(self, a: SSAValue, c: SSAValue) -> SSAValue:
        return self.b.compare(ComparisonDirection.LT, a, c)

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
    """`materializeSinhApproximation`: expm1-based for |x| < 1, else the exp pair."""
    exp_add, exp_sub = _exp_pair(m, x)
    large = m.sub(exp_add, exp_sub)
    expm1 = m.b.unary(ew.Expm1Op, x)
    one = m.const(1.0, x)
    one_half = m.const(0.5, x)
    ratio = m.div(expm1, m.add(expm1, one))
    small = m.mul(one_half, m.add(expm1, ratio))
    abs_x = m.b.unary(ew.AbsOp, x)
    return m.select(m.lt(abs_x, one), small, large)


def square(m: _Math, x: SSAValue) -> SSAValue:
    """`x * x` (ChloDecompositionPatterns.td, non-complex)."""
    return m.mul(x, x)


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
    two = m.const(2.0, x)
    large = m.b.compare(
        ComparisonDirection.GE, x, m.div(m.const(_max_finite(x), x), two)
    )
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
    is_one = m.b.compare(
        ComparisonDirection.EQ, m.b.unary(ew.AbsOp, x), m.const(1.0, x)
    )
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


EXPANSIONS: dict[str, Callable[[_Math, SSAValue], SSAValue | None]] = {
    "chlo.square": _any(square),
    "chlo.erf": _upcast(erf_f32),
    "chlo.erfc": _upcast(erfc_f32),
    "chlo.erf_inv": _upcast(erf_inv_f32),
    "chlo.cosh": _upcast(cosh),
    "chlo.sinh": _upcast(sinh),
    "chlo.atan": _float_only(atan),
    "chlo.tan": _float_only(tan),
    "chlo.atanh": _float_only(atanh),
    "chlo.asin": _float_only(asin),
    "chlo.acos": _float_only(acos),
    "chlo.acosh": _float_only(acosh),
    "chlo.asinh": _float_only(asinh),
    "chlo.lgamma": _upcast_below_f32(lgamma),
    "chlo.digamma": _upcast_below_f32(digamma),
}


def expand_unary(name: str, x: SSAValue, result_type: Attribute) -> HloBuilder | None:
    """The StableHLO ops computing chlo op `name` of `x` (the last op's result is the
    value), or None where upstream's expansion is not reproduced."""
    expansion = EXPANSIONS.get(name)
    if expansion is None or not isinstance(result_type, TensorType):
        return None
    b = HloBuilder()
    value = expansion(_Math(b), x)
    if value is None or not b.ops or b.ops[-1].results[0] is not value:
        return None
    return b


def expand_top_k(op: TopKOp) -> HloBuilder | None:
    """`ConvertTopKOp` for static shapes: an i32 iota along the last dimension, a sort of
    (operand, iota) on `GT` (`TOTALORDER` for floats, `createSortOp`), and slices of the
    first `k`. The builder's last two ops give values and indices."""
    operand_type = op.operand.type
    if not isa(operand_type, TensorType[Attribute]):
        return None
    shape = list(operand_type.get_shape())
    if not shape or any(size < 0 for size in shape):
        return None
    element = operand_type.get_element_type()
    last = len(shape) - 1
    k = min(op.k.value.data, shape[-1])
    b = HloBuilder()
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
