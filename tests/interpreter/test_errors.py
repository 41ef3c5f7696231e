"""Bad but verified IR fails as an `InterpretationError` naming the op and its line."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import test
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.utils.exceptions import DiagnosticException, InterpretationError

import xquant
from xquant.asm.diagnostics import OpDiagnostic
from xquant.asm.located_parser import parse_located
from xquant.interpreter.errors import OpInterpretationError
from xquant.interpreter.runner import RunSetupError


def _fails(text: str, *args: object) -> OpInterpretationError:
    with pytest.raises(OpInterpretationError) as info:
        xquant.run(text, "main", *args)
    return info.value


def test_the_error_is_a_diagnostic_and_names_the_op() -> None:
    assert issubclass(OpInterpretationError, InterpretationError)
    assert issubclass(OpInterpretationError, DiagnosticException)
    assert issubclass(OpInterpretationError, OpDiagnostic)


def test_reshape_to_a_runtime_shape_other_than_the_type() -> None:
    err = _fails(
        """func.func @main() -> tensor<4x2xf32> {
  %c = arith.constant dense<1.0> : tensor<8xf32>
  %s = arith.constant dense<[2, 4]> : tensor<2xi64>
  %r = tensor.reshape %c(%s) : (tensor<8xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  func.return %r : tensor<4x2xf32>
}"""
    )
    assert str(err) == (
        "<string>:4:8: 'tensor.reshape' op: runtime shape [2, 4] does not match "
        "result type tensor<4x2xf32>"
    )
    assert err.op.name == "tensor.reshape"


def test_reshape_with_a_dynamic_result_and_the_wrong_element_count() -> None:
    err = _fails(
        """func.func @main(%s: tensor<2xi64>) -> tensor<?x?xf32> {
  %c = arith.constant dense<1.0> : tensor<8xf32>
  %r = tensor.reshape %c(%s) : (tensor<8xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}""",
        np.array([3, 3], np.int64),
    )
    assert "'tensor.reshape' op: runtime shape [3, 3] has 9 elements, the source 8" in (
        str(err)
    )


def test_qcast_to_quant_any_cannot_run() -> None:
    err = _fails(
        """func.func @main() -> tensor<2x!quant.any<i8:f32>> {
  %c = arith.constant dense<1.0> : tensor<2xf32>
  %q = quant.qcast %c : tensor<2xf32> to tensor<2x!quant.any<i8:f32>>
  func.return %q : tensor<2x!quant.any<i8:f32>>
}"""
    )
    assert str(err) == (
        "<string>:3:8: 'quant.qcast' op: only !quant.uniform element types can be "
        "interpreted, not !quant.any<i8:f32>"
    )


def test_mx_slice_past_the_end() -> None:
    err = _fails(
        """!mx = !mx_tensor.tensor<<2x2xf8E8M0FNU>, <64x64xf8E4M3FN>>
!tile = !mx_tensor.tensor<<1x1xf8E8M0FNU>, <32x32xf8E4M3FN>>
func.func @main() -> !tile {
  %x = arith.constant dense<1.0> : tensor<64x64xf32>
  %b = mx_tensor.quantize %x {block_factor = [32, 32], scale_type = f8E8M0FNU, compute_type = f8E4M3FN} : tensor<64x64xf32> -> !mx
  %c = arith.constant 48 : index
  %b0 = mx_tensor.extract_slice %b[%c, %c] [32, 32] [1, 1] : !mx to !tile
  func.return %b0 : !tile
}"""
    )
    assert str(err) == (
        "<string>:7:9: 'mx_tensor.extract_slice' op: dimension 0: slice [48, 80) "
        "is out of bounds of size 64"
    )


def test_insert_at_a_negative_index_is_an_error_not_a_wrap() -> None:
    err = _fails(
        """func.func @main(%i: index) -> tensor<3xf32> {
  %c = arith.constant dense<1.0> : tensor<3xf32>
  %f = arith.constant 2.0 : f32
  %r = tensor.insert %f into %c[%i] : tensor<3xf32>
  func.return %r : tensor<3xf32>
}""",
        -1,
    )
    assert str(err) == (
        "<string>:4:8: 'tensor.insert' op: index -1 out of bounds for dim 0 of size 3"
    )


def test_errors_inside_a_region_name_the_innermost_op() -> None:
    err = _fails(
        """func.func @main(%i: index) -> tensor<3xf32> {
  %c = arith.constant dense<1.0> : tensor<3xf32>
  %lb = arith.constant 0 : index
  %ub = arith.constant 1 : index
  %r = scf.for %k = %lb to %ub step %ub iter_args(%t = %c) -> (tensor<3xf32>) {
    %f = tensor.extract %t[%i] : tensor<3xf32>
    %u = tensor.insert %f into %t[%k] : tensor<3xf32>
    scf.yield %u : tensor<3xf32>
  }
  func.return %r : tensor<3xf32>
}""",
        5,
    )
    assert err.op.name == "tensor.extract"
    assert str(err).startswith(
        "<string>:6:10: 'tensor.extract' op: index out of bounds"
    )


def _parse_without_spans(text: str) -> ModuleOp:
    """A module built without `xquant.parse_module`, which remembers op positions."""
    return parse_located(xquant.make_context(), text).module


def test_a_module_without_spans_still_names_the_op() -> None:
    module = _parse_without_spans(
        """func.func @main() -> tensor<4x2xf32> {
  %c = arith.constant dense<1.0> : tensor<8xf32>
  %s = arith.constant dense<[2, 4]> : tensor<2xi64>
  %r = tensor.reshape %c(%s) : (tensor<8xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  func.return %r : tensor<4x2xf32>
}"""
    )
    with pytest.raises(OpInterpretationError, match=r"^'tensor\.reshape' op: runtime"):
        xquant.run(module, "main")


def test_setup_errors_are_diagnostics_and_value_errors() -> None:
    text = "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n  func.return %x : tensor<2xf32>\n}"
    with pytest.raises(RunSetupError, match="no function named 'other'"):
        xquant.run(text, "other")
    with pytest.raises(InterpretationError, match="takes 1 argument"):
        xquant.run(text, "main")
    with pytest.raises(ValueError, match=r"expected tensor<2xf32>"):
        xquant.run(text, "main", np.zeros(3, np.float32))


def test_a_python_error_in_a_kernel_becomes_a_diagnostic_with_the_cause() -> None:
    from xdsl.dialects import arith
    from xdsl.interpreter import (
        Interpreter,
        InterpreterFunctions,
        PythonValues,
        impl,
        register_impls,
    )

    from xquant.interpreter import make_interpreter

    @register_impls
    class Broken(InterpreterFunctions):
        @impl(arith.AddfOp)
        def run_addf(
            self, interpreter: Interpreter, op: arith.AddfOp, args: PythonValues
        ) -> PythonValues:
            raise IndexError("tuple index out of range")

    module = _parse_without_spans(
        """func.func @main(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  func.return %y : f32
}"""
    )
    interpreter = make_interpreter(module)
    interpreter.register_implementations(Broken(), override=True)
    with pytest.raises(OpInterpretationError) as info:
        interpreter.call_op("main", (np.float32(1.0),))
    assert str(info.value) == "'arith.addf' op: IndexError: tuple index out of range"
    assert isinstance(info.value.__cause__, IndexError)


def test_an_op_with_a_file_line_col_location_and_no_recorded_span() -> None:
    """An op built or parsed outside the located parser keeps its `loc(...)`,
    and the message starts with it (this used to fail with AttributeError)."""
    op = test.TestOp()
    op.location = FileLineColLoc(StringAttr("a.mlir"), IntAttr(3), IntAttr(4))
    assert str(OpInterpretationError(op, "'test.op' op: boom")) == (
        "a.mlir:3:4: 'test.op' op: boom"
    )
