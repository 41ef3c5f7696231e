"""StableHLO reductions on whole arrays: run a reduction body vectorized.

reduce / reduce_window / select_and_scatter first convert inputs and init
values to the body's (possibly wider) accumulator type, then run the body
over whole arrays; an integer `add` body is one exact numpy sum.

Float `add`/`multiply` bodies fold in the order the lowered IR computes
(`stablehlo-legalize-to-linalg`'s loops: the init, then the reduced elements,
the reduced dimensions nested in the order the op lists them, one rounding
per step), so a program gives the same bits
before and after lowering; inside `reassociating_fp_reductions()` an `add`
is numpy's (pairwise) sum. A float `maximum`/`minimum` body is exact in any
order: one numpy reduce, zeros ordered -0 < +0. A float body of one other op
folds step by step in loop order too. Other bodies (several operands, as
argmax) run as a balanced binary tree.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import IntegerType
from xdsl.interpreter import Interpreter
from xdsl.ir import Region

from xquant.dialects.stablehlo import reductions as red
from xquant.dialects.stablehlo.type_utils import quantized
from xquant.interpreter.arith import maximumf, minimumf
from xquant.numerics import uniform
from xquant.numerics.values import (
    element_type,
    int_info,
    is_float_dtype,
    reassociates_fp_reductions,
)


def run_body(
    interpreter: Interpreter, region: Region, values: Sequence[np.ndarray], name: str
) -> list[np.ndarray]:
    """Run a reduction body on whole arrays (its ops are element-wise)."""
    return [
        np.asarray(v)
        for v in interpreter.run_ssacfg_region(region, tuple(values), name)
    ]


def tree_reduce(
    interpreter: Interpreter, region: Region, operands: list[np.ndarray], name: str
) -> list[np.ndarray]:
    """Fold the last axis with the body as a balanced binary tree (one body run per level)."""
    length = operands[0].shape[-1]
    while length > 1:
        half = length // 2
        lhs = [v[..., :half] for v in operands]
        rhs = [v[..., half : 2 * half] for v in operands]
        combined = run_body(interpreter, region, [*lhs, *rhs], name)
        if length % 2:
            combined = [
                np.concatenate([c, v[..., 2 * half :]], axis=-1)
                for c, v in zip(combined, operands)
            ]
        operands = combined
        length = operands[0].shape[-1]
    return [v[..., 0] for v in operands]


def broadcast_view(value: np.ndarray, shape: Sequence[int]) -> np.ndarray:
    """A read-only broadcast view (no op writes into its operands; the few that write copy first)."""
    return np.broadcast_to(value, tuple(shape))


def integer_sum(
    region: Region, inputs: list[np.ndarray], inits: list[np.ndarray]
) -> np.ndarray | None:
    """The last axis summed at once when the body is one `add` on integers, else None.

    Integer adds wrap, so any order gives the tree's result. A quantized
    accumulator sums its zero-centred values exactly in i64 with one final
    clamp, as `stablehlo-legalize-quant-to-math` lowers it (a clamp at every
    step would make the result depend on the order).
    """
    if len(inputs) != 1 or red.combiner_name(region) != "stablehlo.add":
        return None
    acc = element_type(region.block.args[0].type)
    x, init = inputs[0], inits[0]
    q = quantized(acc)
    if q is not None and q.is_per_layer:
        z = q.zero_point
        total = x.sum(axis=-1, dtype=np.int64) + (
            init.astype(np.int64) - (x.shape[-1] * z)
        )
        clipped = np.clip(total, q.storage_min, q.storage_max)
        return clipped.astype(uniform.storage_numpy_dtype(q))
    if isinstance(acc, IntegerType) and int_info(region.block.args[0].type).width > 1:
        return x.sum(axis=-1, dtype=x.dtype) + init
    return None


_EXACT_COMBINERS = frozenset(
    f"stablehlo.{name}" for name in ("maximum", "minimum", "and", "or")
)


def float_fold(
    interpreter: Interpreter,
    region: Region,
    inputs: list[np.ndarray],
    inits: list[np.ndarray],
    name: str,
) -> np.ndarray | None:
    """The last axis folded into the init in loop order, for a one-operand float body
    whose result depends on the order; None for other bodies (see the module doc)."""
    if len(inputs) != 1 or not is_float_dtype(inputs[0].dtype):
        return None
    x, init = inputs[0], inits[0]
    combiner = red.combiner_name(region)
    if combiner == "stablehlo.add" and reassociates_fp_reductions():
        return np.add(init, np.add.reduce(x, axis=-1), dtype=x.dtype)
    if combiner in _MAX_MIN:
        return _max_min_fold(x, init, combiner == "stablehlo.maximum")
    start = np.broadcast_to(init, (*x.shape[:-1], 1)).astype(x.dtype)
    if combiner in ("stablehlo.add", "stablehlo.multiply"):
        ufunc = np.add if combiner == "stablehlo.add" else np.multiply
        return ufunc.accumulate(np.concatenate([start, x], axis=-1), axis=-1)[..., -1]
    if combiner in _EXACT_COMBINERS or len(region.block.args) != 2:
        return None
    acc = start[..., 0]
    for i in range(x.shape[-1]):
        (acc,) = run_body(interpreter, region, [acc, x[..., i]], name)
    return acc


_MAX_MIN = frozenset(("stablehlo.maximum", "stablehlo.minimum"))


def _max_min_fold(x: np.ndarray, init: np.ndarray, is_max: bool) -> np.ndarray:
    """The last axis of floats folded into `init` with IEEE maximum (minimum).

    Exact in any order (NaN propagates, -0 < +0), so one numpy reduce does what
    a fold of the body would, without running it; numpy's reduce does not order
    the zeros, so a zero result takes its sign from the elements: +0 for a
    maximum when any is +0, -0 for a minimum when any is -0.
    """
    folded = (np.maximum if is_max else np.minimum).reduce(x, axis=-1)
    zero = folded == 0
    if np.any(zero):
        # The sign a zero result must have: the max of the zeros is +0 if any is.
        wanted = np.any((x == 0) & (np.signbit(x) != is_max), axis=-1)
        signed = np.where(wanted != is_max, -0.0, 0.0).astype(x.dtype)
        folded = np.where(zero, signed, folded)
    return (maximumf if is_max else minimumf)(init, folded)


def reduce_arrays(
    interpreter: Interpreter,
    region: Region,
    inputs: list[np.ndarray],
    inits: list[np.ndarray],
    axis_count: int,
    name: str,
) -> list[np.ndarray]:
    """Reduce the last `axis_count` axes of `inputs` (already in the body's types), then fold in the inits."""
    kept = inputs[0].shape[: inputs[0].ndim - axis_count]
    flat = [v.reshape(*kept, -1) for v in inputs]
    if flat[0].shape[-1] == 0:
        return [broadcast_view(i, kept) for i in inits]
    if (total := integer_sum(region, flat, inits)) is not None:
        return [total]
    if (folded := float_fold(interpreter, region, flat, inits, name)) is not None:
        return [folded]
    partial = tree_reduce(interpreter, region, flat, name)
    return run_body(
        interpreter, region, [*(broadcast_view(i, kept) for i in inits), *partial], name
    )
