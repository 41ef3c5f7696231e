"""StableHLO interpreter: while, case, sort, scatter, composite.

`sort` runs its comparator once on all pairs of a row (arrays of shape
`[..., n, n]`), and places each element after the ones it compares greater
than, ties in input order: a stable sort for any strict weak order, and O(n^2)
comparisons per row (long rows fall back to a merge sort, one comparator run
per comparison). `scatter` applies `update_computation` in the order of the
updates' indices (row-major), vectorized over updates that hit distinct
elements: the k-th update of every target element runs in round k.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)

from xquant.dialects.stablehlo import control_flow as cf
from xquant.dialects.stablehlo import misc
from xquant.interpreter.stablehlo.values import as_array, as_result


def _scalar_bool(value: Any) -> bool:
    return bool(np.asarray(value).reshape(()))


PAIRWISE_LIMIT = 1 << 22
"""Rows x n x n comparisons above which `sort` compares in chunks of rows, and rows
of more than sqrt(PAIRWISE_LIMIT) elements with a merge sort calling the comparator
per pair."""


def sort_permutation(
    interpreter: Interpreter, op: cf.SortOp, rows: Sequence[np.ndarray]
) -> np.ndarray:
    """For arrays whose last axis is sorted: the source index of each position."""
    n = rows[0].shape[-1]
    if n * n > PAIRWISE_LIMIT:
        return _merge_sort_permutation(interpreter, op, rows)
    count = int(np.prod(rows[0].shape[:-1]))
    chunk = max(1, PAIRWISE_LIMIT // (n * n))
    if count > chunk:
        flat = [r.reshape(-1, n) for r in rows]
        parts = [
            _pairwise_permutation(interpreter, op, [f[i : i + chunk] for f in flat])
            for i in range(0, count, chunk)
        ]
        return np.concatenate(parts).reshape(rows[0].shape)
    return _pairwise_permutation(interpreter, op, rows)


def _merge_sort_permutation(
    interpreter: Interpreter, op: cf.SortOp, rows: Sequence[np.ndarray]
) -> np.ndarray:
    """A stable merge sort per row, the comparator run on one pair at a time."""
    n = rows[0].shape[-1]
    flat = [r.reshape(-1, n) for r in rows]
    result = np.empty(flat[0].shape, np.int64)
    for row in range(flat[0].shape[0]):

        def less(i: int, j: int, row: int = row) -> bool:
            args: list[np.ndarray] = []
            for f in flat:
                args.extend((f[row, i], f[row, j]))
            (value,) = interpreter.run_ssacfg_region(
                op.comparator, tuple(args), op.name
            )
            return _scalar_bool(value)

        order = list(range(n))
        width = 1
        while width < n:  # bottom-up: takes from the right only when strictly less
            merged: list[int] = []
            for start in range(0, n, 2 * width):
                left = order[start : start + width]
                right = order[start + width : start + 2 * width]
                a = b = 0
                while a < len(left) and b < len(right):
                    if less(right[b], left[a]):
                        merged.append(right[b])
                        b += 1
                    else:
                        merged.append(left[a])
                        a += 1
                merged += left[a:] + right[b:]
            order = merged
            width *= 2
        result[row] = order
    return result.reshape(rows[0].shape)


def _pairwise_permutation(
    interpreter: Interpreter, op: cf.SortOp, rows: Sequence[np.ndarray]
) -> np.ndarray:
    n = rows[0].shape[-1]
    args: list[np.ndarray] = []
    for row in rows:
        lhs = np.broadcast_to(row[..., :, None], (*row.shape, n))
        rhs = np.broadcast_to(row[..., None, :], (*row.shape, n))
        args.extend((lhs, rhs))
    (less,) = interpreter.run_ssacfg_region(op.comparator, tuple(args), op.name)
    less = np.broadcast_to(np.asarray(less, dtype=bool), (*rows[0].shape, n))
    # before[..., j, i]: element j goes before element i.
    before = less | (~less & ~np.swapaxes(less, -1, -2) & np.tri(n, k=-1, dtype=bool).T)
    position = before.sum(axis=-2)  # per i: how many go before it
    permutation = np.empty_like(position)
    sources: np.ndarray = np.broadcast_to(np.arange(n, dtype=np.int64), position.shape)
    np.put_along_axis(permutation, position, sources, axis=-1)
    return permutation


def _scatter_indices(
    op: cf.ScatterOp,
    operand_shape: tuple[int, ...],
    indices: np.ndarray,
    update_shape: tuple[int, ...],
) -> tuple[np.ndarray, np.ndarray]:
    """Per update element (row-major): the flat result index, and whether it is in bounds."""
    dims = op.scatter_dimension_numbers.lists()
    window_dims = list(dims["update_window_dims"])
    inserted = list(dims["inserted_window_dims"])
    input_batching = list(dims["input_batching_dims"])
    indices_batching = list(dims["scatter_indices_batching_dims"])
    to_operand = list(dims["scatter_dims_to_operand_dims"])
    index_vector_dim = op.scatter_dimension_numbers.index_vector_dim_attr.data
    rank = len(operand_shape)
    grid = np.indices(update_shape).reshape(len(update_shape), -1)  # [rank_u, N]
    scatter_dims = [d for d in range(len(update_shape)) if d not in window_dims]
    scatter_index = grid[scatter_dims]  # [rank_s, N]
    if index_vector_dim == indices.ndim:
        indices = indices[..., None]
    moved = np.moveaxis(indices, index_vector_dim, -1).astype(np.int64)
    start = moved[tuple(scatter_index)]  # [N, index_vector]
    full = np.zeros((rank, grid.shape[1]), np.int64)
    for d_start, d_input in enumerate(to_operand):
        full[d_input] += start[:, d_start]
    for d_input, d_start in zip(input_batching, indices_batching, strict=True):
        position = d_start if d_start < index_vector_dim else d_start - 1
        full[d_input] += scatter_index[position]
    window_positions = [
        d for d in range(rank) if d not in inserted and d not in input_batching
    ]
    for window_dim, d_input in zip(window_dims, window_positions, strict=True):
        full[d_input] += grid[window_dim]
    shape = np.array(operand_shape, np.int64)[:, None]
    valid = np.all((full >= 0) & (full < shape), axis=0)
    flat = np.ravel_multi_index(tuple(np.where(valid, full, 0)), operand_shape)
    return np.asarray(flat), np.asarray(valid)


@register_impls
class ControlFlowFunctions(InterpreterFunctions):
    """while, case, sort, scatter, composite."""

    @impl(cf.WhileOp)
    def run_while(
        self, interpreter: Interpreter, op: cf.WhileOp, args: PythonValues
    ) -> PythonValues:
        values = tuple(args)
        while _scalar_bool(
            interpreter.run_ssacfg_region(op.cond, values, "stablehlo.while.cond")[0]
        ):
            values = tuple(
                interpreter.run_ssacfg_region(op.body, values, "stablehlo.while.body")
            )
        return values

    @impl(cf.CaseOp)
    def run_case(
        self, interpreter: Interpreter, op: cf.CaseOp, args: PythonValues
    ) -> PythonValues:
        count = len(op.branches)
        index = int(np.asarray(args[0]).reshape(()))
        if not 0 <= index < count:
            index = count - 1  # out of range runs the last branch (the spec)
        return tuple(
            interpreter.run_ssacfg_region(op.branches[index], (), "stablehlo.case")
        )

    @impl(misc.CompositeOp)
    def run_composite(
        self, interpreter: Interpreter, op: misc.CompositeOp, args: PythonValues
    ) -> PythonValues:
        return tuple(interpreter.call_op(op.decomposition, args))

    @impl(cf.SortOp)
    def run_sort(
        self, interpreter: Interpreter, op: cf.SortOp, args: PythonValues
    ) -> PythonValues:
        arrays = [as_array(a, t) for a, t in zip(args, op.operand_types, strict=True)]
        rank = arrays[0].ndim
        dim = op.dimension.value.data if op.dimension is not None else -1
        dim = dim % rank if rank else 0
        if rank == 0 or arrays[0].shape[dim] <= 1:
            return tuple(a.copy() for a in arrays)
        rows = [np.moveaxis(a, dim, -1) for a in arrays]
        permutation = sort_permutation(interpreter, op, rows)
        return tuple(
            as_result(
                np.moveaxis(np.take_along_axis(row, permutation, axis=-1), -1, dim),
                t,
            )
            for row, t in zip(rows, op.result_types, strict=True)
        )

    @impl(cf.ScatterOp)
    def run_scatter(
        self, interpreter: Interpreter, op: cf.ScatterOp, args: PythonValues
    ) -> PythonValues:
        count = len(op.inputs)
        inputs = [
            as_array(a, t).copy()
            for a, t in zip(args[:count], op.inputs.types, strict=True)
        ]
        indices = np.asarray(args[count])
        updates = [
            as_array(a, t).reshape(-1)
            for a, t in zip(args[count + 1 :], op.updates.types, strict=True)
        ]
        update_shape = np.asarray(args[count + 1]).shape
        flat, valid = _scatter_indices(op, inputs[0].shape, indices, update_shape)
        order = np.flatnonzero(valid)
        targets = flat[order]
        # The occurrence number of each update among those hitting its target.
        by_target = np.argsort(targets, kind="stable")
        sorted_targets = targets[by_target]
        starts = np.r_[0, np.flatnonzero(np.diff(sorted_targets)) + 1]
        group_start = np.repeat(starts, np.diff(np.r_[starts, len(sorted_targets)]))
        occurrence = np.empty_like(by_target)
        occurrence[by_target] = np.arange(len(by_target)) - group_start
        results = [a.reshape(-1) for a in inputs]
        for round_ in range(int(occurrence.max()) + 1 if len(occurrence) else 0):
            chosen = order[occurrence == round_]
            where = flat[chosen]
            current = [r[where] for r in results]
            new = interpreter.run_ssacfg_region(
                op.update_computation,
                (*current, *(u[chosen] for u in updates)),
                op.name,
            )
            for r, value in zip(results, new, strict=True):
                r[where] = np.broadcast_to(np.asarray(value), where.shape)
        return tuple(
            as_result(r.reshape(a.shape), t)
            for r, a, t in zip(results, inputs, op.result_types, strict=True)
        )


FUNCTIONS: list[InterpreterFunctions] = [ControlFlowFunctions()]
