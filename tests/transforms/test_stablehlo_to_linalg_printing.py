"""`linalg.map` and the variadic `linalg.reduce` print as mlir-opt 22 prints them.

The golden lines are mlir-opt 22.1.8's output for `SOURCE` (short forms when
the body is one op on the block arguments in order, `%in`/`%init` names,
`ins(%a : T)` spacing, the blank after `dimensions = [1]`); where mlir-opt is
installed the test also compares against it live.
"""

from __future__ import annotations

import xquant
from tests.upstream import mlir_opt
from xquant.asm.printer import module_to_mlir

SOURCE = """\
func.func @f(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>, %c: tensor<2x2xi32>, %p: tensor<i1>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xi32>, tensor<2xi32>) {
  %e = tensor.empty() : tensor<2x2xf32>
  %pp = tensor.extract %p[] : tensor<i1>
  %0 = linalg.map ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>)
    (%x: f32, %y: f32, %o: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  %1 = linalg.map ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>)
    (%x: f32, %y: f32, %o: f32) {
      %s = arith.select %pp, %x, %y : f32
      linalg.yield %s : f32
    }
  %2 = linalg.map ins(%a : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {someattr}
    (%x: f32, %o: f32) {
      %s = math.absf %x fastmath<fast> : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<2xi32>
  %3 = linalg.reduce ins(%c : tensor<2x2xi32>) outs(%e2 : tensor<2xi32>) dimensions = [1]
    (%x: i32, %o: i32) {
      %s = arith.addi %o, %x : i32
      linalg.yield %s : i32
    }
  %4:2 = linalg.reduce ins(%c, %c : tensor<2x2xi32>, tensor<2x2xi32>) outs(%e2, %e2 : tensor<2xi32>, tensor<2xi32>) dimensions = [0]
    (%x: i32, %y: i32, %o: i32, %o2: i32) {
      %s = arith.addi %o, %x : i32
      %t = arith.maxsi %o2, %y : i32
      linalg.yield %s, %t : i32, i32
    }
  return %0, %1, %2, %3, %4#1 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xi32>, tensor<2xi32>
}
"""

# mlir-opt 22.1.8's lines (SSA result names aside: MLIR names them %mapped/%reduced).
GOLDEN = [
    "= linalg.map { arith.addf } ins(%arg0, %arg1 : tensor<2x2xf32>, tensor<2x2xf32>) outs(%0 : tensor<2x2xf32>)",
    "= linalg.map ins(%arg0, %arg1 : tensor<2x2xf32>, tensor<2x2xf32>) outs(%0 : tensor<2x2xf32>)\n"
    "      (%in: f32, %in_",
    "= linalg.map { math.absf {fastmath = #arith.fastmath<fast>} } ins(%arg0 : tensor<2x2xf32>) outs(%0 : tensor<2x2xf32>) {someattr}\n",
    "= linalg.reduce { arith.addi {overflowFlags = #arith.overflow<none>} } ins(%arg2 : tensor<2x2xi32>) outs(%1 : tensor<2xi32>) dimensions = [1] \n",
    ":2 = linalg.reduce ins(%arg2, %arg2 : tensor<2x2xi32>, tensor<2x2xi32>) outs(%1, %1 : tensor<2xi32>, tensor<2xi32>) dimensions = [0] \n"
    "      (%in: i32, %in_",
]


def test_prints_mlirs_forms() -> None:
    text = module_to_mlir(xquant.parse_module(SOURCE))
    for golden in GOLDEN:
        assert golden in text, (golden, text)
    assert "%init: f32) {" in text and "%init_" in text


def test_round_trips_through_both_forms() -> None:
    text = module_to_mlir(xquant.parse_module(SOURCE))
    assert module_to_mlir(xquant.parse_module(text)) == text
    generic = xquant.print_module(xquant.parse_module(text), generic=True)
    assert module_to_mlir(xquant.parse_module(generic)) == text


def test_matches_mlir_opt() -> None:
    mlir_opt.require_mlir_opt()
    upstream = mlir_opt.run_mlir_opt(SOURCE)
    assert upstream.returncode == 0, upstream.stderr
    ours = module_to_mlir(xquant.parse_module(SOURCE))
    linalg_lines = [
        line.split(" = ", 1)[1] for line in ours.splitlines() if " = linalg." in line
    ]
    upstream_lines = [
        line.split(" = ", 1)[1]
        for line in upstream.stdout.splitlines()
        if " = linalg." in line
    ]
    assert linalg_lines == upstream_lines
