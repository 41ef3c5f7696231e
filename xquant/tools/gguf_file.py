"""Reading and writing GGUF files (llama.cpp's model format), memory-mapped.

A GGUF file (version 2 or 3, little endian) is: the magic `GGUF`, a u32
version, u64 tensor and key-value counts, the key-value pairs, the tensor
infos (name, dims innermost first, ggml type, offset into the data), zero
padding to the alignment (`general.alignment`, default 32), then the tensor
data, each tensor padded to the alignment. This module reads the header
eagerly and each tensor's data through its own `numpy.memmap`, made when the
tensor is asked for and unmapped when the caller drops it, so memory holds
one tensor at a time whatever the file's size; `write_gguf` writes the layout the
`gguf` package's `GGUFWriter` writes, so a file it wrote reads and writes
back byte for byte.

Bad files raise `GGUFError` with the byte offset and, for tensor data, the
tensor's name.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from xquant.numerics.gguf.layouts import LAYOUTS, BlockLayout, GGMLType

MAGIC = b"GGUF"
DEFAULT_ALIGNMENT = 32
PLAIN_TYPES: dict[GGMLType, tuple[int, str]] = {
    GGMLType.F32: (4, "<f4"),
    GGMLType.F16: (2, "<f2"),
    GGMLType.BF16: (2, "<u2"),
}
"""Unblocked tensor types: bytes per element and the numpy dtype of the raw data."""


class GGUFError(Exception):
    """A malformed GGUF file; `offset` is the byte where reading failed."""

    def __init__(self, message: str, offset: int | None = None):
        super().__init__(message)
        self.offset = offset


class ValueType(IntEnum):
    """`gguf_type` of a metadata value."""

    UINT8 = 0
    INT8 = 1
    UINT16 = 2
    INT16 = 3
    UINT32 = 4
    INT32 = 5
    FLOAT32 = 6
    BOOL = 7
    STRING = 8
    ARRAY = 9
    UINT64 = 10
    INT64 = 11
    FLOAT64 = 12


_SCALAR_FORMATS: dict[ValueType, str] = {
    ValueType.UINT8: "<B",
    ValueType.INT8: "<b",
    ValueType.UINT16: "<H",
    ValueType.INT16: "<h",
    ValueType.UINT32: "<I",
    ValueType.INT32: "<i",
    ValueType.FLOAT32: "<f",
    ValueType.BOOL: "<?",
    ValueType.UINT64: "<Q",
    ValueType.INT64: "<q",
    ValueType.FLOAT64: "<d",
}


@dataclass(frozen=True)
class MetadataValue:
    """One metadata value: its type (and element type for arrays) and the value
    (int, float, bool, str, or a list of them)."""

    type: ValueType
    value: Any
    element_type: ValueType | None = None


@dataclass(frozen=True)
class TensorInfo:
    name: str
    shape: tuple[int, ...]  # numpy order: outermost first (ggml's ne reversed)
    ggml_type: int
    offset: int  # from the start of the data section
    info_offset: int  # byte offset of this tensor's info in the file

    @property
    def type_name(self) -> str:
        try:
            return GGMLType(self.ggml_type).name
        except ValueError:
            return f"unknown type {self.ggml_type}"


def storage_shape(ggml_type: GGMLType, shape: tuple[int, ...]) -> tuple[int, ...]:
    """The raw data's shape: `shape` with the last dimension counted in bytes."""
    return (*shape[:-1], tensor_nbytes(ggml_type, shape[-1:]))


def tensor_nbytes(ggml_type: GGMLType, shape: tuple[int, ...]) -> int:
    """The data size of a tensor (its last dimension a whole number of blocks)."""
    count = int(np.prod(shape, dtype=np.int64))
    if ggml_type in PLAIN_TYPES:
        return count * PLAIN_TYPES[ggml_type][0]
    layout = LAYOUTS[ggml_type]
    return count // layout.block_size * layout.type_size


class _Cursor:
    def __init__(self, data: memoryview, size: int):
        self.data = data
        self.size = size
        self.pos = 0

    def take(self, n: int, what: str) -> memoryview:
        if n < 0 or self.pos + n > self.size:
            raise GGUFError(
                f"truncated header: {what} needs {n} bytes at offset {self.pos}, "
                f"the file has {self.size}",
                self.pos,
            )
        chunk = self.data[self.pos : self.pos + n]
        self.pos += n
        return chunk

    def scalar(self, t: ValueType, what: str) -> Any:
        fmt = _SCALAR_FORMATS[t]
        return struct.unpack(fmt, self.take(struct.calcsize(fmt), what))[0]

    def u32(self, what: str) -> int:
        return int(self.scalar(ValueType.UINT32, what))

    def u64(self, what: str) -> int:
        return int(self.scalar(ValueType.UINT64, what))

    def string(self, what: str) -> str:
        start = self.pos
        n = self.u64(f"the length of {what}")
        raw = bytes(self.take(n, what))
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise GGUFError(f"{what} at offset {start} is not UTF-8", start) from None

    def value_type(self, what: str) -> ValueType:
        start = self.pos
        code = self.u32(f"the type of {what}")
        try:
            return ValueType(code)
        except ValueError:
            raise GGUFError(
                f"unknown metadata value type {code} for {what} at offset {start}",
                start,
            ) from None

    def value(self, t: ValueType, what: str) -> MetadataValue:
        if t == ValueType.STRING:
            return MetadataValue(t, self.string(what))
        if t != ValueType.ARRAY:
            return MetadataValue(t, self.scalar(t, what))
        elem = self.value_type(f"the elements of {what}")
        count = self.u64(f"the length of {what}")
        if elem == ValueType.ARRAY:
            raise GGUFError(f"nested arrays are not supported ({what})", self.pos)
        if elem == ValueType.STRING:
            items = [self.string(f"element {i} of {what}") for i in range(count)]
            return MetadataValue(t, items, elem)
        fmt = _SCALAR_FORMATS[elem]
        raw = self.take(count * struct.calcsize(fmt), what)
        array = np.frombuffer(raw, dtype=np.dtype(fmt))
        return MetadataValue(t, array.tolist(), elem)


@dataclass
class GGUFFile:
    """An open GGUF file: metadata and tensor infos read; tensors mapped on demand."""

    path: Path
    version: int
    metadata: dict[str, MetadataValue]
    tensors: list[TensorInfo]
    alignment: int
    data_offset: int
    size: int

    @staticmethod
    def open(path: str | Path) -> GGUFFile:
        path = Path(path)
        size = path.stat().st_size
        if size < 24:
            raise GGUFError(f"not a GGUF file: {size} bytes, shorter than a header", 0)
        mapped = np.memmap(path, dtype=np.uint8, mode="r")
        cur = _Cursor(memoryview(mapped), size)  # type: ignore[arg-type]
        if bytes(cur.take(4, "the magic")) != MAGIC:
            raise GGUFError(
                f"not a GGUF file: magic {bytes(mapped[:4])!r}, expected {MAGIC!r}", 0
            )
        version = cur.u32("the version")
        if version not in (2, 3):
            raise GGUFError(f"unsupported GGUF version {version} (2 and 3 are)", 4)
        n_tensors = cur.u64("the tensor count")
        n_kv = cur.u64("the metadata count")
        if n_tensors > size or n_kv > size:
            raise GGUFError(
                f"corrupt header: {n_tensors} tensors and {n_kv} metadata entries "
                f"cannot fit in {size} bytes",
                8,
            )
        metadata: dict[str, MetadataValue] = {}
        for i in range(n_kv):
            key = cur.string(f"metadata key {i}")
            t = cur.value_type(f"metadata '{key}'")
            metadata[key] = cur.value(t, f"metadata '{key}'")
        tensors: list[TensorInfo] = []
        for i in range(n_tensors):
            start = cur.pos
            name = cur.string(f"the name of tensor {i}")
            n_dims = cur.u32(f"the rank of tensor '{name}'")
            if n_dims > 8:
                raise GGUFError(f"tensor '{name}': rank {n_dims} is above 8", start)
            ne = [cur.u64(f"a dimension of tensor '{name}'") for _ in range(n_dims)]
            ggml_type = cur.u32(f"the type of tensor '{name}'")
            offset = cur.u64(f"the offset of tensor '{name}'")
            tensors.append(
                TensorInfo(name, tuple(reversed(ne)), ggml_type, offset, start)
            )
        alignment = DEFAULT_ALIGNMENT
        if (entry := metadata.get("general.alignment")) is not None:
            alignment = int(entry.value)
            if alignment <= 0 or alignment & (alignment - 1):
                raise GGUFError(
                    f"general.alignment {alignment} is not a power of two", None
                )
        data_offset = -(-cur.pos // alignment) * alignment
        del cur, mapped  # unmap the header
        return GGUFFile(path, version, metadata, tensors, alignment, data_offset, size)

    def raw(self, info: TensorInfo) -> np.ndarray:
        """The tensor's bytes, a view into the memory map, shape (..., row bytes).

        Checks the type, that rows are whole blocks, and that the data is in
        the file; raises `GGUFError` naming the tensor otherwise.
        """
        where = f"tensor '{info.name}'"
        try:
            t = GGMLType(info.ggml_type)
        except ValueError:
            raise GGUFError(
                f"{where}: unknown GGML type {info.ggml_type}", info.info_offset
            ) from None
        if t not in PLAIN_TYPES and t not in LAYOUTS:
            raise GGUFError(
                f"{where}: GGML type {t.name} is not supported (supported: "
                + ", ".join(x.name for x in (*PLAIN_TYPES, *LAYOUTS))
                + ")",
                info.info_offset,
            )
        if not info.shape or any(d == 0 for d in info.shape):
            raise GGUFError(
                f"{where}: empty shape {list(info.shape)}", info.info_offset
            )
        row = info.shape[-1]
        if t in LAYOUTS and row % LAYOUTS[t].block_size:
            raise GGUFError(
                f"{where}: a row of {row} elements is not a whole number of "
                f"{t.name} blocks of {LAYOUTS[t].block_size}",
                info.info_offset,
            )
        nbytes = tensor_nbytes(t, info.shape)
        start = self.data_offset + info.offset
        if start + nbytes > self.size:
            raise GGUFError(
                f"{where}: {t.name} data of {nbytes} bytes at offset {start} runs "
                f"past the end of the file ({self.size} bytes): truncated",
                start,
            )
        data = np.memmap(self.path, np.uint8, "r", offset=start, shape=(nbytes,))
        return data.reshape(storage_shape(t, info.shape))

    def layout(self, info: TensorInfo) -> BlockLayout | None:
        t = GGMLType(info.ggml_type)
        return LAYOUTS.get(t)


# ------------------------------------------------------------------ writing


def _pack_string(s: str) -> bytes:
    raw = s.encode("utf-8")
    return struct.pack("<Q", len(raw)) + raw


def _pack_value(v: MetadataValue) -> bytes:
    out = struct.pack("<I", int(v.type))
    if v.type == ValueType.STRING:
        return out + _pack_string(v.value)
    if v.type != ValueType.ARRAY:
        return out + struct.pack(_SCALAR_FORMATS[v.type], v.value)
    assert v.element_type is not None
    out += struct.pack("<IQ", int(v.element_type), len(v.value))
    if v.element_type == ValueType.STRING:
        return out + b"".join(_pack_string(s) for s in v.value)
    dtype = np.dtype(_SCALAR_FORMATS[v.element_type])
    return out + np.asarray(v.value, dtype=dtype).tobytes()


def _pad(n: int, alignment: int) -> int:
    return -(-n // alignment) * alignment


def write_gguf(
    out: BinaryIO,
    metadata: dict[str, MetadataValue],
    tensors: Iterable[tuple[str, tuple[int, ...], GGMLType, np.ndarray]],
    version: int = 3,
) -> None:
    """Write a GGUF file as `GGUFWriter` does: header, metadata, tensor infos
    (offsets packed in order, each padded), padding, data (each padded)."""
    alignment = DEFAULT_ALIGNMENT
    if (entry := metadata.get("general.alignment")) is not None:
        alignment = int(entry.value)
    items = list(tensors)
    head = bytearray(MAGIC)
    head += struct.pack("<IQQ", version, len(items), len(metadata))
    for key, value in metadata.items():
        head += _pack_string(key) + _pack_value(value)
    offset = 0
    for name, shape, t, data in items:
        head += _pack_string(name) + struct.pack("<I", len(shape))
        head += b"".join(struct.pack("<Q", d) for d in reversed(shape))
        head += struct.pack("<IQ", int(t), offset)
        offset += _pad(data.nbytes, alignment)
    head += bytes(_pad(len(head), alignment) - len(head))
    out.write(head)
    for _, _, _, data in items:
        out.write(np.ascontiguousarray(data).tobytes())
        out.write(bytes(_pad(data.nbytes, alignment) - data.nbytes))
