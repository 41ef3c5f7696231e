"""`stablehlo.einsum` lowers as upstream's EinsumToLinalgConverter: ellipses as batch
labels, dynamic sizes from `tensor.dim`, no fill or add without a summed label.
Values against numpy's einsum (exact on the small integers used)."""

from __future__ import annotations

import numpy as np
import pytest

import xquant
from tests.upstream.mlir_opt import assert_verifies_upstream
from xquant.transforms.stablehlo_legalize_to_linalg.dot_product import einsum_labels

CASES = [
    # config, lhs shape, rhs shape, result shape (None: dynamic in the IR), sums?
    ("...x,xy->...y", (2, 3, 4), (4, 5), (2, 3, 5), True),
    ("abc,cd->abd", (2, 3, 4), (4, 5), (2, 3, 5), True),
    ("ab,ab->ab", (3, 4), (3, 4), (3, 4), False),
    ("a...c,c...->a...", (2, 3, 4), (4, 3), (2, 3), True),
    ("ij,jk->ik", (3, 4), (4, 2), (3, 2), True),
]


def _t(shape: tuple[int, ...], dynamic: bool) -> str:
    dims = "".join("?x" if dynamic else f"{n}x" for n in shape)
    return f"tensor<{dims}f32>"


def _text(
    config: str,
    a: tuple[int, ...],
    b: tuple[int, ...],
    r: tuple[int, ...],
    dynamic: bool,
) -> str:
    ta, tb, tr = _t(a, dynamic), _t(b, dynamic), _t(r, dynamic)
    return (
        f"func.func @main(%a: {ta}, %b: {tb}) -> {tr} {{\n"
        f'  %0 = "stablehlo.einsum"(%a, %b) {{einsum_config = "{config}"}} : ({ta}, {tb}) -> {tr}\n'
        f"  return %0 : {tr}\n}}\n"
    )


@pytest.mark.parametrize("dynamic", [False, True])
@pytest.mark.parametrize(("config", "a", "b", "r", "sums"), CASES)
def test_einsum(
    config: str,
    a: tuple[int, ...],
    b: tuple[int, ...],
    r: tuple[int, ...],
    sums: bool,
    dynamic: bool,
) -> None:
    text = _text(config, a, b, r, dynamic)
    lowered = xquant.apply_passes(
        xquant.parse_module(text), "stablehlo-legalize-to-linalg"
    )
    names = [op.name for op in lowered.walk()]
    assert "stablehlo.einsum" not in names
    assert ("linalg.fill" in names) == sums
    assert names.count("tensor.dim") == (len(r) if dynamic else 0)
    rng = np.random.default_rng(len(config))
    x = rng.integers(-4, 5, a).astype(np.float32)
    y = rng.integers(-4, 5, b).astype(np.float32)
    (got,) = xquant.run(lowered, "main", x, y)
    np.testing.assert_array_equal(got, np.einsum(config, x, y))
    assert_verifies_upstream(xquant.print_module(lowered))


def test_labels() -> None:
    assert einsum_labels("ab...c", 6) == ["a", "b", "0", "1", "2", "c"]
    assert einsum_labels("...", 0) == []
    assert einsum_labels("abc", 3) == ["a", "b", "c"]
    assert einsum_labels("abc", 2) is None
    assert einsum_labels("ab...c", 2) is None
