"""Vectorized `linalg.generic` (and the engine behind every structured linalg op).

Four strategies, chosen per op (the analysis is cached per op):

0. *Contraction*: a body yielding `addf(out, mulf(lhs, rhs))` over one
   reduction dim, the factors computed from disjoint sides of the inputs (a
   matmul with a fused decode), runs as one `float_matmul` of the two factors
   computed once each (`contraction.py`), in the loop's order.

1. *Sliced* (covers all-parallel generics): every operand is bound to a numpy
   view over the iteration space -- identity/permutation maps become
   transposes, dropped dims broadcasts, `d floordiv c` a reshape of the
   iteration dim into `(d/c, c)` -- and the body runs once on whole arrays.
   With reduction dims the body runs once per reduction point, in loop order,
   vectorized over all parallel dims, with the output block arguments bound to
   the running accumulators (exact for any elementwise body, multi-output too).
2. *Combiner*: when each yielded value is `op(x, out)` with `op` a recognized
   combiner (add/mul/max/min/and/or/xor, int or float) and `x` computed from
   inputs only, `x` is computed once over the whole iteration space and folded
   with a numpy ufunc along the reduction dims (float add/mul fold in loop order
   with `ufunc.accumulate`, so results are bit-identical to sequential loops).
3. *Per element*: an exact loop over every iteration point, for bodies that are
   not elementwise-vectorizable (ops with regions, unknown ops) or outputs with
   non-permutation maps.

Each yielded value is written to its own output.
"""

from __future__ import annotations

import functools
import itertools
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import arith, math, tensor
from xdsl.dialects.linalg import ops as linalg
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.utils.exceptions import InterpretationError
from xdsl.utils.hints import isa

from xquant.interpreter.arith import clip_to_scalars
from xquant.interpreter.contraction import (
    Contraction,
    analyze_contraction,
    run_contraction,
)
from xquant.interpreter.errors import call_located
from xquant.interpreter.iteration_space import Space, block_splits
from xquant.interpreter.liveness import ReleaseDeadValues
from xquant.numerics.values import (
    dtype_of,
    element_type,
    int_info,
    is_float_dtype,
    reassociates_fp_reductions,
    unsigned_view,
    wrap,
)
from xquant.xdsl_internals import implementations, value_scope

__all__ = [
    "COMBINER_KINDS",
    "VECTORIZABLE_OP_NAMES",
    "GenericFunctions",
    "StructuredSpec",
    "run_structured",
    "spec_for_generic",
]

# Ops whose implementations are elementwise-polymorphic (scalars or arrays).
VECTORIZABLE_OP_NAMES: set[str] = {
    "linalg.index",
    "tensor.extract",
    "quant.qcast",
    "quant.dcast",
    "quant.scast",
}
VECTORIZABLE_PREFIXES: tuple[str, ...] = ("arith.", "math.")

COMBINER_KINDS: dict[type[Operation], str] = {
    arith.AddiOp: "add",
    arith.AddfOp: "addf",
    arith.MuliOp: "mul",
    arith.MulfOp: "mulf",
    arith.AndIOp: "and",
    arith.OrIOp: "or",
    arith.XOrIOp: "xor",
    arith.MaxSIOp: "maxs",
    arith.MinSIOp: "mins",
    arith.MaxUIOp: "maxu",
    arith.MinUIOp: "minu",
    arith.MaximumfOp: "maximumf",
    arith.MinimumfOp: "minimumf",
    arith.MaxnumfOp: "maxnumf",
    arith.MinnumfOp: "minnumf",
}

# Above this many iteration points the combiner path (which materializes the whole
# iteration space) gives way to the sliced path.
COMBINER_MAX_POINTS = 1 << 24


@dataclass
class StructuredSpec:
    """Everything the engine needs about one structured op, computed once."""

    maps: list[AffineMap]
    n_inputs: int
    n_outputs: int
    reduction: tuple[bool, ...]
    out_types: list[Attribute]  # element types of the outputs
    body: Region | None = None
    # A Python body (named ops): f(*input_values, *output_values) -> tuple of yields.
    py_body: Callable[..., Sequence[Any]] | None = None
    # Python "pre" part for combiner reductions of named ops: f(*input_values) -> xs.
    py_pre: Callable[..., Sequence[Any]] | None = None
    vectorizable: bool = True
    combiners: list[str] | None = None
    combiner_x: list[SSAValue] = field(default_factory=list[SSAValue])
    pre_ops: list[Operation] = field(default_factory=list[Operation])
    outputs_ok: bool = True
    # `out + lhs * rhs` over one reduction dim, run as a matmul (see contraction.py).
    contraction: Contraction | None = None
    floordivs: dict[int, set[int]] = field(default_factory=dict[int, set[int]])
    compiled: list[Callable[[tuple[int, ...]], tuple[int, ...]]] = field(
        default_factory=list[Callable[[tuple[int, ...]], tuple[int, ...]]]
    )
    steps: list[tuple[Operation, tuple[SSAValue, ...]]] | None = None
    # Steps that start a maximumf/minimumf clamp pair (see `_clamp_pairs`).
    clamps: dict[int, SSAValue] | None = None
    # `steps`' implementations, resolved for one interpreter (see `_direct_calls`).
    direct: (
        tuple[weakref.ref[Interpreter], list[Callable[[Any], Any] | None]] | None
    ) = None

    @property
    def n_loops(self) -> int:
        return len(self.reduction)

    @property
    def scalar(self) -> bool:
        """No loops and every map `() -> ()`: each operand is rank 0 or a scalar.

        A zero-loop op may still read or write fixed positions of ranked
        tensors (`() -> (0, 0)`, as a reshape to rank 0 lowers): those take
        the general path, which applies the maps.
        """
        return self.n_loops == 0 and all(not m.results for m in self.maps)


# ---------------------------------------------------------------------------------------
# analysis


def _collect_floordivs(expr: AffineExpr, out: dict[int, set[int]]) -> None:
    if isinstance(expr, AffineBinaryOpExpr):
        if (
            expr.kind == AffineBinaryOpKind.FloorDiv
            and isinstance(expr.lhs, AffineDimExpr)
            and isinstance(expr.rhs, AffineConstantExpr)
            and expr.rhs.value > 0
        ):
            out.setdefault(expr.lhs.position, set()).add(expr.rhs.value)
        _collect_floordivs(expr.lhs, out)
        _collect_floordivs(expr.rhs, out)


IndexFunction = Callable[[Sequence[int]], int]


def _compile_expr(e: AffineExpr) -> IndexFunction:
    """`e` as a Python function of the loop indices (MLIR's floor/ceil semantics)."""
    if isinstance(e, AffineDimExpr):
        position = e.position
        return lambda p: p[position]
    if isinstance(e, AffineConstantExpr):
        value = e.value
        return lambda p: value
    if isinstance(e, AffineBinaryOpExpr):
        lhs, rhs = _compile_expr(e.lhs), _compile_expr(e.rhs)
        match e.kind:
            case AffineBinaryOpKind.Add:
                return lambda p: lhs(p) + rhs(p)
            case AffineBinaryOpKind.Mul:
                return lambda p: lhs(p) * rhs(p)
            case AffineBinaryOpKind.Mod:
                return lambda p: lhs(p) % rhs(p)
            case AffineBinaryOpKind.FloorDiv:
                return lambda p: lhs(p) // rhs(p)
            case AffineBinaryOpKind.CeilDiv:
                return lambda p: -(-lhs(p) // rhs(p))
    raise InterpretationError(
        f"unsupported affine expression {e} (symbols are not supported)"
    )


@functools.lru_cache(maxsize=4096)
def _compile_map(m: AffineMap) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """The map as a Python function of the loop indices; cached by value (maps are
    immutable)."""
    results = tuple(_compile_expr(e) for e in m.results)
    return lambda p: tuple(f(p) for f in results)


def _is_vectorizable_op(op: Operation) -> bool:
    if op.regions:
        return False
    name = op.name
    return (
        name.startswith(VECTORIZABLE_PREFIXES)
        or name in VECTORIZABLE_OP_NAMES
        or name == "linalg.yield"
    )


def _analyze_body(spec: StructuredSpec) -> None:
    body = spec.body
    assert body is not None
    block = body.block
    ops = list(block.ops)
    spec.vectorizable = all(_is_vectorizable_op(op) for op in ops)
    if not spec.vectorizable or not any(spec.reduction):
        return
    yield_op = block.last_op
    if yield_op is None or len(yield_op.operands) != spec.n_outputs:
        return
    out_args = list(block.args[spec.n_inputs :])
    tainted: set[SSAValue] = set(out_args)
    tainted_ops: list[Operation] = []
    for op in ops:
        if op is yield_op:
            continue
        if any(o in tainted for o in op.operands):
            tainted_ops.append(op)
            tainted.update(op.results)
    combiners: list[str] = []
    xs: list[SSAValue] = []
    combiner_ops: list[Operation] = []
    for j, v in enumerate(yield_op.operands):
        owner = v.owner
        if not isinstance(owner, Operation):
            return
        kind = COMBINER_KINDS.get(type(owner))
        if kind is None or len(owner.results) != 1 or len(list(v.uses)) != 1:
            return
        a, b = owner.operands
        out_arg = out_args[j]
        if b is out_arg and a not in tainted:
            x = a
        elif a is out_arg and b not in tainted:
            x = b
        else:
            return
        if any(use.operation is not owner for use in out_arg.uses):
            return
        combiners.append(kind)
        xs.append(x)
        combiner_ops.append(owner)
    if set(tainted_ops) != set(combiner_ops):
        return
    spec.combiners = combiners
    spec.combiner_x = xs
    spec.pre_ops = [op for op in ops if op is not yield_op and op not in combiner_ops]
    if combiners == ["addf"]:
        spec.contraction = analyze_contraction(
            spec.maps, spec.n_inputs, spec.reduction, block, spec.pre_ops
        )


def finish_spec(spec: StructuredSpec) -> StructuredSpec:
    parallel = {d for d, r in enumerate(spec.reduction) if not r}
    ok = True
    for m in spec.maps[spec.n_inputs :]:
        dims = [e.position for e in m.results if isinstance(e, AffineDimExpr)]
        if (
            len(dims) != len(m.results)
            or len(set(dims)) != len(dims)
            or set(dims) != parallel
        ):
            ok = False
    spec.outputs_ok = ok
    for m in spec.maps:
        for e in m.results:
            _collect_floordivs(e, spec.floordivs)
    spec.compiled = [_compile_map(m) for m in spec.maps]
    if spec.body is not None and spec.py_body is None:
        _analyze_body(spec)
    return spec


def spec_for_generic(op: linalg.GenericOp | Any) -> StructuredSpec:
    """The engine description of a structured op that carries its own body and maps."""
    maps = [attr.data for attr in op.get_indexing_maps()]
    iters = [str(it.data) for it in op.get_iterator_types()]
    for m in maps:
        if m.num_symbols:
            raise InterpretationError("indexing maps with symbols are not supported")
    spec = StructuredSpec(
        maps=maps,
        n_inputs=len(op.inputs),
        n_outputs=len(op.outputs),
        reduction=tuple(it == "reduction" for it in iters),
        out_types=[element_type(o.type) for o in op.outputs],
        body=op.body,
    )
    return finish_spec(spec)


def _loop_sizes(spec: StructuredSpec, operands: Sequence[Any]) -> list[int]:
    sizes: list[int | None] = [None] * spec.n_loops
    for value, m in zip(operands, spec.maps):
        shape = np.shape(value)
        if len(shape) != len(m.results):
            raise InterpretationError(
                f"operand of shape {list(shape)} does not match indexing map {m}"
            )
        for e, n in zip(m.results, shape):
            if isinstance(e, AffineDimExpr) and sizes[e.position] is None:
                sizes[e.position] = int(n)
    if any(s is None for s in sizes):
        raise InterpretationError(
            "cannot infer the loop bounds of this linalg op from its operand shapes"
        )
    return [int(s) for s in sizes]  # pyright: ignore


def _index_stack(interpreter: Interpreter) -> list[Sequence[Any]]:
    return interpreter.get_data(GenericFunctions, "index_stack", list)


def _liveness(block: Any) -> list[tuple[Operation, tuple[SSAValue, ...]]]:
    """For each op of a region-free block (yield excluded): the values that die after it."""
    ops = [op for op in block.ops]
    yield_op = ops[-1]
    last: dict[SSAValue, int] = {}
    for i, op in enumerate(ops[:-1]):
        for v in op.operands:
            last[v] = i
    keep = set(yield_op.operands)
    dies: list[list[SSAValue]] = [[] for _ in ops[:-1]]
    for v, i in last.items():
        if v not in keep and (
            v in block.args
            or (isinstance(v.owner, Operation) and v.owner.parent_block() is block)
        ):
            dies[i].append(v)
    return [(op, tuple(d)) for op, d in zip(ops[:-1], dies)]


def _clamp_pairs(
    steps: list[tuple[Operation, tuple[SSAValue, ...]]],
) -> dict[int, SSAValue]:
    """Steps `maximumf(x, low)` followed by `minimumf(that, high)`, the first result
    used only there (the clamp of every lowered quantize): step index -> `high`."""
    pairs: dict[int, SSAValue] = {}
    for i, ((first, _), (second, second_dead)) in enumerate(itertools.pairwise(steps)):
        if (
            isinstance(first, arith.MaximumfOp)
            and isinstance(second, arith.MinimumfOp)
            and second.lhs is first.result
            and first.result in second_dead
        ):
            pairs[i] = second.rhs
    return pairs


def _direct_calls(
    interpreter: Interpreter, spec: StructuredSpec
) -> list[Callable[[Any], Any] | None]:
    """Each step's implementation as `inputs -> values`, bypassing `run_op`'s dispatch
    (~10 us per op, which a reduction body pays once per reduction index); None
    where the interpreter has other listeners or no plain implementation for the op."""
    assert spec.steps is not None
    if spec.direct is not None and spec.direct[0]() is interpreter:
        return spec.direct[1]
    impls = implementations(interpreter)
    # ReleaseDeadValues only acts on function bodies, never on a linalg body.
    listening = any(
        not isinstance(listener, ReleaseDeadValues)
        for listener in interpreter.listeners
    )
    calls: list[Callable[[Any], Any] | None] = []
    for op, _ in spec.steps:
        entry = None if listening else impls.get(type(op))
        if entry is None:
            calls.append(None)
            continue
        ft, fn = entry
        calls.append(
            lambda inputs, ft=ft, fn=fn, op=op: fn(ft, interpreter, op, inputs).values
        )
    spec.direct = (weakref.ref(interpreter), calls)
    return calls


def _run_vectorized_block(
    interpreter: Interpreter, spec: StructuredSpec, values: Sequence[Any]
) -> Sequence[Any]:
    """Run a region-free body on arrays, dropping each value after its last use so that
    numpy reuses the (cache-hot) memory of dead temporaries."""
    assert spec.body is not None
    block = spec.body.block
    if spec.steps is None:
        spec.steps = _liveness(block)
    calls = _direct_calls(interpreter, spec)
    env: dict[SSAValue, Any] = dict(zip(block.args, values))
    ctx = value_scope(interpreter)
    if spec.clamps is None:
        spec.clamps = _clamp_pairs(spec.steps)
    fused = False
    for i, ((op, dead), call) in enumerate(zip(spec.steps, calls)):
        if fused:  # the minimumf of a clamp pair, done with its maximumf
            fused = False
            for v in dead:
                env.pop(v, None)
            continue
        inputs = tuple(env[v] if v in env else ctx[v] for v in op.operands)
        high = spec.clamps.get(i)
        if high is not None and call is not None and calls[i + 1] is not None:
            clamped = clip_to_scalars(
                inputs[0], inputs[1], env[high] if high in env else ctx[high]
            )
            if clamped is not None:
                env[spec.steps[i + 1][0].results[0]] = clamped
                fused = True
                del inputs
                for v in dead:
                    env.pop(v, None)
                continue
        results = None
        if call is not None:
            results = call_located(op, call, inputs)
            if results is not None and len(results) != len(op.results):
                results = None
        if results is None:
            results = interpreter.run_op(op, inputs)
        for r, v in zip(op.results, results):
            env[r] = v
        del inputs, results
        for v in dead:
            env.pop(v, None)
    yield_op = block.last_op
    assert yield_op is not None
    return tuple(env[v] if v in env else ctx[v] for v in yield_op.operands)


def _run_body(
    interpreter: Interpreter,
    spec: StructuredSpec,
    values: Sequence[Any],
    index: Sequence[Any],
) -> Sequence[Any]:
    if spec.py_body is not None:
        return spec.py_body(*values)
    stack = _index_stack(interpreter)
    stack.append(index)
    try:
        assert spec.body is not None
        if spec.vectorizable:
            return _run_vectorized_block(interpreter, spec, values)
        return interpreter.run_ssacfg_region(spec.body, tuple(values), "linalg.generic")
    finally:
        stack.pop()


def _to_output(
    spec: StructuredSpec,
    j: int,
    value: Any,
    space: Space,
    par_axes: list[int],
    out_dtype: np.dtype[Any],
) -> np.ndarray:
    """A value over the parallel axes of `space` (in axis order) written in output j's layout."""
    par_shape = tuple(space.shape[a] for a in par_axes)
    v = (
        np.broadcast_to(value, par_shape)
        if np.shape(value) != par_shape
        else np.asarray(value)
    )
    # merge split axes: parallel dims in loop order
    par_dims = [d for d, r in enumerate(spec.reduction) if not r]
    merged = tuple(space.sizes[d] for d in par_dims)
    if v.shape != merged:
        v = v.reshape(merged)
    m = spec.maps[spec.n_inputs + j]
    order = [par_dims.index(e.position) for e in m.results]  # pyright: ignore
    if order != list(range(len(order))):
        v = v.transpose(order)
    if v.dtype != out_dtype:
        v = v.astype(out_dtype)
    if not v.flags.writeable:
        return (
            v  # a broadcast view (a splat or a row repeated): read-only, never copied
        )
    return np.asarray(v, order="C")


_SHORT_AXIS = 64
_WIDEN_MIN = 1 << 14


def _widen_short_broadcast(v: Any, shape: tuple[int, ...]) -> Any:
    """`v` repeated along a short innermost axis it is broadcast over.

    numpy runs its inner loop once per innermost row: a block scale bound as
    (rows, blocks, 1) against (rows, blocks, 32) values costs a loop call every
    32 elements, about 3x one flat pass. Repeating it lets the body's element-wise
    ops coalesce to a single loop; that pays only when the repeat is kept across
    runs, so only constants (read-only arrays) are widened, once, and cached.
    """
    if (
        type(v) is not np.ndarray
        or v.ndim != len(shape)
        or v.ndim < 2
        or v.shape[-1] != 1
        or not 1 < shape[-1] <= _SHORT_AXIS
        or v.size * shape[-1] < _WIDEN_MIN
    ):
        return v
    root = v
    while isinstance(root.base, np.ndarray):
        root = root.base
    if root.flags.writeable:
        # Computed in this run: repeating costs about what it would save.
        return v
    key = (id(root), v.__array_interface__["data"][0], v.shape, v.strides, shape[-1])
    hit = _WIDENED.get(key)
    if hit is not None and hit[0]() is root:
        return hit[1]
    wide = np.repeat(v, shape[-1], axis=-1)
    wide.flags.writeable = False
    _WIDENED[key] = (
        weakref.ref(root, lambda _, key=key: _WIDENED.pop(key, None)),
        wide,
    )
    return wide


_WIDENED: dict[tuple[Any, ...], tuple[weakref.ref[np.ndarray], np.ndarray]] = {}
"""Widened views of read-only (constant) arrays, dropped with the constant."""


def _run_sliced(
    interpreter: Interpreter,
    spec: StructuredSpec,
    ins: Sequence[Any],
    outs: Sequence[Any],
    sizes: list[int],
) -> tuple[np.ndarray, ...]:
    space = Space(
        sizes,
        block_splits(spec.floordivs, spec.reduction, sizes, split_reductions=False),
    )
    red_dims = [d for d, r in enumerate(spec.reduction) if r]
    par_axes = [
        a
        for a in range(space.ndim)
        if not any(a in space.dim_axes(d) for d in red_dims)
    ]
    red_axes = [space.axes[(d, "full")] for d in red_dims]
    operands = list(ins) + list(outs)
    bound = [space.bind(v, m) for v, m in zip(operands, spec.maps)]
    out_dtypes = [dtype_of(t) for t in spec.out_types]
    n_in = spec.n_inputs
    if not red_dims:
        index = [space.iota(d) for d in range(spec.n_loops)]
        bound_in = [_widen_short_broadcast(v, space.shape) for v in bound[:n_in]]
        results = _run_body(interpreter, spec, bound_in + bound[n_in:], index)
        return tuple(
            _to_output(spec, j, r, space, par_axes, out_dtypes[j])
            for j, r in enumerate(results)
        )

    def slicer(v: Any, point: tuple[int, ...]) -> Any:
        if type(v) is not np.ndarray or v.ndim != space.ndim:
            return v
        idx: list[Any] = [slice(None)] * space.ndim
        for a, p in zip(red_axes, point):
            idx[a] = p if v.shape[a] != 1 else 0
        return v[tuple(idx)]

    par_index: list[Any] = []
    for d in range(spec.n_loops):
        if spec.reduction[d]:
            par_index.append(None)
        else:
            par_index.append(slicer(space.iota(d), (0,) * len(red_dims)))
    acc: list[Any] = [slicer(b, (0,) * len(red_dims)) for b in bound[n_in:]]
    bound_in = bound[:n_in]
    for point in itertools.product(*(range(sizes[d]) for d in red_dims)):
        vals = [slicer(b, point) for b in bound_in] + acc
        pi = iter(point)
        index = [np.int64(next(pi)) if x is None else x for x in par_index]
        acc = list(_run_body(interpreter, spec, vals, index))
    return tuple(
        _to_output(spec, j, r, space, par_axes, out_dtypes[j])
        for j, r in enumerate(acc)
    )


def _fold(kind: str, xt: np.ndarray, init: np.ndarray, elem: Attribute) -> np.ndarray:
    """Fold `xt` (..., R) into `init` (..., 1) with the combiner `kind`, in loop order."""
    dt = xt.dtype
    if kind == "addf" and reassociates_fp_reductions():
        return np.add(init[..., 0], np.add.reduce(xt, axis=-1), dtype=dt)
    if kind in ("addf", "mulf"):
        uf = np.add if kind == "addf" else np.multiply
        z = np.concatenate(
            [np.broadcast_to(init, (*xt.shape[:-1], 1)).astype(dt), xt], axis=-1
        )
        return uf.accumulate(z, axis=-1)[..., -1]
    if kind in ("maximumf", "minimumf", "maxnumf", "minnumf"):
        uf = {
            "maximumf": np.maximum,
            "minimumf": np.minimum,
            "maxnumf": np.fmax,
            "minnumf": np.fmin,
        }[kind]
        z = np.concatenate(
            [np.broadcast_to(init, (*xt.shape[:-1], 1)).astype(dt), xt], axis=-1
        )
        r = uf.reduce(z, axis=-1)
        zero = r == 0
        if np.any(zero):
            if kind in ("maximumf", "maxnumf"):
                pos = np.any((z == 0) & ~np.signbit(z), axis=-1)
                r = np.where(
                    zero, np.where(pos, np.zeros((), dt), -np.zeros((), dt)), r
                )
            else:
                neg = np.any((z == 0) & np.signbit(z), axis=-1)
                r = np.where(
                    zero, np.where(neg, -np.zeros((), dt), np.zeros((), dt)), r
                )
        return r
    info = int_info(elem)
    init0 = np.broadcast_to(init, (*xt.shape[:-1], 1))[..., 0]
    if dt == np.bool_:
        uf = {
            "add": np.logical_xor,
            "mul": np.logical_and,
            "and": np.logical_and,
            "or": np.logical_or,
            "xor": np.logical_xor,
        }.get(kind)
        if uf is not None:
            return uf(init0, uf.reduce(xt, axis=-1))
    if kind in ("maxu", "minu"):
        uf = np.maximum if kind == "maxu" else np.minimum
        ux, ui = unsigned_view(xt, info), unsigned_view(init0, info)
        return wrap(
            uf(ui, uf.reduce(ux, axis=-1)).astype(np.int64)
            if info.width < 64
            else uf(ui, uf.reduce(ux, axis=-1)).view(np.int64),
            info,
        )
    if dt == np.bool_:  # signed max/min on i1: true (-1) is the smaller
        uf = np.logical_or if kind == "mins" else np.logical_and
        return uf(init0, uf.reduce(xt, axis=-1))
    uf = {
        "add": np.add,
        "mul": np.multiply,
        "and": np.bitwise_and,
        "or": np.bitwise_or,
        "xor": np.bitwise_xor,
        "maxs": np.maximum,
        "mins": np.minimum,
    }[kind]
    r = uf(init0, uf.reduce(xt, axis=-1, dtype=dt))
    return r if info.natural else wrap(r, info)


def _run_combined(
    interpreter: Interpreter,
    spec: StructuredSpec,
    ins: Sequence[Any],
    outs: Sequence[Any],
    sizes: list[int],
) -> tuple[np.ndarray, ...]:
    space = Space(
        sizes,
        block_splits(spec.floordivs, spec.reduction, sizes, split_reductions=True),
    )
    red_dims = [d for d, r in enumerate(spec.reduction) if r]
    red_axes = [a for d in red_dims for a in space.dim_axes(d)]
    par_axes = [a for a in range(space.ndim) if a not in red_axes]
    bound_in = [space.bind(v, m) for v, m in zip(ins, spec.maps[: spec.n_inputs])]
    index = [space.iota(d) for d in range(spec.n_loops)]
    if spec.py_pre is not None:
        xs = list(spec.py_pre(*bound_in))
    else:
        assert spec.body is not None
        block = spec.body.block
        stack = _index_stack(interpreter)
        stack.append(index)
        interpreter.push_scope("linalg.generic")
        try:
            interpreter.set_values(zip(block.args[: spec.n_inputs], bound_in))
            for op in spec.pre_ops:
                op_results = interpreter.run_op(op, interpreter.get_values(op.operands))
                interpreter.set_values(zip(op.results, op_results))
            xs = list(interpreter.get_values(spec.combiner_x))
        finally:
            interpreter.pop_scope()
            stack.pop()
    perm = par_axes + red_axes
    par_shape = tuple(space.shape[a] for a in par_axes)
    init_shape = tuple(1 if a in red_axes else n for a, n in enumerate(space.shape))
    results: list[np.ndarray] = []
    assert spec.combiners is not None
    for j, (kind, x) in enumerate(zip(spec.combiners, xs)):
        out_dt = dtype_of(spec.out_types[j])
        xa = np.broadcast_to(
            np.asarray(x, dtype=out_dt) if np.asarray(x).dtype != out_dt else x,
            space.shape,
        )
        xt = xa.transpose(perm).reshape((*par_shape, -1))
        init = space.bind(outs[j], spec.maps[spec.n_inputs + j])
        init = (
            np.broadcast_to(init, init_shape).transpose(perm).reshape((*par_shape, 1))
        )
        r = _fold(kind, xt, init, spec.out_types[j])
        results.append(_to_output(spec, j, r, space, par_axes, out_dt))
    return tuple(results)


def _run_per_element(
    interpreter: Interpreter,
    spec: StructuredSpec,
    ins: Sequence[Any],
    outs: Sequence[Any],
    sizes: list[int],
) -> tuple[np.ndarray, ...]:
    n_in = spec.n_inputs
    results = [np.array(o, copy=True) for o in outs]
    fin = spec.compiled[:n_in]
    fout = spec.compiled[n_in:]
    arrays_in = [(v, f, type(v) is np.ndarray) for v, f in zip(ins, fin)]
    for point in itertools.product(*(range(n) for n in sizes)):
        vals = [v[f(point)] if is_arr else v for v, f, is_arr in arrays_in]
        out_idx = [f(point) for f in fout]
        vals += [r[i] for r, i in zip(results, out_idx)]
        ys = _run_body(interpreter, spec, vals, [np.int64(p) for p in point])
        for r, i, y in zip(results, out_idx, ys):
            r[i] = y
    return tuple(results)


def _run_scalar(
    interpreter: Interpreter,
    spec: StructuredSpec,
    ins: Sequence[Any],
    outs: Sequence[Any],
) -> tuple[np.ndarray, ...]:
    """No loops and only `() -> ()` maps: one run of the body, no iteration space.

    Rank-0 generics are what a lowering makes of scalar arithmetic on
    `tensor<T>` (zero points, init values); the general path costs ~50 us each.
    """
    results = _run_body(interpreter, spec, [*ins, *outs], [])
    return tuple(
        np.asarray(r).astype(dtype_of(t), copy=False)
        for r, t in zip(results, spec.out_types, strict=True)
    )


def run_structured(
    interpreter: Interpreter, spec: StructuredSpec, args: Sequence[Any]
) -> tuple[np.ndarray, ...]:
    """Run a structured op described by `spec` on operand values `args` (inputs then outputs);
    returns the new output tensors (the operands are not modified)."""
    n_in = spec.n_inputs
    ins = [np.asarray(a) if isa(a, np.ndarray) else a for a in args[:n_in]]
    outs = [np.asarray(a) for a in args[n_in:]]
    sizes = _loop_sizes(spec, list(ins) + list(outs))
    if 0 in sizes:
        return tuple(np.array(o, copy=True) for o in outs)
    with np.errstate(all="ignore"):
        if spec.scalar and spec.vectorizable:
            return _run_scalar(interpreter, spec, ins, outs)
        if spec.vectorizable and spec.outputs_ok:
            if spec.contraction is not None and spec.body is not None:
                result = run_contraction(
                    interpreter,
                    spec.contraction,
                    spec.body.block,
                    spec.maps,
                    ins,
                    outs[0],
                    sizes,
                    block_splits(spec.floordivs, spec.reduction, sizes, True),
                )
                if result is not None:
                    return (result,)
            if (
                spec.combiners is not None
                and int(np.prod(sizes)) <= COMBINER_MAX_POINTS
            ):
                return _run_combined(interpreter, spec, ins, outs, sizes)
            return _run_sliced(interpreter, spec, ins, outs, sizes)
        return _run_per_element(interpreter, spec, ins, outs, sizes)


def cached_spec(
    functions: InterpreterFunctions,
    op: Operation,
    build: Callable[[Any], StructuredSpec],
) -> StructuredSpec:
    cache: dict[Operation, StructuredSpec] = functions.__dict__.setdefault("_specs", {})
    try:
        return cache[op]
    except KeyError:
        spec = build(op)
        cache[op] = spec
        return spec


@register_impls
class GenericFunctions(InterpreterFunctions):
    @impl(linalg.GenericOp)
    def run_generic(
        self, interpreter: Interpreter, op: linalg.GenericOp, args: PythonValues
    ) -> PythonValues:
        if op.library_call is not None:
            raise NotImplementedError("library_call is not supported in linalg.generic")
        if not op.results:
            raise NotImplementedError(
                "linalg.generic on memrefs is not supported by the xquant interpreter"
            )
        spec = cached_spec(self, op, spec_for_generic)
        return run_structured(interpreter, spec, args)

    @impl(linalg.IndexOp)
    def run_index(
        self, interpreter: Interpreter, op: linalg.IndexOp, args: PythonValues
    ) -> PythonValues:
        stack = _index_stack(interpreter)
        if not stack:
            raise InterpretationError("linalg.index outside of a linalg op body")
        return (stack[-1][op.dim.value.data],)

    @impl_terminator(linalg.YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: linalg.YieldOp, args: PythonValues
    ):
        return ReturnedValues(args), ()


_ = (math, tensor, is_float_dtype)  # imported for users extending VECTORIZABLE_OP_NAMES

FUNCTIONS: list[InterpreterFunctions] = [GenericFunctions()]
