"""Complex `asin`, `asinh`, `acosh` and `atanh`: upstream's generated DRR patterns
(stablehlo/transforms/ChloDecompositionPatternsMath.td, written by the
functional_algorithms tool; Apache-2.0, the StableHLO authors), kept verbatim
below and evaluated as the generated C++ does: each result node's operands first,
left to right, then the node; a `:$name` binding is built once and reused;
`ConstantLike` is `chlo.constant_like` legalized in place (a full-shape constant on
a static shape, `shape.shape_of` + `dynamic_broadcast_in_dim` on a dynamic one);
`CHLO_AsinAcosKernelOp` expands its own pattern where the op would be created.
So the ops come in upstream's order and FileCheck's cases match.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import cast

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    ComplexType,
    DenseArrayBase,
    IndexType,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, SSAValue

from xquant.dialects.shape import ShapeOfOp
from xquant.dialects.stablehlo import elementwise as ew
from xquant.dialects.stablehlo import math_extra
from xquant.dialects.stablehlo.attributes import (
    ComparisonDirection,
    ComparisonDirectionAttr,
)
from xquant.dialects.stablehlo.bitwise import AndOp, NotOp, OrOp
from xquant.dialects.stablehlo.dynamism import DynamicBroadcastInDimOp
from xquant.numerics.values import dtype_of, element_type, with_element
from xquant.transforms.utils.stablehlo_emitters import HloBuilder, is_static, shape_of

PATTERNS_TD = r"""
def : Pat<(CHLO_AsinAcosKernelOp ComplexElementType:$z),
  (StableHLO_ComplexOp
    (StableHLO_SelectOp
      (StableHLO_CompareOp
       (StableHLO_MaxOp
         (StableHLO_AbsOp:$x
           (StableHLO_RealOp:$signed_x $z)),
         (StableHLO_AbsOp:$y
           (StableHLO_ImagOp:$signed_y $z))),
       (StableHLO_DivOp:$safe_max
         (StableHLO_SqrtOp
           (StableHLO_ConstantLikeMaxFiniteValue $signed_x), ConstDefaultResultAccuracyAttr),
         (StableHLO_ConstantLike<"8"> $signed_x)),
        StableHLO_ComparisonDirectionValue<"GE">,
        (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
      $y,
      (StableHLO_SelectOp
        (StableHLO_CompareOp
         $x,
         (StableHLO_ConstantLike<"1">:$one $signed_x),
          StableHLO_ComparisonDirectionValue<"LE">,
          (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
        (StableHLO_SqrtOp
          (StableHLO_MulOp
            (StableHLO_MulOp:$half_apx
              (StableHLO_ConstantLike<"0.5">:$half $signed_x),
              (StableHLO_AddOp
                (StableHLO_MulOp:$a
                  $half,
                  (StableHLO_AddOp
                    (StableHLO_SelectOp:$r
                      (StableHLO_CompareOp
                       (StableHLO_MaxOp:$mx
                         (StableHLO_AbsOp:$abs_xp1
                           (StableHLO_AddOp:$xp1 $x, $one)),
                         $y),
                       (StableHLO_MinOp:$mn $abs_xp1, $y),
                        StableHLO_ComparisonDirectionValue<"EQ">,
                        (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
                      (StableHLO_MulOp
                        (StableHLO_ConstantLike<"1.4142135623730951">:$sqrt_two $signed_x),
                        $mx),
                      (StableHLO_SelectOp
                        (StableHLO_AndOp
                          (StableHLO_CompareOp
                           (StableHLO_SqrtOp:$sqa
                             (StableHLO_AddOp
                               $one,
                               (StableHLO_MulOp:$_r_0_
                                 (StableHLO_DivOp:$mn_over_mx $mn, $mx),
                                 $mn_over_mx)), ConstDefaultResultAccuracyAttr),
                           $one,
                            StableHLO_ComparisonDirectionValue<"EQ">,
                            (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
                          (StableHLO_CompareOp
                           $_r_0_,
                           (StableHLO_ConstantLike<"0">:$zero $signed_x),
                            StableHLO_ComparisonDirectionValue<"GT">,
                            (STABLEHLO_DEFAULT_COMPARISON_TYPE))),
                        (StableHLO_AddOp
                          $mx,
                          (StableHLO_DivOp
                            (StableHLO_MulOp $mx, $_r_0_),
                            (StableHLO_ConstantLike<"2">:$two $signed_x))),
                        (StableHLO_MulOp $mx, $sqa))),
                    (StableHLO_SelectOp:$s
                      (StableHLO_CompareOp
                       (StableHLO_MaxOp:$_mx_0_
                         (StableHLO_AbsOp:$abs_xm1
                           (StableHLO_SubtractOp:$xm1 $x, $one)),
                         $y),
                       (StableHLO_MinOp:$_mn_0_ $abs_xm1, $y),
                        StableHLO_ComparisonDirectionValue<"EQ">,
                        (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
                      (StableHLO_MulOp $sqrt_two, $_mx_0_),
                      (StableHLO_SelectOp
                        (StableHLO_AndOp
                          (StableHLO_CompareOp
                           (StableHLO_SqrtOp:$_sqa_0_
                             (StableHLO_AddOp
                               $one,
                               (StableHLO_MulOp:$_r_1_
                                 (StableHLO_DivOp:$_mn_over_mx_0_ $_mn_0_, $_mx_0_),
                                 $_mn_over_mx_0_)), ConstDefaultResultAccuracyAttr),
                           $one,
                            StableHLO_ComparisonDirectionValue<"EQ">,
                            (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
                          (StableHLO_CompareOp
                           $_r_1_,
                           $zero,
                            StableHLO_ComparisonDirectionValue<"GT">,
                            (STABLEHLO_DEFAULT_COMPARISON_TYPE))),
                        (StableHLO_AddOp
                          $_mx_0_,
                          (StableHLO_DivOp
                            (StableHLO_MulOp $_mx_0_, $_r_1_),
                            $two)),
                        (StableHLO_MulOp $_mx_0_, $_sqa_0_))))),
                $x)),
            (StableHLO_AddOp
              (StableHLO_DivOp
                (StableHLO_MulOp:$yy $y, $y),
                (StableHLO_AddOp:$rpxp1 $r, $xp1)),
              (StableHLO_SubtractOp:$smxm1 $s, $xm1))), ConstDefaultResultAccuracyAttr),
        (StableHLO_MulOp
          $y,
          (StableHLO_SqrtOp
            (StableHLO_AddOp
              (StableHLO_DivOp $half_apx, $rpxp1),
              (StableHLO_DivOp
                $half_apx,
                (StableHLO_AddOp:$spxm1 $s, $xm1))), ConstDefaultResultAccuracyAttr)))),
    (StableHLO_SelectOp
      (StableHLO_CompareOp
       (StableHLO_SelectOp:$_mx_1_
         (StableHLO_CompareOp:$y_gt_safe_max_opt
          $y,
          (StableHLO_SelectOp:$safe_max_opt
            (StableHLO_CompareOp
             $x,
             (StableHLO_MulOp
               $safe_max,
               (StableHLO_ConstantLike<"1000000000000.0"> $signed_x)),
              StableHLO_ComparisonDirectionValue<"LT">,
              (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
            (StableHLO_MulOp
              $safe_max,
              (StableHLO_ConstantLike<"1e-06"> $signed_x)),
            (StableHLO_MulOp
              $safe_max,
              (StableHLO_ConstantLike<"100.0"> $signed_x))),
           StableHLO_ComparisonDirectionValue<"GE">,
           (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
         $y,
         $x),
       (StableHLO_SelectOp $y_gt_safe_max_opt, $safe_max_opt, $safe_max),
        StableHLO_ComparisonDirectionValue<"GE">,
        (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
      (StableHLO_AddOp
        (StableHLO_AddOp
          (StableHLO_LogOp $two, ConstDefaultResultAccuracyAttr),
          (StableHLO_LogOp $_mx_1_, ConstDefaultResultAccuracyAttr)),
        (StableHLO_MulOp
          $half,
          (StableHLO_Log1pOp
            (StableHLO_MulOp
              (StableHLO_SelectOp:$xoy
                (StableHLO_AndOp
                  $y_gt_safe_max_opt,
                  (StableHLO_NotOp
                    (StableHLO_CompareOp
                     $y,
                     (StableHLO_ConstantLikePosInfValue $signed_y),
                      StableHLO_ComparisonDirectionValue<"EQ">,
                      (STABLEHLO_DEFAULT_COMPARISON_TYPE)))),
                (StableHLO_DivOp $x, $y),
                $zero),
              $xoy), ConstDefaultResultAccuracyAttr))),
      (StableHLO_SelectOp
        (StableHLO_AndOp:$logical_and_lt_y_safe_min_lt_x_one
          (StableHLO_CompareOp
           $y,
           (StableHLO_MulOp
             (StableHLO_SqrtOp
               (StableHLO_ConstantLikeSmallestNormalizedValue $signed_x), ConstDefaultResultAccuracyAttr),
             (StableHLO_ConstantLike<"4"> $signed_x)),
            StableHLO_ComparisonDirectionValue<"LT">,
            (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
          (StableHLO_CompareOp
           $x,
           $one,
            StableHLO_ComparisonDirectionValue<"LT">,
            (STABLEHLO_DEFAULT_COMPARISON_TYPE))),
        (StableHLO_DivOp
          $y,
          (StableHLO_SqrtOp:$sq
            (StableHLO_MulOp
              (StableHLO_SelectOp:$am1
                $logical_and_lt_y_safe_min_lt_x_one,
                (StableHLO_NegOp
                  (StableHLO_DivOp
                    (StableHLO_MulOp $xp1, $xm1),
                    (StableHLO_AddOp:$ap1 $a, $one))),
                (StableHLO_SelectOp:$x_ge_1_or_not
                  (StableHLO_CompareOp
                   $x,
                   $one,
                    StableHLO_ComparisonDirectionValue<"GE">,
                    (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
                  (StableHLO_AddOp
                    (StableHLO_DivOp:$divide_half_yy_rpxp1
                      (StableHLO_MulOp:$half_yy $half, $yy),
                      $rpxp1),
                    (StableHLO_MulOp $half, $spxm1)),
                  (StableHLO_SelectOp
                    (StableHLO_CompareOp
                     $a,
                     (StableHLO_ConstantLike<"1.5"> $signed_x),
                      StableHLO_ComparisonDirectionValue<"LE">,
                      (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
                    (StableHLO_AddOp
                      $divide_half_yy_rpxp1,
                      (StableHLO_DivOp $half_yy, $smxm1)),
                    (StableHLO_SubtractOp $a, $one)))),
              $ap1), ConstDefaultResultAccuracyAttr)),
        (StableHLO_Log1pOp
          (StableHLO_AddOp $am1, $sq), ConstDefaultResultAccuracyAttr))))>;

def : Pat<(CHLO_AsinOp ComplexElementType:$z),
  (StableHLO_ComplexOp
    (StableHLO_Atan2Op:$real
      (StableHLO_RealOp:$signed_x $z),
      (StableHLO_RealOp
        (CHLO_AsinAcosKernelOp:$asin_acos_kernel_z $z))),
    (StableHLO_SelectOp
      (StableHLO_CompareOp
       (StableHLO_ImagOp:$signed_y $z),
       (StableHLO_ConstantLike<"0"> $signed_x),
        StableHLO_ComparisonDirectionValue<"LT">,
        (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
      (StableHLO_NegOp
        (StableHLO_ImagOp:$imag_asin_acos_kernel_z $asin_acos_kernel_z)),
      $imag_asin_acos_kernel_z))>;

def : Pat<(CHLO_AcoshOp ComplexElementType:$z),
  (StableHLO_ComplexOp
    (StableHLO_ImagOp
      (CHLO_AsinAcosKernelOp:$w $z)),
    (StableHLO_SelectOp
      (StableHLO_CompareOp
       (StableHLO_ImagOp:$signed_y $z),
       (StableHLO_ConstantLike<"0"> $signed_y),
        StableHLO_ComparisonDirectionValue<"LT">,
        (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
      (StableHLO_NegOp
        (StableHLO_Atan2Op:$imag
          (StableHLO_RealOp $w),
          (StableHLO_RealOp:$signed_x $z))),
      $imag))>;

def : Pat<(CHLO_AsinhOp ComplexElementType:$z),
  (StableHLO_ComplexOp
    (StableHLO_SelectOp
      (StableHLO_CompareOp
       (StableHLO_RealOp:$signed_x $z),
       (StableHLO_ConstantLike<"0"> $signed_x),
        StableHLO_ComparisonDirectionValue<"LT">,
        (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
      (StableHLO_NegOp
        (StableHLO_ImagOp:$imag_w
          (CHLO_AsinAcosKernelOp:$w
            (StableHLO_ComplexOp
              (StableHLO_NegOp
                (StableHLO_ImagOp:$signed_y $z)),
              $signed_x)))),
      $imag_w),
    (StableHLO_Atan2Op
      $signed_y,
      (StableHLO_RealOp $w)))>;

def : Pat<(CHLO_AtanhOp ComplexElementType:$z),
  (StableHLO_ComplexOp
    (StableHLO_MulOp
      (StableHLO_MulOp
        (StableHLO_SelectOp
          (StableHLO_CompareOp
           (StableHLO_RealOp:$x $z),
           (StableHLO_ConstantLike<"0">:$zero $x),
            StableHLO_ComparisonDirectionValue<"GE">,
            (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
          (StableHLO_ConstantLike<"1">:$one $x),
          (StableHLO_ConstantLike<"-1">:$constant_neg1 $x)),
        (StableHLO_Log1pOp
          (StableHLO_MulOp
            (StableHLO_ConstantLike<"4"> $x),
            (StableHLO_SelectOp
              (StableHLO_AndOp:$in_safe_region
                (StableHLO_CompareOp
                 (StableHLO_AbsOp:$ax $x),
                 (StableHLO_MulOp:$safe_max
                   (StableHLO_SelectOp:$inv_negeps
                     (StableHLO_CompareOp
                      (StableHLO_ConstantLikeMaxFiniteValue:$largest $x),
                      (StableHLO_ConstantLike<"1e+308"> $x),
                       StableHLO_ComparisonDirectionValue<"GT">,
                       (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
                     (StableHLO_ConstantLike<"9007199254740994.0"> $x),
                     (StableHLO_SelectOp
                       (StableHLO_CompareOp
                        $largest,
                        (StableHLO_ConstantLike<"1e+38"> $x),
                         StableHLO_ComparisonDirectionValue<"GT">,
                         (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
                       (StableHLO_ConstantLike<"16777218.0"> $x),
                       (StableHLO_ConstantLike<"2050.0"> $x))),
                   $inv_negeps),
                  StableHLO_ComparisonDirectionValue<"LT">,
                  (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
                (StableHLO_CompareOp
                 (StableHLO_AbsOp:$ay
                   (StableHLO_ImagOp:$y $z)),
                 $safe_max,
                  StableHLO_ComparisonDirectionValue<"LT">,
                  (STABLEHLO_DEFAULT_COMPARISON_TYPE))),
              (StableHLO_DivOp
                $ax,
                (StableHLO_AddOp
                  (StableHLO_MulOp
                    (StableHLO_SubtractOp:$naxm1 $one, $ax),
                    $naxm1),
                  (StableHLO_MulOp:$y2 $y, $y))),
              (StableHLO_SelectOp
                (StableHLO_CompareOp
                 (StableHLO_MulOp $ay, $inv_negeps),
                 $ax,
                  StableHLO_ComparisonDirectionValue<"LT">,
                  (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
                (StableHLO_DivOp $one, $ax),
                (StableHLO_SelectOp
                  (StableHLO_OrOp
                    (StableHLO_OrOp
                      (StableHLO_CompareOp
                       $x,
                       (StableHLO_ConstantLikePosInfValue:$constant_posinf $x),
                        StableHLO_ComparisonDirectionValue<"EQ">,
                        (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
                      (StableHLO_CompareOp
                       $x,
                       (StableHLO_ConstantLikeNegInfValue:$constant_neginf $x),
                        StableHLO_ComparisonDirectionValue<"EQ">,
                        (STABLEHLO_DEFAULT_COMPARISON_TYPE))),
                    (StableHLO_OrOp
                      (StableHLO_CompareOp
                       $y,
                       $constant_posinf,
                        StableHLO_ComparisonDirectionValue<"EQ">,
                        (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
                      (StableHLO_CompareOp
                       $y,
                       $constant_neginf,
                        StableHLO_ComparisonDirectionValue<"EQ">,
                        (STABLEHLO_DEFAULT_COMPARISON_TYPE)))),
                  $zero,
                  (StableHLO_DivOp
                    (StableHLO_DivOp
                      $one,
                      (StableHLO_AddOp
                        (StableHLO_DivOp $ax, $y),
                        (StableHLO_DivOp $y, $ax))),
                    $y))))), ConstDefaultResultAccuracyAttr)),
      (StableHLO_ConstantLike<"0.25"> $x)),
    (StableHLO_MulOp
      (StableHLO_SelectOp
        $in_safe_region,
        (StableHLO_Atan2Op
          (StableHLO_AddOp $y, $y),
          (StableHLO_SubtractOp
            (StableHLO_MulOp
              $naxm1,
              (StableHLO_AddOp $one, $ax)),
            $y2)),
        (StableHLO_MulOp
          (StableHLO_SelectOp
            (StableHLO_CompareOp
             $y,
             (StableHLO_ConstantLike<"0"> $y),
              StableHLO_ComparisonDirectionValue<"GE">,
              (STABLEHLO_DEFAULT_COMPARISON_TYPE)),
            $one,
            $constant_neg1),
          (StableHLO_ConstantLike<"M_PI"> $x))),
      (StableHLO_ConstantLike<"0.5"> $x)))>;
"""

Node = tuple[str, str | None, list["Arg"]]
"""(op name, its `:$binding` or None, its arguments)."""
Arg = Node | str
"""A node, a `$reference`, or a bare attribute name."""

_TOKEN = re.compile(r'\(|\)|,|\$\w+|\w+(?:<"[^"]*">)?(?::\$\w+)?')


def _parse(tokens: list[str], at: int) -> tuple[Arg, int]:
    token = tokens[at]
    if token != "(":
        return token, at + 1
    head = tokens[at + 1]
    name, _, bind = head.partition(":$")
    at += 2
    args: list[Arg] = []
    while tokens[at] != ")":
        if tokens[at] == ",":
            at += 1
            continue
        arg, at = _parse(tokens, at)
        args.append(arg)
    return (name, bind or None, args), at + 1


def _patterns() -> dict[str, tuple[str, Node]]:
    """chlo op name -> (its operand's binding, the result pattern)."""
    found: dict[str, tuple[str, Node]] = {}
    for text in PATTERNS_TD.split("def : Pat<")[1:]:
        tokens = _TOKEN.findall(text)
        source, at = _parse(tokens, 0)
        result, _ = _parse(tokens, at + 1)  # after the `,`
        assert isinstance(source, tuple) and isinstance(result, tuple)
        (operand,) = source[2]
        assert isinstance(operand, str)
        op = source[0].removeprefix("CHLO_").removesuffix("Op")
        name = "chlo." + re.sub(r"(?<!^)(?=[A-Z])", "_", op).lower()
        found[name] = (operand.partition(":$")[2], result)
    return found


PATTERNS = _patterns()

_BINARY: dict[str, type[ew.BinaryElementwiseOp]] = {
    "AddOp": ew.AddOp,
    "SubtractOp": ew.SubtractOp,
    "MulOp": ew.MultiplyOp,
    "DivOp": ew.DivideOp,
    "MaxOp": ew.MaximumOp,
    "MinOp": ew.MinimumOp,
    "Atan2Op": math_extra.Atan2Op,
    "AndOp": AndOp,
    "OrOp": OrOp,
}
_UNARY: dict[str, type[ew.UnaryElementwiseOp]] = {
    "AbsOp": ew.AbsOp,
    "NegOp": ew.NegateOp,
    "SqrtOp": ew.SqrtOp,
    "LogOp": ew.LogOp,
    "Log1pOp": ew.Log1pOp,
    "NotOp": NotOp,
}
_SPECIAL: dict[str, Callable[[np.dtype[np.floating]], float]] = {
    "ConstantLikeMaxFiniteValue": lambda t: float(np.finfo(t).max),
    "ConstantLikePosInfValue": lambda t: math.inf,
    "ConstantLikeNegInfValue": lambda t: -math.inf,
    "ConstantLikeSmallestNormalizedValue": lambda t: float(np.finfo(t).tiny),
}


class _Evaluator:
    def __init__(self, b: HloBuilder, full_constants: bool):
        self.b = b
        self.full_constants = full_constants

    def expand(self, name: str, operand: SSAValue) -> SSAValue:
        binding, result = PATTERNS[name]
        env = {binding: operand}
        value = self.node(result, env)
        assert isinstance(value, SSAValue)
        return value

    def node(self, arg: Arg, env: dict[str, SSAValue]) -> SSAValue | str:
        if isinstance(arg, str):
            return env[arg[1:]] if arg.startswith("$") else arg
        name, bind, args = arg
        if name == "STABLEHLO_DEFAULT_COMPARISON_TYPE":
            return name  # no `compare_type`, as upstream prints it
        if bind is not None and bind in env:
            return env[bind]
        values = [self.node(a, env) for a in args]
        value = self.create(name.removeprefix("StableHLO_"), values)
        if bind is not None:
            env[bind] = value
        return value

    def create(self, name: str, args: list[SSAValue | str]) -> SSAValue:
        b = self.b
        operands = [a for a in args if isinstance(a, SSAValue)]
        if name.startswith("ConstantLike"):
            (like,) = operands
            dtype = np.dtype(dtype_of(like.type))
            if name in _SPECIAL:
                value = _SPECIAL[name](dtype)
            else:
                text = name.partition('<"')[2].removesuffix('">')
                value = math.pi if text == "M_PI" else float(text)
            return self.constant_like(float(dtype.type(value)), like)
        if name == "CHLO_AsinAcosKernelOp":
            return self.expand("chlo.asin_acos_kernel", operands[0])
        if name in _BINARY:
            return b.binary(_BINARY[name], operands[0], operands[1])
        if name in _UNARY:
            return b.unary(_UNARY[name], operands[0])
        if name == "CompareOp":
            direction = next(
                a for a in args if isinstance(a, str) and a.startswith("StableHLO_Comp")
            )
            word = direction.partition('<"')[2].removesuffix('">')
            return b.add(
                ew.CompareOp.create(
                    operands=operands,
                    result_types=[with_element(operands[0].type, IntegerType(1))],
                    properties={
                        "comparison_direction": ComparisonDirectionAttr(
                            ComparisonDirection[word]
                        )
                    },
                )
            )
        if name == "SelectOp":
            return b.add(
                ew.SelectOp.create(operands=operands, result_types=[operands[1].type])
            )
        if name in ("RealOp", "ImagOp"):
            element = element_type(operands[0].type)
            assert isinstance(element, ComplexType)
            part = with_element(operands[0].type, cast(Attribute, element.element_type))  # pyright: ignore[reportUnknownMemberType]
            cls = math_extra.RealOp if name == "RealOp" else math_extra.ImagOp
            return b.add(cls.create(operands=operands, result_types=[part]))
        if name == "ComplexOp":
            part_type = cast("AnyFloat", element_type(operands[0].type))
            result = with_element(operands[0].type, ComplexType(part_type))
            return b.add(
                math_extra.ComplexOp.create(operands=operands, result_types=[result])
            )
        raise NotImplementedError(name)  # every name of PATTERNS_TD is handled above

    def constant_like(self, value: float, like: SSAValue) -> SSAValue:
        element, shape = element_type(like.type), shape_of(like.type)
        if is_static(like.type):
            if self.full_constants or not shape:
                return self.b.constant([value], element, shape)
            return self.b.splat(value, element, shape)
        scalar = self.b.constant([value], element, [])
        extents = self.b.add(
            ShapeOfOp.create(
                operands=[like], result_types=[TensorType(IndexType(), [len(shape)])]
            )
        )
        return self.b.add(
            DynamicBroadcastInDimOp.create(
                operands=[scalar, extents],
                result_types=[like.type],
                properties={"broadcast_dimensions": DenseArrayBase.from_list(i64, [])},
            )
        )


def expand_complex(
    b: HloBuilder, name: str, operand: SSAValue, full_constants: bool
) -> SSAValue | None:
    """Upstream's expansion of chlo `name` on a complex `operand`, or None where
    upstream has no complex pattern for it."""
    if name not in PATTERNS or name == "chlo.asin_acos_kernel":
        return None
    return _Evaluator(b, full_constants).expand(name, operand)
