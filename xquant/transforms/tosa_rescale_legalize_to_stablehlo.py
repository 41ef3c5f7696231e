"""`tosa-rescale-legalize-to-stablehlo`: `tosa.rescale` as StableHLO integer math in i64.

Upstream's pass of the same name (openxla/stablehlo,
`stablehlo/conversions/tosa/transforms/TosaRescaleLegalizeToStablehlo.cpp`)
lowers only per-tensor SINGLE_ROUND rescales with `scale32`. This one lowers
every rounding mode, per-channel rescales, `scale32 = false` and unsigned
inputs/outputs, matching TOSA 1.0's RESCALE bit for bit (see
`xquant.numerics.tosa_rescale` for the pseudo-code):

    x      = convert(bits of input, zero-extended if input_unsigned) : i64
    v      = x - input_zp
    t      = v * multiplier + round          round = 1 << (shift - 1)
                                             DOUBLE_ROUND, shift > 31: round +-= 1 << 30 by sign(v)
    r      = floor(t / 2^shift)              (shift right arithmetic)
    out    = convert(clamp(lo, r + output_zp, hi))   lo/hi: out_t's range, unsigned if output_unsigned

A quantized input is first bitcast to its storage integers and a quantized
result bitcast back, as upstream does. INEXACT_ROUND is lowered as
SINGLE_ROUND, which TOSA's precision requirement for INEXACT_ROUND admits.

The rescales upstream lowers (per-tensor, SINGLE_ROUND, `scale32`, signed
input and output) get upstream's op sequence exactly: full-shape constants
for multiplier (i32), shift (i8), the zero points (i32), one and the clamp
bounds (i64), converted to i64, then `shift_left`/`shift_right_arithmetic`.
The others (upstream rejects them) use a sequence built from the constants
read at compile time: the rounding term and `2^shift` are constants, and the
arithmetic shift is a truncating `divide` by `2^shift` corrected towards
minus infinity (`q - 1` where `q * 2^shift > t`), which is the same value.
Multiplier, shift and the zero points must be constants (`tosa.const`,
`stablehlo.constant` or `arith.constant`) in both forms.

Errors (located at the rescale) instead of a wrong number: non-constant
parameters, dynamic shapes, non-integer types, the specification's ERROR_IF
conditions, and constant parameters that break a REQUIRE (multiplier < 0,
shift outside [2, 62]).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, tosa
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import InterpretationError
from xdsl.utils.hints import isa

from xquant.asm.diagnostics import OpDiagnostic
from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo import bitwise
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo.attributes import ComparisonDirection
from xquant.dialects.stablehlo.type_utils import quantized
from xquant.numerics.dtypes import integer_range
from xquant.numerics.tosa_rescale import RescaleParameters, extend
from xquant.numerics.values import element_type, int_info
from xquant.transforms.utils.stablehlo_emitters import (
    HloBuilder,
    is_static,
    storage_type,
)


def _constant_values(value: SSAValue) -> np.ndarray | None:
    """The integers of a dense constant defining `value`, or None."""
    owner = value.owner
    attr: Attribute | None = None
    if isinstance(owner, tosa.ConstOp):
        attr = owner.values
    elif isinstance(owner, shlo.ConstantOp):
        attr = owner.value
    elif isinstance(owner, arith.ConstantOp):
        attr = owner.value
    if not isinstance(attr, DenseIntOrFPElementsAttr):
        return None
    values = attr.get_values()
    if not all(isinstance(v, int) for v in values):
        return None
    return np.array(values, dtype=np.int64).reshape(-1)


def _integer_element(t: Attribute) -> IntegerType | None:
    """The integer holding a tensor of `t`: the storage type of a quantized element type."""
    if (q := quantized(t)) is not None:
        return storage_type(q)
    element = element_type(t)
    if not isa(element, IntegerType):
        return None
    return IntegerType(int_info(element).width, element.signedness.data)


def _shape(t: Attribute) -> tuple[int, ...]:
    assert isinstance(t, TensorType)
    return tuple(t.get_shape())


def _with_signedness(element: IntegerType, unsigned: bool) -> IntegerType:
    width = element.width.data
    return IntegerType(width, Signedness.UNSIGNED) if unsigned else IntegerType(width)


@dataclass(frozen=True)
class _Rescale:
    """The constant parameters of one `tosa.rescale`, checked against the specification."""

    params: RescaleParameters
    multiplier: np.ndarray
    shift: np.ndarray
    input_zp: int
    output_zp: int


def _read(
    op: tosa.RescaleOp, in_element: IntegerType, out_element: IntegerType
) -> _Rescale:
    constants = [
        _constant_values(v)
        for v in (op.multiplier, op.shift, op.input_zp, op.output_zp)
    ]
    if any(c is None for c in constants):
        raise OpDiagnostic(
            op,
            "'tosa.rescale' op multiplier, shift, input_zp and output_zp must be constants to lower to StableHLO",
        )
    multiplier, shift, input_zp, output_zp = (c for c in constants if c is not None)
    params = RescaleParameters(
        in_width=in_element.width.data,
        out_width=out_element.width.data,
        scale32=op.scale32.value.data != 0,
        rounding_mode=str(op.rounding_mode.data),
        per_channel=op.per_channel.value.data != 0,
        input_unsigned=op.input_unsigned.value.data != 0,
        output_unsigned=op.output_unsigned.value.data != 0,
    )
    if input_zp.size != 1 or output_zp.size != 1:
        raise OpDiagnostic(op, "'tosa.rescale' op zero points must have one element")
    in_zp = int(extend(input_zp[0], params.in_width, params.input_unsigned))
    out_zp = int(extend(output_zp[0], params.out_width, params.output_unsigned))
    shape = _shape(op.input.type)
    try:
        params.check(len(shape), in_zp, out_zp)
    except InterpretationError as err:
        raise OpDiagnostic(
            op, f"'tosa.rescale' op {str(err).removeprefix('tosa.rescale: ')}"
        ) from err
    channels = shape[-1] if params.per_channel else 1
    if multiplier.size != channels or shift.size != channels:
        raise OpDiagnostic(
            op,
            f"'tosa.rescale' op expected {channels} multiplier and shift values, "
            f"got {multiplier.size} and {shift.size}",
        )
    if np.any(multiplier < 0):
        raise OpDiagnostic(op, "'tosa.rescale' op REQUIRE(multiplier >= 0) fails")
    if np.any((shift < 2) | (shift > 62)):
        raise OpDiagnostic(op, "'tosa.rescale' op REQUIRE(2 <= shift <= 62) fails")
    return _Rescale(params, multiplier, shift, in_zp, out_zp)


def _select(
    b: HloBuilder, pred: SSAValue, on_true: SSAValue, on_false: SSAValue
) -> SSAValue:
    return b.add(
        ew.SelectOp.create(
            operands=[pred, on_true, on_false], result_types=[on_true.type]
        )
    )


def _upstream_form(r: _Rescale, value: SSAValue, result_type: Attribute) -> bool:
    """Whether upstream's pass lowers this rescale (and so its op sequence is used)."""
    p = r.params
    elements = (_integer_element(value.type), _integer_element(result_type))
    return (
        all(
            e is not None and not e.signedness.data == Signedness.UNSIGNED
            for e in elements
        )
        and p.rounding_mode == "SINGLE_ROUND"
        and p.scale32
        and not p.per_channel
        and not p.input_unsigned
        and not p.output_unsigned
    )


def _full(b: HloBuilder, value: int, element: IntegerType, shape: tuple[int, ...]):
    """A splat constant materialized at `shape`, as upstream's `DenseElementsAttr::get`."""
    count = int(np.prod(shape, dtype=np.int64))
    return b.constant([value] * count, element, shape)


def _emit_upstream(
    b: HloBuilder, value: SSAValue, r: _Rescale, result_type: Attribute
) -> SSAValue:
    """Upstream's sequence (`TosaRescaleLegalizeToStablehlo.cpp`), op for op."""
    shape = _shape(value.type)
    out_element = _integer_element(result_type)
    assert out_element is not None
    i8, i32 = IntegerType(8), IntegerType(32)
    stored = value
    if (storage := quantized(value.type)) is not None:
        stored = b.bitcast(value, TensorType(storage_type(storage), shape))
    i64_type = TensorType(i64, shape)
    multiplier = _full(b, int(r.multiplier[0]), i32, shape)
    shift = _full(b, int(r.shift[0]), i8, shape)
    input_zp = _full(b, r.input_zp, i32, shape)
    output_zp = _full(b, r.output_zp, i32, shape)
    ones = _full(b, 1, i64, shape)
    low, high = integer_range(r.params.out_width, True)
    out_min = _full(b, low, i64, shape)
    out_max = _full(b, high, i64, shape)

    def to_i64(v: SSAValue) -> SSAValue:
        return b.add(ew.ConvertOp(v, i64_type))

    multiplier64, shift64 = to_i64(multiplier), to_i64(shift)
    input_zp64, output_zp64 = to_i64(input_zp), to_i64(output_zp)
    x = to_i64(stored)
    adjusted = b.binary(ew.SubtractOp, x, input_zp64)
    adjusted_shift = b.binary(ew.SubtractOp, shift64, ones)
    round_term = b.binary(bitwise.ShiftLeftOp, ones, adjusted_shift)
    r1 = b.binary(ew.MultiplyOp, adjusted, multiplier64)
    r2 = b.binary(ew.AddOp, r1, round_term)
    r3 = b.binary(bitwise.ShiftRightArithmeticOp, r2, shift64)
    r4 = b.binary(ew.AddOp, r3, output_zp64)
    r5 = b.clamp(out_min, r4, out_max)
    out = b.add(ew.ConvertOp(r5, TensorType(out_element, shape)))
    return b.bitcast(out, result_type)


def emit_rescale(
    b: HloBuilder, value: SSAValue, r: _Rescale, result_type: Attribute
) -> SSAValue:
    """The RESCALE of `value` (a tensor of integers or quantized storage) into `result_type`."""
    if _upstream_form(r, value, result_type):
        return _emit_upstream(b, value, r, result_type)
    value_type: Attribute = value.type
    shape = _shape(value_type)
    axis = len(shape) - 1 if r.params.per_channel else None
    in_element = _integer_element(value_type)
    out_element = _integer_element(result_type)
    assert in_element is not None and out_element is not None
    stored = value
    if (storage := quantized(value_type)) is not None:
        stored = b.bitcast(value, TensorType(storage_type(storage), shape))
    bits_type = TensorType(_with_signedness(in_element, r.params.input_unsigned), shape)
    x = b.convert(b.bitcast(stored, bits_type), i64)
    if r.input_zp != 0:
        x = b.binary(ew.SubtractOp, x, b.splat(r.input_zp, i64, shape))
    product = b.binary(ew.MultiplyOp, x, b.parameter(r.multiplier, i64, shape, axis))
    half = np.left_shift(np.int64(1), r.shift - 1)
    double = r.params.rounding_mode == "DOUBLE_ROUND" and bool(np.any(r.shift > 31))
    if double:
        correction = np.where(r.shift > 31, np.int64(1 << 30), np.int64(0))
        non_negative = b.compare(ComparisonDirection.GE, x, b.splat(0, i64, shape))
        round_term = _select(
            b,
            non_negative,
            b.parameter(half + correction, i64, shape, axis),
            b.parameter(half - correction, i64, shape, axis),
        )
    else:
        round_term = b.parameter(half, i64, shape, axis)
    total = b.binary(ew.AddOp, product, round_term)
    divisor = b.parameter(np.left_shift(np.int64(1), r.shift), i64, shape, axis)
    quotient = b.binary(ew.DivideOp, total, divisor)
    overshoot = b.compare(
        ComparisonDirection.GT, b.binary(ew.MultiplyOp, quotient, divisor), total
    )
    floored = _select(
        b,
        overshoot,
        b.binary(ew.SubtractOp, quotient, b.splat(1, i64, shape)),
        quotient,
    )
    if r.output_zp != 0:
        floored = b.binary(ew.AddOp, floored, b.splat(r.output_zp, i64, shape))
    width = r.params.out_width
    low, high = integer_range(width, not r.params.output_unsigned)
    clamped = b.clamp(b.splat(low, i64, shape), floored, b.splat(high, i64, shape))
    out_bits = b.convert(
        clamped, _with_signedness(out_element, r.params.output_unsigned)
    )
    out = b.bitcast(out_bits, TensorType(out_element, shape))
    return b.bitcast(out, result_type)


class LowerTosaRescale(RewritePattern):
    """`tosa.rescale` into StableHLO i64 integer math."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tosa.RescaleOp, rewriter: PatternRewriter) -> None:
        input_type, output_type = op.input.type, op.output.type
        if not (is_static(input_type) and is_static(output_type)):
            raise OpDiagnostic(
                op, "'tosa.rescale' op with dynamic shapes is not supported"
            )
        in_element, out_element = (
            _integer_element(input_type),
            _integer_element(output_type),
        )
        if in_element is None or out_element is None:
            raise OpDiagnostic(
                op,
                "'tosa.rescale' op input and output element types must be integer types or quantized integer types",
            )
        rescale = _read(op, in_element, out_element)
        b = HloBuilder()
        result = emit_rescale(b, op.input, rescale, output_type)
        rewriter.insert(b.ops, InsertPoint.before(op))
        rewriter.replace(op, [], [result])


@dataclass(frozen=True)
class TosaRescaleLegalizeToStablehloPass(ModulePass):
    """Rewrite `tosa.rescale` into StableHLO integer ops (upstream's pass of the same name)."""

    name = "tosa-rescale-legalize-to-stablehlo"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(LowerTosaRescale()).rewrite_module(op)
        for const in [c for c in op.walk() if isinstance(c, tosa.ConstOp)]:
            if not const.output.uses:
                const.detach()
                const.erase()
