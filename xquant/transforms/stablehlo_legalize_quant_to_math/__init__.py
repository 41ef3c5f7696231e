"""`stablehlo-legalize-quant-to-math`: quantized StableHLO to StableHLO on integers and floats.

Every op of the subset that touches a `!quant.uniform` tensor is rewritten so
that no quantized type is left (upstream's pass of the same name).

Two modes. The default follows upstream: all-quantized `dot` / `dot_general` /
`convolution` in upstream's integer form
(`contraction_upstream`: i32 accumulation, f32 combined
scale truncated, no clamp, dynamic shapes too; a convolution upstream's
pattern does not take falls back to dequantize-op-quantize), quantized
`reduce` / `select_and_scatter` left illegal ("failed to legalize", as
upstream has no pattern), `reduce_window` only retyped. Option `exact=true`
keeps the project's numeric contract for those ops (the list below). The
rest (quantize, dequantize, requantize, add, the fallback) is the same in
both modes; where it still differs from upstream is listed at the end.

With `exact=true`:

- `uniform_quantize` / `uniform_dequantize`: the contract's formulas
  (`xquant.transforms.utils.stablehlo_emitters`; dequantize subtracts the zero point
  exactly in i32, or i64 above 16-bit storage, before converting, as the
  spec's `x_storage - zero_point`); a requantize between equal scales is
  an exact integer zero-point shift;
- `add` / `subtract` whose operands and result share the scale of every
  channel: exact integer math `a -+ b + (z_out - z_a -+ z_b)`, clamped
  (per-tensor and per-axis); `maximum` / `minimum` / `select` on one type
  work on the storage integers directly (dequantization is monotone);
- `dot_general` (quantized): `dot_general` of the storage integers,
  zero-point correction terms
  `- z_rhs * sum_K(lhs) - z_lhs * sum_K(rhs) + K * z_lhs * z_rhs`, then a
  rescale by `s_lhs * s_rhs / s_result` in f64, plus the result zero point,
  a clamp to the result's storage range and a round half to even (upstream
  truncates and does not clamp); per-axis rhs and result supported;
- `convolution` (quantized): the zero points are subtracted from both
  operands first (so padding stays a real zero), then the same integer
  convolution, rescale and clamp;
- the accumulator of both (`_accumulator_type`) is i32 only for storage of
  at most 8 bits whose static bound on every partial sum the pattern builds
  is below 2^31, else i64 (always i64 above 8-bit storage or for a dynamic
  contraction size). The bound is `K * A * B`, `K` the contraction size
  (the contracting dims' product; for a convolution the kernel's spatial
  size times its input features, i.e. per group), `A`, `B` bounds on one
  factor: `max|q| + max|z|` for dot_general (raw storage products plus
  the correction terms), `max|q - z|` for convolution (centred operands).
  So the interpreter's exact (i64) sum is reproduced; e.g. an i8 lhs with
  zero point -128 against an i8 rhs stays i32 up to K = 65535;
- hybrid `dot_general` / `convolution` (float lhs): only the rhs is dequantized;
- `reduce`, `reduce_window`, `select_and_scatter`: the implicit conversions to
  the body's accumulator type become explicit requantizations; the body then
  works on the accumulator's storage integers (its ops lowered by the same
  patterns). A single sum (`add` body) accumulates zero-centred values in
  i64 with one final clamp, so it stays a plain integer sum;
- ops that only move data (reshape, transpose, broadcast_in_dim,
  concatenate, slice, gather, constant) change type only;
- everything else (the other element-wise ops, compare, clamp, ...) falls
  back to dequantize -> float op -> quantize, which is the interpreter's own
  definition and therefore exact.

Function signatures become storage integers (`xquant.transforms.utils.signatures`).
Anything still quantized afterwards is an error, as upstream reports it.

Upstream's form. Quantize, dequantize, requantize, add and hybrid
dot/convolution are emitted op for op as upstream's pass
(`StablehloLegalizeQuantToMath.cpp`): rank-0 or 1-D parameters combined by
`chlo` broadcasting ops (so dynamic shapes lower too), upstream's type-change
list (`MOVING_OPS`) and dequantize-op-quantize list (`QDQ_OPS` and
`LowerElementwise`), no dead-code elimination. By default that form is used
whatever its numbers. With `exact=true` it is used only where it computes the
contract's numbers bit for bit; otherwise xquant keeps its own form. The
differences `exact=true` removes, each because upstream's numbers differ:

- requantize whose merged scale `s_in / s_out` is not an exact integer
  factor within f32's exact range (`stablehlo_emitters.merged_requantize`):
  upstream's f32 `q * merged_scale + merged_zp` rounds differently from
  `quantize(dequantize(q))`; xquant emits dequantize then quantize;
- i32 storage: dequantize with a nonzero zero point subtracts in i64
  (upstream's i32 `q - zp` wraps); add/subtract on i32 storage computes in
  i64 and clamps (upstream adds in i32, wrapping, unclamped); quantize clamps
  at the largest f32 below 2^31 (upstream's f32(2^31) is outside i32);
- add / subtract of different scales: exact integer math where upstream
  requantizes (add) or goes through floats (subtract);
- dot_general / convolution with all operands quantized: the contract's
  exact integer accumulation (i64 when i32 could overflow, see below), one
  f64 rescale with round-half-even and a clamp (upstream accumulates in i32,
  truncates the rescale and does not clamp an i8 result); static shapes only;
- reduce, reduce_window and select_and_scatter are lowered (upstream rejects
  reduce and select_and_scatter and retypes reduce_window's body, which is
  wrong for an add body with a nonzero zero point).

In both modes non-f32 expressed types compute in the expressed type
(upstream handles f32 only).

The package, one module per kind of op: `common` (storage types, bridges,
conversions, checks), `quantize`, `elementwise` (with the dequantize-op-quantize
fallback), `contraction` (dot / dot_general / convolution; upstream's integer
form in `contraction_upstream`), `data_movement`, `checks`, `reductions`, and
`pass_` (the pass, the bridges and the legality check). The `chlo` broadcasting
ops it emits are lowered by `xquant.transforms.chlo_legalize_to_stablehlo`.
"""

from xquant.transforms.stablehlo_legalize_quant_to_math.checks import (
    LowerCheckOps,
    LowerCustomCall,
)
from xquant.transforms.stablehlo_legalize_quant_to_math.common import (
    converted_to,
    storage_tensor_type,
    to_float,
    to_storage,
)
from xquant.transforms.stablehlo_legalize_quant_to_math.contraction import (
    LowerConvolution,
    LowerDot,
    LowerDotGeneral,
)
from xquant.transforms.stablehlo_legalize_quant_to_math.data_movement import (
    MOVING_OPS,
    LowerConstant,
    LowerDataMovement,
)
from xquant.transforms.stablehlo_legalize_quant_to_math.elementwise import (
    QDQ_OPS,
    LowerElementwise,
    LowerOtherDequantizeOpQuantize,
    dequantize_op_quantize,
)
from xquant.transforms.stablehlo_legalize_quant_to_math.pass_ import (
    FoldBridges,
    StablehloLegalizeQuantToMathPass,
)
from xquant.transforms.stablehlo_legalize_quant_to_math.quantize import (
    LowerUniformDequantize,
    LowerUniformQuantize,
)
from xquant.transforms.stablehlo_legalize_quant_to_math.reductions import (
    LowerReductions,
)

__all__ = [
    "MOVING_OPS",
    "QDQ_OPS",
    "FoldBridges",
    "LowerCheckOps",
    "LowerConstant",
    "LowerConvolution",
    "LowerCustomCall",
    "LowerDataMovement",
    "LowerDot",
    "LowerDotGeneral",
    "LowerElementwise",
    "LowerOtherDequantizeOpQuantize",
    "LowerReductions",
    "LowerUniformDequantize",
    "LowerUniformQuantize",
    "StablehloLegalizeQuantToMathPass",
    "converted_to",
    "dequantize_op_quantize",
    "storage_tensor_type",
    "to_float",
    "to_storage",
]
