"""`stablehlo.reshape` lowers as upstream: one collapse or expand when a single
one does it, else through 1-D; values are numpy's reshape."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import tensor

import xquant
from tests.upstream.mlir_opt import assert_verifies_upstream
from xquant.transforms.stablehlo_legalize_to_linalg.data_movement import (
    collapse_groups,
)

# (source, result, the reshape ops upstream emits) -- from StableHLO's
# conversions/linalg/tests/miscellaneous.mlir and MLIR's
# getReassociationIndicesForCollapse.
CASES = [
    ((12, 1, 42), (12, 42), ["collapse"]),
    ((12, 42, 1, 1), (12, 42), ["collapse"]),
    ((12, 42), (12, 1, 42, 1), ["expand"]),
    ((1, 49, 16), (1, 784, 1, 1), ["collapse", "expand"]),
    ((1, 8, 10, 3), (1, 240, 1), ["collapse", "expand"]),
    ((2, 3), (3, 2), ["collapse", "expand"]),
    ((2, 3), (6,), ["collapse"]),
    ((6,), (2, 3), ["expand"]),
    ((), (1,), ["expand"]),
    ((1, 1), (), ["collapse"]),
    ((0,), (2, 0), ["empty"]),
]


def _text(source: tuple[int, ...], result: tuple[int, ...]) -> str:
    def t(shape: tuple[int, ...]) -> str:
        return "tensor<" + "".join(f"{n}x" for n in shape) + "i32>"

    return (
        f"func.func @main(%a: {t(source)}) -> {t(result)} {{\n"
        f"  %0 = stablehlo.reshape %a : ({t(source)}) -> {t(result)}\n"
        f"  return %0 : {t(result)}\n}}\n"
    )


@pytest.mark.parametrize(("source", "result", "kinds"), CASES)
def test_reshape(
    source: tuple[int, ...], result: tuple[int, ...], kinds: list[str]
) -> None:
    text = _text(source, result)
    lowered = xquant.apply_passes(
        xquant.parse_module(text), "stablehlo-legalize-to-linalg"
    )
    names = {
        tensor.CollapseShapeOp: "collapse",
        tensor.ExpandShapeOp: "expand",
        tensor.EmptyOp: "empty",
    }
    emitted = [names[type(op)] for op in lowered.walk() if type(op) in names]
    assert emitted == kinds
    if 0 not in source:
        x = np.arange(int(np.prod(source)), dtype=np.int32).reshape(source)
        (got,) = xquant.run(lowered, "main", x)
        np.testing.assert_array_equal(got, x.reshape(result))
    assert_verifies_upstream(xquant.print_module(lowered))


@pytest.mark.parametrize(
    ("source", "target", "groups"),
    [
        ([12, 1, 42], [12, 42], [[0], [1, 2]]),
        ([12, 42, 1, 1], [12, 42], [[0], [1, 2, 3]]),
        ([1, 12, 42], [12, 42], [[0, 1], [2]]),
        ([2, 3, 4], [6, 4], [[0, 1], [2]]),
        ([2, 3, 4], [2, 12], [[0], [1, 2]]),
        ([1, 1], [], []),
        ([2, 3, 4], [4, 6], None),
        ([1, 784, 1, 1], [1, 49, 16], None),
        ([6], [6], None),
    ],
)
def test_collapse_groups(
    source: list[int], target: list[int], groups: list[list[int]] | None
) -> None:
    assert collapse_groups(source, target) == groups


@pytest.mark.parametrize(
    ("source", "result"), [((1,), ()), ((), (1,)), ((2, 3), (3, 2)), ((4, 1), (4,))]
)
def test_unsigned_reshape_goes_through_signless(
    source: tuple[int, ...], result: tuple[int, ...]
) -> None:
    """As upstream's type converter: cast to signless, reshape, cast back."""
    text = _text(source, result).replace("i32>", "ui8>")
    lowered = xquant.apply_passes(
        xquant.parse_module(text), "stablehlo-legalize-to-linalg"
    )
    casts = [
        op for op in lowered.walk() if op.name == "builtin.unrealized_conversion_cast"
    ]
    assert len(casts) == 2
    x = (np.arange(int(np.prod(source))) * 37 % 256).astype(np.uint8).reshape(source)
    (got,) = xquant.run(lowered, "main", x)
    np.testing.assert_array_equal(got, x.reshape(result))
    assert_verifies_upstream(xquant.print_module(lowered))


# (operand type, result shape, runtime operand shape) -- the dynamic cases of
# StableHLO's miscellaneous.mlir
DYNAMIC = [
    ("?x?", (2, 4, 5), (5, 8)),
    ("?", (1, 3), (3,)),
    ("?x?", (3,), (1, 3)),
    ("1x?", (1,), (1, 1)),
    ("?", (), (1,)),
    ("?x?", (), (1, 1)),
    ("16x1x?", (16,), (16, 1, 1)),
]


@pytest.mark.parametrize(("operand", "result", "runtime"), DYNAMIC)
def test_dynamic_operand(
    operand: str, result: tuple[int, ...], runtime: tuple[int, ...]
) -> None:
    """Through 1-D with a `tensor.cast` to the static length (rank 0: cast to ones,
    then collapse), as upstream; values are numpy's reshape."""
    t = f"tensor<{operand}xi32>"
    r = "tensor<" + "".join(f"{n}x" for n in result) + "i32>"
    text = (
        f"func.func @main(%a: {t}) -> {r} {{\n"
        f"  %0 = stablehlo.reshape %a : ({t}) -> {r}\n  return %0 : {r}\n}}\n"
    )
    lowered = xquant.apply_passes(
        xquant.parse_module(text), "stablehlo-legalize-to-linalg"
    )
    names = [op.name for op in lowered.walk()]
    assert "stablehlo.reshape" not in names
    assert names.count("tensor.cast") == 1
    x = np.arange(int(np.prod(runtime)), dtype=np.int32).reshape(runtime)
    (got,) = xquant.run(lowered, "main", x)
    np.testing.assert_array_equal(got, x.reshape(result))
    assert_verifies_upstream(xquant.print_module(lowered))


def test_dynamic_operand_of_the_wrong_size_is_a_located_error() -> None:
    text = (
        "func.func @main(%a: tensor<?xi32>) -> tensor<1x3xi32> {\n"
        "  %0 = stablehlo.reshape %a : (tensor<?xi32>) -> tensor<1x3xi32>\n"
        "  return %0 : tensor<1x3xi32>\n}\n"
    )
    lowered = xquant.apply_passes(
        xquant.parse_module(text), "stablehlo-legalize-to-linalg"
    )
    with pytest.raises(Exception, match=r"tensor\.cast") as err:
        xquant.run(lowered, "main", np.arange(4, dtype=np.int32))
    assert "Traceback" not in str(err.value)
