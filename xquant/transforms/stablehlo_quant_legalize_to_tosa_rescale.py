"""`stablehlo-quant-legalize-to-tosa-rescale`: quantized StableHLO ops to integer ops between `tosa.rescale`s.

Upstream's pass of the same name (openxla/stablehlo,
`stablehlo/conversions/tosa/transforms/StablehloQuantLegalizeToTosaRescale.cpp`),
TOSA 1.0 form: each quantized operand is rescaled to i32 (`input_zp` = its
zero point, `output_zp` = 0), the op runs on i32, and the i32 result is
rescaled into the quantized result type (`input_zp` = 0, `output_zp` = its
zero point). Rescales take and give the quantized tensors directly, as
upstream's do; multiplier, shift and zero points are `tosa.const` tensors of
one element (i32, i8, and the storage type). Every rescale is
`scale32 = true`, `SINGLE_ROUND`, per tensor. Multiplier and shift come from
a real scale by MLIR's `computeMultiplierAndShift` (32-bit).

Scales, as upstream (TFLite's scheme; `input_shift` is 15 for 16-bit
storage, else 20):

- add / subtract: operands to `2 * max(s_lhs, s_rhs)` with `input_shift`
  extra bits: `s_x / (2 max) * 2^input_shift`; result
  `2 max / (s_result * 2^input_shift)`;
- maximum / minimum: the same with `max(s_lhs, s_rhs)`;
- multiply: operands at scale 1 (`q - z`), result `s_lhs * s_rhs / s_result`;
- abs: operand at scale 1, result `s_operand / s_result`;
- compare: both operands to `max(s_lhs, s_rhs)` with `input_shift` bits,
  then an i32 compare (no result rescale).

By default the pass matches what upstream matches: per-tensor quantized
types, signed storage for the arithmetic ops (compare takes any per-tensor
type), `divide` included. Option `safe=true`
(`stablehlo-quant-legalize-to-tosa-rescale{safe=true}`) lowers only what
keeps the op's meaning, leaving the rest untouched for another pass or the
interpreter:

- `divide`: upstream rescales by `s_lhs * s_rhs / s_result` (the multiply
  scale; the quotient's is `s_lhs / (s_rhs * s_result)`) after a truncating
  i32 division of `q - z` values, which gives wrong numbers;
- types TOSA's RESCALE cannot take, or for which the i32 intermediate can
  overflow: only per-tensor types with signed 8-bit storage, or signed 16-bit
  storage with zero point 0 (TOSA's ERROR_IF for i16 zero points), and the
  full storage range (RESCALE clamps to the storage type's range, not to
  narrower `storage_min/max` bounds);
- ops whose rescales would break one of RESCALE's REQUIREs for some storage
  value (`2 <= shift`, `-2^(shift-1) <= q - z < 2^(shift-1)`), or whose i32
  intermediate could overflow. This is checked from the types' storage
  ranges. With 8-bit storage nothing is excluded; with 16-bit storage it
  excludes maximum, minimum and compare (the larger-scale operand is
  rescaled by exactly 2^15: shift 15, so only `|q| < 2^14` is allowed) and
  multiply whenever `s_lhs * s_rhs / s_result` >= 0.5 (i16 products reach
  2^30).

As MLIR's greedy driver (its constant folder) does for upstream, equal
`tosa.const`s are merged and all are moved to the start of their block, so
the output matches upstream's `CHECK-DAG` constants-first layout.

Per-axis types are left untouched, as upstream does. `dot_general` has no
pattern upstream and none here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import tosa
from xdsl.dialects.builtin import (
    BoolAttr,
    DenseIntOrFPElementsAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    i8,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xquant.dialects.quant.types import UniformQuantizedType
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo.type_utils import quantized
from xquant.transforms.utils.op_list import OpList

SHIFT_8_BIT = 20
SHIFT_16_BIT = 15


def _cpp_round(x: float) -> int:
    """C's `std::round` (half away from zero) of a finite double."""
    magnitude = abs(x)
    whole = math.floor(magnitude)
    rounded = whole + (1 if magnitude - whole >= 0.5 else 0)
    return int(rounded if x >= 0 else -rounded)


def compute_multiplier_and_shift(
    scale: float, scale_width: int = 32
) -> tuple[int, int]:
    """MLIR's `tosa::computeMultiplierAndShift`: `scale ~ multiplier * 2^-shift`.

    The mantissa of `scale` in [0.5, 1) scaled to `scale_width - 1` bits and
    rounded half away from zero; a mantissa that rounds up to 1.0 is halved;
    shifts above 62 are capped by shifting the multiplier right instead.
    """
    if scale_width not in (16, 32):
        raise ValueError(f"unsupported TOSA scale width {scale_width}")
    bits = scale_width - 1
    mantissa, exponent = math.frexp(scale)
    shifted = _cpp_round(mantissa * (1 << bits))
    assert shifted <= 1 << bits, "shifted mantissa exceeds the signed width"
    if shifted == 1 << bits:
        shifted //= 2
        exponent += 1
    shift = bits - exponent
    multiplier = shifted
    if shift > 62:
        multiplier >>= min(31, shift - 62)
        shift = 62
    return multiplier, shift


def _input_shift(qtype: UniformQuantizedType) -> int:
    return SHIFT_16_BIT if qtype.storage_width == 16 else SHIFT_8_BIT


def upstream_rescalable(
    qtype: UniformQuantizedType | None, signed: bool = True
) -> bool:
    """What upstream's patterns match: a per-tensor type (`UniformQuantizedType`),
    with signed storage where the pattern checks `isSigned`."""
    if qtype is None or not qtype.is_per_layer:
        return False
    return qtype.is_signed or not signed


def rescalable(qtype: UniformQuantizedType | None) -> bool:
    """A per-tensor type whose storage TOSA's RESCALE takes without widening problems."""
    if qtype is None or not qtype.is_per_layer or not qtype.is_signed:
        return False
    if qtype.has_storage_bounds:
        return False
    if qtype.storage_width == 8:
        return True
    return qtype.storage_width == 16 and qtype.zero_point == 0


def _common_scale_factors(
    lhs: UniformQuantizedType,
    rhs: UniformQuantizedType,
    result: UniformQuantizedType,
    common: float,
) -> tuple[float, float, float]:
    """Both operands to the scale `common` with the input shift's extra precision
    bits, and the result back from it."""
    unit = float(1 << _input_shift(result))
    return (
        lhs.scale / common * unit,
        rhs.scale / common * unit,
        common / (result.scale * unit),
    )


def add_sub_scales(
    lhs: UniformQuantizedType, rhs: UniformQuantizedType, result: UniformQuantizedType
) -> tuple[float, float, float]:
    """Operand and result rescale factors of add / subtract (upstream's `GetAddSubRescaleScales`)."""
    return _common_scale_factors(lhs, rhs, result, 2.0 * max(lhs.scale, rhs.scale))


def min_max_scales(
    lhs: UniformQuantizedType, rhs: UniformQuantizedType, result: UniformQuantizedType
) -> tuple[float, float, float]:
    """Operand and result rescale factors of maximum / minimum (upstream's `GetMinMaxRescaleScales`)."""
    return _common_scale_factors(lhs, rhs, result, max(lhs.scale, rhs.scale))


def multiply_scales(
    lhs: UniformQuantizedType, rhs: UniformQuantizedType, result: UniformQuantizedType
) -> tuple[float, float, float]:
    """Operands at scale 1, the product rescaled by `s_lhs * s_rhs / s_result`."""
    return 1.0, 1.0, lhs.scale * rhs.scale / result.scale


BinaryScales = Callable[
    [UniformQuantizedType, UniformQuantizedType, UniformQuantizedType],
    tuple[float, float, float],
]

BINARY_SCALES: dict[type[ew.BinaryElementwiseOp], BinaryScales] = {
    ew.AddOp: add_sub_scales,
    ew.SubtractOp: add_sub_scales,
    ew.MultiplyOp: multiply_scales,
    # Upstream's GetMulDivRescaleScales: the multiply scale, not the quotient's.
    ew.DivideOp: multiply_scales,
    ew.MaximumOp: min_max_scales,
    ew.MinimumOp: min_max_scales,
}


def _rescaled_bound(low: int, high: int, scale: float) -> int | None:
    """An upper bound of `|apply_scale_32(v, m, s)|` for `low <= v <= high`, or None when
    some `v` breaks RESCALE's REQUIREs (`2 <= shift`, `-2^(shift-1) <= v < 2^(shift-1)`)."""
    multiplier, shift = compute_multiplier_and_shift(scale)
    if shift < 2 or low < -(1 << (shift - 1)) or high >= 1 << (shift - 1):
        return None
    bound = max(-low, high)
    return (bound * multiplier + (1 << (shift - 1))) >> shift


def _operand_bound(qtype: UniformQuantizedType, scale: float) -> int | None:
    """`_rescaled_bound` over a quantized operand's `q - z`."""
    return _rescaled_bound(
        qtype.storage_min - qtype.zero_point,
        qtype.storage_max - qtype.zero_point,
        scale,
    )


I32_MAX = (1 << 31) - 1


def _fits_i32(bound: int | None) -> bool:
    return bound is not None and bound <= I32_MAX


@dataclass
class RescaleBuilder(OpList):
    """`tosa.const` and `tosa.rescale` ops built in order; equal constants are shared."""

    constants: dict[tuple[int, Attribute], SSAValue] = field(
        default_factory=dict[tuple[int, Attribute], SSAValue]
    )

    def const(self, value: int, element: IntegerType) -> SSAValue:
        key = (value, element)
        if (found := self.constants.get(key)) is not None:
            return found
        attr = DenseIntOrFPElementsAttr.from_list(TensorType(element, [1]), [value])
        op = tosa.ConstOp(attr)
        self.ops.append(op)
        self.constants[key] = op.output
        return op.output

    def rescale(
        self,
        value: SSAValue,
        result_type: Attribute,
        scale: float,
        input_zp: int,
        input_zp_type: IntegerType,
        output_zp: int,
        output_zp_type: IntegerType,
    ) -> SSAValue:
        multiplier, shift = compute_multiplier_and_shift(scale, 32)
        op = tosa.RescaleOp.create(
            operands=[
                value,
                self.const(multiplier, i32),
                self.const(shift, i8),
                self.const(input_zp, input_zp_type),
                self.const(output_zp, output_zp_type),
            ],
            result_types=[result_type],
            # In name order: xDSL's `tosa.rescale` prints its properties in
            # insertion order, MLIR's attr-dict sorts them.
            properties={
                "input_unsigned": BoolAttr.from_bool(False),
                "output_unsigned": BoolAttr.from_bool(False),
                "per_channel": BoolAttr.from_bool(False),
                "rounding_mode": tosa.RoundingModeAttr(tosa.RoundingMode.SINGLE_ROUND),
                "scale32": BoolAttr.from_bool(True),
            },
        )
        self.ops.append(op)
        return op.output

    def to_i32(self, value: SSAValue, scale: float) -> SSAValue:
        """`buildRescaleToInt32`: a quantized tensor to i32 at `scale`, zero point removed."""
        q = quantized(value.type)
        assert q is not None
        return self.rescale(
            value,
            _i32_like(value.type),
            scale,
            q.zero_point,
            IntegerType(q.storage_width),
            0,
            i32,
        )

    def from_i32(
        self, value: SSAValue, result_type: Attribute, scale: float
    ) -> SSAValue:
        """`buildRescaleFromInt32`: an i32 tensor into the quantized `result_type` at `scale`."""
        q = quantized(result_type)
        assert q is not None
        return self.rescale(
            value,
            result_type,
            scale,
            0,
            i32,
            q.zero_point,
            IntegerType(q.storage_width),
        )


def _i32_like(t: Attribute) -> TensorType[Attribute]:
    assert isinstance(t, TensorType)
    return TensorType(i32, t.get_shape())


def _replace(
    rewriter: PatternRewriter,
    op: Operation,
    b: RescaleBuilder,
    results: Sequence[SSAValue],
) -> None:
    rewriter.insert(b.ops, InsertPoint.before(op))
    rewriter.replace(op, [], list(results))


@dataclass(frozen=True)
class QuantizedBinaryToRescale(RewritePattern):
    """add / subtract / multiply / divide / maximum / minimum on per-tensor quantized tensors."""

    safe: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ew.BinaryElementwiseOp):
            return
        scales_of = BINARY_SCALES.get(type(op))
        if scales_of is None or (self.safe and isinstance(op, ew.DivideOp)):
            return
        lhs_q, rhs_q, result_q = (
            quantized(t) for t in (op.lhs.type, op.rhs.type, op.result.type)
        )
        accepts = rescalable if self.safe else upstream_rescalable
        if not (accepts(lhs_q) and accepts(rhs_q) and accepts(result_q)):
            return
        assert lhs_q is not None and rhs_q is not None and result_q is not None
        lhs_scale, rhs_scale, result_scale = scales_of(lhs_q, rhs_q, result_q)
        if self.safe and not _safe_binary(
            op, lhs_q, rhs_q, lhs_scale, rhs_scale, result_scale
        ):
            return
        b = RescaleBuilder()
        lhs = b.to_i32(op.lhs, lhs_scale)
        rhs = b.to_i32(op.rhs, rhs_scale)
        integer = type(op)(lhs, rhs, _i32_like(op.result.type))
        b.ops.append(integer)
        _replace(
            rewriter,
            op,
            b,
            [b.from_i32(integer.result, op.result.type, result_scale)],
        )


def _safe_binary(
    op: ew.BinaryElementwiseOp,
    lhs_q: UniformQuantizedType,
    rhs_q: UniformQuantizedType,
    lhs_scale: float,
    rhs_scale: float,
    result_scale: float,
) -> bool:
    """Every rescale meets RESCALE's REQUIREs and the i32 op cannot overflow."""
    lhs_bound = _operand_bound(lhs_q, lhs_scale)
    rhs_bound = _operand_bound(rhs_q, rhs_scale)
    if lhs_bound is None or rhs_bound is None:
        return False
    if isinstance(op, (ew.AddOp, ew.SubtractOp)):
        integer_bound = lhs_bound + rhs_bound
    elif isinstance(op, ew.MultiplyOp):
        integer_bound = lhs_bound * rhs_bound
    else:
        integer_bound = max(lhs_bound, rhs_bound)
    return _fits_i32(integer_bound) and _fits_i32(
        _rescaled_bound(-integer_bound, integer_bound, result_scale)
    )


@dataclass(frozen=True)
class QuantizedAbsToRescale(RewritePattern):
    """abs: `|q - z|` in i32, rescaled by `s_operand / s_result`."""

    safe: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ew.AbsOp, rewriter: PatternRewriter) -> None:
        operand_q, result_q = quantized(op.operand.type), quantized(op.result.type)
        accepts = rescalable if self.safe else upstream_rescalable
        if not (accepts(operand_q) and accepts(result_q)):
            return
        assert operand_q is not None and result_q is not None
        result_scale = operand_q.scale / result_q.scale
        if self.safe:
            bound = _operand_bound(operand_q, 1.0)
            if bound is None or not _fits_i32(
                _rescaled_bound(-bound, bound, result_scale)
            ):
                return
        b = RescaleBuilder()
        value = b.to_i32(op.operand, 1.0)
        integer = ew.AbsOp(value)
        b.ops.append(integer)
        _replace(
            rewriter, op, b, [b.from_i32(integer.result, op.result.type, result_scale)]
        )


@dataclass(frozen=True)
class QuantizedCompareToRescale(RewritePattern):
    """compare: both operands to `max(s_lhs, s_rhs)` with extra precision bits, then an i32 compare."""

    safe: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ew.CompareOp, rewriter: PatternRewriter) -> None:
        lhs_q, rhs_q = quantized(op.lhs.type), quantized(op.rhs.type)
        if self.safe:
            if not (rescalable(lhs_q) and rescalable(rhs_q)):
                return
        elif not (
            upstream_rescalable(lhs_q, signed=False)
            and upstream_rescalable(rhs_q, signed=False)
        ):
            return
        assert lhs_q is not None and rhs_q is not None
        max_scale = max(lhs_q.scale, rhs_q.scale)
        unit = float(1 << _input_shift(lhs_q))
        lhs_scale = lhs_q.scale / max_scale * unit
        rhs_scale = rhs_q.scale / max_scale * unit
        if self.safe and not (
            _fits_i32(_operand_bound(lhs_q, lhs_scale))
            and _fits_i32(_operand_bound(rhs_q, rhs_scale))
        ):
            return
        b = RescaleBuilder()
        lhs = b.to_i32(op.lhs, lhs_scale)
        rhs = b.to_i32(op.rhs, rhs_scale)
        compare = ew.CompareOp.create(
            operands=[lhs, rhs],
            result_types=[op.result.type],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        b.ops.append(compare)
        _replace(rewriter, op, b, [compare.result])


@dataclass(frozen=True)
class StablehloQuantLegalizeToTosaRescalePass(ModulePass):
    """Rewrite per-tensor quantized add/subtract/multiply/divide/maximum/minimum/abs/compare
    into i32 StableHLO ops between `tosa.rescale`s (upstream's pass of the same name).

    `safe=true` lowers only what keeps the op's numbers (module docstring)."""

    name = "stablehlo-quant-legalize-to-tosa-rescale"

    safe: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    QuantizedBinaryToRescale(self.safe),
                    QuantizedAbsToRescale(self.safe),
                    QuantizedCompareToRescale(self.safe),
                ]
            )
        ).rewrite_module(op)
        for nested in op.walk():
            for region in nested.regions:
                for block in region.blocks:
                    hoist_constants(block)


def hoist_constants(block: Block) -> None:
    """What MLIR's greedy driver does with the constants it visits: equal ones
    merged, all moved to the start of their block (in their order)."""
    constants = [o for o in block.ops if isinstance(o, tosa.ConstOp)]
    if not constants:
        return
    kept: dict[tuple[Attribute, Attribute], tosa.ConstOp] = {}
    ordered: list[tosa.ConstOp] = []
    for const in constants:
        key = (const.values, const.output.type)
        if (first := kept.get(key)) is not None:
            const.output.replace_all_uses_with(first.output)
            block.erase_op(const)
            continue
        kept[key] = const
        ordered.append(const)
    front = block.first_op
    for const in ordered:
        if const is front:
            front = const.next_op
            continue
        const.detach()
        if front is None:
            block.add_op(const)
        else:
            block.insert_op_before(const, front)
