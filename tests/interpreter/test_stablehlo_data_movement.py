"""The interpreter on stablehlo.reverse, pad, dynamic_slice, dynamic_update_slice and map.

Each result must equal, bit for bit, a numpy reference written here from the
StableHLO spec (np.flip; np.pad with interior padding inserted by hand and
negative edges cropped; slices at `clamp(0, start, dim - size)`; the map
body's numpy op), and, where `stablehlo-legalize-to-linalg` lowers the
program, the lowered program run in the interpreter (differential check).
Bad values that the verifier cannot see (runtime sizes of dynamic dims) must
be located diagnostics.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import xquant
from xquant.interpreter import stablehlo_data_movement
from xquant.interpreter.errors import OpInterpretationError

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
    """Same dtype, shape and bits."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype.kind == "f" or want.dtype == ml_dtypes.bfloat16:
        bits = np.dtype(f"u{want.dtype.itemsize}")
        np.testing.assert_array_equal(got.view(bits), want.view(bits))
        return
    np.testing.assert_array_equal(got, want)


def run_checked(text: str, *args: Any) -> np.ndarray:
    """Run `text` as written; where the pass lowers every StableHLO op, the lowered
    program must give the same bits."""
    (got,) = xquant.run(xquant.parse_module(text), "main", *args)
    for pipeline in PASSES:
        module = xquant.apply_passes(xquant.parse_module(text), pipeline)
        if any(op.name.startswith("stablehlo.") for op in module.walk()):
            continue
        (lowered,) = xquant.run(module, "main", *args)
        assert_identical(got, lowered)
    return np.asarray(got)


def is_lowered(text: str) -> bool:
    """The pass leaves no StableHLO op."""
    module = xquant.apply_passes(xquant.parse_module(text), PASS)
    return not any(op.name.startswith("stablehlo.") for op in module.walk())


# ------------------------------------------------------------------------- reverse

REVERSES: list[tuple[list[int], list[int], str]] = [
    ([2, 3], [1], "f32"),
    ([3, 4, 5], [0, 2], "i8"),
    ([4, 1, 3], [0, 1, 2], "i32"),
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


@pytest.mark.parametrize(("shape", "dims", "element"), REVERSES)
def test_reverse(shape: list[int], dims: list[int], element: str) -> None:
    x = np.asarray(random_array(np.random.default_rng(len(shape)), shape, element))
    got = run_checked(reverse_text(shape, dims, element), x)
    assert_identical(got, np.flip(x, axis=tuple(dims)))


def test_reverse_is_lowered() -> None:
    """The differential half of the check is not vacuous."""
    assert is_lowered(reverse_text([2, 3], [1], "f32"))


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
    """Interior padding by strided assignment, then np.pad for the positive edges and
    slicing for the negative ones."""
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


@pytest.mark.parametrize("name", sorted(PADS))
def test_pad(name: str) -> None:
    case = PADS[name]
    rng = np.random.default_rng(len(name))
    x = np.asarray(random_array(rng, case.shape, case.element))
    value = np.asarray(random_array(rng, [], case.element))
    got = run_checked(case.text(), x, value)
    assert_identical(got, pad_reference(case, x, value))


def test_pad_is_lowered() -> None:
    assert is_lowered(PADS["interior_negative_i32"].text())


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
    "i1_ui8_index": DynamicSlice([6, 2], [2, 1], "i1", "ui8"),
    "f16_ui16_index": DynamicSlice([5], [2], "f16", "ui16"),
    "whole_bf16": DynamicSlice([2, 3], [2, 3], "bf16", "i32"),
    "zero_size": DynamicSlice([4, 3], [0, 2], "f64", "i64"),
    "rank0": DynamicSlice([], [], "i32", "i32"),
}


@pytest.mark.parametrize("name", sorted(SLICES))
def test_dynamic_slice(name: str) -> None:
    case = SLICES[name]
    rng = np.random.default_rng(len(name))
    x = np.asarray(random_array(rng, case.shape, case.element))
    trials = [[-3] * len(case.shape), [2**63 + 5] * len(case.shape)]
    trials += [[int(rng.choice(STARTS)) for _ in case.shape] for _ in range(4)]
    for starts in trials:
        values = [index_value(s, case.index) for s in starts]
        got = run_checked(case.text(), x, *values)
        clamped = clamp_starts([int(v) for v in values], case.shape, case.sizes)
        window = tuple(slice(s, s + k) for s, k in zip(clamped, case.sizes))
        assert_identical(got, x[window])


def test_dynamic_slice_ui64_start_past_2_63() -> None:
    """2^63 + 5 as a ui64 start is huge, not negative: clamped to dim - size."""
    case = SLICES["ui64_ui64_index"]
    x = np.arange(7, dtype=np.uint64)
    got = run_checked(case.text(), x, np.asarray(2**63 + 5, np.uint64))
    assert_identical(got, x[4:7])


def test_dynamic_slice_is_lowered() -> None:
    assert is_lowered(SLICES["block_i8_i32_index"].text())


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


@pytest.mark.parametrize("name", sorted(UPDATES))
def test_dynamic_update_slice(name: str) -> None:
    case = UPDATES[name]
    rng = np.random.default_rng(len(name))
    x = np.asarray(random_array(rng, case.shape, case.element))
    update = np.asarray(random_array(rng, case.update, case.element))
    trials = [[1000] * len(case.shape), [-2] * len(case.shape)]
    trials += [[int(rng.choice(STARTS)) for _ in case.shape] for _ in range(4)]
    for starts in trials:
        values = [index_value(s, case.index) for s in starts]
        got = run_checked(case.text(), x, update, *values)
        clamped = clamp_starts([int(v) for v in values], case.shape, case.update)
        want = x.copy()
        want[tuple(slice(s, s + k) for s, k in zip(clamped, case.update))] = update
        assert_identical(got, want)


def test_dynamic_update_slice_is_lowered() -> None:
    assert is_lowered(UPDATES["square_i32"].text())


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
        [3, 4], ["f32", "f32"], "f32",
        "    %r = stablehlo.add %a, %b : tensor<f32>",
        np.add,
    ),
    "max_f64": Map(
        [2, 2, 3], ["f64", "f64"], "f64",
        "    %r = stablehlo.maximum %a, %b : tensor<f64>",
        np.maximum,
    ),
    "add_bf16": Map(
        [5], ["bf16", "bf16"], "bf16",
        "    %r = stablehlo.add %a, %b : tensor<bf16>",
        _bf16_sum,
    ),
    "one_arg_i8_wraps": Map(
        [5], ["i8"], "i8",
        "    %r = stablehlo.multiply %a, %a : tensor<i8>",
        _square,
    ),
    "compare_to_i1": Map(
        [2, 3], ["i32", "i32"], "i1",
        "    %r = stablehlo.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>",
        np.greater,
    ),
    "i1_not_equal": Map(
        [4], ["i1", "i1"], "i1",
        "    %r = stablehlo.compare NE, %a, %b : (tensor<i1>, tensor<i1>) -> tensor<i1>",
        np.not_equal,
    ),
    "select_on_i1": Map(
        [3, 2], ["i1", "f32", "f32"], "f32",
        '    %r = "stablehlo.select"(%a, %b, %c) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>',
        np.where,
    ),
    "captured_constant_and_max": Map(
        [4, 2], ["f32", "f32"], "f32",
        "    %c = stablehlo.constant dense<2.5> : tensor<f32>\n"
        "    %m = stablehlo.maximum %a, %b : tensor<f32>\n"
        "    %r = stablehlo.multiply %m, %c : tensor<f32>",
        _scaled_maximum,
    ),
    "constant_result": Map(
        [2, 3], ["i32"], "i32",
        "    %r = stablehlo.constant dense<7> : tensor<i32>",
        _sevens,
    ),
    "three_inputs_unsigned": Map(
        [6], ["ui8", "ui8", "ui8"], "ui8",
        "    %s = stablehlo.add %a, %b : tensor<ui8>\n"
        "    %r = stablehlo.minimum %s, %c : tensor<ui8>",
        _wrapped_sum_capped,
    ),
    "convert_i8_to_f32": Map(
        [3, 2], ["i8"], "f32",
        "    %r = stablehlo.convert %a : (tensor<i8>) -> tensor<f32>",
        _to_f32,
    ),
    "not_elementwise_reshape": Map(
        [2, 3], ["f16", "f16"], "f16",
        "    %v = stablehlo.reshape %a : (tensor<f16>) -> tensor<1xf16>\n"
        "    %w = stablehlo.reshape %v : (tensor<1xf16>) -> tensor<f16>\n"
        "    %r = stablehlo.add %w, %b : tensor<f16>",
        np.add,
    ),
    "empty": Map(
        [0, 3], ["f32", "f32"], "f32",
        "    %r = stablehlo.add %a, %b : tensor<f32>",
        np.add,
    ),
    "rank0": Map(
        [], ["i64", "i64"], "i64",
        "    %r = stablehlo.maximum %a, %b : tensor<i64>",
        np.maximum,
    ),
}  # fmt: skip


def map_args(name: str) -> list[np.ndarray]:
    """Random inputs of a map case."""
    case = MAPS[name]
    rng = np.random.default_rng(len(name))
    return [np.asarray(random_array(rng, case.shape, e)) for e in case.elements]


@pytest.mark.parametrize("name", sorted(MAPS))
def test_map(name: str) -> None:
    case = MAPS[name]
    args = map_args(name)
    got = run_checked(case.text(), *args)
    assert_identical(got, np.asarray(case.reference(*args)))


@pytest.mark.parametrize("name", sorted(MAPS))
def test_map_per_element_fallback(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Forced to run the body once per element, map gives the same bits."""
    monkeypatch.setattr(stablehlo_data_movement, "is_elementwise_body", _never)
    case = MAPS[name]
    args = map_args(name)
    (got,) = xquant.run(case.text(), "main", *args)
    assert_identical(got, np.asarray(case.reference(*args)))


def _never(*_: Any) -> bool:
    return False


def test_map_vectorizes_only_elementwise_bodies() -> None:
    """A body with a reshape to rank 1 runs per element; add/max bodies run vectorized."""
    from xquant.dialects.stablehlo.control_flow import MapOp

    for name, vectorized in (("add_f32", True), ("not_elementwise_reshape", False)):
        module = xquant.parse_module(MAPS[name].text())
        (op,) = [op for op in module.walk() if isinstance(op, MapOp)]
        assert stablehlo_data_movement.is_elementwise_body(op.computation) is vectorized


def test_map_is_lowered() -> None:
    assert is_lowered(MAPS["add_f32"].text())


def test_map_signed_zeros_agree_with_the_lowering() -> None:
    """IEEE-754 maximum/minimum order -0 below +0; map runs its body's own ops, so it
    agrees with the lowered `arith.maximumf`/`minimumf` exactly when they do."""
    case = Map(
        [2],
        ["f32", "f32"],
        "f32",
        MAPS["max_f64"].body.replace("f64", "f32"),
        np.maximum,
    )
    a = np.array([-0.0, 0.0], np.float32)
    b = np.array([0.0, -0.0], np.float32)
    got = run_checked(case.text(), a, b)
    assert_identical(got, np.zeros(2, np.float32))


# ------------------------------------------------------------------- dynamic dims

DYNAMIC = {
    "reverse": """func.func @main(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = stablehlo.reverse %x, dims = [1] : tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}""",
    "dynamic_slice": """func.func @main(%x: tensor<?x4xi32>, %i: tensor<i64>, %j: tensor<i64>) -> tensor<2x3xi32> {
  %0 = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 3] : (tensor<?x4xi32>, tensor<i64>, tensor<i64>) -> tensor<2x3xi32>
  func.return %0 : tensor<2x3xi32>
}""",
    "map": """func.func @main(%x: tensor<?xf32>, %y: tensor<4xf32>) -> tensor<?xf32> {
  %0 = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.subtract %a, %b : tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<?xf32>, tensor<4xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}""",
    "pad": """func.func @main(%x: tensor<?xi8>, %v: tensor<i8>) -> tensor<?xi8> {
  %0 = stablehlo.pad %x, %v, low = [-1], high = [2], interior = [1] : (tensor<?xi8>, tensor<i8>) -> tensor<?xi8>
  func.return %0 : tensor<?xi8>
}""",
    "dynamic_update_slice": """func.func @main(%x: tensor<?xf32>, %u: tensor<2xf32>, %i: tensor<i32>) -> tensor<?xf32> {
  %0 = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<?xf32>, tensor<2xf32>, tensor<i32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}""",
}


def test_dynamic_dims() -> None:
    """Runtime sizes of dynamic dims, against numpy and (where lowered) the lowering."""
    rng = np.random.default_rng(7)
    x = np.asarray(random_array(rng, [5, 3], "f32"))
    assert_identical(run_checked(DYNAMIC["reverse"], x), x[:, ::-1])
    table = np.asarray(random_array(rng, [6, 4], "i32"))
    for i, j in ((-2, 9), (3, 1), (5, -1), (100, 2)):
        starts = np.asarray(i), np.asarray(j)
        got = run_checked(DYNAMIC["dynamic_slice"], table, *starts)
        row, column = min(max(i, 0), 6 - 2), min(max(j, 0), 4 - 3)
        assert_identical(got, table[row : row + 2, column : column + 3])
    a, b = (np.asarray(random_array(rng, [4], "f32")) for _ in range(2))
    assert_identical(run_checked(DYNAMIC["map"], a, b), a - b)
    small = np.array([1, 2, 3], np.int8)
    got = run_checked(DYNAMIC["pad"], small, np.asarray(np.int8(-9)))
    assert_identical(got, np.array([-9, 2, -9, 3, -9, -9], np.int8))
    update = np.array([7.0, 8.0], np.float32)
    got = run_checked(
        DYNAMIC["dynamic_update_slice"], x[:, 0].copy(), update, np.asarray(np.int32(9))
    )
    want = x[:, 0].copy()
    want[3:5] = update
    assert_identical(got, want)


# ----------------------------------------------------------------------- quantized

Q = "!quant.uniform<i8:f32, 5.000000e-01:3>"


def test_quantized_data_movement_moves_storage() -> None:
    """With one quantized type throughout, every op moves the storage integers."""
    t4, t6, t2, s = (tensor([n], Q) for n in (4, 6, 2, 0))
    s = tensor([], Q)
    text = f"""func.func @main(%x: {t4}, %v: {s}, %u: {t2}, %i: tensor<i32>) -> ({t4}, {t6}, {t2}, {t4}) {{
  %0 = stablehlo.reverse %x, dims = [0] : {t4}
  %1 = stablehlo.pad %x, %v, low = [1], high = [-2], interior = [1] : ({t4}, {s}) -> {t6}
  %2 = stablehlo.dynamic_slice %x, %i, sizes = [2] : ({t4}, tensor<i32>) -> {t2}
  %3 = stablehlo.dynamic_update_slice %x, %u, %i : ({t4}, {t2}, tensor<i32>) -> {t4}
  func.return %0, %1, %2, %3 : {t4}, {t6}, {t2}, {t4}
}}"""
    x = np.array([-128, 5, 0, 127], np.int8)
    v, u, i = np.asarray(np.int8(9)), np.array([1, 2], np.int8), np.asarray(3, np.int32)
    got = xquant.run(text, "main", x, v, u, i)
    want = [
        x[::-1],
        np.array([9, -128, 9, 5, 9, 0], np.int8),
        x[2:4],
        np.array([-128, 5, 1, 2], np.int8),
    ]
    for g, w in zip(got, want, strict=True):
        assert_identical(g, w)


def test_quantized_map_runs_its_body() -> None:
    """A quantized map gives what its body op gives on the whole tensors."""
    t = tensor([5], Q)
    s = tensor([], Q)
    text = f"""func.func @main(%x: {t}, %y: {t}) -> ({t}, {t}) {{
  %0 = "stablehlo.map"(%x, %y) ({{
  ^bb0(%a: {s}, %b: {s}):
    %r = stablehlo.add %a, %b : {s}
    "stablehlo.return"(%r) : ({s}) -> ()
  }}) {{dimensions = array<i64: 0>}} : ({t}, {t}) -> {t}
  %1 = stablehlo.add %x, %y : {t}
  func.return %0, %1 : {t}, {t}
}}"""
    x = np.array([-128, 5, 0, 127, 60], np.int8)
    y = np.array([3, 3, -50, 127, 70], np.int8)
    mapped, added = xquant.run(text, "main", x, y)
    assert_identical(mapped, added)


# ---------------------------------------------------------------------- bad values

BAD = {
    "dynamic_slice_size_past_runtime_dim": (
        """func.func @main(%x: tensor<?xf32>, %s: tensor<i32>) -> tensor<3xf32> {
  %0 = stablehlo.dynamic_slice %x, %s, sizes = [3] : (tensor<?xf32>, tensor<i32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}""",
        [np.zeros(2, np.float32), np.asarray(0, np.int32)],
        "'stablehlo.dynamic_slice' op: size 3 exceeds the runtime size 2",
    ),
    "dynamic_update_slice_update_past_runtime_dim": (
        """func.func @main(%x: tensor<?xi8>, %u: tensor<?xi8>, %s: tensor<i32>) -> tensor<?xi8> {
  %0 = stablehlo.dynamic_update_slice %x, %u, %s : (tensor<?xi8>, tensor<?xi8>, tensor<i32>) -> tensor<?xi8>
  func.return %0 : tensor<?xi8>
}""",
        [np.zeros(2, np.int8), np.zeros(3, np.int8), np.asarray(0, np.int32)],
        "'stablehlo.dynamic_update_slice' op: size 3 exceeds the runtime size 2",
    ),
    "pad_negative_runtime_size": (
        """func.func @main(%x: tensor<?xf32>, %v: tensor<f32>) -> tensor<?xf32> {
  %0 = stablehlo.pad %x, %v, low = [-3], high = [0], interior = [0] : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}""",
        [np.zeros(2, np.float32), np.asarray(0, np.float32)],
        "'stablehlo.pad' op: padding gives a negative result size [-1]",
    ),
    "map_runtime_shapes_differ": (
        """func.func @main(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %0 = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}""",
        [np.zeros(2, np.float32), np.zeros(3, np.float32)],
        "'stablehlo.map' op: input #1 has runtime shape [3], input #0 has [2]",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_values_are_located_diagnostics(name: str) -> None:
    text, args, message = BAD[name]
    with pytest.raises(OpInterpretationError) as info:
        xquant.run(text, "main", *args)
    assert str(info.value).startswith("<string>:2:"), str(info.value)
    assert message in str(info.value)
