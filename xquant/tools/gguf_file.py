"""GGUF files (llama.cpp's model format) through the `gguf` package.

The `gguf` extra (`pip install 'xquant[gguf]'`) does the format's work:
`gguf.GGUFReader` parses the header (metadata in file order, tensor infos)
over a memory map of the file, and `gguf.GGUFWriter` writes a file. This
module adds what xquant needs on top, and what `gguf` does not check:

- every malformed file is a `GGUFError` naming the tensor and the byte
  offset (gguf raises bare `ValueError`/`IndexError`/`KeyError`, or builds
  a short view of truncated data without a word);
- a tensor's data is its own `numpy.memmap` at the offset gguf computed,
  made when the tensor is asked for and unmapped when the caller drops it:
  the reader's map of the whole file only ever touches the header, so
  resident memory holds one tensor at a time whatever the file's size;
- `write_gguf` streams tensors through `GGUFWriter` in the given metadata
  order (the writer's own `general.architecture` entry is not forced first),
  so a file the `gguf` package wrote reads and writes back byte for byte.

`HAVE_GGUF` says whether the extra is installed; `gguf` is imported only
inside the functions that use it, so xquant imports without it.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from xquant.numerics.gguf.layouts import LAYOUTS, BlockLayout, GGMLType

if TYPE_CHECKING:
    from gguf import GGUFReader, ReaderField

HAVE_GGUF = find_spec("gguf") is not None
INSTALL_HINT = (
    "xquant-gguf needs the `gguf` package (the optional extra): "
    "pip install 'xquant[gguf]' (or pip install 'gguf>=0.19,<0.20')"
)
MAGIC = b"GGUF"
HEADER_BYTES = 24  # magic, version, tensor count, metadata count
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
    """`gguf_type` of a metadata value (the numbers of `gguf.GGUFValueType`)."""

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


# ------------------------------------------------------------------ reading


def _tensor_info(field: ReaderField) -> TensorInfo:
    """A tensor info field of `GGUFReader` (parts: name length, name, rank,
    dims, type, offset) as a `TensorInfo`."""
    _, _, _, dims, raw_type, offset = field.parts
    shape = tuple(int(d) for d in reversed(dims.tolist()))
    return TensorInfo(field.name, shape, int(raw_type[0]), int(offset[0]), field.offset)


def _check_tensor(info: TensorInfo, data_offset: int, size: int) -> None:
    """What gguf does not check (or reports without the tensor's name): a
    known type, rows of whole blocks, the data inside the file."""
    from gguf import GGML_QUANT_SIZES, GGMLQuantizationType

    where = f"tensor '{info.name}'"
    try:
        t = GGMLQuantizationType(info.ggml_type)
    except ValueError:
        raise GGUFError(
            f"{where}: unknown GGML type {info.ggml_type}", info.info_offset
        ) from None
    block, type_size = GGML_QUANT_SIZES[t]
    row = info.shape[-1] if info.shape else 1
    if row % block:
        raise GGUFError(
            f"{where}: a row of {row} elements is not a whole number of "
            f"{t.name} blocks of {block}",
            info.info_offset,
        )
    nbytes = int(np.prod(info.shape, dtype=np.int64)) // block * type_size
    start = data_offset + info.offset
    if start + nbytes > size:
        raise GGUFError(
            f"{where}: {t.name} data of {nbytes} bytes at offset {start} runs "
            f"past the end of the file ({size} bytes): truncated",
            start,
        )


def _reader_class() -> type[GGUFReader]:
    from gguf import GGUFReader

    class CheckedReader(GGUFReader):
        """`GGUFReader` refusing reads past the end of the file (gguf returns a
        short view, and loops over a corrupt array count without advancing),
        and checking each tensor, by name, before gguf maps it."""

        def _get(
            self,
            offset: int,
            dtype: npt.DTypeLike,
            count: int = 1,
            override_order: Literal["I", "S", "<"] | None = None,
        ) -> npt.NDArray[Any]:
            size = int(self.data.shape[0])
            end = offset + np.dtype(dtype).itemsize * int(count)
            if count < 0 or end > size:
                raise GGUFError(
                    f"truncated header: {int(count)} x {np.dtype(dtype).name} at "
                    f"offset {offset} runs past the end of the file ({size} bytes)",
                    offset,
                )
            return super()._get(offset, dtype, count, override_order)

        def _build_tensors(self, start_offs: int, fields: list[ReaderField]) -> None:
            size = int(self.data.shape[0])
            for field in fields:
                _check_tensor(_tensor_info(field), start_offs, size)
            super()._build_tensors(start_offs, fields)

    return CheckedReader


def _peek_header(path: Path, size: int) -> None:
    """The fixed 24 bytes, checked before gguf walks the header (gguf reads a
    bad count as a loop over the rest of the file)."""
    if size < HEADER_BYTES:
        raise GGUFError(f"not a GGUF file: {size} bytes, shorter than a header", 0)
    with open(path, "rb") as f:
        head = f.read(HEADER_BYTES)
    if head[:4] != MAGIC:
        raise GGUFError(f"not a GGUF file: magic {head[:4]!r}, expected {MAGIC!r}", 0)
    n_tensors = int.from_bytes(head[8:16], "little")
    n_kv = int.from_bytes(head[16:24], "little")
    if n_tensors > size or n_kv > size:
        raise GGUFError(
            f"corrupt header: {n_tensors} tensors and {n_kv} metadata entries "
            f"cannot fit in {size} bytes",
            8,
        )


def _metadata_value(field: ReaderField) -> MetadataValue:
    where = f"metadata '{field.name}' at offset {field.offset}"
    try:
        t = ValueType(int(field.types[0]))
        if t != ValueType.ARRAY:
            return MetadataValue(t, field.contents())
        # parts: key length, key, value type, element type, count, elements...
        element = ValueType(int(field.parts[3][0]))
        if element == ValueType.ARRAY:
            raise GGUFError(f"{where}: nested arrays are not supported", field.offset)
        return MetadataValue(t, field.contents(), element)
    except UnicodeDecodeError:
        raise GGUFError(f"{where}: a string is not UTF-8", field.offset) from None
    except ValueError as err:
        raise GGUFError(f"{where}: {err}", field.offset) from None


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
        """Parse the header with `gguf.GGUFReader`; `GGUFError` if malformed."""
        path = Path(path)
        size = path.stat().st_size
        _peek_header(path, size)
        try:
            reader = _reader_class()(path)
        except (IndexError, OverflowError) as err:  # not expected after _get's check
            raise GGUFError(f"corrupt header: {err}") from None
        except UnicodeDecodeError as err:
            raise GGUFError(f"corrupt header: a name is not UTF-8 ({err})") from None
        except (ValueError, KeyError) as err:
            message = str(err.args[0]) if err.args else str(err)
            raise GGUFError(f"corrupt header: {message}") from None
        if reader.byte_order != "I":
            raise GGUFError("big-endian GGUF files are not supported", 4)
        version = int(reader.fields["GGUF.version"].parts[0][0])
        metadata = {
            name: _metadata_value(field)
            # the first three fields are gguf's own: version and the two counts
            for name, field in list(reader.fields.items())[3:]
        }
        tensors = [
            TensorInfo(
                t.name,
                _tensor_info(t.field).shape,
                int(t.tensor_type),
                t.data_offset - reader.data_offset,
                t.field.offset,
            )
            for t in reader.tensors
        ]
        return GGUFFile(
            path,
            version,
            metadata,
            tensors,
            int(reader.alignment),
            int(reader.data_offset),
            size,
        )

    def raw(self, info: TensorInfo) -> np.ndarray:
        """The tensor's bytes, a view into its own memory map, shape (..., row bytes).

        Raises `GGUFError` naming the tensor if xquant has no type for it.
        """
        where = f"tensor '{info.name}'"
        try:
            t = GGMLType(info.ggml_type)
        except ValueError:
            t = None
        if t == GGMLType.Q8_1:  # an IR type, but not a GGUF storage type
            raise GGUFError(
                f"{where}: GGML type Q8_1 is not supported in GGUF files (gguf "
                "sizes its blocks 40 bytes, ggml 36, and ggml has no Q8_1 "
                "dequantizer)",
                info.info_offset,
            )
        if t is None or (t not in PLAIN_TYPES and t not in LAYOUTS):
            supported = ", ".join(
                x.name for x in (*PLAIN_TYPES, *LAYOUTS) if x != GGMLType.Q8_1
            )
            raise GGUFError(
                f"{where}: GGML type {info.type_name} is not supported "
                f"(supported: {supported})",
                info.info_offset,
            )
        if not info.shape or any(d == 0 for d in info.shape):
            raise GGUFError(
                f"{where}: empty shape {list(info.shape)}", info.info_offset
            )
        nbytes = tensor_nbytes(t, info.shape)
        start = self.data_offset + info.offset
        data = np.memmap(self.path, np.uint8, "r", offset=start, shape=(nbytes,))
        return data.reshape(storage_shape(t, info.shape))

    def layout(self, info: TensorInfo) -> BlockLayout | None:
        t = GGMLType(info.ggml_type)
        return LAYOUTS.get(t)


# ------------------------------------------------------------------ writing


def write_gguf(
    path: str | Path,
    metadata: dict[str, MetadataValue],
    tensors: Iterable[tuple[str, tuple[int, ...], GGMLType, np.ndarray]],
) -> None:
    """Write a GGUF file (version 3) with `gguf.GGUFWriter`: the metadata in
    the given order, then the tensors' raw bytes (shape (..., row bytes)),
    streamed one at a time. `GGUFError` for what the writer would reject."""
    from gguf import GGMLQuantizationType, GGUFValueType, GGUFWriter

    items = list(tensors)
    writer = GGUFWriter(path, arch="")
    writer.kv_data[0].clear()  # the constructor's general.architecture entry
    for key, v in metadata.items():
        if v.type == ValueType.ARRAY and not v.value:
            raise GGUFError(f"metadata '{key}': gguf cannot write an empty array")
        sub = GGUFValueType(v.element_type) if v.element_type is not None else None
        writer.add_key_value(key, v.value, GGUFValueType(v.type), sub)
        if key == "general.alignment":
            writer.data_alignment = int(v.value)
    for name, shape, t, data in items:
        want = tensor_nbytes(t, shape)
        if data.nbytes != want:
            raise GGUFError(
                f"tensor '{name}': {data.nbytes} bytes of data, a {t.name} tensor of "
                f"shape {list(shape)} has {want}"
            )
        writer.add_tensor_info(
            name,
            storage_shape(t, shape),
            np.dtype(np.uint8),
            want,
            raw_dtype=GGMLQuantizationType(int(t)),
        )
    try:
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_ti_data_to_file()
        for _, _, _, data in items:
            writer.write_tensor_data(np.ascontiguousarray(data).reshape(-1))
    except (ValueError, struct.error) as err:  # a value the type cannot hold
        raise GGUFError(f"gguf cannot write the metadata: {err}") from None
    finally:
        writer.close()
