"""`xquant.compat.mlir_canonicalize`: MLIR's canonicalizations on xDSL's arith/tensor ops.

Each case: pristine xDSL's `canonicalize` leaves the input as it is (checked in a
subprocess that never installs the fixes), and with the fixes it gives what
`mlir-opt --canonicalize` gives. When a pristine case fails, xDSL has gained the
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

from xquant.compat import install

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


def canonicalized(source: str) -> str:
    ctx = Context()
    for dialect in (arith.Arith, builtin.Builtin, func.Func, tensor.Tensor):
        ctx.load_dialect(dialect)
    module = Parser(ctx, source).parse_module()
    CanonicalizePass().apply(ctx, module)
    return str(module)


@pytest.mark.parametrize("case", CASES)
def test_pristine_xdsl_lacks_it(case: str) -> None:
    source, pristine, _ = CASES[case]
    code = (
        "import sys; from tests.compat.test_mlir_canonicalize import canonicalized; "
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
    install()
    source, _, fixed = CASES[case]
    result = canonicalized(source)
    assert fixed in result, result
