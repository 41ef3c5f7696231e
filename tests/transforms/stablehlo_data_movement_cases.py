"""Cases and numpy references for stablehlo.reverse, pad, dynamic_slice,
dynamic_update_slice and map, shared by two test files:

- `tests/interpreter/test_stablehlo_data_movement.py` runs them in the interpreter
  (and, where `stablehlo-legalize-to-linalg` lowers them, differentially);
- `tests/transforms/test_stablehlo_linalg_misc.py` lowers them with
  `stablehlo-legalize-to-linalg` and runs the lowered programs.

Every reference here (np.flip; np.pad with interior padding inserted by hand and
negative edges cropped; slices at `clamp(0, start, dim - size)`; the map body's
numpy op) is written from the StableHLO spec, never from the code under test.
Each file selects explicitly the cases it cannot use (e.g. forms the lowering
leaves as StableHLO).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np

PASS = "stablehlo-legalize-to-linalg"
PASSES = [PASS, f"{PASS}{{enable-primitive-ops=true}}"]

DTYPES: dict[str, Any] = {
    "i1": np.bool_,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "ui8": np.uint8,
    "ui16": np.uint16,
    "ui32": np.uint32,
    "ui64": np.uint64,
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "f32": np.float32,
    "f64": np.float64,
    "complex<f32>": np.complex64,
}


def tensor(shape: list[int] | tuple[int, ...], element: str) -> str:
    """The tensor type text of `shape` and `element`."""
    return f"tensor<{''.join(f'{n}x' for n in shape)}{element}>"


def ints(values: list[int]) -> str:
    """Comma-separated integers."""
    return ", ".join(map(str, values))


def random_array(rng: np.random.Generator, shape: list[int], element: str) -> Any:
    """Random values of the element type (the whole integer range; normal floats)."""
    dtype = DTYPES[element]
    if element == "i1":
        return rng.integers(0, 2, shape).astype(np.bool_)
    if element.startswith(("i", "ui")):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, dtype, True)
    return rng.standard_normal(shape).astype(dtype)


def assert_identical(got: Any, want: Any) -> None:
    """Same dtype, shape and bits (complex numbers compared part by part)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype.kind in "fc" or want.dtype == ml_dtypes.bfloat16:
        parts = 2 if want.dtype.kind == "c" else 1
        bits = np.dtype(f"u{want.dtype.itemsize // parts}")
        np.testing.assert_array_equal(got.view(bits), want.view(bits))
        return
    np.testing.assert_array_equal(got, want)


# ------------------------------------------------------------------------- reverse

REVERSES: list[tuple[list[int], list[int], str]] = [
    ([2, 3], [1], "f32"),
    ([3, 4, 5], [0, 2], "i8"),
    ([4, 1, 3], [0, 1, 2], "i32"),
    ([5], [0], "ui32"),
    ([5], [0], "ui64"),
    ([2, 3], [], "bf16"),
    ([3, 2], [0], "f16"),
    ([4, 3], [0, 1], "i1"),
    ([0, 3], [0], "f32"),
    ([], [], "i16"),
]


def reverse_text(shape: list[int], dims: list[int], element: str) -> str:
    """`stablehlo.reverse` of an argument."""
    t = tensor(shape, element)
    return f"""func.func @main(%x: {t}) -> {t} {{
  %0 = stablehlo.reverse %x, dims = [{ints(dims)}] : {t}
  func.return %0 : {t}
}}"""


# ----------------------------------------------------------------------------- pad


@dataclass
class Pad:
    """A pad case: operand shape, edges, interior padding and element type."""

    shape: list[int]
    low: list[int]
    high: list[int]
    interior: list[int]
    element: str = "f32"

    def result_shape(self) -> list[int]:
        """The spec's result shape."""
        return [
            lo + hi + n + max(n - 1, 0) * i
            for n, lo, hi, i in zip(self.shape, self.low, self.high, self.interior)
        ]

    def text(self) -> str:
        """`stablehlo.pad` of two arguments."""
        t, r, v = (
            tensor(self.shape, self.element),
            tensor(self.result_shape(), self.element),
            tensor([], self.element),
        )
        return f"""func.func @main(%x: {t}, %v: {v}) -> {r} {{
  %0 = stablehlo.pad %x, %v, low = [{ints(self.low)}], high = [{ints(self.high)}], interior = [{ints(self.interior)}] : ({t}, {v}) -> {r}
  func.return %0 : {r}
}}"""


def pad_reference(case: Pad, x: np.ndarray, value: np.ndarray) -> np.ndarray:
    """Interior padding by strided assignment, then edges: np.pad for the positive
    sides, slicing for the negative ones (the spec's negative padding crops)."""
    if not case.shape:
        return x.copy()
    dilated_shape = [n + max(n - 1, 0) * i for n, i in zip(case.shape, case.interior)]
    dilated = np.full(dilated_shape, value, dtype=x.dtype)
    dilated[tuple(slice(None, None, i + 1) for i in case.interior)] = x
    widths = [(max(lo, 0), max(hi, 0)) for lo, hi in zip(case.low, case.high)]
    padded = np.pad(dilated, widths, constant_values=value)
    crop = tuple(
        slice(max(-lo, 0), n - max(-hi, 0))
        for lo, hi, n in zip(case.low, case.high, padded.shape)
    )
    return padded[crop]


PADS = {
    "edges": Pad([12, 4], [4, 5], [2, 3], [0, 0]),
    "interior_ui32": Pad([12, 4], [4, 5], [2, 3], [1, 1], "ui32"),
    "interior_negative_i32": Pad([12, 4], [4, -1], [-2, 3], [1, 1], "i32"),
    "negative_edges_only_i8": Pad([5, 6], [-2, 0], [1, -3], [0, 0], "i8"),
    "negative_into_interior": Pad([4, 3], [-1, -2], [-2, 0], [2, 1], "i8"),
    "negative_odd_crop": Pad([4], [-3], [-4], [2], "i16"),
    "crop_everything_but_padding": Pad([3], [-3], [2], [0], "f32"),
    "crop_to_empty": Pad([3, 2], [-2, 0], [-1, 1], [0, 0], "f64"),
    "rank3_mixed_bf16": Pad([2, 3, 2], [1, 0, -1], [0, 2, 1], [0, 2, 1], "bf16"),
    "f16_interior": Pad([3, 3], [0, 1], [1, 0], [3, 0], "f16"),
    "i1": Pad([3, 2], [1, -1], [0, 2], [1, 2], "i1"),
    "ui64": Pad([4], [2], [-1], [1], "ui64"),
    "zero_padding": Pad([3, 2], [0, 0], [0, 0], [0, 0], "i32"),
    "empty_operand": Pad([0, 2], [1, 0], [2, 1], [3, 0], "f32"),
    "rank0": Pad([], [], [], [], "f32"),
}


# ---------------------------------------------------------------- dynamic slices

# As unsigned indices, -5 and -1 are 2^N - 5 and 2^N - 1 (for ui64 past 2^63).
STARTS = [-5, -1, 0, 1, 2, 3, 7, 1000, 2**63 + 5]


def index_value(start: int, index: str) -> np.ndarray:
    """`start` in the index type, wrapped modulo 2^N (negative unsigned starts are huge)."""
    dtype = np.dtype(DTYPES[index])
    bits = dtype.itemsize * 8
    wrapped = start % (1 << bits)
    if dtype.kind == "i" and wrapped >= 1 << (bits - 1):
        wrapped -= 1 << bits
    return np.asarray(wrapped, dtype=dtype)


def clamp_starts(starts: list[int], shape: list[int], sizes: list[int]) -> list[int]:
    """The spec's `clamp(0, start, dim - size)` per dim, on Python integers."""
    return [min(max(s, 0), n - k) for s, n, k in zip(starts, shape, sizes)]


def start_params(rank: int, index: str) -> tuple[str, str, str]:
    """The function parameters, the operand list and the types of `rank` start indices."""
    i = tensor([], index)
    params = "".join(f", %s{d}: {i}" for d in range(rank))
    starts = "".join(f", %s{d}" for d in range(rank))
    types = "".join(f", {i}" for _ in range(rank))
    return params, starts, types


@dataclass
class DynamicSlice:
    """A dynamic_slice case."""

    shape: list[int]
    sizes: list[int]
    element: str = "f32"
    index: str = "i64"

    def text(self) -> str:
        """`stablehlo.dynamic_slice` of arguments."""
        t, r = tensor(self.shape, self.element), tensor(self.sizes, self.element)
        params, starts, types = start_params(len(self.shape), self.index)
        return f"""func.func @main(%x: {t}{params}) -> {r} {{
  %0 = stablehlo.dynamic_slice %x{starts}, sizes = [{ints(self.sizes)}] : ({t}{types}) -> {r}
  func.return %0 : {r}
}}"""


SLICES = {
    "rows_f32": DynamicSlice([3, 4], [1, 4]),
    "block_i8_i32_index": DynamicSlice([5, 6], [2, 3], "i8", "i32"),
    "rank3_i32_i8_index": DynamicSlice([4, 3, 5], [2, 3, 1], "i32", "i8"),
    "ui32_ui64_index": DynamicSlice([4, 4], [3, 2], "ui32", "ui64"),
    "ui64_ui64_index": DynamicSlice([7], [3], "ui64", "ui64"),
    "ui8_index": DynamicSlice([6], [2], "i32", "ui8"),
    "i1_ui8_index": DynamicSlice([6, 2], [2, 1], "i1", "ui8"),
    "f16_ui16_index": DynamicSlice([5], [2], "f16", "ui16"),
    "whole_bf16": DynamicSlice([2, 3], [2, 3], "bf16", "i32"),
    "zero_size": DynamicSlice([4, 3], [0, 2], "f64", "i64"),
    "rank0": DynamicSlice([], [], "i32", "i32"),
}


@dataclass
class DynamicUpdateSlice:
    """A dynamic_update_slice case."""

    shape: list[int]
    update: list[int]
    element: str = "i32"
    index: str = "i32"

    def text(self) -> str:
        """`stablehlo.dynamic_update_slice` of arguments."""
        t, u = tensor(self.shape, self.element), tensor(self.update, self.element)
        params, starts, types = start_params(len(self.shape), self.index)
        return f"""func.func @main(%x: {t}, %u: {u}{params}) -> {t} {{
  %0 = stablehlo.dynamic_update_slice %x, %u{starts} : ({t}, {u}{types}) -> {t}
  func.return %0 : {t}
}}"""


def dynamic_slice_reference(
    case: DynamicSlice, x: np.ndarray, starts: list[np.ndarray]
) -> np.ndarray:
    """The window of `case.sizes` at the clamped start indices."""
    clamped = clamp_starts([int(v) for v in starts], case.shape, case.sizes)
    return x[tuple(slice(s, s + k) for s, k in zip(clamped, case.sizes))]


def dynamic_update_slice_reference(
    case: DynamicUpdateSlice,
    x: np.ndarray,
    update: np.ndarray,
    starts: list[np.ndarray],
) -> np.ndarray:
    """A copy of `x` with `update` written at the clamped start indices."""
    clamped = clamp_starts([int(v) for v in starts], case.shape, case.update)
    want = x.copy()
    want[tuple(slice(s, s + k) for s, k in zip(clamped, case.update))] = update
    return want


UPDATES = {
    "square_i32": DynamicUpdateSlice([3, 3], [2, 2]),
    "f32_i64_index": DynamicUpdateSlice([4, 5], [1, 3], "f32", "i64"),
    "i8_rank3": DynamicUpdateSlice([3, 4, 2], [2, 1, 2], "i8", "i8"),
    "ui32_ui32_index": DynamicUpdateSlice([5, 2], [3, 2], "ui32", "ui32"),
    "ui64_ui64_index": DynamicUpdateSlice([6], [2], "ui64", "ui64"),
    "i1": DynamicUpdateSlice([4, 3], [2, 2], "i1", "i16"),
    "whole_f16": DynamicUpdateSlice([2, 3], [2, 3], "f16", "i32"),
    "bf16": DynamicUpdateSlice([5], [3], "bf16", "ui8"),
    "empty_update": DynamicUpdateSlice([3], [0], "i32", "i32"),
}


# ----------------------------------------------------------------------------- map


@dataclass
class Map:
    """A map case: input shape and element types, result element type, the body."""

    shape: list[int]
    elements: list[str]
    result: str
    body: str  # StableHLO ops on %a, %b, %c (rank 0); the last one's result is %r
    reference: Callable[..., Any]  # numpy on the input arrays

    def text(self) -> str:
        """`stablehlo.map` of arguments, in generic syntax."""
        ts = [tensor(self.shape, e) for e in self.elements]
        r = tensor(self.shape, self.result)
        names = ["a", "b", "c"][: len(ts)]
        params = ", ".join(f"%x{k}: {t}" for k, t in enumerate(ts))
        block = ", ".join(
            f"%{n}: {tensor([], e)}" for n, e in zip(names, self.elements)
        )
        args = ", ".join(f"%x{k}" for k in range(len(ts)))
        dims = "".join(f"{': ' if d == 0 else ', '}{d}" for d in range(len(self.shape)))
        return f"""func.func @main({params}) -> {r} {{
  %0 = "stablehlo.map"({args}) ({{
  ^bb0({block}):
{self.body}
    "stablehlo.return"(%r) : ({tensor([], self.result)}) -> ()
  }}) {{dimensions = array<i64{dims}>}} : ({", ".join(ts)}) -> {r}
  func.return %0 : {r}
}}"""


def _square(a: np.ndarray) -> np.ndarray:
    return np.multiply(a, a, dtype=a.dtype)  # wraps, as integer multiply does


def _scaled_maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.maximum(a, b) * np.float32(2.5)


def _wrapped_sum_capped(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    return np.minimum(np.add(a, b, dtype=a.dtype), c)


def _to_f32(a: np.ndarray) -> np.ndarray:
    return a.astype(np.float32)  # exact for i8


def _sevens(a: np.ndarray) -> np.ndarray:
    return np.full(a.shape, 7, np.int32)


def _bf16_sum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a.astype(np.float32) + b.astype(np.float32)).astype(ml_dtypes.bfloat16)


MAPS = {
    "add_f32": Map(
        [3, 4],
        ["f32", "f32"],
        "f32",
        "    %r = stablehlo.add %a, %b : tensor<f32>",
        np.add,
    ),
    "max_f64": Map(
        [2, 2, 3],
        ["f64", "f64"],
        "f64",
        "    %r = stablehlo.maximum %a, %b : tensor<f64>",
        np.maximum,
    ),
    "add_bf16": Map(
        [5],
        ["bf16", "bf16"],
        "bf16",
        "    %r = stablehlo.add %a, %b : tensor<bf16>",
        _bf16_sum,
    ),
    "one_arg_i8_wraps": Map(
        [5],
        ["i8"],
        "i8",
        "    %r = stablehlo.multiply %a, %a : tensor<i8>",
        _square,
    ),
    "compare_to_i1": Map(
        [2, 3],
        ["i32", "i32"],
        "i1",
        "    %r = stablehlo.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>",
        np.greater,
    ),
    "i1_not_equal": Map(
        [4],
        ["i1", "i1"],
        "i1",
        "    %r = stablehlo.compare NE, %a, %b : (tensor<i1>, tensor<i1>) -> tensor<i1>",
        np.not_equal,
    ),
    "select_on_i1": Map(
        [3, 2],
        ["i1", "f32", "f32"],
        "f32",
        '    %r = "stablehlo.select"(%a, %b, %c) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>',
        np.where,
    ),
    "captured_constant_and_max": Map(
        [4, 2],
        ["f32", "f32"],
        "f32",
        "    %c = stablehlo.constant dense<2.5> : tensor<f32>\n"
        "    %m = stablehlo.maximum %a, %b : tensor<f32>\n"
        "    %r = stablehlo.multiply %m, %c : tensor<f32>",
        _scaled_maximum,
    ),
    "constant_result": Map(
        [2, 3],
        ["i32"],
        "i32",
        "    %r = stablehlo.constant dense<7> : tensor<i32>",
        _sevens,
    ),
    "three_inputs_unsigned": Map(
        [6],
        ["ui8", "ui8", "ui8"],
        "ui8",
        "    %s = stablehlo.add %a, %b : tensor<ui8>\n"
        "    %r = stablehlo.minimum %s, %c : tensor<ui8>",
        _wrapped_sum_capped,
    ),
    "convert_i8_to_f32": Map(
        [3, 2],
        ["i8"],
        "f32",
        "    %r = stablehlo.convert %a : (tensor<i8>) -> tensor<f32>",
        _to_f32,
    ),
    "not_elementwise_reshape": Map(
        [2, 3],
        ["f16", "f16"],
        "f16",
        "    %v = stablehlo.reshape %a : (tensor<f16>) -> tensor<1xf16>\n"
        "    %w = stablehlo.reshape %v : (tensor<1xf16>) -> tensor<f16>\n"
        "    %r = stablehlo.add %w, %b : tensor<f16>",
        np.add,
    ),
    "empty": Map(
        [0, 3],
        ["f32", "f32"],
        "f32",
        "    %r = stablehlo.add %a, %b : tensor<f32>",
        np.add,
    ),
    "rank0": Map(
        [],
        ["i64", "i64"],
        "i64",
        "    %r = stablehlo.maximum %a, %b : tensor<i64>",
        np.maximum,
    ),
}


# ------------------------------------------------------------------- dynamic dims

DYNAMIC = {
    # reverse of a static dim of a dynamic tensor: the result's size via tensor.dim
    "reverse": """func.func @main(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = stablehlo.reverse %x, dims = [1] : tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}""",
    # dynamic_slice of a dynamic operand: the start bound is tensor.dim - size
    "dynamic_slice": """func.func @main(%x: tensor<?x4xi32>, %i: tensor<i64>, %j: tensor<i64>) -> tensor<2x3xi32> {
  %0 = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 3] : (tensor<?x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x3xi32>
  func.return %0 : tensor<2x3xi32>
}""",
    # map of a dynamic and a static input (upstream's map_mixed)
    "map": """func.func @main(%x: tensor<?xf32>, %y: tensor<4xf32>) -> tensor<?xf32> {
  %0 = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.subtract %a, %b : tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<?xf32>, tensor<4xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}""",
    # pad of a dynamic operand with negative, positive and interior padding
    "pad": """func.func @main(%x: tensor<?xi8>, %v: tensor<i8>) -> tensor<?xi8> {
  %0 = stablehlo.pad %x, %v, low = [-1], high = [2], interior = [1] : (tensor<?xi8>, tensor<i8>) -> tensor<?xi8>
  func.return %0 : tensor<?xi8>
}""",
    # dynamic_update_slice into a dynamic operand
    "dynamic_update_slice": """func.func @main(%x: tensor<?xf32>, %u: tensor<2xf32>, %i: tensor<i32>) -> tensor<?xf32> {
  %0 = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<?xf32>, tensor<2xf32>, tensor<i32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}""",
}
