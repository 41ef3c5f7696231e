"""Differential tests: quantized StableHLO, after quantized-op-to-qdq, and after the round trip back.

For every module of `../shared/stablehlo-quantized` (skipped when absent),
every argument-less function is interpreted on the original, after
`stablehlo-legalize-quantized-op-to-qdq`, and after that pass followed by
`stablehlo-legalize-qdq-to-quantized-op`. The functions' results agree bit
for bit, every check in the file still passes, and the values the checks look
at (returned as extra results for the comparison) agree too. The QDQ stage has
no quantized op of the decomposed kinds left, and the round trip gives back
the original module text.

Handwritten programs cover what the conformance files lack: per-axis add and
dot_general, compare / select / clamp / maximum, a hybrid dot_general, and a
reduction body.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue

from tests.fetch_upstream_tests import absent_reason
from tests.transforms.test_stablehlo_differential import MODULES, entry_functions, same
from xquant import apply_passes, parse_module, run
from xquant.dialects.stablehlo.type_utils import is_quantized
from xquant.interpreter.runner import run_with_checks
from xquant.tools.xquant_run import _chunks  # pyright: ignore[reportPrivateUsage]
from xquant.transforms.stablehlo_legalize_quantized_op_to_qdq import (
    ELEMENTWISE_QDQ_OPS,
)

TO_QDQ = "stablehlo-legalize-quantized-op-to-qdq"
ROUND_TRIP = f"{TO_QDQ},stablehlo-legalize-qdq-to-quantized-op"
DECOMPOSED_NAMES = {
    *(op.name for op in ELEMENTWISE_QDQ_OPS),
    "stablehlo.compare",
    "stablehlo.select",
    "stablehlo.dot_general",
    "stablehlo.convolution",
}


def is_check(op: Operation) -> bool:
    if op.name.startswith("check."):
        return True
    target = op.attributes.get("call_target_name") or op.properties.get(
        "call_target_name"
    )
    return (
        op.name == "stablehlo.custom_call"
        and isinstance(target, StringAttr)
        and target.data.startswith("check.")
    )


def expose_checked_values(module: ModuleOp) -> ModuleOp:
    """Make every argument-less function also return the values its checks compare."""
    for function in module.walk():
        if not isinstance(function, func.FuncOp) or function.function_type.inputs.data:
            continue
        if not function.body.blocks:
            continue
        checked: list[SSAValue] = [
            operand
            for op in function.body.block.ops
            if is_check(op)
            for operand in op.operands
        ]
        old_return = function.get_return_op()
        assert old_return is not None
        new_return = func.ReturnOp(*old_return.arguments, *checked)
        function.body.block.insert_op_before(new_return, old_return)
        function.body.block.erase_op(old_return)
        function.update_function_type()
    module.verify()
    return module


def quantized_decomposable_ops(module: ModuleOp) -> list[str]:
    """Ops the QDQ pass should have decomposed that still touch quantized types."""
    return [
        op.name
        for op in module.walk()
        if op.name in DECOMPOSED_NAMES
        and any(is_quantized(t) for t in (*op.operand_types, *op.result_types))
    ]


def run_stages(text: str) -> dict[str, int]:
    """Interpret every argument-less function at the three stages; return counts."""
    exposed = str(expose_checked_values(parse_module(text)))
    original = parse_module(exposed)
    qdq = apply_passes(parse_module(exposed), TO_QDQ)
    round_trip = apply_passes(parse_module(exposed), ROUND_TRIP)
    assert not quantized_decomposable_ops(qdq)
    assert str(round_trip) == str(original)
    counts = {"functions": 0, "checks": 0}
    for name in entry_functions(original):
        reference, checks = run_with_checks(original, name)
        assert checks and all(c.passed for c in checks)
        for module in (qdq, round_trip):
            results, stage_checks = run_with_checks(module, name)
            assert len(stage_checks) == len(checks)
            failed = [c.message for c in stage_checks if not c.passed]
            assert not failed, failed
            assert len(results) == len(reference)
            assert all(same(a, b) for a, b in zip(results, reference, strict=True))
        counts["functions"] += 1
        counts["checks"] += len(checks)
    return counts


@pytest.mark.skipif(not MODULES, reason=absent_reason("stablehlo-quantized/"))
@pytest.mark.parametrize("path", MODULES, ids=[p.name[:80] for p in MODULES])
def test_conformance_module_agrees_after_qdq_and_round_trip(path: Path) -> None:
    chunks = [c for c in _chunks(path.read_text(), True) if "func.func" in c]
    total = sum(run_stages(chunk)["functions"] for chunk in chunks)
    assert total >= 1


# ----------------------------------------------------------------------------------------
# handwritten programs

QA = "!quant.uniform<i8:f32, 5.000000e-01:-3>"
QB = "!quant.uniform<i8:f32, 2.500000e-01:4>"
QR = "!quant.uniform<i8:f32, 1.000000e+00:2>"
PA = "!quant.uniform<i8:f32:1, {1.000000e-01:-30, 5.000000e-01:-20, 2.000000e-01:4}>"
PR = "!quant.uniform<i8:f32:1, {2.000000e-01:3, 2.500000e-01:-1, 1.000000e+00}>"
RHS = "!quant.uniform<i8:f32:1, {5.000000e-01, 1.250000e-01, 2.500000e-01}>"
DOT_OUT = "!quant.uniform<i8:f32:1, {4.000000e+00:-2, 1.000000e+00:3, 2.000000e+00}>"

ROUND_TRIP_PROGRAM = f"""
func.func @main(%a: tensor<2x3x{QA}>, %b: tensor<2x3x{QB}>, %pa: tensor<2x3x{PA}>, %l: tensor<2x4x{QA}>, %r: tensor<4x3x{RHS}>) -> (tensor<2x3x{QR}>, tensor<2x3x{PR}>, tensor<2x3x{DOT_OUT}>, tensor<2x3x{QA}>) {{
  %0 = stablehlo.add %a, %b : (tensor<2x3x{QA}>, tensor<2x3x{QB}>) -> tensor<2x3x{QR}>
  %1 = stablehlo.multiply %0, %0 : tensor<2x3x{QR}>
  %2 = stablehlo.add %pa, %pa : (tensor<2x3x{PA}>, tensor<2x3x{PA}>) -> tensor<2x3x{PR}>
  %3 = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0] : (tensor<2x4x{QA}>, tensor<4x3x{RHS}>) -> tensor<2x3x{DOT_OUT}>
  %4 = stablehlo.abs %a : tensor<2x3x{QA}>
  %5 = stablehlo.negate %4 : tensor<2x3x{QA}>
  %6 = stablehlo.clamp %a, %5, %a : tensor<2x3x{QA}>
  func.return %1, %2, %3, %6 : tensor<2x3x{QR}>, tensor<2x3x{PR}>, tensor<2x3x{DOT_OUT}>, tensor<2x3x{QA}>
}}
"""


def random_storage(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(-128, 128, size=shape, dtype=np.int8)


def results_at_stages(text: str, *args: np.ndarray) -> list[tuple[Any, ...]]:
    """`main`'s results on the original, after QDQ and after the round trip (asserted equal)."""
    results = [run(parse_module(text), "main", *args)]
    for pipeline in (TO_QDQ, ROUND_TRIP):
        results.append(run(apply_passes(parse_module(text), pipeline), "main", *args))
    for stage in results[1:]:
        assert all(same(a, b) for a, b in zip(stage, results[0], strict=True))
    return results


def test_round_trip_restores_quantized_ops_textually() -> None:
    original = str(parse_module(ROUND_TRIP_PROGRAM))
    qdq = apply_passes(parse_module(ROUND_TRIP_PROGRAM), TO_QDQ)
    assert not quantized_decomposable_ops(qdq)
    assert "stablehlo.uniform_dequantize" in str(qdq)
    round_trip = apply_passes(parse_module(ROUND_TRIP_PROGRAM), ROUND_TRIP)
    assert str(round_trip) == original


def test_round_trip_program_agrees() -> None:
    args = (
        random_storage(2, 3, seed=1),
        random_storage(2, 3, seed=2),
        random_storage(2, 3, seed=3),
        random_storage(2, 4, seed=4),
        random_storage(4, 3, seed=5),
    )
    results_at_stages(ROUND_TRIP_PROGRAM, *args)


def test_compare_select_maximum_agree() -> None:
    """compare keeps its i1 result and select its predicate; neither is fused back (as upstream)."""
    text = f"""
    func.func @main(%a: tensor<3x4x{QA}>, %b: tensor<3x4x{QB}>) -> (tensor<3x4xi1>, tensor<3x4x{QR}>, tensor<3x4x{QR}>) {{
      %p = stablehlo.compare  GT, %a, %b : (tensor<3x4x{QA}>, tensor<3x4x{QB}>) -> tensor<3x4xi1>
      %s = stablehlo.select %p, %a, %b : (tensor<3x4xi1>, tensor<3x4x{QA}>, tensor<3x4x{QB}>) -> tensor<3x4x{QR}>
      %m = stablehlo.maximum %a, %b : (tensor<3x4x{QA}>, tensor<3x4x{QB}>) -> tensor<3x4x{QR}>
      func.return %p, %s, %m : tensor<3x4xi1>, tensor<3x4x{QR}>, tensor<3x4x{QR}>
    }}"""
    results_at_stages(text, random_storage(3, 4, seed=6), random_storage(3, 4, seed=7))
    round_trip = apply_passes(parse_module(text), ROUND_TRIP)
    assert "stablehlo.maximum %a, %b" in str(round_trip)
    for op in round_trip.walk():
        if op.name in ("stablehlo.compare", "stablehlo.select"):
            assert not any(is_quantized(t) for t in op.operand_types), op.name


def test_hybrid_dot_general_dequantizes_only_the_rhs() -> None:
    text = f"""
    func.func @main(%l: tensor<2x4xf32>, %r: tensor<4x3x{RHS}>) -> tensor<2x3xf32> {{
      %0 = stablehlo.dot_general %l, %r, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x3x{RHS}>) -> tensor<2x3xf32>
      func.return %0 : tensor<2x3xf32>
    }}"""
    qdq = str(apply_passes(parse_module(text), TO_QDQ))
    assert qdq.count("stablehlo.uniform_dequantize") == 1
    assert "stablehlo.uniform_quantize" not in qdq
    # Hybrid ops are not fused back (upstream neither: openxla/stablehlo#2485).
    assert str(apply_passes(parse_module(text), ROUND_TRIP)) == qdq
    lhs = np.random.default_rng(8).standard_normal((2, 4)).astype(np.float32)
    results_at_stages(text, lhs, random_storage(4, 3, seed=9))


def test_reduce_body_is_decomposed_and_agrees() -> None:
    """The reduce itself stays quantized; its body's add goes through floats (as upstream)."""
    acc = "!quant.uniform<i32:f32, 2.500000e-01:5>"
    text = f"""
    func.func @main(%x: tensor<4x6x{QA}>, %init: tensor<{QA}>) -> tensor<4x{acc}> {{
      %r = stablehlo.reduce(%x init: %init) across dimensions = [1] : (tensor<4x6x{QA}>, tensor<{QA}>) -> tensor<4x{acc}>
       reducer(%a: tensor<{acc}>, %b: tensor<{acc}>)  {{
        %s = stablehlo.add %a, %b : tensor<{acc}>
        stablehlo.return %s : tensor<{acc}>
      }}
      func.return %r : tensor<4x{acc}>
    }}"""
    qdq = str(apply_passes(parse_module(text), TO_QDQ))
    assert "stablehlo.reduce(%x init: %init)" in qdq
    assert qdq.count("stablehlo.uniform_dequantize") == 2
    round_trip = apply_passes(parse_module(text), ROUND_TRIP)
    assert str(round_trip) == str(parse_module(text))
    results_at_stages(text, random_storage(4, 6, seed=10), np.array(-3, np.int8))
