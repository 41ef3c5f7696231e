"""`xquant.transforms.canonicalize`: MLIR's canonicalizations on xDSL's arith/tensor ops.

Each case: xDSL's `canonicalize` leaves the input as it is (checked in a
subprocess that never installs xquant's fixes), and xquant's `canonicalize` gives
what `mlir-opt --canonicalize` gives. When a pristine case fails, xDSL has gained the
canonicalization and the pattern can go.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, tensor
from xdsl.parser import Parser
from xdsl.transforms.canonicalize import CanonicalizePass

from xquant.transforms.canonicalize import CanonicalizePass as MlirCanonicalizePass

ROOT = Path(__file__).resolve().parents[2]

EXTRACT = """
func.func @f() -> f32 {
  %t = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %i = arith.constant 1 : index
  %x = tensor.extract %t[%i] : tensor<2xf32>
  func.return %x : f32
}
"""
CONSTANTS = """
func.func @f(%x: i32) -> (i32, i32) {
  %a = arith.addi %x, %x : i32
  %c = arith.constant 7 : i32
  %d = arith.constant 7 : i32
  %b = arith.addi %a, %c : i32
  %e = arith.addi %b, %d : i32
  func.return %b, %e : i32, i32
}
"""
SELECT = """
func.func @f(%x: i32, %y: i32) -> (i32, i32) {
  %p = arith.cmpi sge, %x, %y : i32
  %m = arith.select %p, %x, %y : i32
  %n = arith.select %p, %y, %x : i32
  func.return %m, %n : i32, i32
}
"""

CASES = {
    # (source, text pristine xDSL keeps, text with the fix)
    "extract": (EXTRACT, "tensor.extract", "arith.constant 2.000000e+00 : f32"),
    "constants": (
        CONSTANTS,
        "%a = arith.addi",
        "%c = arith.constant 7 : i32\n    %a = arith.addi",
    ),
    "select": (
        SELECT,
        "arith.select",
        "arith.maxsi %x, %y : i32\n    %n = arith.minsi",
    ),
}


def canonicalized(source: str, mlir: bool = False) -> str:
    """`source` after xDSL's `canonicalize`, or (`mlir`) after xquant's."""
    ctx = Context()
    for dialect in (arith.Arith, builtin.Builtin, func.Func, tensor.Tensor):
        ctx.load_dialect(dialect)
    module = Parser(ctx, source).parse_module()
    (MlirCanonicalizePass if mlir else CanonicalizePass)().apply(ctx, module)
    return str(module)


@pytest.mark.parametrize("case", CASES)
def test_pristine_xdsl_lacks_it(case: str) -> None:
    source, pristine, _ = CASES[case]
    code = (
        "import sys; from tests.transforms.test_canonicalize import canonicalized; "
        "print(canonicalized(sys.stdin.read()))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=source,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert pristine in done.stdout, done.stdout


@pytest.mark.parametrize("case", CASES)
def test_fix_gives_mlir_output(case: str) -> None:
    source, _, fixed = CASES[case]
    result = canonicalized(source, mlir=True)
    assert fixed in result, result


# Dense binary folds, as `mlir-opt --canonicalize` 22.1.8 prints them: integers
# wrap at their width, floats round in their own type (f32 overflow to inf,
# f16 1/3 and 2/0, bf16 products).
DENSE_BINARY = """\
func.func @f() -> (tensor<2xi8>, tensor<2xi8>, tensor<2xi8>, tensor<3xf32>, tensor<2xf16>, tensor<2xbf16>, tensor<4xi32>) {
  %a = arith.constant dense<[100, -100]> : tensor<2xi8>
  %b = arith.constant dense<[100, 100]> : tensor<2xi8>
  %0 = arith.addi %a, %b : tensor<2xi8>
  %1 = arith.muli %a, %b : tensor<2xi8>
  %2 = arith.xori %a, %b : tensor<2xi8>
  %x = arith.constant dense<[0.1, 3.0e38, 1.0]> : tensor<3xf32>
  %y = arith.constant dense<[0.2, 3.0e38, 3.0]> : tensor<3xf32>
  %3 = arith.addf %x, %y : tensor<3xf32>
  %h = arith.constant dense<[1.0, 2.0]> : tensor<2xf16>
  %k = arith.constant dense<[3.0, 0.0]> : tensor<2xf16>
  %4 = arith.divf %h, %k : tensor<2xf16>
  %p = arith.constant dense<[1.1, 7.0]> : tensor<2xbf16>
  %q = arith.constant dense<[2.3, 3.0]> : tensor<2xbf16>
  %5 = arith.mulf %p, %q : tensor<2xbf16>
  %s = arith.constant dense<7> : tensor<4xi32>
  %t = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %6 = arith.subi %s, %t : tensor<4xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2xi8>, tensor<2xi8>, tensor<2xi8>, tensor<3xf32>, tensor<2xf16>, tensor<2xbf16>, tensor<4xi32>
}
"""
DENSE_BINARY_MLIR = """\
module {
  func.func @f() -> (tensor<2xi8>, tensor<2xi8>, tensor<2xi8>, tensor<3xf32>, tensor<2xf16>, tensor<2xbf16>, tensor<4xi32>) {
    %cst = arith.constant dense<[-56, 0]> : tensor<2xi8>
    %cst_0 = arith.constant dense<[16, -16]> : tensor<2xi8>
    %cst_1 = arith.constant dense<[0, -8]> : tensor<2xi8>
    %cst_2 = arith.constant dense<[3.000000e-01, 0x7F800000, 4.000000e+00]> : tensor<3xf32>
    %cst_3 = arith.constant dense<[3.332520e-01, 0x7C00]> : tensor<2xf16>
    %cst_4 = arith.constant dense<[2.531250e+00, 2.100000e+01]> : tensor<2xbf16>
    %cst_5 = arith.constant dense<[6, 5, 4, 3]> : tensor<4xi32>
    return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4, %cst_5 : tensor<2xi8>, tensor<2xi8>, tensor<2xi8>, tensor<3xf32>, tensor<2xf16>, tensor<2xbf16>, tensor<4xi32>
  }
}

"""


def test_pristine_xdsl_keeps_dense_binary_ops() -> None:
    code = (
        "import sys; from tests.transforms.test_canonicalize import canonicalized; "
        "print(canonicalized(sys.stdin.read()))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=DENSE_BINARY.replace("return", "func.return"),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "arith.addi" in done.stdout and "arith.divf" in done.stdout, done.stdout


def test_dense_binary_folds_as_mlir_opt() -> None:
    from xquant import apply_passes, parse_module
    from xquant.asm.printer import module_to_mlir

    module = parse_module(DENSE_BINARY)
    apply_passes(module, "canonicalize")
    # mlir-opt ends its output with an empty line.
    assert module_to_mlir(module) + "\n" == DENSE_BINARY_MLIR
