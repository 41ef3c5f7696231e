"""StableHLO reductions on whole arrays: run a reduction body vectorized, as a balanced binary tree.

reduce / reduce_window / select_and_scatter first convert inputs and init
values to the body's (possibly wider) accumulator type, then run the body
over whole arrays; an integer `add` body is one exact numpy sum.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import IntegerType
from xdsl.interpreter import Interpreter
from xdsl.ir import Region

from xquant.dialects.stablehlo import reductions as red
from xquant.dialects.stablehlo.type_utils import quantized
from xquant.numerics import uniform
from xquant.numerics.values import element_type, int_info


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
    partial = tree_reduce(interpreter, region, flat, name)
    return run_body(
        interpreter, region, [*(broadcast_view(i, kept) for i in inits), *partial], name
    )
