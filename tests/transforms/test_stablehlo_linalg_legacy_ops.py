"""`stablehlo-legalize-to-linalg` on broadcast, torch_index_select and concatenate.

Each program runs as written and lowered (both `enable-primitive-ops`
settings, no StableHLO op left); both must equal, bit for bit, a numpy
reference written from the ops' definitions (`np.broadcast_to` over new
leading dims; `operand[b..., index[b..., i...], ...]` by explicit loops;
`np.concatenate`), independently of the interpreter and of the lowering.
Dynamic shapes (`?`) take the argument's shape. The verifiers and the
interpreter's out-of-range index error are checked too.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import numpy as np
import pytest
from xdsl.utils.exceptions import DiagnosticException

import xquant
from tests.transforms import stablehlo_data_movement_cases as cases

RNG = np.random.default_rng(31)


def _values(shape: tuple[int, ...], element: str) -> np.ndarray:
    dtype = cases.DTYPES[element]
    if element == "i1":
        return RNG.integers(0, 2, shape).astype(dtype)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return RNG.integers(info.min, info.max, shape, endpoint=True).astype(dtype)
    return RNG.standard_normal(shape).astype(dtype)


def _type(shape: tuple[int, ...], element: str, dynamic: bool = False) -> str:
    return cases.tensor(["?" if dynamic else n for n in shape], element)  # pyright: ignore[reportArgumentType]


def _run_all(text: str, *args: Any) -> list[np.ndarray]:
    """As written, then lowered under each pass setting (no StableHLO op left)."""
    (written,) = xquant.run(xquant.parse_module(text), "main", *args)
    results = [np.asarray(written)]
    for pipeline in cases.PASSES:
        module = xquant.apply_passes(xquant.parse_module(text), pipeline)
        left = [op.name for op in module.walk() if op.name.startswith("stablehlo.")]
        assert not left, (pipeline, left)
        (got,) = xquant.run(module, "main", *args)
        results.append(np.asarray(got))
    return results


# ------------------------------------------------------------------------ broadcast

BROADCASTS = [
    ((), [4, 2, 1], "f32", False),
    ((3,), [2], "i8", False),
    ((4, 5, 3), [4, 2, 1], "f32", True),
    ((2, 3), [3], "ui8", False),
    ((2,), [2, 3], "i1", False),
    ((2, 1), [], "bf16", False),
]


@pytest.mark.parametrize(("shape", "sizes", "element", "dynamic"), BROADCASTS)
def test_broadcast(
    shape: tuple[int, ...], sizes: list[int], element: str, dynamic: bool
) -> None:
    result_shape = (*sizes, *shape)
    operand_t = _type(shape, element, dynamic)
    result_t = cases.tensor(
        [*sizes, *(["?"] * len(shape) if dynamic else shape)],  # pyright: ignore[reportArgumentType]
        element,
    )
    text = f"""func.func @main(%x: {operand_t}) -> {result_t} {{
  %0 = stablehlo.broadcast %x, sizes = {sizes} : ({operand_t}) -> {result_t}
  func.return %0 : {result_t}
}}"""
    x = _values(shape, element)
    want = np.broadcast_to(x, result_shape)
    for got in _run_all(text, x):
        cases.assert_identical(got, want)


def test_broadcast_verifier() -> None:
    for sizes, result, message in (
        ([-1], "tensor<1x3xf32>", "Broadcast with negative dimension size -1"),
        (
            [2],
            "tensor<3x3xf32>",
            "inferred type(s) 'tensor<2x3xf32>' are incompatible",
        ),
    ):
        text = f"""func.func @main(%x: tensor<3xf32>) -> {result} {{
  %0 = stablehlo.broadcast %x, sizes = {sizes} : (tensor<3xf32>) -> {result}
  func.return %0 : {result}
}}"""
        with pytest.raises(DiagnosticException, match=re.escape(message)):
            xquant.parse_module(text).verify()


# ----------------------------------------------------------------- torch_index_select


def _index_select_reference(
    operand: np.ndarray, index: np.ndarray, dim: int, batch: int
) -> np.ndarray:
    lead, tail = operand.shape[:dim], operand.shape[dim + 1 :]
    picked = index.shape[batch:]
    out = np.empty((*lead, *picked, *tail), operand.dtype)
    for b in itertools.product(*(range(n) for n in lead)):
        for p in itertools.product(*(range(n) for n in picked)):
            at = int(index[(*b[:batch], *p)])
            out[(*b, *p)] = operand[(*b, at)]
    return out


SELECTS = [
    ((5, 1, 5), (2,), 0, 0, "i32", False),
    ((5, 1, 5), (2,), 0, 0, "ui32", False),
    ((4, 8), (), 0, 0, "f32", False),
    ((4, 7, 8, 2), (4, 1), 2, 1, "f32", False),
    ((4, 7, 8, 2), (4, 3), 2, 1, "f32", True),
    ((3, 6), (2, 2), 1, 0, "i8", False),
    ((3, 6), (3, 4), -1, -1, "bf16", False),
]


@pytest.mark.parametrize(
    ("shape", "index_shape", "dim", "batch", "element", "dynamic"), SELECTS
)
def test_torch_index_select(
    shape: tuple[int, ...],
    index_shape: tuple[int, ...],
    dim: int,
    batch: int,
    element: str,
    dynamic: bool,
) -> None:
    axis = dim % len(shape)
    batch_dims = batch % len(index_shape) if index_shape else batch
    operand = _values(shape, element)
    index = RNG.integers(0, shape[axis], index_shape).astype(np.int32)
    want = _index_select_reference(operand, index, axis, batch_dims)
    operand_t = _type(shape, element, dynamic)
    index_t = _type(index_shape, "i32", dynamic)
    result_t = _type(want.shape, element, dynamic)
    text = f"""func.func @main(%x: {operand_t}, %i: {index_t}) -> {result_t} {{
  %0 = "stablehlo.torch_index_select"(%x, %i) {{dim = {dim} : i64, batch_dims = {batch} : i64}} : ({operand_t}, {index_t}) -> {result_t}
  func.return %0 : {result_t}
}}"""
    for got in _run_all(text, operand, index):
        cases.assert_identical(got, want)


def test_torch_index_select_out_of_range_is_an_error() -> None:
    text = """func.func @main(%x: tensor<3xf32>, %i: tensor<1xi32>) -> tensor<1xf32> {
  %0 = "stablehlo.torch_index_select"(%x, %i) {dim = 0 : i64, batch_dims = 0 : i64} : (tensor<3xf32>, tensor<1xi32>) -> tensor<1xf32>
  func.return %0 : tensor<1xf32>
}"""
    x = np.zeros(3, np.float32)
    with pytest.raises(DiagnosticException, match=r"index out of range \[0, 3\)"):
        xquant.run(xquant.parse_module(text), "main", x, np.array([3], np.int32))


# ---------------------------------------------------------------------- concatenate

CONCATS = [
    ([(2, 3), (2, 1), (2, 4)], 1, "i32", True),
    ([(2, 3), (2, 1)], 1, "f32", False),
    ([(1, 3), (4, 3), (2, 3)], 0, "ui8", False),
    ([(3,), (2,)], 0, "i1", False),
    ([(2, 2, 2), (2, 1, 2)], 1, "bf16", True),
]


@pytest.mark.parametrize(("shapes", "dim", "element", "dynamic"), CONCATS)
def test_concatenate(
    shapes: list[tuple[int, ...]], dim: int, element: str, dynamic: bool
) -> None:
    values = [_values(s, element) for s in shapes]
    want = np.concatenate(values, axis=dim)
    types = [_type(s, element, dynamic) for s in shapes]
    result_t = _type(want.shape, element, dynamic)
    params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
    names = ", ".join(f"%a{i}" for i in range(len(types)))
    text = f"""func.func @main({params}) -> {result_t} {{
  %0 = stablehlo.concatenate {names}, dim = {dim} : ({", ".join(types)}) -> {result_t}
  func.return %0 : {result_t}
}}"""
    for got in _run_all(text, *values):
        cases.assert_identical(got, want)


# ------------------------------------------------- dynamic_iota, real_dynamic_slice,
# ------------------------------------------------- set_dimension_size

DYNAMIC_IOTAS = [
    ([3, 5, 8], 1, "f32", "?x?x8"),
    ([3, 5, 8], 1, "ui32", "?x?x8"),
    ([4, 6], 0, "i8", "4x?"),
    ([300], 0, "ui8", "?"),  # wraps, as the spec's conversion of 256..299 to ui8
    ([7, 2], 0, "f16", "7x2"),  # a static iota dim: the exact-size check applies
]


@pytest.mark.parametrize(("shape", "dim", "element", "spelled"), DYNAMIC_IOTAS)
def test_dynamic_iota(shape: list[int], dim: int, element: str, spelled: str) -> None:
    result_t = f"tensor<{spelled}x{element}>"
    n = len(shape)
    text = f"""func.func @main(%s: tensor<{n}xi32>) -> {result_t} {{
  %0 = stablehlo.dynamic_iota %s, dim = {dim} : (tensor<{n}xi32>) -> {result_t}
  func.return %0 : {result_t}
}}"""
    line = np.arange(shape[dim]).reshape([-1 if d == dim else 1 for d in range(n)])
    want = np.broadcast_to(line, shape).astype(cases.DTYPES[element])
    for got in _run_all(text, np.array(shape, np.int32)):
        cases.assert_identical(got, want)


def test_dynamic_iota_verifier() -> None:
    text = """func.func @main() -> tensor<2x3xf32> {
  %s = stablehlo.constant dense<[2, 4]> : tensor<2xi64>
  %0 = stablehlo.dynamic_iota %s, dim = 0 : (tensor<2xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}"""
    with pytest.raises(
        DiagnosticException,
        match=re.escape(
            "output shape [2, 4] is incompatible with return type of operation "
            "'tensor<2x3xf32>'"
        ),
    ):
        xquant.parse_module(text).verify()


REAL_SLICES = [
    ((256, 9), "256x?", [0, 1], [256, 9], [1, 3], "index"),
    ((10,), "?", [2], [9], [2], "i32"),
    ((6, 5), "?x?", [1, 0], [6, 5], [2, 1], "i64"),
    ((4, 4), "2x2", [0, 1], [4, 4], [2, 2], "ui32"),
]


@pytest.mark.parametrize(
    ("shape", "spelled", "start", "limit", "strides", "index"), REAL_SLICES
)
def test_real_dynamic_slice(
    shape: tuple[int, ...],
    spelled: str,
    start: list[int],
    limit: list[int],
    strides: list[int],
    index: str,
) -> None:
    operand = _values(shape, "f32")
    want = operand[
        tuple(slice(a, b, c) for a, b, c in zip(start, limit, strides, strict=True))
    ]
    n = len(shape)
    operand_t = cases.tensor(list(shape), "f32")
    index_t = f"tensor<{n}x{index}>"
    result_t = f"tensor<{spelled}xf32>"
    text = f"""func.func @main(%x: {operand_t}, %a: {index_t}, %b: {index_t}, %c: {index_t}) -> {result_t} {{
  %0 = stablehlo.real_dynamic_slice %x, %a, %b, %c : ({operand_t}, {index_t}, {index_t}, {index_t}) -> {result_t}
  func.return %0 : {result_t}
}}"""
    dtype = {"index": np.int64, "i32": np.int32, "i64": np.int64, "ui32": np.uint32}
    bounds = [np.array(v, dtype[index]) for v in (start, limit, strides)]
    for got in _run_all(text, operand, *bounds):
        cases.assert_identical(got, want)


def test_real_dynamic_slice_out_of_range_is_an_error() -> None:
    text = """func.func @main(%x: tensor<4xf32>, %a: tensor<1xi32>, %b: tensor<1xi32>, %c: tensor<1xi32>) -> tensor<?xf32> {
  %0 = stablehlo.real_dynamic_slice %x, %a, %b, %c : (tensor<4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}"""
    one = np.array([1], np.int32)
    with pytest.raises(DiagnosticException, match="do not slice a dimension of size 4"):
        xquant.run(
            xquant.parse_module(text),
            "main",
            np.zeros(4, np.float32),
            one,
            np.array([5], np.int32),
            one,
        )


@pytest.mark.parametrize("size", [0, 1, 2])
def test_set_dimension_size(size: int) -> None:
    t = "tensor<2x?xf32, #stablehlo.type_extensions<bounds = [?, 2]>>"
    text = f"""func.func @main(%x: {t}, %n: tensor<i32>) -> {t} {{
  %0 = stablehlo.set_dimension_size %x, %n, dim = 1 : ({t}, tensor<i32>) -> {t}
  func.return %0 : {t}
}}"""
    operand = _values((2, 2), "f32")
    for got in _run_all(text, operand, np.array(size, np.int32)):
        cases.assert_identical(got, operand[:, :size])


def test_set_dimension_size_verifier() -> None:
    text = """func.func @main(%x: tensor<2x3xf32>, %n: tensor<i32>) -> tensor<2x?xf32> {
  %0 = stablehlo.set_dimension_size %x, %n, dim = 2 : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x?xf32>
  func.return %0 : tensor<2x?xf32>
}"""
    with pytest.raises(
        DiagnosticException,
        match=re.escape("expects dimension to be in range [0, 2); got: [2]."),
    ):
        xquant.parse_module(text).verify()
