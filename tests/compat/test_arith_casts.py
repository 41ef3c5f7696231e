"""`xquant.compat.arith_casts`: arith casts on vectors and tensors, checked as MLIR's `Arith_CastOp`."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from tests.upstream import mlir_opt
from xquant.compat import arith_casts, upstream_ops

LOWERED = """\
func.func @f(%a: tensor<2xi8>) -> tensor<2xf32> {
  %0 = arith.sitofp %a : tensor<2xi8> to tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
"""


def test_xdsl_still_has_the_bug() -> None:
    """Fails once xDSL parses an arith cast on a tensor (then drop the module)."""
    script = textwrap.dedent(
        f"""
        from xdsl.context import Context
        from xdsl.dialects import arith, func
        from xdsl.dialects.builtin import Builtin
        from xdsl.parser import Parser
        from xdsl.utils.exceptions import VerifyException
        ctx = Context()
        for d in (Builtin, func.Func, arith.Arith):
            ctx.load_dialect(d)
        parser = Parser(ctx, {LOWERED!r}, "t.mlir")
        try:
            parser.parse_module()
        except VerifyException as e:  # xdsl-opt reports it at the parser's position
            print(parser._current_token.span.get_location().line, e)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    # Reported at `func.return`, the line after the cast.
    assert (
        done.stdout.strip() == "3 tensor<2xi8> should be of base attribute integer_type"
    )


def _parse(text: str) -> ModuleOp:
    arith_casts.install()
    upstream_ops.install()  # arith.index_castui
    ctx = Context()
    for dialect in (Builtin, func.Func, arith.Arith):
        ctx.load_dialect(dialect)
    module = Parser(ctx, text, "t.mlir").parse_module()
    module.verify()
    return module


def _function(arg: str, cast: str) -> str:
    return f"func.func @f(%a: {arg}) {{\n  %0 = {cast}\n  func.return\n}}\n"


VALID = [
    ("tensor<2xi8>", "arith.sitofp %a : tensor<2xi8> to tensor<2xf32>"),
    ("tensor<?x3xi8>", "arith.uitofp %a : tensor<?x3xi8> to tensor<?x3xf16>"),
    ("vector<2x3xi8>", "arith.extui %a : vector<2x3xi8> to vector<2x3xi32>"),
    ("tensor<4xi32>", "arith.extsi %a : tensor<4xi32> to tensor<4xi64>"),
    ("tensor<4xi32>", "arith.trunci %a : tensor<4xi32> to tensor<4xi8>"),
    ("tensor<4xf32>", "arith.fptosi %a : tensor<4xf32> to tensor<4xi8>"),
    ("vector<4xf32>", "arith.fptoui %a : vector<4xf32> to vector<4xi8>"),
    ("tensor<2x?xf32>", "arith.truncf %a : tensor<2x?xf32> to tensor<2x?xbf16>"),
    ("tensor<2xf16>", "arith.extf %a : tensor<2xf16> to tensor<2xf32>"),
    ("tensor<2xindex>", "arith.index_cast %a : tensor<2xindex> to tensor<2xi32>"),
    ("vector<2xindex>", "arith.index_castui %a : vector<2xindex> to vector<2xi32>"),
    ("tensor<*xi8>", "arith.sitofp %a : tensor<*xi8> to tensor<*xf32>"),
    ("i8", "arith.sitofp %a : i8 to f32"),
]


@pytest.mark.parametrize(("arg", "cast"), VALID)
def test_casts_on_containers_round_trip(arg: str, cast: str) -> None:
    text = _function(arg, cast)
    assert cast in str(_parse(text))


# mlir-opt 22.1.8's messages (upstream crashes on a ranked/unranked mix).
INVALID = [
    (
        "f32",
        "arith.sitofp %a : f32 to f32",
        "'arith.sitofp' op operand #0 must be signless-fixed-width-integer-like, but got 'f32'",
    ),
    (
        "si8",
        "arith.sitofp %a : si8 to f32",
        "'arith.sitofp' op operand #0 must be signless-fixed-width-integer-like, but got 'si8'",
    ),
    (
        "i1",
        "arith.extsi %a : i1 to index",
        "'arith.extsi' op result #0 must be signless-fixed-width-integer-like, but got 'index'",
    ),
    (
        "memref<2xf32>",
        "arith.fptoui %a : memref<2xf32> to memref<2xi8>",
        "'arith.fptoui' op operand #0 must be floating-point-like, but got 'memref<2xf32>'",
    ),
    (
        "tensor<2xi8>",
        "arith.sitofp %a : tensor<2xi8> to tensor<3xf32>",
        "'arith.sitofp' op failed to verify that input and output have the same tensor dimensions",
    ),
    (
        "tensor<?xf32>",
        "arith.truncf %a : tensor<?xf32> to tensor<4xf16>",
        "'arith.truncf' op failed to verify that input and output have the same tensor dimensions",
    ),
    (
        "tensor<2xi8>",
        "arith.sitofp %a : tensor<2xi8> to vector<2xf32>",
        "'arith.sitofp' op failed to verify that input and output have the same tensor dimensions",
    ),
    (
        "i8",
        "arith.sitofp %a : i8 to tensor<2xf32>",
        "'arith.sitofp' op failed to verify that input and output have the same tensor dimensions",
    ),
    (
        "tensor<*xi8>",
        "arith.sitofp %a : tensor<*xi8> to tensor<2xf32>",
        "'arith.sitofp' op failed to verify that input and output have the same tensor dimensions",
    ),
    (
        "vector<[4]xi8>",
        "arith.sitofp %a : vector<[4]xi8> to vector<4xf32>",
        "'arith.sitofp' op requires the same shape for all operands and results",
    ),
    (
        "i8",
        "arith.extsi %a : i8 to i4",
        "'arith.extsi' op operand type 'i8' and result type 'i4' are cast incompatible",
    ),
    (
        "tensor<2xi8>",
        "arith.trunci %a : tensor<2xi8> to tensor<2xi16>",
        "'arith.trunci' op operand type 'tensor<2xi8>' and result type 'tensor<2xi16>' are cast incompatible",
    ),
    (
        "bf16",
        "arith.extf %a : bf16 to f16",
        "'arith.extf' op operand type 'bf16' and result type 'f16' are cast incompatible",
    ),
    (
        "i8",
        "arith.index_cast %a : i8 to i8",
        "'arith.index_cast' op operand type 'i8' and result type 'i8' are cast incompatible",
    ),
]


@pytest.mark.parametrize(("arg", "cast", "message"), INVALID)
def test_invalid_casts_fail_verification_with_mlir_messages(
    arg: str, cast: str, message: str
) -> None:
    # Parsing succeeds; the op's verifier (reported at the op) rejects it.
    with pytest.raises(VerifyException) as info:
        _parse(_function(arg, cast))
    assert str(info.value) == message


def test_printed_form_parses_in_mlir_opt() -> None:
    mlir_opt.require_mlir_opt()
    ranked = [(arg, cast) for arg, cast in VALID if "*" not in arg]  # upstream crashes
    text = "".join(
        _function(arg, cast).replace("@f", f"@f{i}")
        for i, (arg, cast) in enumerate(ranked)
    )
    printed = str(_parse(text))
    done = mlir_opt.run_mlir_opt(printed)
    assert done.returncode == 0, done.stderr
    for _, cast in ranked:
        assert cast.replace("%a", "%arg0") in done.stdout
