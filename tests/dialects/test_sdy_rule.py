"""`#sdy.op_sharding_rule`: Shardy's syntax and messages.

Expected texts and messages are Shardy's (shardy/dialect/sdy/ir/test/
sharding_rule_parse_print.mlir, sharding_rule_parsing_failure.mlir,
sharding_rule_verification.mlir)."""

from __future__ import annotations

import pytest
from xdsl.utils.exceptions import ParseError, VerifyException

import xquant
from xquant.asm.printer import module_to_mlir
from xquant.dialects.sdy_rule import OpShardingRuleAttr, factor_symbol


def _module(rule: str, types: str = "(tensor<2x4xf32>) -> tensor<8xf32>") -> str:
    inputs, output = types.split(" -> ")
    return (
        f"func.func @f(%arg0: {inputs[1:-1]}) -> {output} {{\n"
        f"  %0 = stablehlo.custom_call @foo(%arg0) {{sdy.sharding_rule = "
        f"#sdy.op_sharding_rule<{rule}>}} : {types}\n"
        f"  return %0 : {output}\n"
        "}\n"
    )


@pytest.mark.parametrize(
    "rule",
    [
        "([i, j])->([ij]) {i=2, j=4}",
        "([i, j])->([ij]) {i=2, j=4}, custom",
        "([i, j])->([i]) {i=2, j=4} reduction={j}",
        "([i, j])->([ij]) {i=2, j=4} need_replication={i, j} blocked_propagation={j}",
        "([i, j])->([ij]) {i=2, j=4} permutation={i}, custom",
    ],
)
def test_round_trip(rule: str) -> None:
    text = _module(rule)
    assert f"#sdy.op_sharding_rule<{rule}>" in module_to_mlir(xquant.parse_module(text))


def test_factor_symbols() -> None:
    assert [factor_symbol(i) for i in (0, 1, 17, 18, 27)] == [
        "i",
        "j",
        "z",
        "z_1",
        "z_10",
    ]


def test_parameters() -> None:
    module = xquant.parse_module(
        _module("([i, j])->([ij]) {i=2, j=4} need_replication={j}, custom")
    )
    op = next(op for op in module.walk() if op.name == "stablehlo.custom_call")
    rule = op.attributes["sdy.sharding_rule"]
    assert isinstance(rule, OpShardingRuleAttr)
    assert rule.sizes == [2, 4]
    assert [d.indices for d in rule.result_mappings.data[0].dim_mappings.data] == [
        [0, 1]
    ]
    assert rule.is_custom_rule.value.data


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        (
            "([i, j])->([ij]) {j=4, i=2}",
            "expecting factor indices to be ordered like an iota ([0,1,2,...], e.g. "
            "{i=#, j=#, ...}). Expecting factor index symbol 'i', received: 'j'",
        ),
        (
            "([a, j])->([j]) {i=2, j=4}",
            "expecting symbol from 'i' to 'z'. Received: 'a'",
        ),
        ("([z_, j])->([i]) {i=2, j=4}", "expecting integer after 'z_'. Received: 'z_'"),
        (
            "([z_0, j])->([i]) {i=2, j=4}",
            "expecting positive integer without leading zeros. Received: '0'",
        ),
        ("([i, j])->([ij]) {i=2, j=4},", "expected 'custom'"),
    ],
)
def test_parse_errors(rule: str, message: str) -> None:
    with pytest.raises(ParseError) as info:
        xquant.parse_module(_module(rule))
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ("([i, j])->([ij]) {i=2, j=4, k=8}", "has factor k=8 that isn't used"),
        (
            "([i, j])->([ij]) {i=2, j=4} reduction={j, i}",
            "indices of special factors must be sorted",
        ),
        (
            "([i, j])->([ij]) {i=2, j=4} reduction={j} permutation={j}",
            "a factor can only be in one of the reduction, need replication, or "
            "permutation factor sets",
        ),
        (
            "([i, j])->([i]) {i=2, j=4} reduction={i}",
            "reduction factor cannot be in result mappings",
        ),
        (
            "([i, i])->([i]) {i=2}",
            "operand - cannot reuse factors for the same tensor value",
        ),
        (
            "([i, j])->([ij]) {i=1, j=4}",
            "result - dim mapping can't have a factor of size 1 if there are "
            "multiple factors",
        ),
    ],
)
def test_verify_errors(rule: str, message: str) -> None:
    with pytest.raises((ParseError, VerifyException)) as info:
        xquant.parse_module(_module(rule))
    assert message in str(info.value)
