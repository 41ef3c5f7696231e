"""`stablehlo.select_and_scatter` lowered by `stablehlo-legalize-to-linalg`.

Lowered == interpreted bit for bit (NaN equal to NaN), and both equal to a
numpy reference written here from the spec: per window (padding positions
excluded) `current = first element; for each later e: current = e unless
select(current, e)`, so among equal elements the first wins (the spec's C8,
XLA); then `result = init` and `result[p] = scatter(result[p], source)` in
source order. Upstream's lowering picks the last of equal elements: the tie
cases below fail with it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from xquant import apply_passes, parse_module, run

PASS = "stablehlo-legalize-to-linalg"

Binary = Callable[[Any, Any], Any]

COMPARE: dict[str, Binary] = {
    "GE": lambda a, b: a >= b,
    "GT": lambda a, b: a > b,
    "LE": lambda a, b: a <= b,
    "LT": lambda a, b: a < b,
}
SCATTER: dict[str, Binary] = {
    "add": lambda a, b: a + b,
    "multiply": lambda a, b: a * b,
    "maximum": np.maximum,
    "subtract": lambda a, b: a - b,
    "atan2": np.arctan2,  # folds differ in order: atan2(atan2(i, a), b) != ...(b), a)
}
DTYPES: dict[str, Any] = {
    "f32": np.float32,
    "f64": np.float64,
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "i32": np.int32,
    "i8": np.int8,
}


def program(
    element: str,
    shape: tuple[int, ...],
    source_shape: tuple[int, ...],
    window: tuple[int, ...],
    strides: tuple[int, ...],
    padding: tuple[tuple[int, int], ...] | None,
    compare: str = "GE",
    scatter: str = "add",
) -> str:
    def t(s: tuple[int, ...]) -> str:
        return f"tensor<{'x'.join(map(str, s))}x{element}>"

    kind = "FLOAT" if element.startswith(("f", "bf")) else "SIGNED"
    rank = len(shape)
    pad = ""
    if padding is not None:
        rows = ", ".join(f"[{lo}, {hi}]" for lo, hi in padding)
        pad = f"padding = dense<[{rows}]> : tensor<{rank}x2xi64>, "
    return f"""
func.func @main(%x: {t(shape)}, %s: {t(source_shape)}, %i: tensor<{element}>) -> {t(shape)} {{
  %0 = "stablehlo.select_and_scatter"(%x, %s, %i) ({{
  ^bb0(%a: tensor<{element}>, %b: tensor<{element}>):
    %p = stablehlo.compare {compare}, %a, %b, {kind} : (tensor<{element}>, tensor<{element}>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }}, {{
  ^bb0(%a: tensor<{element}>, %b: tensor<{element}>):
    %r = stablehlo.{scatter} %a, %b : tensor<{element}>
    stablehlo.return %r : tensor<{element}>
  }}) {{{pad}window_dimensions = array<i64: {", ".join(map(str, window))}>,
      window_strides = array<i64: {", ".join(map(str, strides))}>}}
    : ({t(shape)}, {t(source_shape)}, tensor<{element}>) -> {t(shape)}
  func.return %0 : {t(shape)}
}}"""


def reference(
    operand: np.ndarray,
    source: np.ndarray,
    init: Any,
    window: tuple[int, ...],
    strides: tuple[int, ...],
    padding: tuple[tuple[int, int], ...],
    select: Callable[[Any, Any], Any],
    scatter: Callable[[Any, Any], Any],
) -> np.ndarray:
    """The spec's semantics, element by element."""
    result = np.full(operand.shape, init, operand.dtype)
    for s in itertools.product(*(range(n) for n in source.shape)):
        best: tuple[int, ...] | None = None
        for w in itertools.product(*(range(n) for n in window)):
            p = tuple(
                si * st + wi - lo
                for si, st, wi, (lo, _) in zip(s, strides, w, padding, strict=True)
            )
            if any(not 0 <= q < n for q, n in zip(p, operand.shape, strict=True)):
                continue
            if best is None or not select(operand[best], operand[p]):
                best = p
        if best is not None:
            with np.errstate(all="ignore"):
                result[best] = scatter(result[best], source[s])
    return result


def source_shape_of(
    shape: tuple[int, ...],
    window: tuple[int, ...],
    strides: tuple[int, ...],
    padding: tuple[tuple[int, int], ...],
) -> tuple[int, ...]:
    return tuple(
        (n + lo + hi - w) // s + 1
        for n, w, s, (lo, hi) in zip(shape, window, strides, padding, strict=True)
    )


def lowered(text: str) -> ModuleOp:
    module = apply_passes(parse_module(text), PASS)
    names = {op.name for op in module.walk()}
    assert not any(n.startswith("stablehlo.") for n in names), names
    return module


def same(a: Any, b: Any) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind == "f":  # bit for bit, NaN payloads included
        return bool(np.array_equal(a.view(f"u{a.itemsize}"), b.view(f"u{b.itemsize}")))
    return bool(np.array_equal(a, b))


def check(
    element: str,
    operand: np.ndarray,
    window: tuple[int, ...],
    strides: tuple[int, ...],
    padding: tuple[tuple[int, int], ...] | None = None,
    compare: str = "GE",
    scatter: str = "add",
    seed: int = 0,
) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rank = operand.ndim
    pads = padding or ((0, 0),) * rank
    src_shape = source_shape_of(operand.shape, window, strides, pads)
    dtype = DTYPES[element]
    source = rng.integers(-4, 5, size=src_shape).astype(dtype)
    init = np.array(3 if scatter != "multiply" else 1, dtype)
    text = program(
        element, operand.shape, src_shape, window, strides, padding, compare, scatter
    )
    interpreted = run(parse_module(text), "main", operand, source, init)[0]
    lowered_result = run(lowered(text), "main", operand, source, init)[0]
    expected = reference(
        operand,
        source,
        init[()],
        window,
        strides,
        pads,
        COMPARE[compare],
        SCATTER[scatter],
    )
    assert same(interpreted, expected), (interpreted, expected)
    assert same(lowered_result, interpreted), (lowered_result, interpreted)
    return lowered_result


@pytest.mark.parametrize("compare", sorted(COMPARE))
@pytest.mark.parametrize("element", sorted(DTYPES))
def test_ties_pick_the_first(compare: str, element: str) -> None:
    """Values from {0, 1}: most windows hold equal elements."""
    rng = np.random.default_rng(1)
    operand = rng.integers(0, 2, size=(2, 6, 8, 3)).astype(DTYPES[element])
    check(element, operand, (1, 2, 2, 1), (1, 2, 2, 1), compare=compare)


def test_all_equal_scatters_to_the_window_origin() -> None:
    """A constant operand: every window's first element (upstream: its last)."""
    operand = np.zeros((4, 4), np.float32)
    source = np.arange(1, 5, dtype=np.float32).reshape(2, 2)
    text = program("f32", (4, 4), (2, 2), (2, 2), (2, 2), None)
    result = run(lowered(text), "main", operand, source, np.array(0, np.float32))[0]
    expected = np.zeros((4, 4), np.float32)
    expected[0::2, 0::2] = source
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("compare", ["GE", "GT", "LE"])
def test_nan(compare: str) -> None:
    rng = np.random.default_rng(2)
    operand = rng.integers(-2, 3, size=(6, 9)).astype(np.float32)
    operand[rng.random(operand.shape) < 0.3] = np.nan
    operand[0:2, 0:3] = np.nan  # a window of NaNs only
    check("f32", operand, (2, 3), (2, 3), compare=compare)


@pytest.mark.parametrize(
    "padding", [((1, 1), (0, 1)), ((2, 0), (1, 2)), ((0, 1), (1, 0))]
)
@pytest.mark.parametrize("compare", ["GE", "LE"])
def test_padding(padding: tuple[tuple[int, int], ...], compare: str) -> None:
    """Padding positions are never selected (a window of padding only scatters nowhere)."""
    rng = np.random.default_rng(3)
    operand = rng.integers(-3, 3, size=(5, 7)).astype(np.float32)
    check("f32", operand, (2, 3), (2, 3), padding, compare=compare)
    check("f32", operand, (2, 2), (3, 3), padding, compare=compare)


@pytest.mark.parametrize(
    ("shape", "window", "strides"),
    [
        ((7, 10), (2, 3), (3, 4)),  # stride above window, operand not tiled exactly
        ((9,), (3,), (3,)),  # rank 1
        ((4, 5), (1, 1), (1, 1)),  # one-element windows (upstream refuses them)
        ((4, 6), (1, 2), (2, 2)),  # a window of 1 under a stride of 2
        ((2, 4, 6, 3), (1, 2, 3, 1), (1, 2, 3, 1)),
        ((3, 4, 4, 4), (3, 2, 2, 2), (3, 2, 2, 2)),
    ],
)
@pytest.mark.parametrize("element", ["f32", "i32"])
def test_strides_and_shapes(
    shape: tuple[int, ...],
    window: tuple[int, ...],
    strides: tuple[int, ...],
    element: str,
) -> None:
    rng = np.random.default_rng(4)
    operand = rng.integers(-3, 4, size=shape).astype(DTYPES[element])
    check(element, operand, window, strides)


@pytest.mark.parametrize("scatter", sorted(SCATTER))
def test_scatter_regions(scatter: str) -> None:
    """`subtract` is not commutative: the region runs as scatter(accumulated, source)."""
    rng = np.random.default_rng(5)
    operand = rng.integers(-2, 3, size=(4, 6)).astype(np.float32)
    check("f32", operand, (2, 2), (2, 2), scatter=scatter)
    if scatter != "atan2":
        check("i32", operand.astype(np.int32), (2, 3), (2, 3), scatter=scatter)


@pytest.mark.parametrize(
    ("shape", "window", "strides", "padding"),
    [
        ((5, 5), (3, 3), (2, 2), None),
        ((7, 6), (3, 3), (2, 2), ((1, 1), (1, 1))),  # JAX's 3x3/2 SAME pooling
        ((6,), (3,), (1,), ((1, 1),)),  # stride 1: every element in 3 windows
        ((2, 5, 6, 2), (1, 3, 2, 1), (1, 2, 1, 1), ((0, 0), (1, 0), (0, 1), (0, 0))),
    ],
)
@pytest.mark.parametrize("scatter", ["add", "atan2"])
@pytest.mark.parametrize("compare", ["GE", "LT"])
def test_overlapping_windows(
    shape: tuple[int, ...],
    window: tuple[int, ...],
    strides: tuple[int, ...],
    padding: tuple[tuple[int, int], ...] | None,
    scatter: str,
    compare: str,
) -> None:
    """An element in several windows gets their contributions in source order."""
    rng = np.random.default_rng(7)
    operand = rng.integers(-1, 2, size=shape).astype(np.float32)
    operand[rng.random(shape) < 0.1] = np.nan
    check("f32", operand, window, strides, padding, compare, scatter)
    if scatter == "atan2":
        return
    check(
        "i32",
        rng.integers(-1, 2, size=shape).astype(np.int32),
        window,
        strides,
        padding,
        compare,
        scatter,
    )


# A max-pool and its gradient in the form `jax.jit(...).lower(...).as_text()`
# prints them (`lax.reduce_window` max with SAME padding, and the
# select_and_scatter JAX's transpose rule emits); written by hand, JAX is not
# installed here.
MAXPOOL_GRAD = """
module @jit_maxpool_grad {
  func.func public @main(%arg0: tensor<2x7x7x3xf32>, %arg1: tensor<2x4x4x3xf32>) -> (tensor<2x4x4x3xf32>, tensor<2x7x7x3xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.maximum %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<2x7x7x3xf32>, tensor<f32>) -> tensor<2x4x4x3xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = "stablehlo.select_and_scatter"(%arg0, %arg1, %cst_0) <{padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.compare  GE, %arg2, %arg3,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    }, {
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<2x7x7x3xf32>, tensor<2x4x4x3xf32>, tensor<f32>) -> tensor<2x7x7x3xf32>
    return %0, %1 : tensor<2x4x4x3xf32>, tensor<2x7x7x3xf32>
  }
}
"""


# The same with JAX's 3x3 stride-2 SAME pooling: overlapping windows.
MAXPOOL_GRAD_3X3 = MAXPOOL_GRAD.replace(
    "padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>, "
    "window_dimensions = array<i64: 1, 2, 2, 1>",
    "padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, "
    "window_dimensions = array<i64: 1, 3, 3, 1>",
)


def _maxpool_inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(6)
    x = rng.integers(-3, 4, size=(2, 7, 7, 3)).astype(np.float32)  # many ties
    x[0, 0, 0, 0] = np.nan
    return x, rng.standard_normal((2, 4, 4, 3)).astype(np.float32)


@pytest.mark.parametrize(
    ("text", "size", "pad"), [(MAXPOOL_GRAD, 2, (0, 1)), (MAXPOOL_GRAD_3X3, 3, (1, 1))]
)
def test_maxpool_gradient_lowered(text: str, size: int, pad: tuple[int, int]) -> None:
    assert text.count(f"window_dimensions = array<i64: 1, {size}, {size}, 1>") == 2
    x, cotangent = _maxpool_inputs()
    interpreted = run(parse_module(text), "main", x, cotangent)
    lowered_results = run(lowered(text), "main", x, cotangent)
    expected = reference(
        x,
        cotangent,
        np.float32(0),
        (1, size, size, 1),
        (1, 2, 2, 1),
        ((0, 0), pad, pad, (0, 0)),
        COMPARE["GE"],
        SCATTER["add"],
    )
    assert same(interpreted[1], expected)
    for a, b in zip(interpreted, lowered_results, strict=True):
        assert same(a, b)


@pytest.mark.parametrize("text", [MAXPOOL_GRAD, MAXPOOL_GRAD_3X3], ids=["2x2", "3x3"])
def test_maxpool_gradient_on_iree(text: str) -> None:
    from xquant.backends.iree import available

    reason = available()
    if reason is not None:
        pytest.skip(reason)
    x, cotangent = _maxpool_inputs()
    interpreted = run(parse_module(text), "main", x, cotangent)
    on_iree = run(parse_module(text), "main", x, cotangent, backend="iree")
    for a, b in zip(interpreted, on_iree, strict=True):
        assert same(a, b)


def test_select_region_of_several_ops() -> None:
    """`a >= b or a is NaN` (a NaN, once current, stays): the region's ops in order."""
    text = """
func.func @main(%x: tensor<6x6xf32>, %s: tensor<3x2xf32>, %i: tensor<f32>) -> tensor<6x6xf32> {
  %0 = "stablehlo.select_and_scatter"(%x, %s, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %p = stablehlo.or %ge, %nan : tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) {window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 3>}
    : (tensor<6x6xf32>, tensor<3x2xf32>, tensor<f32>) -> tensor<6x6xf32>
  func.return %0 : tensor<6x6xf32>
}"""
    rng = np.random.default_rng(8)
    x = rng.integers(-2, 3, size=(6, 6)).astype(np.float32)
    x[rng.random(x.shape) < 0.25] = np.nan
    source = rng.integers(1, 5, size=(3, 2)).astype(np.float32)
    init = np.array(0, np.float32)
    interpreted = run(parse_module(text), "main", x, source, init)[0]
    expected = reference(
        x,
        source,
        np.float32(0),
        (2, 3),
        (2, 3),
        ((0, 0), (0, 0)),
        lambda a, b: a >= b or a != a,
        SCATTER["add"],
    )
    assert same(interpreted, expected)
    assert same(run(lowered(text), "main", x, source, init)[0], interpreted)
