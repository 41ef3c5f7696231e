"""Values of a function body are released after their last use, never before."""

from __future__ import annotations

from typing import Any

import numpy as np

from xquant import parse_module
from xquant.interpreter import make_interpreter
from xquant.interpreter.liveness import dead_after
from xquant.interpreter.runner import lookup_function, run

TEXT = """
func.func @main(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %a = arith.addf %x, %x : tensor<4xf32>
  %b = arith.mulf %a, %a : tensor<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %b) -> (tensor<4xf32>) {
    %s = arith.addf %acc, %a : tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  func.return %l : tensor<4xf32>
}
"""


def test_dead_after_counts_uses_in_nested_regions() -> None:
    """%a is used inside the loop body, so it dies with the loop, not with %b's mulf."""
    module = parse_module(TEXT)
    block = lookup_function(module, "main").body.block
    dead = {
        op.results[0].name_hint if op.results else op.name: {v.name_hint for v in vs}
        for op, vs in dead_after(block).items()
    }
    assert dead == {
        "a": {"x"},
        "l": {"a", "b", "n", "c0", "c1"},
        "func.return": {"l"},
    }


def test_scope_holds_only_live_values() -> None:
    """After each top-level op, the function's scope holds no value whose last use has run."""
    module = parse_module(TEXT)
    interpreter = make_interpreter(module)
    seen: list[set[str | None]] = []

    class Watch:
        def will_interpret_op(self, op: Any, args: Any) -> None:
            pass

        def did_interpret_op(self, op: Any, results: Any) -> None:
            if op.parent_op().name == "func.func":
                scope = interpreter._ctx._local_scope  # pyright: ignore[reportPrivateUsage]
                seen.append({v.name_hint for v in scope})

    interpreter.listeners = (*interpreter.listeners, Watch())
    x = np.arange(4, dtype=np.float32)
    (got,) = interpreter.call_op("main", (x, 3))
    np.testing.assert_array_equal(got, (2 * x) ** 2 + 3 * (2 * x))
    # Listeners run before an op's results are stored, so each entry is the scope
    # after the op's dead operands went and before its results arrive.
    assert seen[0] == {"n"}  # %x died with %a
    assert seen[1] == {"n", "a"}  # %a lives on: the loop body reads it
    assert seen[4] == set()  # the loop was the last use of everything else
    assert seen[5] == set()


def test_empty_tensor_reads_as_zeros_and_writes_do_not_alias() -> None:
    text = """
    func.func @main() -> (tensor<3xi32>, tensor<3xi32>) {
      %e = tensor.empty() : tensor<3xi32>
      %c = arith.constant 7 : i32
      %i = arith.constant 1 : index
      %w = tensor.insert %c into %e[%i] : tensor<3xi32>
      func.return %e, %w : tensor<3xi32>, tensor<3xi32>
    }"""
    empty, written = run(text, "main")
    np.testing.assert_array_equal(empty, [0, 0, 0])
    np.testing.assert_array_equal(written, [0, 7, 0])
