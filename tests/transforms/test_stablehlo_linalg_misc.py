"""`stablehlo-legalize-to-linalg` on iota, reverse, pad, dynamic_slice, dynamic_update_slice and map.

Each lowered program (both `enable-primitive-ops` settings) runs in the
interpreter and must equal, bit for bit, a numpy reference written here from
the StableHLO spec (np.arange, np.flip, np.pad with interior padding done by
hand, slices at clamped start indices, the map body's numpy op),
independently of the interpreter and of the lowering. iota also runs as
written and must give the same bits; the interpreter has no rule for
reverse, pad, dynamic_slice, dynamic_update_slice or map, so those are
checked against numpy only. The lowered text must parse and verify in
upstream `mlir-opt` where it is installed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

import xquant
from tests.upstream import mlir_opt

PASS = "stablehlo-legalize-to-linalg"
PASSES = [PASS, f"{PASS}{{enable-primitive-ops=true}}"]

DTYPES: dict[str, Any] = {
    "i1": np.bool_,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "ui8": np.uint8,
    "ui32": np.uint32,
    "ui64": np.uint64,
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "f32": np.float32,
    "f64": np.float64,
    "complex<f32>": np.complex64,
}


def tensor(shape: list[int] | tuple[int, ...], element: str) -> str:
    return f"tensor<{''.join(f'{n}x' for n in shape)}{element}>"


def ints(values: list[int]) -> str:
    return ", ".join(map(str, values))


def random_array(rng: np.random.Generator, shape: list[int], element: str) -> Any:
    dtype = DTYPES[element]
    if element.startswith(("i", "ui")):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, dtype, True)
    return rng.standard_normal(shape).astype(dtype)


def assert_identical(got: Any, want: Any) -> None:
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind in "fc" or want.dtype == ml_dtypes.bfloat16:
        bits = np.dtype(
            f"u{want.dtype.itemsize // (2 if want.dtype.kind == 'c' else 1)}"
        )
        np.testing.assert_array_equal(got.view(bits), want.view(bits))
        return
    np.testing.assert_array_equal(got, want)


def lowered(text: str, pipeline: str) -> ModuleOp:
    return xquant.apply_passes(xquant.parse_module(text), pipeline)


def run_lowered(text: str, pipeline: str, *args: Any) -> np.ndarray:
    """The function lowered (every StableHLO op gone) and run in the interpreter."""
    module = lowered(text, pipeline)
    left = [op.name for op in module.walk() if op.name.startswith("stablehlo.")]
    assert not left, left
    (got,) = xquant.run(module, "main", *args)
    return np.asarray(got)


def run_both(text: str, pipeline: str, *args: Any) -> np.ndarray:
    """The function run as written and lowered: the same bits."""
    got = run_lowered(text, pipeline, *args)
    (want,) = xquant.run(xquant.parse_module(text), "main", *args)
    assert_identical(got, want)
    return got


# ---------------------------------------------------------------------------- iota

IOTAS: list[tuple[list[int], int, str]] = [
    ([7, 10], 1, "f32"),
    ([7, 10], 0, "i32"),
    ([4, 3, 5], 2, "i8"),
    ([200], 0, "i8"),  # wraps, as the spec's conversion of 128..199 to i8
    ([3, 300], 1, "ui8"),
    ([5, 2], 0, "bf16"),
    ([2, 9], 1, "f16"),
    ([6], 0, "f64"),
    ([2, 2], 1, "i1"),
]  # complex<f32> (no interpreter dtype) is checked by upstream's FileCheck case


def iota_text(shape: list[int], dim: int, element: str) -> str:
    t = tensor(shape, element)
    return f"""func.func @main() -> {t} {{
  %0 = stablehlo.iota dim = {dim} : {t}
  func.return %0 : {t}
}}"""


def iota_reference(shape: list[int], dim: int, element: str) -> np.ndarray:
    """`result[i] = i[dim]` converted to the element type (integers wrap modulo 2^N)."""
    line = np.arange(shape[dim], dtype=np.int64)
    view = line.reshape([-1 if d == dim else 1 for d in range(len(shape))])
    return np.broadcast_to(view, shape).astype(DTYPES[element])


@pytest.mark.parametrize("pipeline", PASSES)
@pytest.mark.parametrize(("shape", "dim", "element"), IOTAS)
def test_iota(pipeline: str, shape: list[int], dim: int, element: str) -> None:
    got = run_both(iota_text(shape, dim, element), pipeline)
    assert_identical(got, iota_reference(shape, dim, element))


def test_iota_left_where_the_cast_would_wrap() -> None:
    """An i1 iota of 3 (the index cast keeps the low bit) and an f16 one of 40000
    (past i16) stay StableHLO rather than compute other values."""
    for shape, element in (([3], "i1"), ([40000], "f16")):
        module = lowered(iota_text(shape, 0, element), PASS)
        assert any(op.name == "stablehlo.iota" for op in module.walk())


# ------------------------------------------------------------------------- reverse

REVERSES: list[tuple[list[int], list[int], str]] = [
    ([2, 3], [1], "f32"),
    ([3, 4, 5], [0, 2], "i8"),
    ([4, 1, 3], [0, 1, 2], "i32"),
    ([5], [0], "ui32"),
    ([2, 3], [], "bf16"),
    ([0, 3], [0], "f32"),
]


def reverse_text(shape: list[int], dims: list[int], element: str) -> str:
    t = tensor(shape, element)
    return f"""func.func @main(%x: {t}) -> {t} {{
  %0 = stablehlo.reverse %x, dims = [{ints(dims)}] : {t}
  func.return %0 : {t}
}}"""


@pytest.mark.parametrize("pipeline", PASSES)
@pytest.mark.parametrize(("shape", "dims", "element"), REVERSES)
def test_reverse(
    pipeline: str, shape: list[int], dims: list[int], element: str
) -> None:
    x = random_array(np.random.default_rng(len(shape)), shape, element)
    got = run_lowered(reverse_text(shape, dims, element), pipeline, x)
    assert_identical(got, np.flip(x, axis=tuple(dims)))


# ----------------------------------------------------------------------------- pad


@dataclass
class Pad:
    shape: list[int]
    low: list[int]
    high: list[int]
    interior: list[int]
    element: str = "f32"

    def result_shape(self) -> list[int]:
        return [
            lo + hi + n + max(n - 1, 0) * i
            for n, lo, hi, i in zip(self.shape, self.low, self.high, self.interior)
        ]

    def text(self) -> str:
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
    "interior": Pad([12, 4], [4, 5], [2, 3], [1, 1], "ui32"),
    "interior_negative": Pad([12, 4], [4, -1], [-2, 3], [1, 1], "i32"),
    "negative_edges_only": Pad([5, 6], [-2, 0], [1, -3], [0, 0], "i8"),
    "negative_into_interior": Pad([4, 3], [-1, -2], [-2, 0], [2, 1], "i8"),
    "crop_everything_but_padding": Pad([3], [-3], [2], [0], "f32"),
    "rank3_mixed": Pad([2, 3, 2], [1, 0, -1], [0, 2, 1], [0, 2, 1], "bf16"),
    "zero_padding": Pad([3, 2], [0, 0], [0, 0], [0, 0], "i32"),
    "empty_operand": Pad([0, 2], [1, 0], [2, 1], [3, 0], "f32"),
    "rank0": Pad([], [], [], [], "f32"),
}


@pytest.mark.parametrize("pipeline", PASSES)
@pytest.mark.parametrize("name", sorted(PADS))
def test_pad(pipeline: str, name: str) -> None:
    case = PADS[name]
    rng = np.random.default_rng(len(name))
    x = random_array(rng, case.shape, case.element)
    value = np.asarray(random_array(rng, [], case.element))
    got = run_lowered(case.text(), pipeline, x, value)
    assert_identical(got, pad_reference(case, x, value))


def test_pad_constant_value_is_a_scalar_constant() -> None:
    """A splat constant padding value becomes an `arith.constant` (upstream folds the extract)."""
    text = """func.func @main(%x: tensor<2xi8>) -> tensor<5xi8> {
  %v = stablehlo.constant dense<-7> : tensor<i8>
  %0 = stablehlo.pad %x, %v, low = [1], high = [2], interior = [0] : (tensor<2xi8>, tensor<i8>) -> tensor<5xi8>
  func.return %0 : tensor<5xi8>
}"""
    x = np.array([3, -4], np.int8)
    got = run_lowered(text, PASS, x)
    assert_identical(got, np.array([-7, 3, -4, -7, -7], np.int8))
    module = lowered(text, PASS)
    assert not any(op.name == "tensor.extract" for op in module.walk())


# ---------------------------------------------------------------- dynamic slices

# As unsigned indices, -5 and -1 are 2^N - 5 and 2^N - 1 (for ui64 past 2^63).
STARTS = [-5, -1, 0, 1, 2, 3, 7, 1000]


@dataclass
class DynamicSlice:
    shape: list[int]
    sizes: list[int]
    element: str = "f32"
    index: str = "i64"

    def text(self) -> str:
        t, r, i = (
            tensor(self.shape, self.element),
            tensor(self.sizes, self.element),
            tensor([], self.index),
        )
        params = ", ".join(f"%s{d}: {i}" for d in range(len(self.shape)))
        starts = "".join(f", %s{d}" for d in range(len(self.shape)))
        types = "".join(f", {i}" for _ in self.shape)
        return f"""func.func @main(%x: {t}, {params}) -> {r} {{
  %0 = stablehlo.dynamic_slice %x{starts}, sizes = [{ints(self.sizes)}] : ({t}{types}) -> {r}
  func.return %0 : {r}
}}"""


def clamp_starts(starts: list[int], shape: list[int], sizes: list[int]) -> list[int]:
    """The spec's `clamp(0, start, dim - size)` per dim."""
    return [min(max(s, 0), n - k) for s, n, k in zip(starts, shape, sizes)]


SLICES = {
    "rows_f32": DynamicSlice([3, 4], [1, 4]),
    "block_i8_i32_index": DynamicSlice([5, 6], [2, 3], "i8", "i32"),
    "rank3_i32_i8_index": DynamicSlice([4, 3, 5], [2, 3, 1], "i32", "i8"),
    "ui32_ui64_index": DynamicSlice([4, 4], [3, 2], "ui32", "ui64"),
    "ui8_index": DynamicSlice([6], [2], "i32", "ui8"),
    "whole": DynamicSlice([2, 3], [2, 3], "bf16", "i32"),
}


def index_value(start: int, index: str) -> np.ndarray:
    """`start` in the index type: negative starts of unsigned types wrap to huge ones."""
    return np.asarray(start).astype(DTYPES[index])


@pytest.mark.parametrize("pipeline", PASSES)
@pytest.mark.parametrize("name", sorted(SLICES))
def test_dynamic_slice(pipeline: str, name: str) -> None:
    case = SLICES[name]
    rng = np.random.default_rng(len(name))
    x = random_array(rng, case.shape, case.element)
    for trial in range(4):
        starts = [int(rng.choice(STARTS)) for _ in case.shape]
        if trial == 0:
            starts = [-3] * len(starts)
        values = [index_value(s, case.index) for s in starts]
        got = run_lowered(case.text(), pipeline, x, *values)
        clamped = clamp_starts([int(v) for v in values], case.shape, case.sizes)
        window = tuple(slice(s, s + k) for s, k in zip(clamped, case.sizes))
        assert_identical(got, x[window])


@dataclass
class DynamicUpdateSlice:
    shape: list[int]
    update: list[int]
    element: str = "i32"
    index: str = "i32"

    def text(self) -> str:
        t, u, i = (
            tensor(self.shape, self.element),
            tensor(self.update, self.element),
            tensor([], self.index),
        )
        params = ", ".join(f"%s{d}: {i}" for d in range(len(self.shape)))
        starts = "".join(f", %s{d}" for d in range(len(self.shape)))
        types = "".join(f", {i}" for _ in self.shape)
        return f"""func.func @main(%x: {t}, %u: {u}, {params}) -> {t} {{
  %0 = stablehlo.dynamic_update_slice %x, %u{starts} : ({t}, {u}{types}) -> {t}
  func.return %0 : {t}
}}"""


UPDATES = {
    "square_i32": DynamicUpdateSlice([3, 3], [2, 2]),
    "f32_i64_index": DynamicUpdateSlice([4, 5], [1, 3], "f32", "i64"),
    "i8_rank3": DynamicUpdateSlice([3, 4, 2], [2, 1, 2], "i8", "i8"),
    "ui32_ui32_index": DynamicUpdateSlice([5, 2], [3, 2], "ui32", "ui32"),
    "whole": DynamicUpdateSlice([2, 3], [2, 3], "f16", "i32"),
    "empty_update": DynamicUpdateSlice([3], [0], "i32", "i32"),
}


@pytest.mark.parametrize("pipeline", PASSES)
@pytest.mark.parametrize("name", sorted(UPDATES))
def test_dynamic_update_slice(pipeline: str, name: str) -> None:
    case = UPDATES[name]
    rng = np.random.default_rng(len(name))
    x = random_array(rng, case.shape, case.element)
    update = random_array(rng, case.update, case.element)
    for trial in range(4):
        starts = [int(rng.choice(STARTS)) for _ in case.shape]
        if trial == 0:
            starts = [1000] * len(starts)
        values = [index_value(s, case.index) for s in starts]
        got = run_lowered(case.text(), pipeline, x, update, *values)
        clamped = clamp_starts([int(v) for v in values], case.shape, case.update)
        want = x.copy()
        want[tuple(slice(s, s + k) for s, k in zip(clamped, case.update))] = update
        assert_identical(got, want)


# ----------------------------------------------------------------------------- map


@dataclass
class Map:
    shape: list[int]
    elements: list[str]
    result: str
    body: str  # StableHLO ops on %a, %b (rank-0), the last one's result is %r
    reference: Callable[..., Any]  # numpy on the input arrays

    def text(self) -> str:
        ts = [tensor(self.shape, e) for e in self.elements]
        r = tensor(self.shape, self.result)
        names = ["a", "b", "c"][: len(ts)]
        params = ", ".join(f"%x{k}: {t}" for k, t in enumerate(ts))
        block = ", ".join(
            f"%{n}: {tensor([], e)}" for n, e in zip(names, self.elements)
        )
        args = ", ".join(f"%x{k}" for k in range(len(ts)))
        return f"""func.func @main({params}) -> {r} {{
  %0 = "stablehlo.map"({args}) ({{
  ^bb0({block}):
{self.body}
    "stablehlo.return"(%r) : ({tensor([], self.result)}) -> ()
  }}) {{dimensions = array<i64: {ints(list(range(len(self.shape))))}>}} : ({", ".join(ts)}) -> {r}
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


MAPS = {
    "add_f32": Map(
        [3, 4], ["f32", "f32"], "f32",
        "    %r = stablehlo.add %a, %b : tensor<f32>",
        np.add,
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
    "captured_constant_and_max": Map(
        [4, 2], ["f32", "f32"], "f32",
        "    %c = stablehlo.constant dense<2.5> : tensor<f32>\n"
        "    %m = stablehlo.maximum %a, %b : tensor<f32>\n"
        "    %r = stablehlo.multiply %m, %c : tensor<f32>",
        _scaled_maximum,
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
}  # fmt: skip


@pytest.mark.parametrize("pipeline", PASSES)
@pytest.mark.parametrize("name", sorted(MAPS))
def test_map(pipeline: str, name: str) -> None:
    case = MAPS[name]
    rng = np.random.default_rng(len(name))
    args = [random_array(rng, case.shape, e) for e in case.elements]
    got = run_lowered(case.text(), pipeline, *args)
    assert_identical(got, case.reference(*args))


# ------------------------------------------------------------------ dynamic dims

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
}


@pytest.mark.parametrize("pipeline", PASSES)
def test_dynamic_dims(pipeline: str) -> None:
    rng = np.random.default_rng(7)
    x = random_array(rng, [5, 3], "f32")
    assert_identical(run_lowered(DYNAMIC["reverse"], pipeline, x), x[:, ::-1])
    table = random_array(rng, [6, 4], "i32")
    for i, j in ((-2, 9), (3, 1), (5, -1), (100, 2)):
        got = run_lowered(
            DYNAMIC["dynamic_slice"], pipeline, table, np.asarray(i), np.asarray(j)
        )
        row, column = min(max(i, 0), 6 - 2), min(max(j, 0), 4 - 3)
        assert_identical(got, table[row : row + 2, column : column + 3])
    a, b = random_array(rng, [4], "f32"), random_array(rng, [4], "f32")
    assert_identical(run_lowered(DYNAMIC["map"], pipeline, a, b), a - b)


# ------------------------------------------------------------ left as they are


def test_left_unchanged() -> None:
    """Forms without a lowering here stay StableHLO: a reversed dynamic dim, a
    dynamic pad, a dynamic dynamic_update_slice, a map body op with no scalar form
    (integer power)."""
    texts = [
        """func.func @main(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = stablehlo.reverse %x, dims = [0] : tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}""",
        """func.func @main(%x: tensor<?xf32>, %v: tensor<f32>) -> tensor<?xf32> {
  %0 = stablehlo.pad %x, %v, low = [1], high = [1], interior = [0] : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}""",
        """func.func @main(%x: tensor<?xf32>, %u: tensor<2xf32>, %i: tensor<i32>) -> tensor<?xf32> {
  %0 = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<?xf32>, tensor<2xf32>, tensor<i32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}""",
        """func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<i32>):
    %r = stablehlo.power %a, %a : tensor<i32>
    "stablehlo.return"(%r) : (tensor<i32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}""",
    ]
    kept = [
        "stablehlo.reverse",
        "stablehlo.pad",
        "stablehlo.dynamic_update_slice",
        "stablehlo.map",
    ]
    for text, name in zip(texts, kept, strict=True):
        module = lowered(text, PASS)
        assert name in [op.name for op in module.walk()], text


# ----------------------------------------------------------- upstream validity


def _all_programs() -> list[str]:
    programs = [iota_text(s, d, e) for s, d, e in IOTAS]
    programs.append(iota_text([3, 4], 1, "complex<f32>"))
    programs += [reverse_text(s, d, e) for s, d, e in REVERSES]
    programs += [case.text() for case in PADS.values()]
    programs += [case.text() for case in SLICES.values()]
    programs += [case.text() for case in UPDATES.values()]
    programs += [case.text() for case in MAPS.values()]
    programs += list(DYNAMIC.values())
    return programs


@pytest.mark.parametrize("pipeline", PASSES)
def test_lowered_ir_verifies_upstream(pipeline: str) -> None:
    """Every lowered program above, in one module per program, parses and verifies in mlir-opt."""
    mlir_opt.require_mlir_opt()
    for text in _all_programs():
        module = lowered(text, pipeline)
        mlir_opt.assert_verifies_upstream(xquant.print_module(module))
