"""How values of IR types are held in numpy: dtypes, integer wrapping, dense constants.

The interpreter computes on these holders and the passes that fold
constants read attributes through them (`dense_value`), so both see the
same numbers. A ranked tensor is a numpy array of `numpy_dtype(element_type)`;
scalars are numpy scalars (Python ints and floats coming from xDSL's stock
implementations are accepted everywhere). Signless integers are held signed
and sign-extended (an `i4` lives in an int8 in [-8, 7]); `i1` is bool.
Every helper here works on numpy scalars and arrays alike and never mutates
its inputs.
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, cast, overload

import numpy as np
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    ShapedType,
    Signedness,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute
from xdsl.utils.hints import isa

from xquant.numerics.dtypes import ML_FLOAT_DTYPES as _ML_FLOAT_KINDS
from xquant.numerics.dtypes import cast_float, numpy_dtype

__all__ = [
    "NATIVE_FLOAT_DTYPES",
    "ElementTyped",
    "IdentityCache",
    "IntInfo",
    "as_value",
    "dense_value",
    "dtype_of",
    "element_type",
    "finish",
    "float_accumulator",
    "float_matmul",
    "from_unsigned",
    "int_info",
    "integer_matmul",
    "is_float_dtype",
    "is_ml_float",
    "loop_order_matmul",
    "reassociates_fp_reductions",
    "reassociating_fp_reductions",
    "signed_view",
    "unsigned_view",
    "wrap",
]

_NATURAL = (8, 16, 32, 64)
NATIVE_FLOAT_DTYPES = frozenset(
    np.dtype(t) for t in (np.float16, np.float32, np.float64)
)
"""numpy's own floats: their add and multiply round once, as the IR's ops."""


class ElementTyped(Protocol):
    """A type with an element type. Every shaped type here has `get_element_type`
    (xDSL's containers through `ContainerType`, mx_tensor's type on its own),
    though xDSL's `ShapedType` does not declare it."""

    def get_element_type(self) -> Attribute: ...


def element_type(t: Attribute) -> Attribute:
    """The element type of a shaped type, or the type itself: MLIR's
    `getElementTypeOrSelf`. Not xDSL's `get_element_type_or_self`, which also
    unwraps `complex<f32>` to `f32` (a `ContainerType`; MLIR keeps it) and misses
    shaped types that are not xDSL containers (`!mx_tensor.tensor`)."""
    if type(t) is TensorType:  # the common case, without the ABC check (~1.5 us)
        return t.element_type
    if isinstance(t, ShapedType | UnrankedTensorType):
        return cast(ElementTyped, t).get_element_type()
    return t


@overload
def with_element(
    container: TensorType[Any], element: Attribute
) -> TensorType[Attribute]: ...
@overload
def with_element(container: Attribute, element: Attribute) -> Attribute: ...
def with_element(container: Attribute, element: Attribute) -> Attribute:
    """`container` (scalar, ranked or unranked tensor) with its element type replaced."""
    if isinstance(container, TensorType):
        return TensorType(element, container.get_shape())
    if isinstance(container, UnrankedTensorType):
        return UnrankedTensorType(element)
    return element


_V = TypeVar("_V")


class IdentityCache(Generic[_V]):
    """Facts about attributes, keyed by the attribute object, not its value.

    xDSL attributes hash their whole value on every lookup: a tensor of a
    sub-channel quant type with 32768 scales costs ~6 ms per hash, more than
    the op it describes. Entries keep their attribute alive, so an id is never
    reused while cached; the cache is dropped when it grows past `limit`.
    """

    __slots__ = ("_entries", "_limit")

    def __init__(self, limit: int = 1 << 14) -> None:
        self._entries: dict[int, tuple[Attribute, _V]] = {}
        self._limit = limit

    def lookup(self, key: Attribute) -> tuple[Attribute, _V] | None:
        """`(key, value)` when `key` itself is cached, else None."""
        entry = self._entries.get(id(key))
        return entry if entry is not None and entry[0] is key else None

    def store(self, key: Attribute, value: _V) -> _V:
        if len(self._entries) >= self._limit:
            self._entries.clear()
        self._entries[id(key)] = (key, value)
        return value


_DTYPE_CACHE: IdentityCache[np.dtype[Any]] = IdentityCache()


def dtype_of(t: Attribute) -> np.dtype[Any]:
    """numpy dtype of a (shaped or scalar) type, cached."""
    entry = _DTYPE_CACHE.lookup(t)
    if entry is not None:
        return entry[1]
    return _DTYPE_CACHE.store(t, numpy_dtype(element_type(t)))


def is_float_dtype(dt: np.dtype[Any]) -> bool:
    return dt in NATIVE_FLOAT_DTYPES or dt in _ML_FLOAT_KINDS


def is_ml_float(dt: np.dtype[Any]) -> bool:
    return dt in _ML_FLOAT_KINDS


@dataclass(frozen=True)
class IntInfo:
    """How an integer type of `width` bits is held."""

    width: int
    dtype: np.dtype[Any]  # the holder (bool for i1, signed for signless)
    unsigned_type: bool  # `ui8` etc.: the holder is already unsigned
    natural: bool  # width is 8/16/32/64 (numpy wraps natively)
    udtype: np.dtype[Any]  # unsigned container of the holder's size
    mask: int
    half: int


_INT_CACHE: IdentityCache[IntInfo] = IdentityCache()


def int_info(t: Attribute) -> IntInfo:
    """Integer facts of a (shaped or scalar) integer or index type, cached."""
    entry = _INT_CACHE.lookup(t)
    if entry is not None:
        return entry[1]
    el = element_type(t)
    if isinstance(el, IndexType):
        width, unsigned = 64, False
    elif isa(el, IntegerType):
        width = el.width.data
        unsigned = el.signedness.data == Signedness.UNSIGNED
    else:
        raise ValueError(f"expected an integer type, got {el}")
    dt = numpy_dtype(el)
    udt = np.dtype(np.uint8) if width == 1 else np.dtype(f"uint{dt.itemsize * 8}")
    info = IntInfo(
        width, dt, unsigned, width in _NATURAL, udt, (1 << width) - 1, 1 << (width - 1)
    )
    return _INT_CACHE.store(t, info)


def as_value(x: Any, dt: np.dtype[Any]) -> Any:
    """`x` as a numpy value of dtype `dt` (arrays of that dtype pass through untouched)."""
    if type(x) is np.ndarray:
        return x if x.dtype == dt else x.astype(dt)
    if isinstance(x, np.generic):
        g = cast("np.generic[Any]", x)  # isinstance leaves numpy's parameter unknown
        return g if g.dtype == dt else np.asarray(g).astype(dt)[()]
    if dt.kind == "b":
        return np.bool_(
            bool(x) and (int(x) & 1 == 1 if isinstance(x, int) else bool(x))
        )
    if dt.kind in "iu" and isinstance(x, int):
        info_bits = dt.itemsize * 8
        x &= (1 << info_bits) - 1
        if dt.kind == "i" and x >= 1 << (info_bits - 1):
            x -= 1 << info_bits
        return dt.type(x)
    if dt.kind in "iu":
        return np.asarray(x).astype(dt)[()]
    return cast_float(np.float64(x), dt)


def finish(x: Any) -> Any:
    """0-d arrays become numpy scalars."""
    if type(x) is np.ndarray and x.ndim == 0:
        return x[()]
    return x


def signed_view(x: Any, info: IntInfo) -> Any:
    """The signed value of the bits held in `x` (i1 true is -1)."""
    if info.width == 1:
        return (
            -np.asarray(x, dtype=np.int8)
            if type(x) is np.ndarray
            else -np.int8(bool(x))
        )
    if info.unsigned_type:
        if info.natural:
            return (
                np.asarray(x).astype(np.dtype(f"int{info.width}"))[()]
                if type(x) is not np.ndarray
                else x.astype(np.dtype(f"int{info.width}"))
            )
        s = x.astype(np.int64) if type(x) is np.ndarray else np.int64(x)
        return ((s & info.mask) ^ info.half) - info.half
    return x


def unsigned_view(x: Any, info: IntInfo) -> Any:
    """The bits held in `x` read as an unsigned number (in an unsigned container)."""
    if info.width == 1:
        return x.astype(np.uint8) if type(x) is np.ndarray else np.uint8(bool(x))
    if info.unsigned_type:
        return x
    if type(x) is np.ndarray:
        u = x.astype(info.udtype)
    else:
        u = np.asarray(x).astype(info.udtype)[()]
    if info.natural:
        return u
    return u & info.udtype.type(info.mask)


def wrap(x: Any, info: IntInfo) -> Any:
    """Integer value `x` (any integer dtype) reduced modulo 2**width into the holder of `info`."""
    if info.width == 1:
        r = (x & 1) != 0
        return r
    dt = info.dtype
    if info.natural:
        if type(x) is np.ndarray:
            return x if x.dtype == dt else x.astype(dt)
        return x if getattr(x, "dtype", None) == dt else np.asarray(x).astype(dt)[()]
    if info.unsigned_type:
        r = x & info.mask
    else:
        # Sign-extend the low `width` bits; compute in a container wide enough.
        if type(x) is np.ndarray:
            if (
                x.dtype.itemsize < dt.itemsize
                or x.dtype.kind == "u"
                or x.dtype.kind == "b"
            ):
                x = x.astype(np.int64)
        else:
            x = np.int64(x)
        r = ((x & info.mask) ^ info.half) - info.half
    if type(r) is np.ndarray:
        return r if r.dtype == dt else r.astype(dt)
    return np.asarray(r).astype(dt)[()]


def from_unsigned(u: Any, info: IntInfo) -> Any:
    """Unsigned bits `u` back into the holder of `info`."""
    return wrap(u, info)


def integer_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`np.matmul` of integer arrays, exact, in int64.

    numpy has no BLAS for integers (a 512^3 int64 matmul takes about a
    second); float BLAS is exact while every partial sum stays below 2**24
    (float32) or 2**53 (float64), which `k * max|a| * max|b|` bounds. Beyond
    that the int64 loop runs.
    """
    if a.size == 0 or b.size == 0:
        return np.matmul(a.astype(np.int64), b.astype(np.int64))
    bound = _magnitude(a) * _magnitude(b) * a.shape[-1]
    if bound >= 2**53:
        return np.matmul(a.astype(np.int64), b.astype(np.int64))
    exact = np.float32 if bound < 2**24 else np.float64
    return np.matmul(a.astype(exact), b.astype(exact)).astype(np.int64)


def _magnitude(x: np.ndarray) -> int:
    """max |x| as a Python int (np.abs would overflow at the int64 minimum)."""
    return max(int(x.max()), -int(x.min()))


def loop_order_matmul(a: np.ndarray, b: np.ndarray, init: np.ndarray) -> np.ndarray:
    """`init + a @ b` for 2-D `a` (M x K) and `b` (K x N) of one float dtype, accumulated
    as the scalar loop does: `acc = acc + a[m, k] * b[k, n]` for k = 0, 1, ..., one
    rounding per multiply and per add. Vectorized over (m, n) with two reused
    buffers, so no (M, N, K) product and no allocation per k."""
    m, k_size = a.shape
    acc = np.array(np.broadcast_to(init, (m, b.shape[1])), dtype=a.dtype, copy=True)
    if k_size == 0:
        return acc
    columns = np.ascontiguousarray(a.T)[:, :, None]  # columns[k] is a[:, k] as M x 1
    product = np.empty_like(acc)
    for k in range(k_size):
        np.multiply(columns[k], b[k], out=product)
        np.add(acc, product, out=acc)
    return acc


_REASSOCIATE: ContextVar[bool] = ContextVar(
    "xquant_reassociate_fp_reductions", default=False
)


@contextmanager
def reassociating_fp_reductions(enabled: bool = True) -> Generator[None]:
    """Within the block, float contractions may sum in any order (`float_matmul`).

    The analogue of IREE's `--iree-llvmcpu-reassociate-fp-reductions` and of
    `fastmath<reassoc>`: BLAS speed, results no longer bit-defined by the IR
    (they match `numpy`'s `a @ b`, not the scalar loop).
    """
    token = _REASSOCIATE.set(enabled)
    try:
        yield
    finally:
        _REASSOCIATE.reset(token)


def reassociates_fp_reductions() -> bool:
    """Whether float reductions may sum in any order here (see above)."""
    return _REASSOCIATE.get()


_BLAS_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64))


def float_matmul(a: np.ndarray, b: np.ndarray, init: np.ndarray) -> np.ndarray:
    """`init + a @ b` for 2-D float `a` (M x K) and `b` (K x N) of one dtype, as the IR
    defines it (`loop_order_matmul`), or through BLAS inside
    `reassociating_fp_reductions()` for f32/f64 (other float types have no BLAS,
    and their per-step rounding stays the loop's)."""
    if _REASSOCIATE.get() and a.dtype in _BLAS_DTYPES and a.dtype == b.dtype:
        out = np.matmul(np.ascontiguousarray(a), np.ascontiguousarray(b))
        return np.add(out, np.asarray(init, dtype=a.dtype), out=out)
    return loop_order_matmul(a, b, init)


def float_accumulator(result: np.dtype[Any]) -> np.dtype[Any]:
    """The type a float contraction with result dtype `result` sums in.

    XLA's rule: floats narrower than f32 (bf16, f16, the f8 types) are
    multiplied and summed in f32 and rounded once to the result type; f32 and
    f64 sum in their own type.
    """
    if result.itemsize < 4:
        return np.dtype(np.float32)
    return result


def dense_value(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """A dense int/float elements attribute as a numpy array of the element type's dtype."""
    shape = attr.get_shape()
    el = attr.get_element_type()
    dt = dtype_of(el)
    raw = attr.data.data
    n = len(attr)
    size = int(np.prod(shape)) if shape else 1
    if dt.kind == "b":
        arr = np.frombuffer(raw, dtype=np.int8, count=n) != 0
    elif (dt.itemsize == el.compile_time_size and dt.kind in "iuf") or (
        is_ml_float(dt) and el.compile_time_size == dt.itemsize
    ):
        arr = np.frombuffer(raw, dtype=dt, count=n)
        if dt.kind in "iu":
            arr = wrap(arr, int_info(el))
    else:
        values = attr.get_values()
        if dt.kind in "iu":
            arr = wrap(np.array(values, dtype=np.int64), int_info(el))
        else:
            arr = cast_float(np.array(values, dtype=np.float64), dt)
    if arr.size == 1 and size != 1:
        arr = np.broadcast_to(arr.reshape(()), shape)
    arr = np.array(arr.reshape(shape), copy=True)
    arr.flags.writeable = False
    return arr
