"""`xquant.dialects.upstream.arith`: `arith.remf` registered, printed and verified as MLIR's."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from xdsl.utils.exceptions import ParseError, VerifyException

from xquant import parse_module
from xquant.compat import install

SOURCE = """\
func.func @f(%x: f32, %y: f32) -> f32 {
  %r = arith.remf %x, %y : f32
  func.return %r : f32
}
"""


def test_xdsl_still_has_the_bug() -> None:
    """Fails once xDSL registers `arith.remf` (then drop the module)."""
    script = textwrap.dedent(
        """
        from xdsl.dialects import arith
        print(any(op.name == "arith.remf" for op in arith.Arith.operations))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


def test_remf_round_trips() -> None:
    install()
    text = str(parse_module(SOURCE))
    assert "%r = arith.remf %x, %y : f32" in text


def test_remf_rejects_integers() -> None:
    install()
    with pytest.raises((ParseError, VerifyException)):
        parse_module(SOURCE.replace("f32", "i32"))
