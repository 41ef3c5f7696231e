"""`dense_resource` blobs: decoding them into interpreter values, and storing new ones.

A `dense_resource<name> : tensor<...>` attribute names a blob in the file's
`{-# dialect_resources: { builtin: { name: "0x..." } } #-}` section. xDSL keeps
those hex strings in the `builtin` dialect's `OpAsmDialectInterface` (one store
per process). MLIR's blob layout: a 4-byte little-endian alignment word, then
the elements, little-endian, each in whole bytes (`ceil(width / 8)`): `i1` and
every sub-byte type (i4, f6/f4 MX floats) take one byte per element. MLIR
writes a sub-byte integer zero-extended in its byte (`dense<[-2]> : tensor<1xi4>`
is `0x0E` under `--mlir-print-elementsattrs-with-hex-if-larger`); reading keeps
only the low `width` bits, so a sign-extended byte (`0xFE`) reads the same.

Bad blobs (missing, truncated, odd hex, wrong size) raise `ResourceError`, an
`InterpretationError` the interpreter locates at the op that reads the constant.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    ArrayAttr,
    Builtin,
    DenseResourceAttr,
    FunctionType,
    IndexType,
    IntegerType,
    ModuleOp,
    ShapedType,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import DiagnosticException, InterpretationError
from xdsl.utils.hints import isa

from xquant.numerics.dtypes import cast_float
from xquant.numerics.values import dtype_of, element_type, int_info, wrap

__all__ = [
    "ResourceError",
    "bind_weights",
    "blob_bytes",
    "encode_blob",
    "resource_store",
    "resource_value",
    "store_resource",
]

_ALIGNMENT_BYTES = 4


class ResourceError(InterpretationError):
    """A `dense_resource` blob that is missing or does not hold its type's elements."""


def resource_store() -> OpAsmDialectInterface:
    """The process-wide store of `builtin` resource blobs (xDSL's)."""
    store = Builtin.get_interface(OpAsmDialectInterface)
    if store is None:  # pragma: no cover - xDSL 0.74's builtin always has it
        raise ResourceError("the builtin dialect keeps no resource blobs")
    return store


def _element_bits(el: Attribute) -> int:
    if isinstance(el, IndexType):
        return 64
    if isinstance(el, IntegerType):
        return el.bitwidth
    bits = getattr(el, "bitwidth", None)
    if isinstance(bits, int):
        return bits
    return dtype_of(el).itemsize * 8


def _element_bytes(el: Attribute) -> int:
    return (_element_bits(el) + 7) // 8


def blob_bytes(name: str) -> bytes:
    """The data bytes of resource `name` (after its alignment word)."""
    text = resource_store().lookup(name)
    if text is None:
        raise ResourceError(f"no resource blob named '{name}'")
    if not text:
        raise ResourceError(
            f"resource '{name}' has no blob in the file's dialect_resources section"
        )
    digits = len(text) - 2
    if digits % 2:
        raise ResourceError(
            f"resource '{name}' has an odd number of hex digits ({digits})"
        )
    try:
        raw = bytes.fromhex(text[2:])
    except ValueError:
        raise ResourceError(f"resource '{name}' is not a hex blob") from None
    if len(raw) < _ALIGNMENT_BYTES:
        raise ResourceError(
            f"resource '{name}' is truncated: {len(raw)} bytes, "
            f"shorter than its {_ALIGNMENT_BYTES}-byte alignment word"
        )
    alignment = int.from_bytes(raw[:_ALIGNMENT_BYTES], "little")
    if alignment == 0 or alignment & (alignment - 1):
        raise ResourceError(
            f"resource '{name}' has alignment {alignment}, not a power of two"
        )
    return raw[_ALIGNMENT_BYTES:]


_CACHE: dict[tuple[str, Attribute], tuple[str, np.ndarray]] = {}


def resource_value(attr: DenseResourceAttr) -> np.ndarray:
    """The read-only array a `dense_resource` attribute holds, decoded once per blob."""
    name = attr.resource_handle.data
    typ = attr.type
    text = resource_store().lookup(name)
    cached = _CACHE.get((name, typ))
    if cached is not None and text is not None and cached[0] is text:
        return cached[1]
    value = _decode(name, blob_bytes(name), typ)
    value.flags.writeable = False
    assert text is not None
    _CACHE[(name, typ)] = (text, value)
    return value


def _decode(name: str, data: bytes, typ: ShapedType) -> np.ndarray:
    shape = tuple(typ.get_shape())
    count = int(np.prod(shape, dtype=np.int64))
    el = element_type(typ)
    dt = dtype_of(el)
    size = _element_bytes(el)
    if len(data) != count * size:
        raise ResourceError(
            f"resource '{name}' holds {len(data)} bytes, but {typ} needs "
            f"{count * size} ({count} elements of {size} bytes)"
        )
    bits = _element_bits(el)
    if isa(el, IntegerType | IndexType):
        info = int_info(el)
        if bits == 1:
            return (np.frombuffer(data, np.uint8) != 0).reshape(shape)
        if size == dt.itemsize:
            raw = np.frombuffer(data, dtype=np.dtype(f"<i{size}")).astype(dt)
        else:  # i12, i24...: pad every element to its holder's width
            padded = np.zeros((count, dt.itemsize), np.uint8)
            padded[:, :size] = np.frombuffer(data, np.uint8).reshape(count, size)
            raw = padded.view(np.dtype(f"<i{dt.itemsize}")).reshape(count)
        return np.array(wrap(raw, info), copy=True).reshape(shape)
    if size != dt.itemsize:
        raise ResourceError(f"resource '{name}': no blob layout for {el}")
    if bits < 8:  # MX f6/f4: the value is the byte's low bits
        raw = np.frombuffer(data, np.uint8) & np.uint8((1 << bits) - 1)
        return raw.view(dt).reshape(shape)
    return np.frombuffer(data, dtype=dt.newbyteorder("<")).astype(dt).reshape(shape)


def encode_blob(array: Any, typ: Attribute) -> str:
    """`array` as MLIR's hex blob for a `dense_resource` of tensor type `typ`.

    Integers keep their low `width` bits (zero-extended in the byte, as MLIR
    writes them); floats are rounded to the element type once (nearest-even).
    """
    el = element_type(typ)
    dt = dtype_of(el)
    bits = _element_bits(el)
    size = _element_bytes(el)
    arr = np.asarray(array)
    if isinstance(el, IntegerType | IndexType):
        holder = np.dtype(f"<u{max(size, 1)}") if size in (1, 2, 4, 8) else None
        as_int = arr.astype(np.int64, copy=False)
        if bits < 64:
            as_int = as_int & np.int64((1 << bits) - 1)
        if holder is not None:
            data = as_int.astype(holder).tobytes()
        else:
            data = (
                as_int.astype("<u8").view(np.uint8).reshape(-1, 8)[:, :size].tobytes()
            )
    else:
        data = (
            np.asarray(cast_float(arr, dt), dtype=dt)
            .astype(dt.newbyteorder("<"), copy=False)
            .tobytes()
        )
    alignment = 1 << max(0, (size - 1).bit_length())
    return "0x" + (alignment.to_bytes(_ALIGNMENT_BYTES, "little") + data).hex().upper()


def store_resource(name: str, array: Any, typ: ShapedType) -> DenseResourceAttr:
    """Store `array` as a new blob (renamed `name_0`... if taken) and return its attribute."""
    store = resource_store()
    key = store.declare_resource(name)
    store.parse_resource(key, encode_blob(array, typ))
    return DenseResourceAttr.from_params(key, typ)


def _checked_array(name: str, array: Any, typ: Attribute) -> np.ndarray:
    if not isa(typ, TensorType) or any(d < 0 for d in typ.get_shape()):
        raise DiagnosticException(
            f"weight '{name}': {typ} is not a statically shaped tensor"
        )
    arr = np.asarray(array)
    shape = tuple(typ.get_shape())
    if arr.shape != shape:
        raise DiagnosticException(
            f"weight '{name}' has shape {arr.shape}, but {typ} needs {shape}"
        )
    try:
        dtype_of(typ)
    except ValueError as err:
        raise DiagnosticException(f"weight '{name}': {err}") from None
    return arr


def _bind_argument(fn: func.FuncOp, index: int, attr: DenseResourceAttr) -> None:
    """Replace argument `index` of `fn` by a constant holding `attr`."""
    block = fn.body.block
    arg = block.args[index]
    const = arith.ConstantOp(attr, arg.type)
    const.result.name_hint = arg.name_hint
    if block.first_op is None:
        block.add_op(const)
    else:
        block.insert_op_before(const, block.first_op)
    arg.replace_all_uses_with(const.result)
    block.erase_arg(arg)
    inputs = list(fn.function_type.inputs.data)
    del inputs[index]
    fn.function_type = FunctionType.from_lists(
        inputs, list(fn.function_type.outputs.data)
    )
    if fn.arg_attrs is not None:
        kept = list(fn.arg_attrs.data)
        del kept[index]
        fn.arg_attrs = ArrayAttr(kept)


def bind_weights(module: ModuleOp, weights: Mapping[str, Any]) -> ModuleOp:
    """Bind numpy arrays to `module` as `dense_resource` blobs, in place; returns `module`.

    Each name is either a function argument (`%w` in `func.func @f(%w: ...)`, in
    every function that has one), which becomes an `arith.constant
    dense_resource<w>` at the function's entry and leaves the signature, or the
    handle of a `dense_resource<w>` attribute already in the module, whose blob
    is replaced. The array must have the tensor's shape; it is stored once in
    the element type (floats rounded to nearest-even, integers keep their low
    bits), never printed as a literal. Raises DiagnosticException for an unknown
    name, a shape mismatch or a type without a blob layout.
    """
    remaining = dict(weights)
    bound: set[str] = set()
    for op in list(module.walk()):
        if not isinstance(op, func.FuncOp) or not op.body.blocks:
            continue
        for index in reversed(range(len(op.body.block.args))):
            name = op.body.block.args[index].name_hint
            if name is None or name not in remaining:
                continue
            typ = op.body.block.args[index].type
            arr = _checked_array(name, remaining[name], typ)
            assert isa(typ, TensorType)  # _checked_array raised otherwise
            _bind_argument(op, index, store_resource(name, arr, typ))
            bound.add(name)
    store = resource_store()
    for op in module.walk():
        for attr in (*op.properties.values(), *op.attributes.values()):
            if not isinstance(attr, DenseResourceAttr):
                continue
            name = attr.resource_handle.data
            if name not in remaining or name in bound:
                continue
            arr = _checked_array(name, remaining[name], attr.type)
            if store.lookup(name) is None:
                store.declare_resource(name)
            store.parse_resource(name, encode_blob(arr, attr.type))
            bound.add(name)
    missing = sorted(set(remaining) - bound)
    if missing:
        raise DiagnosticException(
            "no function argument or dense_resource named "
            + ", ".join(f"'{n}'" for n in missing)
        )
    return module
