"""The linalg our StableHLO pipeline emits is valid upstream MLIR.

Every conformance module of `../shared/stablehlo-quantized` and the quantized
reduction programs go through
`stablehlo-legalize-quant-to-math,stablehlo-legalize-to-linalg`, unfused and
then with `linalg-fuse-elementwise-ops`; upstream `mlir-opt` (LLVM 22) must
parse and verify the output. Our fusion must also leave as many generics as
upstream's `--linalg-fuse-elementwise-ops` run on our unfused output. The test
programs end in StableHLO check calls, which are not linalg: they are replaced
by `true` constants first, and any other StableHLO op left over keeps the
function out of the comparison (none is left in the conformance modules since
convolution and gather are lowered). Skips when mlir-opt or the shared modules are absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType, i1
from xdsl.ir import Operation
from xdsl.rewriter import Rewriter

from tests.fetch_upstream_tests import SHARED_DIR, absent_reason
from tests.upstream import mlir_opt
from xquant import apply_passes, parse_module
from xquant.tools.xquant_run import _chunks  # pyright: ignore[reportPrivateUsage]

_HERE = Path(__file__).resolve().parent


pytestmark = pytest.mark.skipif(
    mlir_opt.find_mlir_opt() is None, reason=mlir_opt.NOT_INSTALLED
)

CONFORMANCE_DIR = SHARED_DIR / "stablehlo-quantized"
MODULES = sorted(CONFORMANCE_DIR.glob("*.mlir")) if CONFORMANCE_DIR.is_dir() else []
PIPELINE = "stablehlo-legalize-quant-to-math{exact=true},stablehlo-legalize-to-linalg"
FUSE = "linalg-fuse-elementwise-ops"
PIPELINES = [PIPELINE, f"{PIPELINE},{FUSE}"]


def _is_check(op: Operation) -> bool:
    if op.name.startswith("check."):
        return True
    target = op.attributes.get("call_target_name") or op.properties.get(
        "call_target_name"
    )
    return op.name == "stablehlo.custom_call" and "check." in str(target)


def without_checks(module: ModuleOp) -> ModuleOp:
    """Replace each check by a `true` of its result type (checks have no linalg form)."""
    for op in [op for op in module.walk() if _is_check(op)]:
        replacements: list[Operation] = []
        for result in op.results:
            t = result.type
            assert isinstance(t, TensorType) and t.element_type == i1
            replacements.append(
                arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, [1]))
            )
        Rewriter.replace_op(op, replacements)
    return module


def lowered_text(source: str, pipeline: str = PIPELINE) -> str | None:
    """The pipeline's output without checks, or None when a StableHLO op stays."""
    module = without_checks(apply_passes(parse_module(source), pipeline))
    if any(op.name.startswith("stablehlo.") for op in module.walk()):
        return None
    return str(module)


def assert_valid_upstream(text: str) -> None:
    done = mlir_opt.run_mlir_opt(text, "--verify-each")
    assert done.returncode == 0, done.stderr + "\n" + text[:4000]


Q8 = "!quant.uniform<i8:f32, 5.000000e-01:-3>"
Q32 = "!quant.uniform<i32:f32, 2.500000e-01:5>"
REDUCTIONS = {
    "reduce_sum_i8_into_i32": f"""
    func.func @main(%x: tensor<4x6x{Q8}>, %init: tensor<{Q8}>) -> tensor<6x{Q32}> {{
      %r = stablehlo.reduce(%x init: %init) across dimensions = [0] : (tensor<4x6x{Q8}>, tensor<{Q8}>) -> tensor<6x{Q32}>
       reducer(%a: tensor<{Q32}>, %b: tensor<{Q32}>)  {{
        %s = stablehlo.add %a, %b : tensor<{Q32}>
        stablehlo.return %s : tensor<{Q32}>
      }}
      func.return %r : tensor<6x{Q32}>
    }}""",
    "reduce_sum_compact": f"""
    func.func @main(%x: tensor<4x6x{Q8}>, %init: tensor<{Q8}>) -> tensor<6x{Q8}> {{
      %r = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [0]
        : (tensor<4x6x{Q8}>, tensor<{Q8}>) -> tensor<6x{Q8}>
      func.return %r : tensor<6x{Q8}>
    }}""",
    "reduce_max_region": f"""
    func.func @main(%x: tensor<4x6x{Q8}>, %init: tensor<{Q8}>) -> tensor<{Q32}> {{
      %r = stablehlo.reduce(%x init: %init) across dimensions = [0, 1] : (tensor<4x6x{Q8}>, tensor<{Q8}>) -> tensor<{Q32}>
       reducer(%a: tensor<{Q32}>, %b: tensor<{Q32}>)  {{
        %s = stablehlo.maximum %a, %b : tensor<{Q32}>
        stablehlo.return %s : tensor<{Q32}>
      }}
      func.return %r : tensor<{Q32}>
    }}""",
    "reduce_window_sum_strides_padding": f"""
    func.func @main(%x: tensor<5x7x{Q8}>, %init: tensor<{Q8}>) -> tensor<3x4x{Q32}> {{
      %r = "stablehlo.reduce_window"(%x, %init) ({{
        ^bb0(%a: tensor<{Q32}>, %b: tensor<{Q32}>):
          %s = stablehlo.add %a, %b : tensor<{Q32}>
          stablehlo.return %s : tensor<{Q32}>
      }}) {{window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>,
          padding = dense<[[1, 0], [1, 1]]> : tensor<2x2xi64>}} : (tensor<5x7x{Q8}>, tensor<{Q8}>) -> tensor<3x4x{Q32}>
      func.return %r : tensor<3x4x{Q32}>
    }}""",
    "dot_general_per_axis": """
    func.func @main(%l: tensor<2x3x5x!quant.uniform<i8:f32, 2.500000e-01:7>>,
                    %r: tensor<2x5x4x!quant.uniform<i8:f32:2, {5.000000e-01,1.250000e-01,2.500000e-01,1.000000e+00}>>)
        -> tensor<2x3x4x!quant.uniform<i8:f32:2, {4.000000e+00:-2,1.000000e+00:3,2.000000e+00,8.000000e+00:1}>> {
      %0 = stablehlo.dot_general %l, %r, batching_dims = [0] x [0], contracting_dims = [2] x [1]
        : (tensor<2x3x5x!quant.uniform<i8:f32, 2.500000e-01:7>>,
           tensor<2x5x4x!quant.uniform<i8:f32:2, {5.000000e-01,1.250000e-01,2.500000e-01,1.000000e+00}>>)
        -> tensor<2x3x4x!quant.uniform<i8:f32:2, {4.000000e+00:-2,1.000000e+00:3,2.000000e+00,8.000000e+00:1}>>
      func.return %0 : tensor<2x3x4x!quant.uniform<i8:f32:2, {4.000000e+00:-2,1.000000e+00:3,2.000000e+00,8.000000e+00:1}>>
    }""",
}


@pytest.mark.parametrize("pipeline", PIPELINES, ids=["unfused", "fused"])
@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_reduction_pipeline_output_verifies_upstream(name: str, pipeline: str) -> None:
    text = lowered_text(REDUCTIONS[name], pipeline)
    assert text is not None, "a StableHLO op was left after the pipeline"
    assert "!quant" not in text
    assert_valid_upstream(text)


@pytest.mark.skipif(not MODULES, reason=absent_reason("stablehlo-quantized/"))
@pytest.mark.parametrize("pipeline", PIPELINES, ids=["unfused", "fused"])
def test_conformance_pipeline_output_verifies_upstream(pipeline: str) -> None:
    verified = skipped = 0
    for path in MODULES:
        for chunk in _chunks(path.read_text(), True):
            if "func.func" not in chunk:
                continue
            text = lowered_text(chunk, pipeline)
            if text is None:
                skipped += 1
                continue
            assert_valid_upstream(text)
            verified += 1
    # All 73 functions lower fully (27 before convolutions were lowered, 52 before
    # gathers were).
    assert verified >= 73, (verified, skipped)
    assert skipped == 0, (verified, skipped)


_QL, _QR, _QO = (
    f"tensor<8x8x!quant.uniform<i8:f32, {q}>>"
    for q in ("2.500000e-02:3", "5.000000e-02", "2.000000e+00:-5")
)
# The benchmark's dot_general (benchmarks/bench_stablehlo.py) at 8x8.
DOT_PER_TENSOR = f"""
func.func @main(%l: {_QL}, %r: {_QR}) -> {_QO} {{
  %0 = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0] : ({_QL}, {_QR}) -> {_QO}
  func.return %0 : {_QO}
}}"""


FUSION_CASES = {**REDUCTIONS, "dot_general_per_tensor": DOT_PER_TENSOR}


@pytest.mark.parametrize("name", sorted(FUSION_CASES))
def test_fusion_leaves_as_many_generics_as_upstream(name: str) -> None:
    """Upstream's pass on our unfused linalg, vs ours: the same number of generics.

    Programs take their data as arguments: upstream's pass also folds generics
    over constants, which the conformance modules are made of.
    """
    unfused = lowered_text(FUSION_CASES[name])
    assert unfused is not None
    ours = str(apply_passes(parse_module(unfused), FUSE))
    theirs = mlir_opt.run_mlir_opt(unfused, f"--{FUSE}")
    assert theirs.returncode == 0, theirs.stderr
    count = "linalg.generic"
    assert unfused.count(count) > ours.count(count)
    assert ours.count(count) == theirs.stdout.count(count), ours
