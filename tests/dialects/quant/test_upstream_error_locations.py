"""Parse errors in `!quant` types: upstream's message at upstream's line and column.

Each case is a chunk of upstream's `parse-uniform-invalid.mlir` (or a variant
run through mlir-opt 22.1.8); line:col is what `mlir-opt -split-input-file`
prints for it. Upstream reports a missing token right after the previous one
(`emitWrongTokenError`), a scale out of range at the token after the scale, and
the type verifier's errors (storage bounds, axis, block size, calibrated range)
at the mnemonic.
"""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

from xquant.compat import dialect_mnemonics
from xquant.dialects.quant import Quant


@pytest.fixture(autouse=True)
def _unknown_mnemonics_fixed() -> None:
    # Until xquant.compat.install() calls it.
    dialect_mnemonics.install()


CASES = [
    ("!qalias = !quant.foobar", 1, 18, "unknown quantized type foobar"),
    ("!qalias = !quant.__", 1, 18, "unknown quantized type __"),
    ("!qalias = !quant<foobar>", 1, 18, "unknown quantized type foobar"),
    ("!qalias = !quant.uniform<i8<-4:3>:f32, 0.99872:127 23>", 1, 51, "expected '>'"),
    ("!qalias = !quant.uniform<i8<16>:f32, 0.99872:127>", 1, 31, "expected ':'"),
    (
        "!qalias = !quant<uniform<i8<-4:3:f32, 0.99872:127>>",
        1,
        17,
        "unbalanced '<' character in pretty dialect name",
    ),
    ("!qalias = !quant.uniform<i8<-4:3>f32, 0.99872:127>", 1, 34, "expected ':'"),
    ("!qalias = !quant.uniform<i8<-4:3>:f32 0.99872:127>", 1, 38, "expected ','"),
    ("!qalias = !quant.uniform<i8:f32,\n   1.0 2>", 2, 7, "expected '>'"),
    (
        "!qalias = !quant.uniform<i123123123120<-4:3>:f32, 0.99872:127>",
        1,
        26,
        "invalid integer width",
    ),
    (
        "!qalias = !quant.uniform<i16777216:f32, 1.0>",
        1,
        26,
        "integer bitwidth is limited to 16777215 bits",
    ),
    (
        "!qalias = !quant.uniform<i8<2:1>:f32, 0.99872:127>",
        1,
        18,
        "illegal storage min and storage max: (2:1)",
    ),
    (
        "!qalias = !quant.uniform   <i8<1:1>:f32, 1.0>",
        1,
        18,
        "illegal storage min and storage max: (1:1)",
    ),
    (
        "!qalias = !quant.any<i8<2:1>>",
        1,
        18,
        "illegal storage min and storage max: (2:1)",
    ),
    (
        "!qalias = !quant.uniform<i8<-4:3>:f33, 0.99872:127>",
        1,
        35,
        "expected non-function type",
    ),
    (
        "!qalias = !quant.uniform<i8<-4:3>:f32, -1.0:127>",
        1,
        44,
        "scale -1.000000e+00 out of expressed type range [1.401298e-45, 3.402823e+38]",
    ),
    (
        "!qalias = !quant.uniform<i8:f16:1, {2.0,5.8e-8}>",
        1,
        47,
        "scale 5.800000e-08 out of expressed type range [5.960464e-08, 6.550400e+04]",
    ),
    (
        "!qalias = !quant.uniform<i8:f16:{0:1,1:2},\n    {{6.6e4:120,9.987200e-01:127}, {2.000000e+02:256,9.987200e-01}}>",
        2,
        12,
        "scale 6.600000e+04 out of expressed type range [5.960464e-08, 6.550400e+04]",
    ),
    (
        "!qalias = !quant.uniform<i8:f32:-1, {2.0,3.0:1}>",
        1,
        18,
        "illegal quantized dimension: -1",
    ),
    (
        "!qalias = !quant.uniform<u8:f32:{0:1,-1:2},\n    {{2.0:120,9.987200e-01:127}, {2.0,9.987200e-01}}>",
        1,
        18,
        "illegal quantized dimension: -1",
    ),
    (
        "!qalias = !quant.uniform<u8:f32:{0:0,1:2},\n    {{2.0:120,9.987200e-01:127}, {2.0,9.987200e-01}}>",
        1,
        18,
        "illegal block size: 0",
    ),
    (
        "!qalias = !quant.calibrated<f32<1.0:-1.0>>",
        1,
        18,
        "illegal min and max: (1.000000e+00:-1.000000e+00)",
    ),
    (
        "!qalias = !quant<calibrated<f32<1.0:-1.0>>>",
        1,
        18,
        "illegal min and max: (1.000000e+00:-1.000000e+00)",
    ),
]


def _error(text: str, allow_unregistered: bool = False) -> ParseError:
    ctx = Context(allow_unregistered=allow_unregistered)
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Quant)
    with pytest.raises(ParseError) as info:
        Parser(ctx, f"{text}\n\nfunc.func private @f()\n", "t.mlir").parse_module()
    return info.value


@pytest.mark.parametrize(("text", "line", "column", "message"), CASES)
@pytest.mark.parametrize("allow_unregistered", [False, True])
def test_message_and_location_as_upstream(
    text: str, line: int, column: int, message: str, allow_unregistered: bool
) -> None:
    error = _error(text, allow_unregistered)
    location = error.span.get_location()
    assert (error.msg, location.line, location.col) == (message, line, column)
