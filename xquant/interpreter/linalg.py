"""Named linalg ops on numpy arrays, through the vectorized structured-op engine.

Named ops are run from their definition (inputs are cast to the output element
type with MLIR's signed casts, then the op), not from xDSL's hidden regions,
which do not insert those casts. Matmuls fold the contraction dim in loop
order, so float results equal a sequential loop bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.utils.exceptions import InterpretationError
from xdsl.utils.hints import isa

from xquant.dialects.upstream import linalg as upstream_linalg
from xquant.interpreter.arith import float_to_int, int_to_float, maximumf, minimumf
from xquant.interpreter.generic import (
    StructuredSpec,
    cached_spec,
    finish_spec,
    run_structured,
)
from xquant.interpreter.math import apply_float
from xquant.numerics.dtypes import cast_float
from xquant.numerics.values import (
    dtype_of,
    element_type,
    float_matmul,
    int_info,
    integer_matmul,
    is_float_dtype,
    signed_view,
    wrap,
)

__all__ = ["LinalgFunctions", "cast_signed"]


def cast_signed(x: Any, src: Attribute, dst: Attribute) -> Any:
    """MLIR's `cast_signed` numeric cast from element type `src` to `dst`."""
    if src == dst:
        return x
    sdt, ddt = dtype_of(src), dtype_of(dst)
    sf, df = is_float_dtype(sdt), is_float_dtype(ddt)
    if sf and df:
        return cast_float(x, ddt)
    if not sf and not df:
        return wrap(signed_view(x, int_info(src)), int_info(dst))
    if not sf and df:
        return int_to_float(x, int_info(src), ddt, False)
    return float_to_int(x, int_info(dst), False)


def binary(kind: str, elem: Attribute) -> Callable[[Any, Any], Any]:
    """The arith semantics of a linalg elementwise `kind` on values of type `elem`
    (maximumf/minimumf NaN and signed-zero rules, integer wrap-around)."""
    dt = dtype_of(elem)
    if is_float_dtype(dt):
        table: dict[str, Callable[[Any, Any], Any]] = {
            "add": np.add,
            "sub": np.subtract,
            "mul": np.multiply,
            "div": np.divide,
            "max": maximumf,
            "min": minimumf,
        }
        return table[kind]
    info = int_info(elem)

    def op(a: Any, b: Any) -> Any:
        if info.width == 1:
            a, b = np.asarray(a).astype(np.int8), np.asarray(b).astype(np.int8)
        match kind:
            case "add":
                r = np.add(a, b)
            case "sub":
                r = np.subtract(a, b)
            case "mul":
                r = np.multiply(a, b)
            case "max":
                r = np.maximum(signed_view(a, info), signed_view(b, info))
            case "min":
                r = np.minimum(signed_view(a, info), signed_view(b, info))
            case "div":
                sa, sb = signed_view(a, info), signed_view(b, info)
                r = (sa - np.fmod(sa, sb)) // sb
            case _:
                raise InterpretationError(kind)
        return wrap(r, info)

    return op


def _unary(kind: str, elem: Attribute) -> Callable[[Any], Any]:
    dt = dtype_of(elem)
    fn = {"exp": np.exp, "log": np.log, "sqrt": np.sqrt}[kind]
    return lambda x: apply_float(fn, dt, x)


def _operand_elems(op: Any) -> tuple[list[Attribute], Attribute]:
    ins = [element_type(v.type) for v in op.inputs]
    out = element_type(op.outputs[0].type)
    return ins, out


def _base_spec(op: Any) -> StructuredSpec:
    maps = [attr.data for attr in op.get_indexing_maps()]
    iters = [str(it.data) for it in op.get_iterator_types()]
    return StructuredSpec(
        maps=maps,
        n_inputs=len(op.inputs),
        n_outputs=len(op.outputs),
        reduction=tuple(it == "reduction" for it in iters),
        out_types=[element_type(o.type) for o in op.outputs],
    )


def _elementwise_spec(kind: str) -> Callable[[Any], StructuredSpec]:
    def build(op: Any) -> StructuredSpec:
        spec = _base_spec(op)
        ins, out = _operand_elems(op)
        if kind in ("add", "sub", "mul", "div", "max", "min"):
            f = binary(kind, out)

            def binary_body(a: Any, b: Any, _o: Any) -> tuple[Any]:
                return (f(cast_signed(a, ins[0], out), cast_signed(b, ins[1], out)),)

            spec.py_body = binary_body
        elif kind in ("exp", "log", "sqrt"):
            g = _unary(kind, out)

            def unary_body(a: Any, _o: Any) -> tuple[Any]:
                return (g(cast_signed(a, ins[0], out)),)

            spec.py_body = unary_body
        elif kind in ("copy", "fill", "transpose"):

            def copy_body(a: Any, _o: Any) -> tuple[Any]:
                return (cast_signed(a, ins[0], out),)

            spec.py_body = copy_body
        elif kind == "select":

            def select_body(c: Any, a: Any, b: Any, _o: Any) -> tuple[Any]:
                # Typed operands pick np.where's three-argument overload.
                yes: ArrayLike = cast_signed(a, ins[1], out)
                no: ArrayLike = cast_signed(b, ins[2], out)
                return (np.where(c, yes, no),)

            spec.py_body = select_body
        else:
            raise InterpretationError(kind)
        return finish_spec(spec)

    return build


_COMBINERS: dict[str, tuple[str, str]] = {
    "add": ("addf", "add"),
    "max": ("maximumf", "maxs"),
    "min": ("minimumf", "mins"),
}
"""The generic engine's combiner of each `binary` kind: (float, integer)."""


def _combiner(kind: str, out: Attribute) -> list[str]:
    """The one-output combiner list of a spec folding with `binary(kind, out)`."""
    as_float, as_int = _COMBINERS[kind]
    return [as_float if is_float_dtype(dtype_of(out)) else as_int]


def _fold_spec(op: Any, kind: str, multiply: bool) -> StructuredSpec:
    """`out = out kind x` over the reduction loops, where `x` is `cast(in) * cast(filter)`
    (`multiply`: a matmul or convolution) or `cast(in)` (a pooling, whose second
    operand is only the window's shape)."""
    spec = _base_spec(op)
    ins, out = _operand_elems(op)
    combine = binary(kind, out)
    mul = binary("mul", out)

    def product(x: Any, w: Any) -> tuple[Any]:
        return (mul(cast_signed(x, ins[0], out), cast_signed(w, ins[1], out)),)

    def window(x: Any, _w: Any) -> tuple[Any]:
        return (cast_signed(x, ins[0], out),)

    pre = product if multiply else window

    def body(x: Any, w: Any, o: Any) -> tuple[Any]:
        return (combine(o, pre(x, w)[0]),)

    spec.py_pre = pre
    spec.py_body = body
    spec.combiners = _combiner(kind, out)
    return finish_spec(spec)


def _mac_spec(op: Any) -> StructuredSpec:
    """Multiply-accumulate, out += cast(lhs) * cast(rhs): the matmuls, matvec, vecmat, dot and the convolutions."""
    return _fold_spec(op, "add", multiply=True)


def _quantized_matmul_spec(op: Any) -> StructuredSpec:
    """out += (cast(lhs) - cast(lhs_zp)) * (cast(rhs) - cast(rhs_zp))."""
    spec = _base_spec(op)
    ins, out = _operand_elems(op)
    mul = binary("mul", out)
    add = binary("add", out)
    sub = binary("sub", out)

    def pre(a: Any, b: Any, za: Any, zb: Any) -> tuple[Any]:
        return (
            mul(
                sub(cast_signed(a, ins[0], out), cast_signed(za, ins[2], out)),
                sub(cast_signed(b, ins[1], out), cast_signed(zb, ins[3], out)),
            ),
        )

    def body(a: Any, b: Any, za: Any, zb: Any, c: Any) -> tuple[Any]:
        return (add(c, pre(a, b, za, zb)[0]),)

    spec.py_pre = pre
    spec.py_body = body
    spec.combiners = _combiner("add", out)
    return finish_spec(spec)


def _pooling_max_spec(op: Any) -> StructuredSpec:
    """out = max(out, in) over the window (xDSL's hidden body maxes the input with the window operand)."""
    return _fold_spec(op, "max", multiply=False)


def _channel_last_pooling_spec(op: Any) -> StructuredSpec:
    """out = out op in over the window (sum, max or min; the window operand is only a shape)."""
    kind = {"sum": "add", "max": "max", "min": "min"}[op.KIND]
    return _fold_spec(op, kind, multiply=False)


def _reduce_spec(op: linalg.ReduceOp | upstream_linalg.ReduceOp) -> StructuredSpec:
    """xDSL's one-input `linalg.reduce` or xquant's variadic one, through the region."""
    if isinstance(op, linalg.ReduceOp):
        inputs, inits = [op.input], [op.init]
    else:
        inputs, inits = list(op.inputs), list(op.inits)
    in_t = inputs[0].type
    assert isinstance(in_t, TensorType)
    rank = len(in_t.get_shape())
    dims = set(op.dimensions.get_values())
    kept = [d for d in range(rank) if d not in dims]
    identity = AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in range(rank)))
    reduced = AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in kept))
    spec = StructuredSpec(
        maps=[identity] * len(inputs) + [reduced] * len(inits),
        n_inputs=len(inputs),
        n_outputs=len(inits),
        reduction=tuple(d in dims for d in range(rank)),
        out_types=[element_type(v.type) for v in inits],
        body=op.regions[0],
    )
    return finish_spec(spec)


def _map_spec(op: upstream_linalg.MapOp) -> StructuredSpec:
    """`linalg.map`: every operand on the identity map, all loops parallel."""
    init_t = op.init.type
    assert isa(init_t, TensorType)
    rank = len(init_t.get_shape())
    spec = StructuredSpec(
        maps=[AffineMap.identity(rank)] * (len(op.inputs) + 1),
        n_inputs=len(op.inputs),
        n_outputs=1,
        reduction=(False,) * rank,
        out_types=[element_type(init_t)],
        body=op.mapper,
    )
    return finish_spec(spec)


def _structured(build: Callable[[Any], StructuredSpec]):
    def run(
        self: InterpreterFunctions,
        interpreter: Interpreter,
        op: Any,
        args: PythonValues,
    ) -> PythonValues:
        if not op.results:
            raise NotImplementedError(
                f"{op.name} on memrefs is not supported by the xquant interpreter"
            )
        spec = cached_spec(self, op, build)
        return run_structured(interpreter, spec, args)

    return run


_MATMUL_MAPS = {
    3: (
        "(d0, d1, d2) -> (d0, d2)",
        "(d0, d1, d2) -> (d2, d1)",
        "(d0, d1, d2) -> (d0, d1)",
    ),
    4: (
        "(d0, d1, d2, d3) -> (d0, d1, d3)",
        "(d0, d1, d2, d3) -> (d0, d3, d2)",
        "(d0, d1, d2, d3) -> (d0, d1, d2)",
    ),
}


def _integer_matmul_or(
    general: Callable[..., PythonValues],
) -> Callable[..., PythonValues]:
    """Integer (batch_)matmul with the default maps through `integer_matmul`, float
    2-D matmul through `float_matmul`, else `general`.

    Integer sums wrap modulo 2**width in any order, so one exact product,
    then the wrap, equals the loop; floats keep the loop-order fold.
    """

    def run(
        self: InterpreterFunctions,
        interpreter: Interpreter,
        op: Any,
        args: PythonValues,
    ) -> PythonValues:
        ins, out = _operand_elems(op)
        maps = tuple(str(m.data) for m in op.get_indexing_maps())
        if (
            op.results
            and isinstance(op, linalg.MatmulOp)
            and is_float_dtype(dtype_of(out))
            and maps == _MATMUL_MAPS.get(3)
        ):
            a, b = (
                cast_signed(np.asarray(x), t, out)
                for x, t in zip(args[:2], ins, strict=True)
            )
            init = np.asarray(args[2])
            if a.dtype == b.dtype == init.dtype and a.ndim == b.ndim == 2:
                return (float_matmul(a, b, init),)
        if (
            not op.results
            or is_float_dtype(dtype_of(out))
            or any(is_float_dtype(dtype_of(t)) for t in ins)
            or maps != _MATMUL_MAPS.get(len(op.get_iterator_types()))
        ):
            return general(self, interpreter, op, args)
        info = int_info(out)
        a, b = (
            signed_view(cast_signed(np.asarray(x), t, out), info)
            for x, t in zip(args[:2], ins, strict=True)
        )
        product = integer_matmul(np.asarray(a), np.asarray(b))
        init = signed_view(np.asarray(args[2]), info)
        return (wrap(np.asarray(init).astype(np.int64) + product, info),)

    return run


@register_impls
class LinalgFunctions(InterpreterFunctions):
    run_add = impl(linalg.AddOp)(_structured(_elementwise_spec("add")))
    run_sub = impl(linalg.SubOp)(_structured(_elementwise_spec("sub")))
    run_mul = impl(linalg.MulOp)(_structured(_elementwise_spec("mul")))
    run_div = impl(upstream_linalg.DivOp)(_structured(_elementwise_spec("div")))
    run_max = impl(linalg.MaxOp)(_structured(_elementwise_spec("max")))
    run_min = impl(linalg.MinOp)(_structured(_elementwise_spec("min")))
    run_exp = impl(linalg.ExpOp)(_structured(_elementwise_spec("exp")))
    run_log = impl(linalg.LogOp)(_structured(_elementwise_spec("log")))
    run_sqrt = impl(linalg.SqrtOp)(_structured(_elementwise_spec("sqrt")))
    run_select = impl(linalg.SelectOp)(_structured(_elementwise_spec("select")))
    run_copy = impl(linalg.CopyOp)(_structured(_elementwise_spec("copy")))
    run_fill = impl(linalg.FillOp)(_structured(_elementwise_spec("fill")))
    run_transpose = impl(linalg.TransposeOp)(
        _structured(_elementwise_spec("transpose"))
    )
    run_matmul = impl(linalg.MatmulOp)(_integer_matmul_or(_structured(_mac_spec)))
    run_batch_matmul = impl(upstream_linalg.BatchMatmulOp)(
        _integer_matmul_or(_structured(_mac_spec))
    )
    run_matvec = impl(upstream_linalg.MatvecOp)(_structured(_mac_spec))
    run_vecmat = impl(upstream_linalg.VecmatOp)(_structured(_mac_spec))
    run_dot = impl(upstream_linalg.DotOp)(_structured(_mac_spec))
    run_quantized_matmul = impl(linalg.QuantizedMatmulOp)(
        _structured(_quantized_matmul_spec)
    )
    run_pooling_nchw_max = impl(linalg.PoolingNchwMaxOp)(_structured(_pooling_max_spec))
    run_conv_2d_nchw_fchw = impl(linalg.Conv2DNchwFchwOp)(_structured(_mac_spec))
    run_conv_2d_ngchw_fgchw = impl(linalg.Conv2DNgchwFgchwOp)(_structured(_mac_spec))
    run_conv_2d_ngchw_gfchw = impl(linalg.Conv2DNgchwGfchwOp)(_structured(_mac_spec))
    run_conv_2d_nhwc_fhwc = impl(linalg.Conv2DNhwc_FhwcOp)(_structured(_mac_spec))
    run_conv_2d_nhwgc_gfhwc = impl(linalg.Conv2DNhwgcGfhwcOp)(_structured(_mac_spec))
    run_reduce = impl(linalg.ReduceOp)(_structured(_reduce_spec))
    run_reduce_variadic = impl(upstream_linalg.ReduceOp)(_structured(_reduce_spec))
    run_map = impl(upstream_linalg.MapOp)(_structured(_map_spec))
    locals().update(
        {
            f"run_{conv.name.removeprefix('linalg.')}": impl(conv)(
                _structured(_mac_spec)
            )
            for conv in upstream_linalg.CHANNEL_LAST_CONV.values()
        }
    )
    locals().update(
        {
            f"run_{pooling.name.removeprefix('linalg.')}": impl(pooling)(
                _structured(_channel_last_pooling_spec)
            )
            for pooling in upstream_linalg.CHANNEL_LAST_POOLING.values()
        }
    )

    @impl(linalg.BroadcastOp)
    def run_broadcast(
        self, interpreter: Interpreter, op: linalg.BroadcastOp, args: PythonValues
    ) -> PythonValues:
        src, init = np.asarray(args[0]), np.asarray(args[1])
        added = sorted(op.dimensions.get_values())
        v = src
        for d in added:
            v = np.expand_dims(v, d)
        out = np.array(np.broadcast_to(v, init.shape), order="C")
        if out.dtype != init.dtype:
            out = out.astype(init.dtype)
        return (out,) if op.result else ()


FUNCTIONS: list[InterpreterFunctions] = [LinalgFunctions()]
