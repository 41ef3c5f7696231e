"""`stablehlo.broadcast_in_dim` with `enable-primitive-ops`: upstream's collapse,
transpose, `linalg.broadcast` (cases from StableHLO's miscellaneous.mlir)."""

from __future__ import annotations

import numpy as np
import pytest

import xquant
from tests.upstream.mlir_opt import assert_verifies_upstream

# (operand shape, result shape, broadcast dims, the linalg/tensor ops emitted)
CASES = [
    (
        (5, 7, 1),
        (7, 10, 6, 4, 5),
        (4, 0, 2),
        ["collapse_shape", "transpose", "broadcast"],
    ),
    ((2, 3, 4), (3, 4, 2, 5), (2, 0, 1), ["transpose", "broadcast"]),
    ((3, 1, 1), (1, 3, 5, 7), (1, 2, 3), ["collapse_shape", "broadcast"]),
    ((4,), (3, 4), (1,), ["broadcast"]),
    ((1,), (3, 4), (1,), ["collapse_shape", "broadcast"]),
    ((), (3, 4), (), ["broadcast"]),
    ((3, 4), (3, 4), (0, 1), ["broadcast"]),
]


def _text(
    shape: tuple[int, ...], result: tuple[int, ...], dims: tuple[int, ...]
) -> str:
    def t(s: tuple[int, ...]) -> str:
        return "tensor<" + "".join(f"{n}x" for n in s) + "f32>"

    return (
        f"func.func @main(%a: {t(shape)}) -> {t(result)} {{\n"
        f"  %0 = stablehlo.broadcast_in_dim %a, dims = {list(dims)} : ({t(shape)}) -> {t(result)}\n"
        f"  return %0 : {t(result)}\n}}\n"
    )


def _reference(
    x: np.ndarray, result: tuple[int, ...], dims: tuple[int, ...]
) -> np.ndarray:
    """The spec: result[i] = operand[j] with j_k = 0 if operand dim k is 1 else i[dims[k]]."""
    out = np.empty(result, x.dtype)
    for index in np.ndindex(*result):
        j = tuple(0 if x.shape[k] == 1 else index[d] for k, d in enumerate(dims))
        out[index] = x[j]
    return out


@pytest.mark.parametrize(("shape", "result", "dims", "kinds"), CASES)
def test_primitive_broadcast(
    shape: tuple[int, ...],
    result: tuple[int, ...],
    dims: tuple[int, ...],
    kinds: list[str],
) -> None:
    text = _text(shape, result, dims)
    lowered = xquant.apply_passes(
        xquant.parse_module(text),
        "stablehlo-legalize-to-linalg{enable-primitive-ops=true}",
    )
    emitted = [
        op.name.split(".", 1)[1]
        for op in lowered.walk()
        if op.name in ("tensor.collapse_shape", "linalg.transpose", "linalg.broadcast")
    ]
    assert emitted == kinds
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    (got,) = xquant.run(lowered, "main", x)
    np.testing.assert_array_equal(got, _reference(x, result, dims))
    (generic,) = xquant.run(
        xquant.apply_passes(xquant.parse_module(text), "stablehlo-legalize-to-linalg"),
        "main",
        x,
    )
    np.testing.assert_array_equal(generic, got)
    assert_verifies_upstream(xquant.print_module(lowered))


@pytest.mark.parametrize("primitive", [False, True])
def test_unsigned_broadcast_goes_through_signless(primitive: bool) -> None:
    """As upstream's type converter: cast to signless, broadcast, cast back."""
    text = _text((5, 7, 1), (7, 10, 6, 4, 5), (4, 0, 2)).replace("f32>", "ui32>")
    flag = "true" if primitive else "false"
    lowered = xquant.apply_passes(
        xquant.parse_module(text),
        f"stablehlo-legalize-to-linalg{{enable-primitive-ops={flag}}}",
    )
    casts = [
        op for op in lowered.walk() if op.name == "builtin.unrealized_conversion_cast"
    ]
    assert len(casts) == 2
    x = (np.arange(35, dtype=np.uint64) * 2**27 % 2**32).astype(np.uint32)
    x = x.reshape(5, 7, 1)
    (got,) = xquant.run(lowered, "main", x)
    want = _reference(x.astype(np.float64), (7, 10, 6, 4, 5), (4, 0, 2))
    np.testing.assert_array_equal(got.astype(np.float64), want)
    assert_verifies_upstream(xquant.print_module(lowered))
