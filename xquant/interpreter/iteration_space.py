"""The iteration space of a structured op as numpy axes, and operand views over it.

Each loop dim is one axis, or two (outer, inner) when the op reads it as
`d floordiv c`: a block-indexed operand (a scale per block of 32) then binds as
a broadcast view instead of a gathered copy.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.utils.exceptions import InterpretationError

__all__ = ["Space", "block_splits"]


class Space:
    """The (possibly expanded) iteration space: each loop dim is one axis, or two
    (outer, inner) when it is split for a `d floordiv c` access."""

    def __init__(self, sizes: list[int], splits: dict[int, int]):
        self.sizes = sizes
        self.splits = splits
        self.axes: dict[tuple[int, str], int] = {}
        shape: list[int] = []
        for d, n in enumerate(sizes):
            if d in splits:
                c = splits[d]
                self.axes[(d, "outer")] = len(shape)
                shape.append(n // c)
                self.axes[(d, "inner")] = len(shape)
                shape.append(c)
            else:
                self.axes[(d, "full")] = len(shape)
                shape.append(n)
        self.shape = tuple(shape)
        self.ndim = len(shape)
        self._iotas: dict[int, np.ndarray] = {}

    def dim_axes(self, d: int) -> list[int]:
        if d in self.splits:
            return [self.axes[(d, "outer")], self.axes[(d, "inner")]]
        return [self.axes[(d, "full")]]

    def iota(self, d: int) -> np.ndarray:
        try:
            return self._iotas[d]
        except KeyError:
            pass
        if d in self.splits:
            c = self.splits[d]
            so = [1] * self.ndim
            so[self.axes[(d, "outer")]] = self.sizes[d] // c
            si = [1] * self.ndim
            si[self.axes[(d, "inner")]] = c
            v = np.arange(self.sizes[d] // c, dtype=np.int64).reshape(
                so
            ) * c + np.arange(c, dtype=np.int64).reshape(si)
        else:
            s = [1] * self.ndim
            s[self.axes[(d, "full")]] = self.sizes[d]
            v = np.arange(self.sizes[d], dtype=np.int64).reshape(s)
        self._iotas[d] = v
        return v

    def eval(self, e: AffineExpr) -> Any:
        if isinstance(e, AffineDimExpr):
            return self.iota(e.position)
        if isinstance(e, AffineConstantExpr):
            return e.value
        if isinstance(e, AffineBinaryOpExpr):
            a, b = self.eval(e.lhs), self.eval(e.rhs)
            match e.kind:
                case AffineBinaryOpKind.Add:
                    return a + b
                case AffineBinaryOpKind.Mul:
                    return a * b
                case AffineBinaryOpKind.Mod:
                    return np.mod(a, b)
                case AffineBinaryOpKind.FloorDiv:
                    return np.floor_divide(a, b)
                case AffineBinaryOpKind.CeilDiv:
                    return -np.floor_divide(-a, b)
        raise InterpretationError(f"unsupported affine expression {e}")

    def bind(self, value: Any, m: AffineMap) -> Any:
        """`value` (an operand) as an array broadcastable to `self.shape`."""
        if type(value) is not np.ndarray:
            return value
        plan = _bind_plan(
            m, tuple(self.sizes), tuple(sorted(self.splits.items())), value.shape
        )
        if plan is None:
            return self.gather(value, m)
        v = value
        if plan.pick is not None:
            v = v[plan.pick]
        if plan.reshape is not None:
            v = v.reshape(plan.reshape)
        if plan.order is not None:
            v = v.transpose(plan.order)
        if plan.expand is not None:
            v = v[plan.expand]
        return v

    def gather(self, value: np.ndarray, m: AffineMap) -> Any:
        """`value` indexed by the map's results evaluated over the space (a copy)."""
        idx = tuple(self.eval(e) for e in m.results)
        v = value[idx]
        if type(v) is not np.ndarray:
            return v
        if v.ndim != self.ndim:
            v = v.reshape((1,) * (self.ndim - v.ndim) + v.shape)
        return v


@dataclass(frozen=True)
class _BindPlan:
    """The views that bind an operand to a space: index, reshape, transpose, expand."""

    pick: tuple[Any, ...] | None
    reshape: tuple[int, ...] | None
    order: tuple[int, ...] | None
    expand: tuple[Any, ...] | None


@functools.lru_cache(maxsize=4096)
def _bind_plan(
    m: AffineMap,
    sizes: tuple[int, ...],
    splits_items: tuple[tuple[int, int], ...],
    shape: tuple[int, ...],
) -> _BindPlan | None:
    """How `Space(sizes, splits).bind` views an operand of `shape` read through `m`
    (None: the map needs a gather). Cached: the same generic runs on the same shapes."""
    splits = dict(splits_items)
    space = Space(list(sizes), splits)
    kinds: list[tuple[str, int]] = []
    used: set[int] = set()
    for e in m.results:
        if isinstance(e, AffineDimExpr):
            d = e.position
            kinds.append(("dim", d))
        elif isinstance(e, AffineConstantExpr):
            kinds.append(("const", e.value))
            continue
        elif (
            isinstance(e, AffineBinaryOpExpr)
            and e.kind == AffineBinaryOpKind.FloorDiv
            and isinstance(e.lhs, AffineDimExpr)
            and isinstance(e.rhs, AffineConstantExpr)
            and splits.get(e.lhs.position) == e.rhs.value
        ):
            d = e.lhs.position
            kinds.append(("outer", d))
        else:
            return None
        if d in used:
            return None
        used.add(d)
    # Constant positions are picked first; a slice trims a dim read in part.
    pick: list[Any] = []
    reshape: list[int] = []
    ax: list[int] = []
    trimmed = False
    for (k, d), n in zip(kinds, shape):
        if k == "const":
            pick.append(d)
        elif k == "dim" and d in splits:
            c = splits[d]
            reshape += [n // c, c]
            ax += space.dim_axes(d)
            pick.append(slice(None))
        elif k == "dim":
            reshape.append(min(n, sizes[d]))
            ax.append(space.axes[(d, "full")])
            trimmed |= n != sizes[d]
            pick.append(slice(0, sizes[d]) if n != sizes[d] else slice(None))
        else:
            outer = sizes[d] // splits[d]
            reshape.append(min(n, outer))
            ax.append(space.axes[(d, "outer")])
            trimmed |= n != outer
            pick.append(slice(0, outer) if n != outer else slice(None))
    has_const = any(k == "const" for k, _ in kinds)
    picked = tuple(
        len(range(*p.indices(n))) if isinstance(p, slice) else None
        for p, n in zip(pick, shape)
    )
    picked_shape = tuple(n for n in picked if n is not None)
    order = tuple(sorted(range(len(ax)), key=lambda i: ax[i]))
    present = set(ax)
    return _BindPlan(
        pick=tuple(pick) if has_const or trimmed else None,
        reshape=tuple(reshape) if tuple(reshape) != picked_shape else None,
        order=order if order != tuple(range(len(ax))) else None,
        expand=(
            tuple(slice(None) if a in present else None for a in range(space.ndim))
            if len(present) != space.ndim
            else None
        ),
    )


def block_splits(
    floordivs: dict[int, set[int]],
    reduction: Sequence[bool],
    sizes: list[int],
    split_reductions: bool,
) -> dict[int, int]:
    """Loop dims read only as `d floordiv c` (c dividing the dim) to split into
    (d / c, c) axes, so a block-indexed operand binds as a broadcast view."""
    splits: dict[int, int] = {}
    for d, cs in floordivs.items():
        if len(cs) != 1 or (reduction[d] and not split_reductions):
            continue
        (c,) = cs
        if sizes[d] % c == 0 and sizes[d] > 0:
            splits[d] = c
    return splits
