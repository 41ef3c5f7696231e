"""`stablehlo-legalize-to-linalg` on `stablehlo.gather`.

Each gather program runs in the interpreter before and after the pass; the
results must be bit-identical (same dtype, shape and bits). Named cases (row
gathers, index_vector_dim at the end, in the middle and implicit, collapsed
and batching dims, out-of-range starts) and random configurations are also
checked against a plain Python loop over the spec's formula, written here
independently of the interpreter. Where `mlir-opt` is installed the lowered
text must parse and verify upstream (`--verify-each`).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp

import xquant
from tests.transforms.stablehlo_data_movement_cases import DTYPES, PASS
from tests.upstream import mlir_opt
from xquant.interpreter.generic import spec_for_generic


@dataclass
class Gather:
    """A gather: operand and indices shapes plus the spec's dimension numbers."""

    operand: list[int]
    indices: list[int]
    slice_sizes: list[int]
    index_vector_dim: int
    offset_dims: list[int] = field(default_factory=list[int])
    collapsed_slice_dims: list[int] = field(default_factory=list[int])
    operand_batching_dims: list[int] = field(default_factory=list[int])
    start_indices_batching_dims: list[int] = field(default_factory=list[int])
    start_index_map: list[int] = field(default_factory=list[int])
    element: str = "f32"
    index_element: str = "i32"
    sorted_indices: bool = False

    def batch_shape(self) -> list[int]:
        return [n for d, n in enumerate(self.indices) if d != self.index_vector_dim]

    def result_shape(self) -> list[int]:
        dropped = {*self.collapsed_slice_dims, *self.operand_batching_dims}
        offsets = iter(s for d, s in enumerate(self.slice_sizes) if d not in dropped)
        batch = iter(self.batch_shape())
        rank = len(self.batch_shape()) + len(self.slice_sizes) - len(dropped)
        return [
            next(offsets) if d in self.offset_dims else next(batch) for d in range(rank)
        ]

    def text(self) -> str:
        def tensor(shape: list[int], element: str) -> str:
            return f"tensor<{''.join(f'{n}x' for n in shape)}{element}>"

        def ints(values: list[int]) -> str:
            return "[" + ", ".join(map(str, values)) + "]"

        operand = tensor(self.operand, self.element)
        indices = tensor(self.indices, self.index_element)
        result = tensor(self.result_shape(), self.element)
        numbers = (
            f"offset_dims = {ints(self.offset_dims)}, "
            f"collapsed_slice_dims = {ints(self.collapsed_slice_dims)}, "
            f"operand_batching_dims = {ints(self.operand_batching_dims)}, "
            f"start_indices_batching_dims = {ints(self.start_indices_batching_dims)}, "
            f"start_index_map = {ints(self.start_index_map)}, "
            f"index_vector_dim = {self.index_vector_dim}"
        )
        sizes = ", ".join(map(str, self.slice_sizes))
        sort = ", indices_are_sorted = true" if self.sorted_indices else ""
        return f"""func.func @main(%x: {operand}, %i: {indices}) -> {result} {{
  %0 = "stablehlo.gather"(%x, %i) <{{dimension_numbers = #stablehlo.gather<{numbers}>{sort}, slice_sizes = array<i64: {sizes}>}}> : ({operand}, {indices}) -> {result}
  func.return %0 : {result}
}}"""

    def arguments(self, seed: int) -> tuple[np.ndarray, np.ndarray]:
        """A random operand, and start indices reaching up to 3 past either end of the operand."""
        rng = np.random.default_rng(seed)
        dtype = DTYPES[self.element]
        if self.element == "i1":
            operand = rng.integers(0, 2, size=self.operand).astype(np.bool_)
        elif self.element.startswith("i"):
            info = np.iinfo(dtype)
            operand = rng.integers(info.min, info.max, self.operand, dtype, True)
        else:
            operand = rng.standard_normal(self.operand).astype(dtype)
        high = max(self.operand, default=1) + 3
        indices = rng.integers(-3, high, size=self.indices)
        return operand, indices.astype(DTYPES[self.index_element])


def reference(case: Gather, operand: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """The spec's gather as a plain loop over every result index."""
    result_shape = case.result_shape()
    rank = len(case.operand)
    vector_dim = case.index_vector_dim
    batch_dims = [d for d in range(len(result_shape)) if d not in case.offset_dims]
    dropped = {*case.collapsed_slice_dims, *case.operand_batching_dims}
    offset_operand_dims = [d for d in range(rank) if d not in dropped]
    result = np.zeros(result_shape, dtype=operand.dtype)
    for result_index in itertools.product(*(range(n) for n in result_shape)):
        batch_index = [result_index[d] for d in batch_dims]
        if vector_dim < len(case.indices):
            at: list[Any] = [*batch_index[:vector_dim], 0, *batch_index[vector_dim:]]
            start_index: list[int] = []
            for k in range(case.indices[vector_dim]):
                at[vector_dim] = k
                start_index.append(int(indices[tuple(at)]))
        else:
            start_index = [int(indices[tuple(batch_index)])]
        full_start = [0] * rank
        for d_start, d_operand in enumerate(case.start_index_map):
            high = case.operand[d_operand] - case.slice_sizes[d_operand]
            full_start[d_operand] = min(max(start_index[d_start], 0), high)
        full_batching = [0] * rank
        for d_operand, d_start in zip(
            case.operand_batching_dims, case.start_indices_batching_dims, strict=True
        ):
            full_batching[d_operand] = batch_index[
                d_start if d_start < vector_dim else d_start - 1
            ]
        full_offset = [0] * rank
        for result_dim, d_operand in zip(
            case.offset_dims, offset_operand_dims, strict=True
        ):
            full_offset[d_operand] = result_index[result_dim]
        operand_index = tuple(
            s + b + o
            for s, b, o in zip(full_start, full_batching, full_offset, strict=True)
        )
        result[result_index] = operand[operand_index]
    return result


NAMED: dict[str, Gather] = {
    # the embedding lookup: rows of a table, index_vector_dim implicit (= rank)
    "embedding_rows": Gather(
        [6, 4],
        [5],
        [1, 4],
        1,
        offset_dims=[1],
        collapsed_slice_dims=[0],
        start_index_map=[0],
    ),
    "embedding_rows_explicit_vector": Gather(
        [6, 4],
        [5, 1],
        [1, 4],
        1,
        offset_dims=[1],
        collapsed_slice_dims=[0],
        start_index_map=[0],
        element="i8",
    ),
    "index_vector_last_permuted_map": Gather(
        [3, 4, 2],
        [2, 3, 2],
        [1, 2, 2],
        2,
        offset_dims=[2, 3],
        collapsed_slice_dims=[0],
        start_index_map=[1, 0],
        element="i8",
        sorted_indices=True,
    ),
    "index_vector_middle": Gather(
        [4, 5],
        [3, 2, 2],
        [1, 1],
        1,
        collapsed_slice_dims=[0, 1],
        start_index_map=[0, 1],
        element="i32",
        index_element="i64",
    ),
    "index_vector_first": Gather(
        [5, 6, 3],
        [2, 3, 2],
        [2, 1, 3],
        0,
        offset_dims=[2, 3],
        collapsed_slice_dims=[1],
        start_index_map=[1, 0],
        element="bf16",
        index_element="i8",
    ),
    "offset_dims_between_batch_dims": Gather(
        [10, 10, 10],
        [2, 2, 1],
        [10, 1, 10],
        2,
        offset_dims=[0, 3],
        collapsed_slice_dims=[1],
        start_index_map=[1],
        element="f16",
    ),
    "slice_not_collapsed": Gather(
        [7, 5],
        [3, 1],
        [3, 2],
        1,
        offset_dims=[1, 2],
        start_index_map=[0],
        element="f64",
        index_element="i16",
    ),
    "whole_dim_start_ignored": Gather(
        [1, 2],
        [1, 2],
        [1, 1],
        1,
        collapsed_slice_dims=[0, 1],
        start_index_map=[0, 1],
        element="i8",
    ),
    "rank0_indices": Gather(
        [5, 3],
        [],
        [1, 3],
        0,
        offset_dims=[0],
        collapsed_slice_dims=[0],
        start_index_map=[0],
    ),
    "batching_dims": Gather(
        [2, 5, 3],
        [2, 4, 1],
        [1, 1, 3],
        2,
        offset_dims=[2],
        collapsed_slice_dims=[1],
        operand_batching_dims=[0],
        start_indices_batching_dims=[0],
        start_index_map=[1],
    ),
    "batching_dims_after_vector": Gather(
        [4, 3, 6],
        [2, 3, 4],
        [2, 1, 1],
        0,
        offset_dims=[2],
        collapsed_slice_dims=[2],
        operand_batching_dims=[1],
        start_indices_batching_dims=[1],
        start_index_map=[2, 0],
        element="i1",
        index_element="i64",
    ),
    "bool_elements": Gather(
        [6, 4],
        [3],
        [2, 1],
        1,
        offset_dims=[0],
        collapsed_slice_dims=[1],
        start_index_map=[1],
        element="i1",
    ),
}


def _subset(rnd: random.Random, items: list[int], low: int, high: int) -> list[int]:
    count = rnd.randint(low, min(high, len(items)))
    return sorted(rnd.sample(items, count))


def _random_case(seed: int) -> Gather:
    """A random valid gather with a result of rank >= 1 (rank 0: `test_rank0_result`)."""
    rnd = random.Random(seed)
    while not (case := _random_attempt(rnd)).result_shape():
        pass
    return case


def _random_attempt(rnd: random.Random) -> Gather:
    rank = rnd.randint(1, 4)
    operand = [rnd.randint(1, 5) for _ in range(rank)]
    dims = list(range(rank))
    batching = _subset(rnd, dims, 0, 1 if rank > 1 else 0)
    free = [d for d in dims if d not in batching]
    start_index_map = rnd.sample(free, rnd.randint(1, len(free)))
    collapsed = _subset(rnd, free, 0, len(free))
    slice_sizes = [
        1 if d in batching or d in collapsed else rnd.randint(1, operand[d])
        for d in dims
    ]
    n_batch = rnd.randint(len(batching), len(batching) + 2)
    batch_shape = [rnd.randint(1, 3) for _ in range(n_batch)]
    batch_positions = rnd.sample(range(n_batch), len(batching))
    for d_operand, position in zip(batching, batch_positions, strict=True):
        batch_shape[position] = operand[d_operand]
    vector_dim = rnd.randint(0, n_batch)
    vector = len(start_index_map)
    if vector_dim == n_batch and vector == 1 and rnd.random() < 0.5:
        indices = batch_shape  # implicit trailing vector of one
    else:
        indices = [*batch_shape[:vector_dim], vector, *batch_shape[vector_dim:]]
    start_batching = [p if p < vector_dim else p + 1 for p in batch_positions]
    n_offset = rank - len(batching) - len(collapsed)
    offset_dims = sorted(rnd.sample(range(n_batch + n_offset), n_offset))
    return Gather(
        operand,
        indices,
        slice_sizes,
        vector_dim,
        offset_dims=offset_dims,
        collapsed_slice_dims=collapsed,
        operand_batching_dims=batching,
        start_indices_batching_dims=start_batching,
        start_index_map=start_index_map,
        element=rnd.choice(["i8", "i32", "f32", "bf16", "i1", "f64"]),
        index_element=rnd.choice(["i8", "i32", "i64"]),
    )


CASES: dict[str, Gather] = {
    **NAMED,
    **{f"random_{seed}": _random_case(seed) for seed in range(60)},
}


def _lowered(case: Gather) -> ModuleOp:
    return xquant.apply_passes(xquant.parse_module(case.text()), PASS)


def _assert_identical(got: Any, want: np.ndarray) -> None:
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind == "f" or want.dtype == ml_dtypes.bfloat16:
        bits = np.dtype(f"u{want.dtype.itemsize}")
        np.testing.assert_array_equal(got.view(bits), want.view(bits))
        return
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", sorted(CASES))
def test_lowered_matches_interpreter(name: str) -> None:
    case = CASES[name]
    lowered = _lowered(case)
    assert not any(op.name.startswith("stablehlo.") for op in lowered.walk())
    args = case.arguments(seed=len(name))
    (want,) = xquant.run(xquant.parse_module(case.text()), "main", *args)
    (got,) = xquant.run(lowered, "main", *args)
    _assert_identical(got, np.asarray(want))


@pytest.mark.parametrize("name", sorted(CASES))
def test_spec_loop_golden(name: str) -> None:
    """The interpreter, before and after lowering, against a plain loop over the spec formula."""
    case = CASES[name]
    args = case.arguments(seed=7)
    golden = reference(case, *args)
    for module in (xquant.parse_module(case.text()), _lowered(case)):
        (got,) = xquant.run(module, "main", *args)
        _assert_identical(got, golden)


def test_small_golden_values() -> None:
    """Hand-checkable numbers: rows of a 4x2 table, with starts below 0 and past the end clamped."""
    case = Gather(
        [4, 2],
        [5],
        [1, 2],
        1,
        offset_dims=[1],
        collapsed_slice_dims=[0],
        start_index_map=[0],
        element="i32",
    )
    table = np.array([[10, 11], [20, 21], [30, 31], [40, 41]], np.int32)
    ids = np.array([2, -7, 3, 9, 0], np.int32)
    golden = np.array([[30, 31], [10, 11], [40, 41], [40, 41], [10, 11]], np.int32)
    np.testing.assert_array_equal(reference(case, table, ids), golden)
    for module in (xquant.parse_module(case.text()), _lowered(case)):
        (got,) = xquant.run(module, "main", table, ids)
        _assert_identical(got, golden)


def test_slice_start_clamped_to_fit() -> None:
    """A 2x2 window starting at (3, -1) of a 4x3 operand starts at (2, 0), the last fitting row."""
    case = Gather(
        [4, 3],
        [1, 2],
        [2, 2],
        1,
        offset_dims=[1, 2],
        start_index_map=[0, 1],
    )
    operand = np.arange(12, dtype=np.float32).reshape(4, 3)
    starts = np.array([[3, -1]], np.int32)
    golden = np.array([[[6.0, 7.0], [9.0, 10.0]]], np.float32)
    np.testing.assert_array_equal(reference(case, operand, starts), golden)
    (got,) = xquant.run(_lowered(case), "main", operand, starts)
    _assert_identical(got, golden)


RANK0 = Gather(
    [5, 4, 4, 5],
    [2],
    [1, 1, 1, 1],
    0,
    collapsed_slice_dims=[0, 1, 2, 3],
    start_index_map=[3, 2],
    element="i1",
    index_element="i64",
)


def test_rank0_result() -> None:
    """A gather of one element into a rank-0 result: shape () before and after lowering."""
    args = RANK0.arguments(seed=3)
    golden = reference(RANK0, *args)
    assert golden.shape == ()
    for module in (xquant.parse_module(RANK0.text()), _lowered(RANK0)):
        (got,) = xquant.run(module, "main", *args)
        _assert_identical(got, golden)


def test_large_gather_runs_vectorized() -> None:
    """The lowered generic (linalg.index + tensor.extract body) takes the interpreter's
    vectorized path, not the per-element loop; a 1024x1024-element gather stays fast."""
    case = Gather(
        [2048, 1024],
        [1024],
        [1, 1024],
        1,
        offset_dims=[1],
        collapsed_slice_dims=[0],
        start_index_map=[0],
    )
    lowered = _lowered(case)
    (generic,) = [op for op in lowered.walk() if isinstance(op, GenericOp)]
    spec = spec_for_generic(generic)
    assert spec.vectorizable and spec.outputs_ok
    args = case.arguments(seed=1)
    (got,) = xquant.run(lowered, "main", *args)
    (want,) = xquant.run(xquant.parse_module(case.text()), "main", *args)
    _assert_identical(got, np.asarray(want))


# Unsigned and dynamic gathers lower as upstream's (test_stablehlo_linalg_dot_gather_parity.py).
UNCHANGED = {
    "quantized": """func.func @main(%x: tensor<4x2x!quant.uniform<i8:f32, 0.5>>, %i: tensor<3x1xi32>) -> tensor<3x2x!quant.uniform<i8:f32, 0.5>> {
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>}> : (tensor<4x2x!quant.uniform<i8:f32, 0.5>>, tensor<3x1xi32>) -> tensor<3x2x!quant.uniform<i8:f32, 0.5>>
  func.return %0 : tensor<3x2x!quant.uniform<i8:f32, 0.5>>
}""",
}


@pytest.mark.parametrize("name", sorted(UNCHANGED))
def test_unsupported_gathers_stay(name: str) -> None:
    lowered = xquant.apply_passes(xquant.parse_module(UNCHANGED[name]), PASS)
    assert any(op.name == "stablehlo.gather" for op in lowered.walk())


@pytest.mark.parametrize("name", sorted(CASES))
def test_lowered_text_verifies_upstream(name: str) -> None:
    mlir_opt.assert_verifies_upstream(str(_lowered(CASES[name])))
