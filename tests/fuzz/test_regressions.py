"""What the API fuzzer found, each from its minimized mutant; and the pass-application wrapper."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException, PassFailedException

import xquant
from xquant.asm.diagnostics import OpDiagnostic
from xquant.asm.located_parser import parse_located
from xquant.interpreter.errors import OpInterpretationError
from xquant.transforms.utils.pipeline import (
    DominanceError,
    PassCrashError,
    PipelineSpecError,
    apply_module_passes,
    apply_pipeline,
    verify_dominance,
)


def test_mx_generalize_rejects_an_index_accumulator() -> None:
    # was: AssertionError in mx_emitters.emit_cast
    module = xquant.parse_module(
        """func.func @min(%a: !mx_tensor.tensor<<1x4xf8E8M0FNU>, <8x64xbf16>>, %b: tensor<8x64xbf16>) -> tensor<8x64xbf16> {
  %0 = linalg.min ins(%a, %b : !mx_tensor.tensor<<1x4xf8E8M0FNU>, <8x64xbf16>>, tensor<8x64xbf16>) outs(%b : tensor<8x64xbf16>) attrs = {accumulator_type = index} -> tensor<8x64xbf16>
  func.return %0 : tensor<8x64xbf16>
}"""
    )
    for pipeline in ("mx-tensor-generalize", "lower-mx-tensor"):
        with pytest.raises(
            OpDiagnostic,
            match=r"'linalg\.min' op accumulator_type must be a float or integer type, got index",
        ):
            xquant.apply_passes(module.clone(), pipeline)


def test_toward_zero_lowering_rejects_a_zero_point_outside_its_storage() -> None:
    # was: ValueError from DenseIntOrFPElementsAttr (4 does not fit i1)
    module = xquant.parse_module(
        """func.func @f(%arg0: tensor<4x?x?x5xf32>) -> tensor<4x?x?x5x!quant.uniform<i1:f32:1, {2.0, 3.0:4}>> {
  %0 = quant.qcast %arg0 : tensor<4x?x?x5xf32> to tensor<4x?x?x5x!quant.uniform<i1:f32:1, {2.0, 3.0:4}>>
  return %0 : tensor<4x?x?x5x!quant.uniform<i1:f32:1, {2.0, 3.0:4}>>
}"""
    )
    with pytest.raises(
        OpDiagnostic, match="zero point 4 does not fit its storage type i1"
    ):
        xquant.apply_passes(module.clone(), "lower-quant-ops{rounding=toward-zero}")
    # nearest-even holds it in f32
    xquant.apply_passes(module, "lower-quant-ops{rounding=nearest-even}")


USE_BEFORE_DEF = """func.func @caller(%arg0: f32) -> f32 {
  %0 = arith.addf %2, %arg0 : f32
  %2 = arith.mulf %arg0, %arg0 : f32
  return %0 : f32
}"""

SELF_USE_IN_REDUCER = """func.func @main(%x: tensor<2x2xi32>, %z: tensor<i32>) -> tensor<2xi32> {
  %s = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x2xi32>, tensor<i32>) -> tensor<2xi32>
   reducer(%a: tensor<i32>, %b: tensor<i32>)  {
    %t = stablehlo.add %a, %t : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }
  func.return %s : tensor<2xi32>
}"""


def test_a_use_before_its_definition_is_an_interpretation_error() -> None:
    # was: KeyError from xDSL's ScopedDict (xDSL does not verify dominance)
    with pytest.raises(
        OpInterpretationError,
        match=r"<string>:2:8: 'arith\.addf' op: uses the result of 'arith\.mulf' where it is not defined",
    ):
        xquant.run(USE_BEFORE_DEF, "caller", 1.0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (USE_BEFORE_DEF, "'arith.addf' op operand #0 does not dominate this use"),
        (
            SELF_USE_IN_REDUCER,
            "'stablehlo.add' op operand #1 does not dominate this use",
        ),
    ],
)
def test_verify_dominance(text: str, message: str) -> None:
    # was: KeyError in stablehlo-legalize-to-linalg (a reducer op using its own result)
    with pytest.raises(DominanceError, match=message):
        xquant.parse_module(text)  # the API checks dominance after parsing
    module = parse_located(xquant.make_context(), text).module
    with pytest.raises(DominanceError, match=message):
        verify_dominance(module)
    with pytest.raises(DominanceError):
        apply_pipeline(Context(), module, "stablehlo-legalize-to-linalg")


def test_verify_dominance_accepts_the_shipped_examples() -> None:
    from tests.fuzz.mutants import SEEDS

    for seed in SEEDS:
        verify_dominance(xquant.parse_module(seed.text))


@dataclass(frozen=True)
class CrashingPass(ModulePass):
    name = "crash"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise IndexError("list index out of range")


def test_a_crashing_pass_is_a_pass_failure_naming_it() -> None:
    with pytest.raises(PassCrashError) as info:
        apply_module_passes(Context(), ModuleOp([]), [CrashingPass()])
    assert isinstance(info.value, PassFailedException)
    assert str(info.value) == "pass 'crash' failed: IndexError: list index out of range"
    assert isinstance(info.value.__cause__, IndexError)


def test_an_unknown_pass_is_a_diagnostic() -> None:
    with pytest.raises(PipelineSpecError, match="Unrecognized passes") as info:
        apply_pipeline(Context(), ModuleOp([]), "no-such-pass")
    assert isinstance(info.value, DiagnosticException)


def test_quant_to_math_rejects_an_unsigned_expressed_type() -> None:
    # was: ValueError "f8E8M0FNU does not support signed values" (a -1 zero point constant)
    q = "tensor<2x2x!quant.uniform<i8:f8E8M0FNU, 2.5e-02:-1>>"
    module = xquant.parse_module(
        f"""func.func @f(%a: {q}, %b: {q}) -> {q} {{
  %0 = stablehlo.multiply %a, %b : ({q}, {q}) -> {q}
  func.return %0 : {q}
}}"""
    )
    with pytest.raises(
        OpDiagnostic, match=r"'stablehlo\.multiply' op cannot lower .* has no sign"
    ):
        xquant.apply_passes(module, "stablehlo-legalize-quant-to-math")


def test_lower_quant_ops_rejects_an_unsigned_expressed_type() -> None:
    # same crash in lower-quant-ops' quantize (zero point and clamp bounds in f8E8M0FNU)
    q = "tensor<2x!quant.uniform<i8:f8E8M0FNU, 2.0:-3>>"
    module = xquant.parse_module(
        f"""func.func @f(%x: tensor<2xf8E8M0FNU>) -> {q} {{
  %q = quant.qcast %x : tensor<2xf8E8M0FNU> to {q}
  return %q : {q}
}}"""
    )
    with pytest.raises(
        OpDiagnostic, match=r"'quant\.qcast' op cannot lower .* has no sign"
    ):
        xquant.apply_passes(module, "lower-quant-ops{rounding=nearest-even}")


def test_floordiv_by_zero_in_an_indexing_map_is_a_diagnostic() -> None:
    """xDSL's linalg.generic verifier evaluates `floordiv 0`: a VerifyException at the op."""
    with pytest.raises(
        DiagnosticException, match=r"'linalg\.generic' op does not verify"
    ):
        xquant.parse_module(
            """#map = affine_map<(d0) -> (d0)>
#smap = affine_map<(d0) -> (d0 floordiv 0)>
func.func @main(%x: tensor<4xf32>, %s: tensor<2xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#map, #smap, #map], iterator_types = ["parallel"]}
      ins(%x, %s : tensor<4xf32>, tensor<2xf32>) outs(%x : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}"""
        )
