"""`MLIRPrinter` against the oracle: upstream `mlir-opt` 22.1.8.

- Every file in `corpus/` (upstream dialects only) prints byte-identical to
  `mlir-opt --allow-unregistered-dialect <file>`, and to
  `... --mlir-print-op-generic`.
- Every valid chunk of the project's FileCheck inputs (xquant's dialects)
  is a fixed point: print -> parse -> print gives the same text.
- Unit tests with the expected text inline run without mlir-opt.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import pytest
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type
from xdsl.ir import Operation
from xdsl.printer import Printer

from tests.upstream.mlir_opt import NOT_INSTALLED, find_mlir_opt, run_mlir_opt
from xquant import make_context
from xquant.asm.located_parser import parse_located
from xquant.asm.printer import MLIRPrinter, module_to_mlir
from xquant.numerics.float_format import (
    IEEE_DOUBLE,
    IEEE_SINGLE,
    apfloat_to_string,
    format_float,
)

HERE = Path(__file__).parent
REPO = HERE.parent.parent
CORPUS = sorted((HERE / "corpus").glob("*.mlir"))

needs_mlir_opt = pytest.mark.skipif(
    find_mlir_opt() is None,
    reason=NOT_INSTALLED,
)


def parse(text: str, *, unregistered: bool = False) -> Operation:
    ctx = make_context()
    ctx.allow_unregistered = unregistered
    return parse_located(ctx, text, "<test>").module


def mlir_opt_stdout(text: str, *flags: str) -> str:
    done = run_mlir_opt(text, "--allow-unregistered-dialect", *flags)
    assert done.returncode == 0, done.stderr
    return done.stdout


# ---------------------------------------------------------------------------------------
# Byte-identical to mlir-opt


@needs_mlir_opt
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_corpus_identical_to_mlir_opt(path: Path) -> None:
    text = path.read_text()
    # mlir-opt's stdout is the op, a newline, and an empty line after each module.
    assert module_to_mlir(parse(text, unregistered=True)) + "\n" == mlir_opt_stdout(
        text
    )


@needs_mlir_opt
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_corpus_generic_identical_to_mlir_opt(path: Path) -> None:
    text = path.read_text()
    ours = module_to_mlir(parse(text, unregistered=True), generic=True)
    assert ours + "\n" == mlir_opt_stdout(text, "--mlir-print-op-generic")


@needs_mlir_opt
@pytest.mark.parametrize("threshold", [-1, 0, 2, 3])
def test_hex_threshold_identical_to_mlir_opt(threshold: int) -> None:
    text = (
        "func.func @f() -> (tensor<3xf32>, tensor<3xi1>, tensor<4xf32>) {\n"
        "  %0 = arith.constant dense<[1.0, 2.0, 0x7FC00000]> : tensor<3xf32>\n"
        "  %1 = arith.constant dense<[true, false, true]> : tensor<3xi1>\n"
        "  %2 = arith.constant dense<2.5> : tensor<4xf32>\n"
        "  return %0, %1, %2 : tensor<3xf32>, tensor<3xi1>, tensor<4xf32>\n"
        "}\n"
    )
    flag = f"--mlir-print-elementsattrs-with-hex-if-larger={threshold}"
    ours = module_to_mlir(parse(text), hex_threshold=threshold)
    assert ours + "\n" == mlir_opt_stdout(text, flag)


# ---------------------------------------------------------------------------------------
# xquant's dialects: print -> parse -> print is a fixed point


def _valid_chunks() -> list[tuple[str, str]]:
    chunks: list[tuple[str, str]] = []
    for path in sorted((REPO / "filecheck").rglob("*.mlir")):
        if "invalid" in path.name:
            continue
        for index, chunk in enumerate(path.read_text().split("// -----")):
            chunks.append((f"{path.relative_to(REPO)}#{index}", chunk))
    return chunks


VALID_CHUNKS = _valid_chunks()


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_xquant_dialects_fixed_point(generic: bool) -> None:
    printed = 0
    for name, chunk in VALID_CHUNKS:
        try:
            module = parse(chunk)
        except Exception:  # a chunk meant to fail in its own test
            continue
        first = module_to_mlir(module, generic=generic)
        second = module_to_mlir(parse(first), generic=generic)
        assert second == first, name
        printed += 1
    assert printed >= 40  # the inputs did not silently vanish (53 chunks today)


# ---------------------------------------------------------------------------------------
# Unit tests (no mlir-opt)


def test_names_hints_and_prefixes() -> None:
    module = parse(
        "func.func @f(%a: i32) -> i32 {\n"
        "  %x = arith.constant 0 : i32\n"
        "  %y = arith.constant 0 : i32\n"
        "  %i = arith.constant -1 : index\n"
        "  %t = arith.constant true\n"
        "  %f = arith.constant 1.5 : f32\n"
        "  %g = arith.constant 2.5 : f64\n"
        "  %s = arith.addi %a, %x : i32\n"
        "  %r = func.call @f(%s) : (i32) -> i32\n"
        "  func.return %r : i32\n"
        "}\n"
    )
    assert module_to_mlir(module) == (
        "module {\n"
        "  func.func @f(%arg0: i32) -> i32 {\n"
        "    %c0_i32 = arith.constant 0 : i32\n"
        "    %c0_i32_0 = arith.constant 0 : i32\n"
        "    %c-1 = arith.constant -1 : index\n"
        "    %true = arith.constant true\n"
        "    %cst = arith.constant 1.500000e+00 : f32\n"
        "    %cst_1 = arith.constant 2.500000e+00 : f64\n"
        "    %0 = arith.addi %arg0, %c0_i32 : i32\n"
        "    %1 = call @f(%0) : (i32) -> i32\n"
        "    return %1 : i32\n"
        "  }\n"
        "}\n"
    )


def test_generic_form_numbers_without_hints() -> None:
    module = parse(
        "func.func @f(%a: i32) -> i32 {\n"
        "  %x = arith.constant 0 : i32\n"
        "  func.return %x : i32\n"
        "}\n"
    )
    assert module_to_mlir(module, generic=True) == (
        '"builtin.module"() ({\n'
        '  "func.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({\n'
        "  ^bb0(%arg0: i32):\n"
        '    %0 = "arith.constant"() <{value = 0 : i32}> : () -> i32\n'
        '    "func.return"(%0) : (i32) -> ()\n'
        "  }) : () -> ()\n"
        "}) : () -> ()\n"
    )


def test_multi_results_blocks_and_aliases() -> None:
    module = parse(
        "func.func @f(%n: index, %x: f32) -> f32 {\n"
        "  %c = arith.constant 0 : index\n"
        "  %r:2 = scf.for %i = %c to %n step %n iter_args(%p = %x, %q = %x) -> (f32, f32) {\n"
        "    scf.yield %q, %p : f32, f32\n"
        "  }\n"
        "  %m = affine.apply affine_map<(d0)[s0] -> (d0 * 2 - s0 + 1)>(%c)[%n]\n"
        "  cf.br ^next(%r#0 : f32)\n"
        "^next(%v: f32):\n"
        "  func.return %r#1 : f32\n"
        "}\n"
    )
    assert module_to_mlir(module) == (
        "#map = affine_map<(d0)[s0] -> (d0 * 2 - s0 + 1)>\n"
        "module {\n"
        "  func.func @f(%arg0: index, %arg1: f32) -> f32 {\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %0:2 = scf.for %arg2 = %c0 to %arg0 step %arg0 iter_args(%arg3 = %arg1, %arg4 = %arg1) -> (f32, f32) {\n"
        "      scf.yield %arg4, %arg3 : f32, f32\n"
        "    }\n"
        "    %1 = affine.apply #map(%c0)[%arg0]\n"
        "    cf.br ^bb1(%0#0 : f32)\n"
        "  ^bb1(%2: f32):  // pred: ^bb0\n"
        "    return %0#1 : f32\n"
        "  }\n"
        "}\n"
    )


def test_affine_set_prints_constraints_as_mlir_keeps_them() -> None:
    # MLIR keeps `e >= 0` and `e == 0` only: `a <= b` parses as `b - a >= 0`.
    module = parse(
        '"test.op"() {s = affine_set<(d0, d1)[s0] : '
        "(d0 - 1 >= 0, d1 == s0, d0 <= 10)>} : () -> ()\n",
        unregistered=True,
    )
    assert module_to_mlir(module) == (
        "#set = affine_set<(d0, d1)[s0] : (d0 - 1 >= 0, d1 - s0 == 0, -d0 + 10 >= 0)>\n"
        "module {\n"
        '  "test.op"() {s = #set} : () -> ()\n'
        "}\n"
    )


@pytest.mark.parametrize(
    ("value", "float_type", "text"),
    [
        (0.1, Float64Type(), "1.000000e-01"),
        (-0.0, Float32Type(), "-0.000000e+00"),
        (0.123456789, Float64Type(), "0.123456789"),
        (3.4028234663852886e38, Float32Type(), "3.40282347E+38"),
        (1.401298464324817e-45, Float32Type(), "1.401300e-45"),
        (123456792.0, Float32Type(), "0x4CEB79A3"),
        (float("nan"), Float32Type(), "0x7FC00000"),
        (float("-inf"), Float32Type(), "0xFF800000"),
        (float("inf"), Float16Type(), "0x7C00"),
        (65504.0, Float16Type(), "6.550400e+04"),
    ],
)
def test_format_float(value: float, float_type: Float32Type, text: str) -> None:
    assert format_float(value, float_type) == text


def test_apfloat_natural_form() -> None:
    # APFloat's default toString (the fallback when six digits do not read
    # back): 9 digits for f32, 17 for f64, 'E', no forced exponent width.
    f32_1e_5 = 9.99999974737875163555145263671875e-06  # 1e-5 rounded to f32
    assert apfloat_to_string(f32_1e_5, IEEE_SINGLE) == "9.99999974E-6"  # mlir-opt's
    assert apfloat_to_string(1.0e-5, IEEE_DOUBLE) == "1.0000000000000001E-5"
    assert apfloat_to_string(0.30000001192092896, IEEE_SINGLE) == "0.300000012"


def test_attribute_conventions() -> None:
    module = parse(
        'module attributes {z.a = [1, 2 : i32], b.c = [1.5, 2.0 : f32], a.d = {y = 1, x = "s"}} {\n}\n'
    )
    assert module_to_mlir(module) == (
        "module attributes {a.d = {x = "
        '"s", y = 1 : i64}, b.c = [1.500000e+00, 2.000000e+00 : f32], z.a = [1, 2 : i32]} {\n'
        "}\n"
    )


def test_composes_with_other_printer_subclasses() -> None:
    """`class P(MLIRPrinter, Other)`: both overrides run (each calls `super()`)."""

    @dataclass(eq=False, repr=False)
    class Shouting(Printer):
        def print_op(self, op: Operation) -> None:
            self.seen = getattr(self, "seen", 0) + 1
            super().print_op(op)

    @dataclass(eq=False, repr=False)
    class Both(MLIRPrinter, Shouting):
        pass

    module = parse("func.func @f() {\n  func.return\n}\n")
    stream = io.StringIO()
    printer = Both(stream)
    printer.print_op(module)
    assert stream.getvalue() == ("module {\n  func.func @f() {\n    return\n  }\n}")
    # module and return; func.func has MLIR's own format here (`custom_printers`),
    # which does not pass through the other class's print_op
    assert printer.seen == 2


def test_declarations_print_no_empty_results_and_split_at_names_each_result() -> None:
    module = parse(
        "func.func private @f()\n"
        "func.func private @g(i32) -> (i32, f32)\n"
        "func.func @h(%s: tensor<?xindex>, %i: index) -> tensor<?xindex> {\n"
        '  %a, %b = "shape.split_at"(%s, %i) : (tensor<?xindex>, index) -> (tensor<?xindex>, tensor<?xindex>)\n'
        '  %c, %d = "shape.split_at"(%b, %i) : (tensor<?xindex>, index) -> (tensor<?xindex>, tensor<?xindex>)\n'
        "  return %d : tensor<?xindex>\n"
        "}\n"
    )
    text = module_to_mlir(module)
    assert "  func.func private @f()\n" in text
    assert "  func.func private @g(i32) -> (i32, f32)\n" in text
    # mlir-opt: `%head, %tail = ...` then `%head_0, %tail_1` (one conflict counter)
    assert '%head, %tail = "shape.split_at"(%arg0, %arg1)' in text
    assert '%head_0, %tail_1 = "shape.split_at"(%tail, %arg1)' in text
    assert "return %tail_1 : tensor<?xindex>" in text
