"""dot/dot_general and gather forms lowered as upstream's linalg tests expect them
(named contractions, unsigned operands, dynamic shapes): the interpreter gives the
same numbers before and after stablehlo-legalize-to-linalg, and both equal a numpy
reference written from the StableHLO spec.

Integer and unsigned dots are exact (sums wrap modulo 2**32 in any order), so the
reference is numpy's int64 product wrapped to the result width.
"""

from __future__ import annotations

import numpy as np
import pytest

import xquant
from xquant.interpreter.runner import run

PASS = "stablehlo-legalize-to-linalg"
RNG = np.random.default_rng(16)


def _both(
    text: str, *args: np.ndarray, before_runs: bool = True
) -> tuple[np.ndarray | None, np.ndarray, str]:
    # before_runs=False where the interpreter cannot run the StableHLO op (see callers).
    (before,) = run(text, "main", *args) if before_runs else (None,)
    lowered = str(xquant.apply_passes(xquant.parse_module(text), PASS))
    assert "stablehlo." not in lowered.replace("stablehlo.dot_algorithm", "")
    (after,) = run(lowered, "main", *args)
    return None if before is None else np.asarray(before), np.asarray(after), lowered


def _wrap(x: np.ndarray, dt: type) -> np.ndarray:
    return x.astype(np.int64).astype(dt)


DOTS = {
    # name: (lhs shape, rhs shape, the op, the linalg op it lowers to)
    "matvec": (
        (5, 7),
        (7,),
        "stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]",
        "linalg.matvec",
    ),
    "vecmat": (
        (7,),
        (7, 4),
        "stablehlo.dot_general %a, %b, contracting_dims = [0] x [0]",
        "linalg.vecmat",
    ),
    "dot": (
        (7,),
        (7,),
        "stablehlo.dot_general %a, %b, contracting_dims = [0] x [0]",
        "linalg.dot",
    ),
    "batch_matmul": (
        (3, 5, 7),
        (3, 7, 4),
        "stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1]",
        "linalg.batch_matmul",
    ),
}


def _type(shape: tuple[int, ...], elem: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


@pytest.mark.parametrize("name", sorted(DOTS))
@pytest.mark.parametrize(("elem", "dt"), [("i32", np.int32), ("ui32", np.uint32)])
def test_named_dot_same_numbers(name: str, elem: str, dt: type) -> None:
    lhs_shape, rhs_shape, op, linalg_op = DOTS[name]
    a = RNG.integers(-(2**31), 2**31, lhs_shape).astype(dt)
    b = RNG.integers(-(2**31), 2**31, rhs_shape).astype(dt)
    ref = np.einsum(
        {
            "matvec": "mk,k->m",
            "vecmat": "k,kn->n",
            "dot": "k,k->",
            "batch_matmul": "bmk,bkn->bmn",
        }[name],
        a.astype(np.int64).astype(object),
        b.astype(np.int64).astype(object),
    )
    want = np.vectorize(lambda v: int(v) % 2**32)(np.asarray(ref, dtype=object))
    want = want.astype(np.uint64).astype(np.uint32).view(np.int32).astype(dt)
    out_shape = np.shape(ref)
    text = f"""func.func @main(%a: {_type(lhs_shape, elem)}, %b: {_type(rhs_shape, elem)}) -> {_type(out_shape, elem)} {{
  %0 = {op} : ({_type(lhs_shape, elem)}, {_type(rhs_shape, elem)}) -> {_type(out_shape, elem)}
  func.return %0 : {_type(out_shape, elem)}
}}"""
    # The interpreter's dot_general fails on a rank-0 result: after lowering only.
    before, after, lowered = _both(text, a, b, before_runs=name != "dot")
    assert linalg_op + " " in lowered
    if before is not None:
        np.testing.assert_array_equal(before, want)
    np.testing.assert_array_equal(after, want)


def _gather_ref(x: np.ndarray, ids: np.ndarray, rows: int) -> np.ndarray:
    """Row gather (slice 1 x all columns), starts clamped to [0, rows - 1] (spec)."""
    starts = np.clip(ids.astype(np.int64).reshape(-1), 0, rows - 1)
    return x[starts]


@pytest.mark.parametrize(
    ("table", "ids_type", "ids"),
    [
        (
            "tensor<4x2xf32>",
            "tensor<3x1xui32>",
            np.array([[1], [3000000000], [2]], np.uint32),
        ),
        ("tensor<4x2xui8>", "tensor<3x1xi32>", np.array([[1], [-5], [9]], np.int32)),
        (
            "tensor<4x2xf32>",
            "tensor<?x1xi32>",
            np.array([[3], [0], [2], [7]], np.int32),
        ),
    ],
    ids=["unsigned_indices", "unsigned_elements", "dynamic_indices"],
)
def test_gather_same_numbers(table: str, ids_type: str, ids: np.ndarray) -> None:
    unsigned = "ui8" in table
    x = (
        RNG.integers(0, 256, (4, 2)).astype(np.uint8)
        if unsigned
        else RNG.standard_normal((4, 2)).astype(np.float32)
    )
    rows = "?" if "?" in ids_type else str(len(ids))
    result = table.replace("4x2", f"{rows}x2")
    text = f"""func.func @main(%x: {table}, %i: {ids_type}) -> {result} {{
  %0 = "stablehlo.gather"(%x, %i) <{{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>}}> : ({table}, {ids_type}) -> {result}
  func.return %0 : {result}
}}"""
    # The interpreter's stablehlo.gather needs a static result: after lowering only.
    before, after, lowered = _both(text, x, ids, before_runs="?" not in ids_type)
    want = _gather_ref(x, ids, 4)
    if before is not None:
        np.testing.assert_array_equal(before, want)
    np.testing.assert_array_equal(after, want)
    if "ui32" in ids_type:
        assert "arith.index_castui" in lowered


FLOAT_DOTS = {
    # name: (lhs shape, rhs shape, the op, the einsum of the reference)
    "matmul": ((16, 300), (300, 8), "contracting_dims = [1] x [0]", "mk,kn->mn"),
    "matvec": ((5, 40), (40,), "contracting_dims = [1] x [0]", "mk,k->m"),
    "batch_matmul": (
        (3, 5, 40),
        (3, 40, 4),
        "batching_dims = [0] x [0], contracting_dims = [2] x [1]",
        "bmk,bkn->bmn",
    ),
    # Two contracting dims and a transposed rhs: a linalg.generic.
    "generic": (
        (6, 5, 7),
        (4, 7, 5),
        "contracting_dims = [1, 2] x [2, 1]",
        "mjk,nkj->mn",
    ),
}


def _loop_order_reference(a: np.ndarray, b: np.ndarray, spec: str) -> np.ndarray:
    """The scalar loop `acc = acc + a * b` over the contracting indices in lhs order,
    one element at a time (independent of the interpreter), in the element type,
    or for types narrower than f32 in f32 rounded once at the end (XLA's rule)."""
    inputs, out = spec.split("->")
    left, right = inputs.split(",")
    contracting = [c for c in left if c in right and c not in out]
    sizes = {c: n for s, x in ((left, a), (right, b)) for c, n in zip(s, x.shape)}
    result = np.zeros([sizes[c] for c in out], dtype=a.dtype)
    wide = np.float32 if a.dtype.itemsize < 4 else a.dtype.type
    for index in np.ndindex(*result.shape):
        named = dict(zip(out, index, strict=True))
        acc = wide(0)
        for k in np.ndindex(*[sizes[c] for c in contracting]):
            named.update(zip(contracting, k, strict=True))
            acc = wide(
                acc
                + wide(a[tuple(named[c] for c in left)])
                * wide(b[tuple(named[c] for c in right)])
            )
        result[index] = acc
    return result


@pytest.mark.parametrize("name", sorted(FLOAT_DOTS))
@pytest.mark.parametrize(("elem", "dt"), [("f32", np.float32), ("f16", np.float16)])
def test_float_dot_bit_identical_before_and_after(
    name: str, elem: str, dt: type
) -> None:
    """The lowering sums f32 in f32 in loop order, f16 in f32 rounded once (XLA's
    rule, `WidenDotGeneral`); the interpreter's dot_general does the same, so the
    bits agree (f64 sums would differ in up to 110 of 128 elements of the
    16x300x8 case)."""
    lhs_shape, rhs_shape, dims, spec = FLOAT_DOTS[name]
    a = RNG.standard_normal(lhs_shape).astype(dt)
    b = RNG.standard_normal(rhs_shape).astype(dt)
    want = _loop_order_reference(a, b, spec)
    out_shape = want.shape
    text = f"""func.func @main(%a: {_type(lhs_shape, elem)}, %b: {_type(rhs_shape, elem)}) -> {_type(out_shape, elem)} {{
  %0 = stablehlo.dot_general %a, %b, {dims} : ({_type(lhs_shape, elem)}, {_type(rhs_shape, elem)}) -> {_type(out_shape, elem)}
  func.return %0 : {_type(out_shape, elem)}
}}"""
    before, after, _ = _both(text, a, b)
    assert before is not None
    bits = np.uint16 if dt is np.float16 else np.uint32
    np.testing.assert_array_equal(before.view(bits), want.view(bits))
    np.testing.assert_array_equal(after.view(bits), want.view(bits))
