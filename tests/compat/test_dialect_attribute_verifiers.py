"""`xquant.compat.dialect_attribute_verifiers`: a dialect's discardable
attributes are verified against their op, as MLIR's
`Dialect::verifyOperationAttribute` / `verifyRegionArgAttribute` do."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.utils.exceptions import VerifyException

import xquant

ROOT = Path(__file__).resolve().parents[2]
SOURCE = (
    'sdy.mesh @m = <["a"=2]>\n'
    "func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>})"
    " -> tensor<8xf32> {\n"
    "  return %arg0 : tensor<8xf32>\n"
    "}\n"
)

# xDSL alone (the sdy dialect loaded, xquant's fixes not installed).
PRISTINE = f"""
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin
from xdsl.dialects.func import Func
from xdsl.parser import Parser
from xquant.dialects.sdy_dialect import Sdy
ctx = Context()
for dialect in (Builtin, Func, Sdy):
    ctx.load_dialect(dialect)
module = Parser(ctx, {SOURCE!r}).parse_module()
module.verify()
print("verified")
"""


def test_bug_is_still_in_xdsl() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PRISTINE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.strip() == "verified", (
        "xDSL now verifies discardable attributes against their op: "
        "xquant/compat/dialect_attribute_verifiers.py can go"
    )


def test_function_argument_sharding_is_verified() -> None:
    with pytest.raises(VerifyException) as info:
        xquant.parse_module(SOURCE)
    assert "'func.func' op arg 0 - sharding doesn't match tensor rank: 2 != 1" in str(
        info.value
    )


def test_op_sharding_and_rule_are_verified() -> None:
    text = (
        'sdy.mesh @m = <["a"=2]>\n'
        "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
        "  %0 = stablehlo.negate %arg0 {sdy.sharding = "
        '#sdy.sharding_per_value<[<@m, [{"b"}]>]>} : tensor<8xf32>\n'
        "  return %0 : tensor<8xf32>\n"
        "}\n"
    )
    with pytest.raises(VerifyException) as info:
        xquant.parse_module(text)
    assert "'stablehlo.negate' op result - unknown axis name: \"b\"" in str(info.value)
    rule = text.replace(
        '#sdy.sharding_per_value<[<@m, [{"b"}]>]>',
        "#sdy.op_sharding_rule<([i])->([i]) {i=8}>",
    ).replace("sdy.sharding =", "sdy.sharding_rule =")
    xquant.parse_module(rule)
    with pytest.raises(VerifyException) as info:
        xquant.parse_module(rule.replace("{i=8}", "{i=8, j=2}"))
    assert "'stablehlo.negate' op has factor j=2 that isn't used" in str(info.value)
