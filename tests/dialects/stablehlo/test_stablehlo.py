"""The StableHLO subset: type rules, attribute syntax, checks and the check-reporting runner."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import TensorType, f16, f32, i8, i32
from xdsl.utils.exceptions import VerifyException

from xquant import parse_module, run
from xquant.dialects.quant.types import UniformQuantizedType
from xquant.dialects.stablehlo import StableHLO
from xquant.dialects.stablehlo.quantization import QuantizedTensorTypes
from xquant.dialects.stablehlo.type_utils import is_promotable
from xquant.interpreter.check import (
    CheckFailure,
    check_eq,
    compare_almost,
    compare_exact,
)
from xquant.tools.xquant_run import main

Q8 = UniformQuantizedType.per_layer(8, True, f32, 2.0, 15)
Q16 = UniformQuantizedType.per_layer(16, True, f32, 0.5, -3)
Q16_F16 = UniformQuantizedType.per_layer(16, True, f16, 2.0, 15)


@pytest.mark.parametrize(
    ("source", "target", "expected"),
    [
        (Q8, Q16, True),  # wider storage, other scale and zero point
        (Q16, Q8, False),  # narrower
        (Q8, Q16_F16, False),  # other expressed type
        (Q8, i32, False),  # quantized to integer
        (i8, i32, True),
        (i32, i8, False),
        (f32, f16, True),  # float precision is ignored, as upstream
    ],
)
def test_is_promotable(source, target, expected) -> None:
    assert is_promotable(TensorType(source, []), TensorType(target, [])) is expected


def test_conv_dimension_numbers_round_trip() -> None:
    text = """
    func.func @f(%x: tensor<2x3x9xf32>, %k: tensor<12x1x3xf32>) -> tensor<2x12x7xf32> {
      %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {} {batch_group_count = 1 : i64, feature_group_count = 3 : i64} : (tensor<2x3x9xf32>, tensor<12x1x3xf32>) -> tensor<2x12x7xf32>
      func.return %0 : tensor<2x12x7xf32>
    }"""
    module = parse_module(text)
    assert "dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {}" in str(module)
    x = np.arange(54, dtype=np.float32).reshape(2, 3, 9)
    k = np.ones((12, 1, 3), np.float32)
    (result,) = run(module, "f", x, k)
    # depthwise: output feature o reads input feature o // 4; a 3-tap box filter
    expected = np.stack(
        [x[:, o // 4, i : i + 3].sum(-1) for o in range(12) for i in range(7)], -1
    )
    np.testing.assert_allclose(result, expected.reshape(2, 12, 7))


def test_verifier_rejects_per_axis_multiply() -> None:
    text = """
    func.func @f(%a: tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>) {
      %0 = stablehlo.multiply %a, %a : tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>
      func.return
    }"""
    with pytest.raises(
        VerifyException,
        match="must be ranked tensor of non-quantized or per-tensor quantized",
    ):
        parse_module(text)


_GATHER = (
    "func.func @f(%x: tensor<2x3xf32>, %i: tensor<2x1xi32>) {{\n"
    '  %0 = "stablehlo.gather"(%x, %i) <{{dimension_numbers = #stablehlo.gather<{numbers}, '
    "start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}}> "
    ": (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>\n"
    "  func.return\n"
    "}}"
)


@pytest.mark.parametrize(
    "text",
    [
        # gather_result_shape ran out of dimensions (StopIteration)
        _GATHER.format(numbers="offset_dims = [9], collapsed_slice_dims = [0]"),
        _GATHER.format(numbers="offset_dims = [-1], collapsed_slice_dims = [0]"),
        # slice_sizes indexed by a collapsed dimension (IndexError)
        _GATHER.format(numbers="offset_dims = [1], collapsed_slice_dims = [9]"),
        # shapes indexed by a per-axis quantization dimension (IndexError)
        """
        func.func @f(%x: tensor<2x!quant.uniform<i8:f32:4, {0.5:3, 0.25:-1}>>) {
          %0 = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<2x!quant.uniform<i8:f32:4, {0.5:3, 0.25:-1}>>) -> tensor<3x2x!quant.uniform<i8:f32:1, {0.5:3, 0.25:-1}>>
          func.return
        }""",
        """
        func.func @f(%x: tensor<2x3x!quant.uniform<i8:f32:1, {0.5, 0.5, 0.5}>>) {
          %0 = stablehlo.reshape %x : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5, 0.5, 0.5}>>) -> tensor<6x!quant.uniform<i8:f32:1, {0.5, 0.5, 0.5}>>
          func.return
        }""",
    ],
    ids=[
        "gather-offset-9",
        "gather-offset-neg",
        "gather-collapsed-9",
        "broadcast-qdim",
        "reshape-qdim",
    ],
)
def test_invalid_dimensions_raise_verify_exception(text: str) -> None:
    """Out-of-range dimensions are verifier errors, not Python exceptions from inside a verifier."""
    with pytest.raises(VerifyException):
        parse_module(text)


_CONV = """
func.func @f(%x: tensor<1x5x2x{lt}>, %k: tensor<3x2x4x{kt}>) {{
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {{{window}}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : (tensor<1x5x2x{lt}>, tensor<3x2x4x{kt}>) -> tensor<1x{out}x4x{rt}>
  return
}}"""


@pytest.mark.parametrize(
    "text",
    [
        # convolution has no rhs zero-point rule (spec c28-c34; upstream's tests use rhs zp 20)
        _CONV.format(
            lt="!quant.uniform<i8:f32, 0.5:1>",
            kt="!quant.uniform<i8:f32, 0.5:3>",
            rt="!quant.uniform<i8:f32, 0.5>",
            window="",
            out=3,
        ),
        # window_reversal is in the spec (c9)
        _CONV.format(lt="f32", kt="f32", rt="f32", window="reverse = [true]", out=3),
        # a window larger than the padded input fits 0 times (c25 is_empty_window)
        _CONV.format(lt="f32", kt="f32", rt="f32", window="pad = [[-3, 0]]", out=0),
        # dot_general: no rule ties a per-axis result's dimension to the rhs (c14-c20)
        """
        func.func @f(%x: tensor<2x3x!quant.uniform<i8:f32, 0.5:1>>, %y: tensor<3x2x!quant.uniform<i8:f32:1, {0.5,0.25}>>) {
          %0 = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 0.5:1>>, tensor<3x2x!quant.uniform<i8:f32:1, {0.5,0.25}>>) -> tensor<2x2x!quant.uniform<i8:f32:0, {0.5,0.25}>>
          return
        }""",
        # reduce_window: windows larger than the input give an empty result
        """
        func.func @f(%x: tensor<2x3xf32>, %z: tensor<f32>) {
          %0 = "stablehlo.reduce_window"(%x, %z) ({
          ^bb0(%p: tensor<f32>, %q: tensor<f32>):
            %s = stablehlo.add %p, %q : tensor<f32>
            stablehlo.return %s : tensor<f32>
          }) {window_dimensions = array<i64: 1, 5>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x0xf32>
          return
        }""",
        # reduce: integer accumulators may widen (is_promotable)
        """
        func.func @f(%x: tensor<2x3xi8>, %z: tensor<i8>) {
          %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xi8>, tensor<i8>) -> tensor<2xi32>
           reducer(%p: tensor<i32>, %q: tensor<i32>)  {
            %s = stablehlo.add %p, %q : tensor<i32>
            stablehlo.return %s : tensor<i32>
          }
          return
        }""",
        # compare: quantized operands may differ in scale (baseline_element_type)
        """
        func.func @f(%q: tensor<4x!quant.uniform<i8:f32, 0.5:3>>, %r: tensor<4x!quant.uniform<i8:f32, 0.25:3>>) {
          %0 = stablehlo.compare LT, %q, %r : (tensor<4x!quant.uniform<i8:f32, 0.5:3>>, tensor<4x!quant.uniform<i8:f32, 0.25:3>>) -> tensor<4xi1>
          %1 = stablehlo.compare LT, %q, %r, FLOAT : (tensor<4x!quant.uniform<i8:f32, 0.5:3>>, tensor<4x!quant.uniform<i8:f32, 0.25:3>>) -> tensor<4xi1>
          return
        }""",
        # gather: rank-0 start indices with index_vector_dim = 0
        """
        func.func @f(%x: tensor<2x3xf32>, %i: tensor<i32>) {
          %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [0], index_vector_dim = 0>, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<i32>) -> tensor<1x3xf32>
          return
        }""",
        # checks: expect_close's ULP bounds have defaults; @check.eq on a quantized value
        """
        func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>, %q: tensor<4x!quant.uniform<i8:f32, 0.5:3>>) {
          "check.expect_close"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> ()
          %0 = stablehlo.custom_call @check.eq(%a, %q) : (tensor<4xf32>, tensor<4x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<i1>
          stablehlo.custom_call @other.target(%a) : (tensor<4xf32>) -> ()
          return
        }""",
    ],
    ids=[
        "conv-rhs-zp",
        "conv-reverse",
        "conv-empty-window",
        "dot-per-axis-result-dim",
        "reduce-window-empty",
        "reduce-widen-int",
        "compare-quantized-scales",
        "gather-rank0-indices",
        "checks",
    ],
)
def test_spec_valid_edge_cases_verify(text: str) -> None:
    """Programs the spec allows although they look suspicious stay valid."""
    parse_module(text).verify()


def test_every_op_checks_its_quantized_types() -> None:
    """The shared quantized-type constraints (C8, C12, C13, storage widths) run on every StableHLO op."""
    missing = [
        op.name for op in StableHLO.operations if not op.has_trait(QuantizedTensorTypes)
    ]
    assert missing == []


def test_check_semantics() -> None:
    nan = np.float32("nan")
    assert (
        check_eq(np.array([1.0, nan], np.float32), np.array([1.00005, nan], np.float32))
        is None
    )
    failure = check_eq(
        np.array([1.0, 2.0], np.float32), np.array([1.0, 2.001], np.float32)
    )
    assert failure is not None
    assert "at index [1]" in failure
    assert compare_exact(np.array([3], np.int8), np.array([3], np.int8)) is None
    assert compare_almost(np.array([np.inf]), np.array([np.inf]), 1e-4) is None
    assert compare_almost(np.array([np.inf]), np.array([1.0]), 1e-4) is not None


def test_failed_check_raises_outside_a_recording() -> None:
    text = """
    func.func @main() {
      %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi8>
      check.expect_eq_const %0, dense<[1, 3]> : tensor<2xi8>
      func.return
    }"""
    with pytest.raises(
        CheckFailure, match=r"2 \(actual\) vs 3 \(expected\) at index \[1\]"
    ):
        run(text, "main")


def test_xquant_run_reports_every_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "checks.mlir"
    path.write_text(
        "func.func @good() {\n"
        "  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
        "  check.expect_almost_eq_const %0, dense<[1.0, 2.0]> : tensor<2xf32>\n"
        "  func.return\n"
        "}\n"
        "func.func @bad() {\n"
        "  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi8>\n"
        "  check.expect_eq_const %0, dense<[1, 5]> : tensor<2xi8>\n"
        "  %1 = stablehlo.custom_call @check.eq(%0, %0) : (tensor<2xi8>, tensor<2xi8>) -> tensor<i1>\n"
        "  func.return\n"
        "}\n"
    )
    rc = main([str(path), "--checks-only"])
    out = capsys.readouterr()
    assert rc == 1
    assert out.out.splitlines() == [
        "@good: check.expect_almost_eq_const at line 3: passed",
        "@bad: check.expect_eq_const at line 8: FAILED",
        "@bad: custom_call @check.eq at line 9: passed",
    ]
    assert (
        f"{path}:8:3: error: check.expect_eq_const failed: Element values don't match: 2 (actual) vs 5 (expected) at index [1]"
        in out.err
    )
    assert "Traceback" not in out.err


def test_xquant_run_bad_stablehlo_is_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text(
        "func.func @main() {\n"
        "  %0 = stablehlo.constant dense<[1.0]> : tensor<1xf32>\n"
        "  %1 = stablehlo.uniform_quantize %0 : (tensor<1xf32>) -> tensor<1x!quant.uniform<i8:f16, 1.0>>\n"
        "  func.return\n"
        "}\n"
    )
    assert main([str(path)]) == 1
    err = capsys.readouterr().err
    assert (
        f"{path}:3:8: error: Expressed type of result expected to be 'f32', but got 'f16'"
        in err
    )
    assert "Traceback" not in err


def test_verifier_and_interpreter_know_the_same_check_targets() -> None:
    # The verifier rejects `custom_call @check.*` names the interpreter cannot run.
    from xquant.dialects import check
    from xquant.interpreter import check as interpreter

    assert set(check.CUSTOM_CALL_CHECKS) == set(interpreter.CUSTOM_CALL_CHECKS)
