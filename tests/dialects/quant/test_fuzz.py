"""No input, however malformed, crashes the parser or a verifier.

Valid quant programs are mutated (characters and tokens deleted, duplicated,
swapped or replaced by interesting ones); `xquant.parse_module` may only
raise `ParseError` or `VerifyException`, and `xquant-opt` never prints a
traceback.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from xdsl.utils.exceptions import ParseError, VerifyException

import xquant

SEEDS = [
    "func.func private @f() -> !quant.uniform<i8<-127:127>:f32, 0.99872:127>",
    "func.func private @f() -> !quant.uniform<u8:f16:1, {2.0e+2:-120,0.99872:127}>",
    "func.func private @f() -> tensor<2x4x!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0:10, 3.0:20}, {4.0:30, 5.0:40}}>>",
    "func.func private @f() -> !quant.any<i8<-8:7>:f32>",
    "func.func private @f() -> !quant.calibrated<f32<-0.998:1.2321>>",
    "func.func private @f() -> !quant.uniform<u8:f32, 0x41646ABBA0000000:128>",
    """func.func @g(%x: tensor<2x4xf32>) -> tensor<2x4xi8> {
  %q = quant.qcast %x : tensor<2x4xf32> to tensor<2x4x!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0,3.0},{4.0,5.0}}>>
  %i = quant.scast %q : tensor<2x4x!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0,3.0},{4.0,5.0}}>> to tensor<2x4xi8>
  func.return %i : tensor<2x4xi8>
}""",
    """func.func @h(%x: tensor<*x!quant.uniform<i8:f32:2, {1.0,2.0,3.0}>>) -> tensor<*xf32> {
  %d = quant.dcast %x : tensor<*x!quant.uniform<i8:f32:2, {1.0,2.0,3.0}>> to tensor<*xf32>
  func.return %d : tensor<*xf32>
}""",
]

INTERESTING = [
    "-",
    "0",
    "-1",
    "0x",
    "0xFFFFFFFFFFFFFFFFFF",
    "99999999999999999999",
    "1e999",
    "-0.0",
    "nan",
    "inf",
    "{",
    "}",
    "<",
    ">",
    ":",
    ",",
    "{}",
    "{{",
    "}}",
    "i0",
    "u33",
    "i4",
    "f8E4M3FN",
    "f33",
    "?",
    "*",
    "x",
    "!quant.uniform<",
    "!quant.any<i8>",
    "tensor<",
    "2.0",
    "2",
    "%x",
    '"',
    "\\",
    "\u00e9",
]


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(text) + 1)
        j = min(len(text), i + rng.randint(0, 4))
        action = rng.randrange(4)
        if action == 0:
            text = text[:i] + text[j:]
        elif action == 1:
            text = text[:i] + rng.choice(INTERESTING) + text[i:]
        elif action == 2:
            text = text[:i] + rng.choice(INTERESTING) + text[j:]
        else:
            text = text[:i] + text[i:j] * 2 + text[j:]
    return text


def test_parser_and_verifiers_raise_only_diagnostics() -> None:
    rng = random.Random(20261122)
    for _ in range(3000):
        text = mutate(rng.choice(SEEDS), rng)
        try:
            xquant.parse_module(text)
        except (ParseError, VerifyException):
            pass
        except Exception as err:
            pytest.fail(f"{type(err).__name__}: {err}\ninput:\n{text}")


def test_xquant_opt_never_prints_a_traceback(tmp_path) -> None:
    rng = random.Random(7)
    texts = [mutate(rng.choice(SEEDS), rng) for _ in range(12)]
    path = tmp_path / "fuzz.mlir"
    path.write_text("\n// -----\n".join(texts))
    tool = [
        sys.executable,
        "-c",
        "import sys; from xquant.tools.xquant_opt import main; sys.exit(main())",
    ]
    result = subprocess.run(
        [*tool, str(path), "--split-input-file"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "Traceback" not in result.stderr + result.stdout
    assert result.returncode in (0, 1)
    if result.returncode == 1:
        assert f"{path}:" in result.stderr and "error:" in result.stderr


def test_unterminated_string_is_a_diagnostic_not_a_hang() -> None:
    """xDSL 0.74's string lexer backtracks exponentially; `lexer_fix` makes it linear."""
    text = (
        'func"nc private @f() -> !quant.uniform<u8:f32, 0x41646ABBA0000000:128>'
        + " abc" * 20
    )
    code = "import sys, xquant\ntry:\n    xquant.parse_module(sys.argv[1])\nexcept Exception as e:\n    print(e)"
    result = subprocess.run(
        [sys.executable, "-c", code, text],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "End of file reached before closing string literal." in result.stdout
