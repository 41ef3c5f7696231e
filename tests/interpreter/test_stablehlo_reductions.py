"""Quantized reductions with a wider accumulator (seed 003, spec reduce_c6/c8), against golden values.

The goldens are computed here, independently of the interpreter, from the
spec's formulas in plain integer numpy:

- inputs and init values are converted to the body's type first:
  x' = round_half_even((q - z_in) * s_in / s_acc + z_acc) (exact for the
  power-of-two scales used here);
- the body `add` on one per-tensor type is `a + b - z_acc`, so a sum is
  z_acc + sum(x' - z_acc) (the init value is the quantized zero, z_acc after
  conversion, and contributes nothing);
- `maximum` / `minimum` on one type are the max / min of the storage values;
- reduce_window pads with the (converted) init value before windowing.

Upstream's reference interpreter cannot run a quantized reduce at all and
runs reduce_window on raw i8 storage, which is wrong for these cases.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from xquant import run

Q8 = "!quant.uniform<i8:f32, 5.000000e-01:-3>"
Q32 = "!quant.uniform<i32:f32, 2.500000e-01:5>"
S_IN, Z_IN, S_ACC, Z_ACC = 0.5, -3, 0.25, 5

BODIES = {
    "sum": "stablehlo.add",
    "max": "stablehlo.maximum",
    "min": "stablehlo.minimum",
}
IDENTITY_STORAGE = {"sum": Z_IN, "max": -128, "min": 127}


def to_accumulator(q: np.ndarray) -> np.ndarray:
    """The spec's conversion of input storage to the accumulator type (exact here)."""
    real = (q.astype(np.int64) - Z_IN) * S_IN
    return np.rint(real / S_ACC + Z_ACC).astype(np.int64)


def combine(kind: str, values: np.ndarray, axis: tuple[int, ...] | int) -> np.ndarray:
    if kind == "sum":
        return Z_ACC + np.sum(values - Z_ACC, axis=axis)
    if kind == "max":
        return np.max(values, axis=axis)
    return np.min(values, axis=axis)


def reducer(kind: str) -> str:
    return f"""
     reducer(%a: tensor<{Q32}>, %b: tensor<{Q32}>)  {{
      %s = {BODIES[kind]} %a, %b : tensor<{Q32}>
      stablehlo.return %s : tensor<{Q32}>
    }}"""


@pytest.fixture
def data() -> np.ndarray:
    rng = np.random.default_rng(7)
    return rng.integers(-128, 128, size=(4, 6), dtype=np.int8)


@pytest.mark.parametrize("kind", ["sum", "max", "min"])
@pytest.mark.parametrize("dims", [[1], [0], [0, 1]])
def test_reduce_i8_into_i32(kind: str, dims: list[int], data: np.ndarray) -> None:
    kept = [n for d, n in enumerate(data.shape) if d not in dims]
    result_type = f"tensor<{''.join(f'{n}x' for n in kept)}{Q32}>"
    text = f"""
    func.func @main(%x: tensor<4x6x{Q8}>, %init: tensor<{Q8}>) -> {result_type} {{
      %r = stablehlo.reduce(%x init: %init) across dimensions = {dims} : (tensor<4x6x{Q8}>, tensor<{Q8}>) -> {result_type}
      {reducer(kind)}
      func.return %r : {result_type}
    }}"""
    init = np.array(IDENTITY_STORAGE[kind], dtype=np.int8)
    (result,) = run(text, "main", data, init)
    golden = combine(kind, to_accumulator(data), tuple(dims))
    assert result.dtype == np.int32
    np.testing.assert_array_equal(result, golden)


def test_reduce_sum_differs_from_raw_storage_sum(data: np.ndarray) -> None:
    """A sum of raw storage with a non-zero zero point (what upstream's shortcut would do) is wrong."""
    real_sum = ((data.astype(np.int64) - Z_IN) * S_IN).sum(axis=1)
    golden = combine("sum", to_accumulator(data), 1)
    np.testing.assert_allclose((golden - Z_ACC) * S_ACC, real_sum)
    assert not np.array_equal(golden, data.astype(np.int64).sum(axis=1))


def window_golden(
    kind: str,
    q: np.ndarray,
    window: tuple[int, int],
    strides: tuple[int, int],
    padding: list[tuple[int, int]],
) -> np.ndarray:
    """Loop-by-loop reduce_window from the spec: pad with the converted init, reduce each window."""
    converted = to_accumulator(q)
    init = int(to_accumulator(np.array(IDENTITY_STORAGE[kind]))[()])
    padded = np.pad(converted, padding, constant_values=init)
    out_shape = [(padded.shape[d] - window[d]) // strides[d] + 1 for d in range(2)]
    result = np.empty(out_shape, np.int64)
    for i, j in itertools.product(range(out_shape[0]), range(out_shape[1])):
        block = padded[
            i * strides[0] : i * strides[0] + window[0],
            j * strides[1] : j * strides[1] + window[1],
        ]
        result[i, j] = combine(kind, block.reshape(-1), 0)
    return result


@pytest.mark.parametrize("kind", ["sum", "max", "min"])
def test_reduce_window_strides_and_padding(kind: str) -> None:
    rng = np.random.default_rng(11)
    q = rng.integers(-128, 128, size=(5, 7), dtype=np.int8)
    window, strides, padding = (2, 3), (2, 2), [(1, 0), (1, 1)]
    golden = window_golden(kind, q, window, strides, padding)
    result_type = f"tensor<{golden.shape[0]}x{golden.shape[1]}x{Q32}>"
    text = f"""
    func.func @main(%x: tensor<5x7x{Q8}>, %init: tensor<{Q8}>) -> {result_type} {{
      %r = "stablehlo.reduce_window"(%x, %init) ({{
        ^bb0(%a: tensor<{Q32}>, %b: tensor<{Q32}>):
          %s = {BODIES[kind]} %a, %b : tensor<{Q32}>
          stablehlo.return %s : tensor<{Q32}>
      }}) {{window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>,
          padding = dense<[[1, 0], [1, 1]]> : tensor<2x2xi64>}} : (tensor<5x7x{Q8}>, tensor<{Q8}>) -> {result_type}
      func.return %r : {result_type}
    }}"""
    (result,) = run(text, "main", q, np.array(IDENTITY_STORAGE[kind], dtype=np.int8))
    np.testing.assert_array_equal(result, golden)


def test_select_and_scatter_accumulates_in_i32() -> None:
    """Max-pool gradient: each source value goes to its window's first maximum, summed in i32."""
    rng = np.random.default_rng(5)
    operand = rng.integers(-128, 128, size=(4, 6), dtype=np.int8)
    source = rng.integers(-128, 128, size=(2, 3), dtype=np.int8)
    golden = np.full(operand.shape, Z_ACC, np.int64)
    converted = to_accumulator(source)
    for i, j in itertools.product(range(2), range(3)):
        block = operand[2 * i : 2 * i + 2, 2 * j : 2 * j + 2]
        r, c = np.unravel_index(int(np.argmax(block)), block.shape)
        golden[2 * i + r, 2 * j + c] += converted[i, j] - Z_ACC
    text = f"""
    func.func @main(%x: tensor<4x6x{Q8}>, %src: tensor<2x3x{Q8}>, %init: tensor<{Q8}>) -> tensor<4x6x{Q32}> {{
      %r = "stablehlo.select_and_scatter"(%x, %src, %init) ({{
        ^bb0(%a: tensor<{Q8}>, %b: tensor<{Q8}>):
          %p = stablehlo.compare  GE, %a, %b : (tensor<{Q8}>, tensor<{Q8}>) -> tensor<i1>
          stablehlo.return %p : tensor<i1>
      }}, {{
        ^bb0(%a: tensor<{Q32}>, %b: tensor<{Q32}>):
          %s = stablehlo.add %a, %b : tensor<{Q32}>
          stablehlo.return %s : tensor<{Q32}>
      }}) {{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}}
        : (tensor<4x6x{Q8}>, tensor<2x3x{Q8}>, tensor<{Q8}>) -> tensor<4x6x{Q32}>
      func.return %r : tensor<4x6x{Q32}>
    }}"""
    (result,) = run(text, "main", operand, source, np.array(Z_IN, dtype=np.int8))
    np.testing.assert_array_equal(result, golden)


def test_float_reduce_compact_form() -> None:
    text = """
    func.func @main(%x: tensor<2x3xf32>, %z: tensor<f32>) -> tensor<2xf32> {
      %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
      func.return %r : tensor<2xf32>
    }"""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    (result,) = run(text, "main", x, np.array(0.5, np.float32))
    np.testing.assert_array_equal(result, x.sum(axis=1) + 0.5)


SAT = "!quant.uniform<i8:f32, 1.000000e+00:2>"


def saturating_sum_text(element: str) -> str:
    t = f"tensor<4x{element}>"
    return f"""
    func.func @main(%x: {t}, %init: tensor<{element}>) -> tensor<{element}> {{
      %r = stablehlo.reduce(%x init: %init) across dimensions = [0] : ({t}, tensor<{element}>) -> tensor<{element}>
       reducer(%a: tensor<{element}>, %b: tensor<{element}>)  {{
        %s = stablehlo.add %a, %b : tensor<{element}>
        stablehlo.return %s : tensor<{element}>
      }}
      func.return %r : tensor<{element}>
    }}"""


@pytest.mark.parametrize(
    "pipeline",
    [
        "",
        "stablehlo-legalize-quant-to-math{exact=true}",
        "stablehlo-legalize-quant-to-math{exact=true},stablehlo-legalize-to-linalg",
    ],
)
def test_quantized_sum_clamps_once_at_the_end(pipeline: str) -> None:
    """Real values 100 + 100 - 100 - 100 sum to 0 (storage 2): exact, not clamped pairwise.

    A tree of clamped pairwise adds would give (100 + 100 -> 125) +
    (-100 - 100 -> -130) = -5 and depend on the order; the sum is exact in
    i64 with one final clamp, in the interpreter and in both lowered forms.
    """
    import xquant

    module = xquant.parse_module(saturating_sum_text(SAT))
    if pipeline:
        module = xquant.apply_passes(module, pipeline)
    x = np.array([102, -98, 102, -98], np.int8)  # real 100, -100, 100, -100
    init = np.array(2, np.int8)  # real 0
    (result,) = xquant.run(module, "main", x, init)
    assert int(result) == 2
    (big,) = xquant.run(module, "main", np.array([102, 102, 102, -98], np.int8), init)
    assert int(big) == 127  # real 200 saturates at the end


def test_plain_integer_sum_wraps() -> None:
    """A non-quantized i8 sum wraps modulo 2^8 like every integer add: 4 * 100 - 99 = 301 -> 45."""
    (result,) = run(
        saturating_sum_text("i8"),
        "main",
        np.full(4, 100, np.int8),
        np.array(-99, np.int8),
    )
    assert int(result) == 45
