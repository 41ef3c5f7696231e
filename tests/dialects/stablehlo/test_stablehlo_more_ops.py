"""The StableHLO ops beyond the quantized subset: attributes, types and verifiers."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, f32
from xdsl.utils.exceptions import VerifyException

from xquant import parse_module
from xquant.dialects.stablehlo import StableHLO, TokenType
from xquant.dialects.stablehlo.misc import DotOp
from xquant.dialects.stablehlo.types import ChannelHandleAttr, TypeExtensionsAttr


def test_type_extensions_spellings_are_one_attribute() -> None:
    module = parse_module(
        "func.func @f(%a: tensor<2x?xf32, #stablehlo.type_extensions<bounds = [?, 2]>>,"
        " %b: tensor<2x?xf32, #stablehlo.bounds<?, 2>>) { func.return }"
    )
    func = next(iter(module.body.block.ops))
    types = [arg.type for arg in func.regions[0].block.args]
    assert types[0] == types[1]
    assert isinstance(types[0], TensorType)
    assert types[0].encoding == TypeExtensionsAttr([DYNAMIC_INDEX, 2])
    assert str(types[0]) == "tensor<2x?xf32, #stablehlo.bounds<?, 2>>"


def test_token_and_channel_handle() -> None:
    assert str(TokenType()) == "!stablehlo.token"
    assert (
        str(ChannelHandleAttr(5, 2))
        == "#stablehlo.channel_handle<handle = 5, type = 2>"
    )


def test_every_new_op_is_registered() -> None:
    names = {op.name for op in StableHLO.operations}
    for name in (
        "stablehlo.dot",
        "stablehlo.pad",
        "stablehlo.while",
        "stablehlo.sort",
        "stablehlo.scatter",
        "stablehlo.all_gather",
        "stablehlo.get_dimension_size",
        "stablehlo.dynamic_slice",
        "stablehlo.remainder",
        "stablehlo.is_finite",
        "stablehlo.composite",
        "stablehlo.tuple",
    ):
        assert name in names


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            '%0 = "stablehlo.reverse"(%q) {dimensions = array<i64: 2>} : (T) -> T',
            r"all dimensions should be between \[0, 2\). Got dimension: 2.",
        ),
        (
            '%0 = "stablehlo.pad"(%q, %s) {edge_padding_low = array<i64: 0>, edge_padding_high = array<i64: 0, 0>,'
            " interior_padding = array<i64: 0, 0>} : (T, S) -> T",
            r"edge_padding_low length \(1\) must match operand rank \(2\)",
        ),
        (
            '%0 = "stablehlo.dynamic_update_slice"(%q, %q, %i) : (T, T, tensor<i64>) -> T',
            r"expects number of start_indices to match operand rank: 1 != 2.",
        ),
    ],
)
def test_verifier_messages(source: str, message: str) -> None:
    t = "tensor<3x4x!quant.uniform<i8:f32, 1.0:17>>"
    s = "tensor<!quant.uniform<i8:f32, 1.0:17>>"
    text = (
        f"func.func @f(%q: {t}, %s: {s}, %i: tensor<i64>) {{\n"
        + source.replace("(T, S)", f"({t}, {s})")
        .replace("(T, T,", f"({t}, {t},")
        .replace("(T)", f"({t})")
        .replace("-> T", f"-> {t}")
        + "\n func.return\n}"
    )
    with pytest.raises(VerifyException, match=message):
        parse_module(text)


def test_matrix_vector_dot() -> None:
    module = parse_module(
        "func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {\n"
        "  %0 = stablehlo.dot %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>\n"
        "  func.return %0 : tensor<2xf32>\n}"
    )
    (dot,) = [op for op in module.walk() if isinstance(op, DotOp)]
    assert dot.result.type == TensorType(f32, [2])
