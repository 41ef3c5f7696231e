"""Vectorized numpy kernels for StableHLO's data-movement and contraction ops.

Pure functions on numpy arrays, following the spec's formulas (docs/spec.md
"gather", "dot_general", "convolution", "reduce_window"). They know nothing
about quantization: the interpreter dequantizes before and quantizes after,
and tests use them as independent references.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from xquant.numerics.values import integer_matmul, reassociates_fp_reductions


def gather(
    operand: np.ndarray,
    start_indices: np.ndarray,
    *,
    offset_dims: Sequence[int],
    collapsed_slice_dims: Sequence[int],
    operand_batching_dims: Sequence[int],
    start_indices_batching_dims: Sequence[int],
    start_index_map: Sequence[int],
    index_vector_dim: int,
    slice_sizes: Sequence[int],
    result_shape: Sequence[int],
) -> np.ndarray:
    """The spec's gather, for every result index at once (one fancy-indexing read)."""
    result_shape = tuple(result_shape)
    indices = np.asarray(start_indices).astype(np.int64)
    if index_vector_dim == indices.ndim:
        indices = indices[..., None]
    indices = np.moveaxis(indices, index_vector_dim, -1)
    grid = (
        np.indices(result_shape, dtype=np.int64)
        if result_shape
        else np.zeros((0,), np.int64)
    )
    batch_dims = [d for d in range(len(result_shape)) if d not in offset_dims]
    batch_index = tuple(grid[d] for d in batch_dims)
    starts = (
        indices[batch_index]
        if batch_index
        else np.broadcast_to(indices, (*result_shape, indices.shape[-1]))
    )
    operand_index = [np.zeros(result_shape, np.int64) for _ in range(operand.ndim)]
    for k, dim in enumerate(start_index_map):
        operand_index[dim] = operand_index[dim] + np.clip(
            starts[..., k], 0, operand.shape[dim] - slice_sizes[dim]
        )
    for operand_dim, indices_dim in zip(
        operand_batching_dims, start_indices_batching_dims, strict=True
    ):
        position = indices_dim if indices_dim < index_vector_dim else indices_dim - 1
        operand_index[operand_dim] = (
            operand_index[operand_dim] + grid[batch_dims[position]]
        )
    dropped = set(collapsed_slice_dims) | set(operand_batching_dims)
    offset_operand_dims = [d for d in range(operand.ndim) if d not in dropped]
    for result_dim, operand_dim in zip(offset_dims, offset_operand_dims, strict=True):
        operand_index[operand_dim] = operand_index[operand_dim] + grid[result_dim]
    return operand[tuple(operand_index)]


def dot_general(
    lhs: np.ndarray,
    rhs: np.ndarray,
    lhs_batching: Sequence[int],
    rhs_batching: Sequence[int],
    lhs_contracting: Sequence[int],
    rhs_contracting: Sequence[int],
    accumulator: np.dtype | type = np.float64,
) -> np.ndarray:
    """Result dims: batch, lhs free, rhs free; sums in `accumulator` (returned in that dtype).

    Integers sum exactly (then wrap); floats sum in `accumulator` in loop order
    over the contracting dims (in `lhs_contracting` order), one rounding per
    multiply and per add, as the `linalg.matmul`/`linalg.generic` that
    `stablehlo-legalize-to-linalg` emits does (and StableHLO's reference
    interpreter), so results are the same before and after that pass."""
    lhs_free = [
        d for d in range(lhs.ndim) if d not in (*lhs_batching, *lhs_contracting)
    ]
    rhs_free = [
        d for d in range(rhs.ndim) if d not in (*rhs_batching, *rhs_contracting)
    ]
    batch_shape = [lhs.shape[d] for d in lhs_batching]
    lhs_free_shape = [lhs.shape[d] for d in lhs_free]
    rhs_free_shape = [rhs.shape[d] for d in rhs_free]
    contract = math.prod(lhs.shape[d] for d in lhs_contracting)
    batch = math.prod(batch_shape)
    acc = np.dtype(accumulator)
    # Views where the order allows (a 2-D lhs/rhs in (M, K)/(K, N) order is not copied).
    left = np.transpose(lhs, [*lhs_batching, *lhs_free, *lhs_contracting])
    right = np.transpose(rhs, [*rhs_batching, *rhs_contracting, *rhs_free])
    left = left.astype(acc, copy=False).reshape(
        batch, math.prod(lhs_free_shape), contract
    )
    right = right.astype(acc, copy=False).reshape(
        batch, contract, math.prod(rhs_free_shape)
    )
    if acc.kind in "iu":
        product = integer_matmul(left, right)
    elif reassociates_fp_reductions() and acc in _BLAS_DTYPES:
        # Any order: BLAS, one call per batch (numpy's matmul loop), as
        # `float_matmul` does for one matrix; C-contiguous operands, as there.
        product = np.matmul(np.ascontiguousarray(left), np.ascontiguousarray(right))
        np.add(product, np.zeros((), acc), out=product)
    else:
        product = loop_order_batch_matmul(left, right)
    return product.reshape(*batch_shape, *lhs_free_shape, *rhs_free_shape)


_BLAS_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64))


def loop_order_batch_matmul(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """`left @ right` for (B, M, K) x (B, K, N) floats summed from 0 as the loop does:
    `acc = acc + left[b, m, k] * right[b, k, n]` for k = 0, 1, ..., one rounding per
    multiply and per add (`numerics.values.loop_order_matmul`, every batch at once).

    Vectorized over (b, m, n): two numpy passes over the accumulator per k, into
    a reused buffer. The rows go in panels, each summed over all k while it
    stays in cache (about 20% faster than whole once the accumulator outgrows
    the L2 cache). Every element is still its own k-ordered sum, so the bits do
    not depend on the panels.
    """
    batch, m, k_size = left.shape
    n = right.shape[2]
    acc = np.zeros((batch, m, n), left.dtype)
    if k_size == 0 or acc.size == 0:
        return acc
    # columns[k] is left[:, :, k] as B x M x 1; rows[k] is right[:, k, :] as B x 1 x N.
    columns = np.ascontiguousarray(np.moveaxis(left, 2, 0))[..., None]
    rows = np.ascontiguousarray(np.moveaxis(right, 1, 0))[:, :, None, :]
    panel = max(1, min(m, _PANEL_ELEMENTS // (batch * n)))
    product = np.empty((batch, panel, n), acc.dtype)
    with np.errstate():  # restores the buffer size set below
        if n >= _UNBUFFERED_ROW:
            np.setbufsize(min(n, _NUMPY_BUFSIZE))
        for start in range(0, m, panel):
            stop = min(m, start + panel)
            part = acc[:, start:stop]
            out = product[:, : stop - start]
            for k in range(k_size):
                np.multiply(columns[k, :, start:stop], rows[k], out=out)
                np.add(part, out, out=part)
    return acc


# Accumulator elements per panel of `loop_order_batch_matmul`: accumulator and
# product buffer (f32) in about 512 KiB, well inside a 1-2 MiB L2 cache.
_PANEL_ELEMENTS = 1 << 16
# numpy copies broadcast operands through its ufunc buffer (8192 elements) when
# a row is shorter than it: the column-times-row product of 2048-element rows
# ran at a third of the speed of a plain multiply. A buffer no longer than the
# row lets numpy run on the operands in place (3.3x faster from 512-element
# rows on; shorter rows are faster with the default).
_UNBUFFERED_ROW = 512
_NUMPY_BUFSIZE = 8192


def pad_dilate(
    x: np.ndarray,
    padding: Sequence[tuple[int, int]],
    interior: Sequence[int],
    value: np.ndarray | float,
) -> np.ndarray:
    """Insert `interior` copies of `value` between elements, then pad (negative padding crops)."""
    shape = [
        0 if n == 0 else (n - 1) * (i + 1) + 1
        for n, i in zip(x.shape, interior, strict=True)
    ]
    dilated = np.full(shape, value, dtype=x.dtype)
    dilated[tuple(slice(None, None, i + 1) for i in interior)] = x
    positive = [(max(lo, 0), max(hi, 0)) for lo, hi in padding]
    padded = np.pad(
        dilated, positive, constant_values=np.asarray(value, dtype=x.dtype)[()]
    )
    crop = tuple(
        slice(-min(lo, 0), padded.shape[d] + min(hi, 0))
        for d, (lo, hi) in enumerate(padding)
    )
    return padded[crop]


def window_views(
    padded: np.ndarray,
    window: Sequence[int],
    strides: Sequence[int],
    window_dilations: Sequence[int],
    out_shape: Sequence[int],
) -> list[np.ndarray]:
    """One strided view of `padded` per window position (row-major order), each of `out_shape`."""
    views: list[np.ndarray] = []
    for offset in itertools.product(*(range(w) for w in window)):
        index = tuple(
            slice(o * wd, o * wd + (n - 1) * s + 1, s) if n > 0 else slice(0, 0)
            for o, wd, s, n in zip(
                offset, window_dilations, strides, out_shape, strict=True
            )
        )
        views.append(padded[index])
    return views


def convolution(
    lhs: np.ndarray,
    rhs: np.ndarray,
    *,
    input_batch: int,
    input_feature: int,
    input_spatial: Sequence[int],
    kernel_input_feature: int,
    kernel_output_feature: int,
    kernel_spatial: Sequence[int],
    output_batch: int,
    output_feature: int,
    output_spatial: Sequence[int],
    strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int],
    rhs_dilation: Sequence[int],
    reversal: Sequence[bool],
    feature_group_count: int,
    batch_group_count: int,
    accumulator: np.dtype | type = np.float64,
    in_order: bool = False,
) -> np.ndarray:
    """The spec's convolution: one einsum per kernel position, summed in `accumulator`.

    `in_order`: one multiply and one add per (kernel position, input feature), in
    that lexicographic order (a loop nest's order: window dims, then the input
    feature), each rounded to `accumulator`, as the lowered linalg computes it.
    """
    x = np.transpose(lhs, [input_batch, input_feature, *input_spatial]).astype(
        accumulator
    )
    k = np.transpose(
        rhs, [kernel_output_feature, kernel_input_feature, *kernel_spatial]
    ).astype(accumulator)
    for axis, flip in enumerate(reversal):
        if flip:
            k = np.flip(k, axis=2 + axis)
    spatial = len(input_spatial)
    x = pad_dilate(
        x, [(0, 0), (0, 0), *padding], [0, 0, *(d - 1 for d in lhs_dilation)], 0
    )
    kernel_sizes = k.shape[2:]
    out_sizes = [
        0 if n < (w - 1) * d + 1 else (n - (w - 1) * d - 1) // s + 1
        for n, w, d, s in zip(
            x.shape[2:], kernel_sizes, rhs_dilation, strides, strict=True
        )
    ]
    batch, features = x.shape[0], x.shape[1]
    out_features = k.shape[0]
    groups = feature_group_count
    x = x.reshape(
        batch_group_count,
        batch // batch_group_count,
        groups,
        features // groups,
        *x.shape[2:],
    )
    k = k.reshape(
        batch_group_count,
        groups,
        out_features // (groups * batch_group_count),
        k.shape[1],
        *kernel_sizes,
    )
    result = np.zeros(
        (batch_group_count, batch // batch_group_count, groups, k.shape[2], *out_sizes),
        accumulator,
    )
    for position in itertools.product(*(range(w) for w in kernel_sizes)):
        index = tuple(
            slice(p * d, p * d + (n - 1) * s + 1, s) if n > 0 else slice(0, 0)
            for p, d, s, n in zip(
                position, rhs_dilation, strides, out_sizes, strict=True
            )
        )
        window = x[(slice(None), slice(None), slice(None), slice(None), *index)]
        taps = k[(slice(None), slice(None), slice(None), slice(None), *position)]
        if not in_order:
            result += np.einsum("Bngi...,Bgoi->Bngo...", window, taps)
            continue
        for i in range(window.shape[3]):
            tap = taps[:, :, :, i].reshape(
                (taps.shape[0], 1, taps.shape[1], taps.shape[2], *[1] * spatial)
            )
            result = result + window[:, :, :, i][:, :, :, None] * tap
    # (batch groups, batch, groups, out per group, spatial) -> (batch, features, spatial)
    result = np.moveaxis(result, 0, 2).reshape(
        batch // batch_group_count, out_features, *out_sizes
    )
    order = [0] * (spatial + 2)
    order[output_batch] = 0
    order[output_feature] = 1
    for i, dim in enumerate(output_spatial):
        order[dim] = 2 + i
    return np.transpose(result, order)
