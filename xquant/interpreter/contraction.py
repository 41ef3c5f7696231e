"""A `linalg.generic` that is a matmul in disguise, run as one.

Lowerings fuse the decode of a weight into the contraction that reads it:
`lower-mx-tensor` makes `acc = acc + x[m, k] * (extf(w[k, n]) * extf(s[k / 32, n]))`.
The sliced strategy runs such a body once per k, decoding a row of `w` each
time (about 4x the work of the matmul). When the yielded value is
`addf(out, mulf(p, q))` over one reduction dim `k`, with `p` computed from
inputs indexed by `k` and one set of parallel dims and `q` from inputs indexed
by `k` and the others, `p` and `q` are computed once over their own index
spaces, (M, K) and (K, N), and summed with `float_matmul`: the same products,
added to the accumulator in the same order (k = 0, 1, ...), so the result is
bit-identical to the loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.linalg import ops as linalg
from xdsl.interpreter import Interpreter
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineDimExpr, AffineExpr, AffineMap

from xquant.interpreter.iteration_space import Space
from xquant.numerics.values import NATIVE_FLOAT_DTYPES, float_matmul

__all__ = ["Contraction", "analyze_contraction", "run_contraction"]


@dataclass(frozen=True)
class Side:
    """One factor of the product: the body value, the ops that compute it from the
    block arguments `inputs`, and the parallel dims it varies along (loop order)."""

    value: SSAValue
    ops: tuple[Operation, ...]
    inputs: tuple[int, ...]
    dims: tuple[int, ...]


@dataclass(frozen=True)
class Contraction:
    """`out = out + lhs * rhs` summed over the reduction dim `k`."""

    k: int
    lhs: Side
    rhs: Side


def _dims(e: AffineExpr, out: set[int]) -> None:
    if isinstance(e, AffineDimExpr):
        out.add(e.position)
    elif isinstance(e, AffineBinaryOpExpr):
        _dims(e.lhs, out)
        _dims(e.rhs, out)


def _side(
    value: SSAValue,
    block: Block,
    n_inputs: int,
    pre_ops: Sequence[Operation],
    maps: Sequence[AffineMap],
) -> tuple[tuple[Operation, ...], tuple[int, ...], set[int]] | None:
    """The ops computing `value`, the inputs it reads and the loop dims they index
    (None: it reads an output, an index, or nothing at all)."""
    position: dict[SSAValue, int] = {arg: i for i, arg in enumerate(block.args)}
    needed: set[SSAValue] = {value}
    ops: list[Operation] = []
    for op in reversed(pre_ops):
        if not any(r in needed for r in op.results):
            continue
        if isinstance(op, linalg.IndexOp):
            return None
        ops.append(op)
        needed.update(op.operands)
    read = sorted(position[v] for v in needed if v in position)
    inputs = [i for i in read if i < n_inputs]
    if len(inputs) != len(read) or not inputs:  # reads an output, or no input
        return None
    dims: set[int] = set()
    for i in inputs:
        for e in maps[i].results:
            _dims(e, dims)
    return tuple(reversed(ops)), tuple(inputs), dims


def analyze_contraction(
    maps: Sequence[AffineMap],
    n_inputs: int,
    reduction: Sequence[bool],
    block: Block,
    pre_ops: Sequence[Operation],
) -> Contraction | None:
    """The contraction a single-output body with one reduction dim computes, if it
    yields `addf(out, mulf(lhs, rhs))` with the two factors on disjoint sides."""
    red = [d for d, r in enumerate(reduction) if r]
    yield_op = block.last_op
    if len(red) != 1 or yield_op is None or len(yield_op.operands) != 1:
        return None
    (k,) = red
    add = yield_op.operands[0].owner
    out = block.args[n_inputs] if len(block.args) == n_inputs + 1 else None
    if not isinstance(add, arith.AddfOp) or out is None or add.lhs is not out:
        return None
    mul = add.rhs.owner
    if not isinstance(mul, arith.MulfOp) or mul.result.type != out.type:
        return None
    lhs = _side(mul.lhs, block, n_inputs, pre_ops, maps)
    rhs = _side(mul.rhs, block, n_inputs, pre_ops, maps)
    if lhs is None or rhs is None:
        return None
    (lhs_ops, lhs_in, lhs_dims), (rhs_ops, rhs_in, rhs_dims) = lhs, rhs
    parallel = {d for d, r in enumerate(reduction) if not r}
    if (
        k not in lhs_dims
        or k not in rhs_dims
        or lhs_dims & rhs_dims != {k}
        or (lhs_dims | rhs_dims) != parallel | {k}
    ):
        return None
    return Contraction(
        k,
        Side(mul.lhs, lhs_ops, lhs_in, tuple(sorted(lhs_dims - {k}))),
        Side(mul.rhs, rhs_ops, rhs_in, tuple(sorted(rhs_dims - {k}))),
    )


def _evaluate(
    interpreter: Interpreter,
    side: Side,
    block: Block,
    ins: Sequence[Any],
    maps: Sequence[AffineMap],
    sizes: list[int],
    splits: dict[int, int],
    k: int,
    k_first: bool,
) -> np.ndarray:
    """The side's factor over its own dims: (M, K), or (K, N) when `k_first`."""
    keep = {*side.dims, k}
    space = Space(
        [n if d in keep else 1 for d, n in enumerate(sizes)],
        {d: c for d, c in splits.items() if d in keep},
    )
    interpreter.push_scope("linalg.generic")
    try:
        interpreter.set_values(
            (block.args[i], space.bind(ins[i], maps[i])) for i in side.inputs
        )
        for op in side.ops:
            results = interpreter.run_op(op, interpreter.get_values(op.operands))
            interpreter.set_values(zip(op.results, results))
        (value,) = interpreter.get_values((side.value,))
    finally:
        interpreter.pop_scope()
    k_axes = space.dim_axes(k)
    own = [a for d in side.dims for a in space.dim_axes(d)]
    rest = [a for a in range(space.ndim) if a not in k_axes and a not in own]
    order = rest + (k_axes + own if k_first else own + k_axes)
    v = np.broadcast_to(np.asarray(value), space.shape).transpose(order)
    n_own = int(np.prod([sizes[d] for d in side.dims], dtype=np.int64))
    return v.reshape((sizes[k], n_own) if k_first else (n_own, sizes[k]))


def run_contraction(
    interpreter: Interpreter,
    c: Contraction,
    block: Block,
    maps: Sequence[AffineMap],
    ins: Sequence[Any],
    out: np.ndarray,
    sizes: list[int],
    splits: dict[int, int],
) -> np.ndarray | None:
    """The generic's one result, or None when its values are not of one numpy float
    dtype whose arithmetic rounds like the IR's (the caller runs the loop)."""
    lhs = _evaluate(interpreter, c.lhs, block, ins, maps, sizes, splits, c.k, False)
    rhs = _evaluate(interpreter, c.rhs, block, ins, maps, sizes, splits, c.k, True)
    if not (lhs.dtype == rhs.dtype == out.dtype and out.dtype in NATIVE_FLOAT_DTYPES):
        return None
    out_map = maps[len(ins)]
    out_dims = [e.position for e in out_map.results if isinstance(e, AffineDimExpr)]
    mn_dims = [*c.lhs.dims, *c.rhs.dims]
    to_mn = [out_dims.index(d) for d in mn_dims]
    init = out.transpose(to_mn).reshape(lhs.shape[0], rhs.shape[1])
    result = float_matmul(lhs, rhs, init).reshape([sizes[d] for d in mn_dims])
    return np.ascontiguousarray(result.transpose(np.argsort(to_mn)))
