"""`xquant-gguf`: GGUF model files to MLIR and back.

    xquant-gguf import MODEL.gguf -o MODEL.mlir [--tensor NAME]...
    xquant-gguf export MODEL.mlir -o MODEL.gguf

`import` writes one function per tensor, without arguments, named after the
tensor (`blk.0.ffn_down.weight` -> `@blk_0_ffn_down_weight`, the GGUF name
kept as `gguf.name`), returning the tensor dequantized to f32, so
`xquant-run MODEL.mlir` prints every tensor. The tensor's bytes are a
`dense_resource` constant, unchanged: a block-quantized tensor is
`tensor<R x BYTES x i8>` `quant.scast` to its `!quant.superblock` type, then
`quant.dcast` to f32; F32 tensors are returned as they are, F16/BF16 through
`arith.extf`. The file's metadata (typed, in order) is the module attribute
`gguf.metadata`, `[["key", "type", value], ...]`. The file is memory-mapped
and written one tensor at a time, in chunks, so memory stays small whatever
the model's size.

`export` writes the module's tensors and metadata back as a GGUF file, laid
out as the `gguf` package writes it: a file it wrote imports and exports back
byte for byte.

Bad input is `FILE: error: message` on stderr (naming the tensor and the
byte offset for a tensor's data) and exit code 1, never a traceback: a
corrupt header, an unknown GGML type, a row that is not whole blocks,
truncated data, a NaN or infinite super-block scale.
"""

from __future__ import annotations

import argparse
import math
import re
import struct
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import numpy as np
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    ArrayAttr,
    BytesAttr,
    DenseArrayBase,
    DenseResourceAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import DiagnosticException, InterpretationError, ParseError
from xdsl.utils.hints import isa

from xquant import parse_module
from xquant.compat import install
from xquant.dialects.quant.ops import StorageCastOp
from xquant.dialects.quant.superblock import SuperblockQuantizedType
from xquant.interpreter.resources import blob_bytes
from xquant.numerics.gguf.layouts import LAYOUTS, GGMLType, super_scales
from xquant.tools.gguf_file import (
    PLAIN_TYPES,
    GGUFError,
    GGUFFile,
    MetadataValue,
    TensorInfo,
    ValueType,
    storage_shape,
    write_gguf,
)

_CHUNK_BYTES = 1 << 22  # hex-encode and scan tensors in 4 MiB pieces
_PLAIN_ELEMENT = {GGMLType.F32: "f32", GGMLType.F16: "f16", GGMLType.BF16: "bf16"}
_IDENT = re.compile(r"[^A-Za-z0-9_]")


class ToolError(Exception):
    """A reportable failure: `FILE: error: message`."""


# ------------------------------------------------------------------ import


def function_name(tensor_name: str, taken: set[str]) -> str:
    """`blk.0.ffn_down.weight` -> `blk_0_ffn_down_weight` (unique in `taken`)."""
    base = _IDENT.sub("_", tensor_name) or "tensor"
    if base[0].isdigit():
        base = f"t_{base}"
    name, k = base, 1
    while name in taken:
        name, k = f"{base}_{k}", k + 1
    taken.add(name)
    return name


def _string_literal(s: str) -> str:
    """An MLIR string literal: `"`, `\\` and control characters as `\\XX`."""
    out: list[str] = []
    for ch in s:
        if ch in '"\\' or ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("".join(f"\\{b:02X}" for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _float_literal(v: float) -> str:
    if math.isfinite(v):
        return repr(float(v))
    return "0x" + struct.pack(">d", v).hex().upper()


def _type_name(v: MetadataValue) -> str:
    if v.type == ValueType.ARRAY:
        assert v.element_type is not None
        return f"array<{v.element_type.name.lower()}>"
    return v.type.name.lower()


_INT_TYPES = {
    ValueType.UINT8,
    ValueType.INT8,
    ValueType.UINT16,
    ValueType.INT16,
    ValueType.UINT32,
    ValueType.INT32,
    ValueType.UINT64,
    ValueType.INT64,
}


def _wrap64(v: int) -> int:
    return v - (1 << 64) if v >= 1 << 63 else v


def _value_text(t: ValueType, value: Any, element: ValueType | None) -> str:
    if t == ValueType.STRING:
        return _string_literal(value)
    if t == ValueType.BOOL:
        return "true" if value else "false"
    if t in _INT_TYPES:
        return f"{_wrap64(int(value))} : i64"
    if t in (ValueType.FLOAT32, ValueType.FLOAT64):
        return f"{_float_literal(value)} : f64"
    assert t == ValueType.ARRAY and element is not None
    if element == ValueType.STRING:
        return "[" + ", ".join(_string_literal(s) for s in value) + "]"
    if element in (ValueType.FLOAT32, ValueType.FLOAT64):
        body = ", ".join(_float_literal(v) for v in value)
        return f"array<f64{': ' + body if body else ''}>"
    body = ", ".join(str(_wrap64(int(v))) for v in value)
    return f"array<i64{': ' + body if body else ''}>"


def _metadata_text(metadata: dict[str, MetadataValue]) -> str:
    entries = [
        f"[{_string_literal(k)}, {_string_literal(_type_name(v))}, "
        f"{_value_text(v.type, v.value, v.element_type)}]"
        for k, v in metadata.items()
    ]
    return "[" + ", ".join(entries) + "]"


def _shape_text(shape: Sequence[int]) -> str:
    return "x".join(str(d) for d in shape)


def _check_scales(gguf: GGUFFile, info: TensorInfo, raw: np.ndarray) -> None:
    """A NaN or infinite f16 super-block scale is an error naming the block."""
    layout = LAYOUTS[GGMLType(info.ggml_type)]
    blocks = raw.reshape(-1, layout.type_size)
    per_row = info.shape[-1] // layout.block_size
    step = max(1, _CHUNK_BYTES // layout.type_size)
    for first in range(0, blocks.shape[0], step):
        scales = super_scales(np.asarray(blocks[first : first + step]), layout)
        bad = np.nonzero(~np.isfinite(scales).all(axis=1))[0]
        if bad.size:
            k = first + int(bad[0])
            names = ("d", "dmin")
            value = ", ".join(
                f"{names[i]} = {scales[bad[0], i]}" for i in range(scales.shape[1])
            )
            offset = gguf.data_offset + info.offset + k * layout.type_size
            raise GGUFError(
                f"tensor '{info.name}': super-block {k} (row {k // per_row}) has a "
                f"non-finite scale ({value}) at offset {offset}",
                offset,
            )


def _write_function(out: TextIO, name: str, info: TensorInfo) -> None:
    t = GGMLType(info.ggml_type)
    f32 = f"tensor<{_shape_text(info.shape)}xf32>"
    out.write(
        f"  func.func @{name}() -> {f32} attributes "
        f"{{gguf.name = {_string_literal(info.name)}}} {{\n"
    )
    if t in _PLAIN_ELEMENT:
        elem = _PLAIN_ELEMENT[t]
        plain = f"tensor<{_shape_text(info.shape)}x{elem}>"
        out.write(f"    %0 = arith.constant dense_resource<{name}> : {plain}\n")
        if t == GGMLType.F32:
            out.write(f"    func.return %0 : {f32}\n  }}\n")
            return
        out.write(f"    %1 = arith.extf %0 : {plain} to {f32}\n")
        out.write(f"    func.return %1 : {f32}\n  }}\n")
        return
    qtype = SuperblockQuantizedType.ggml(t, len(info.shape) - 1)
    stored = f"tensor<{_shape_text(storage_shape(t, info.shape))}xi8>"
    quantized = f"tensor<{_shape_text(info.shape)}x{qtype}>"
    out.write(f"    %0 = arith.constant dense_resource<{name}> : {stored}\n")
    out.write(f"    %1 = quant.scast %0 : {stored} to {quantized}\n")
    out.write(f"    %2 = quant.dcast %1 : {quantized} to {f32}\n")
    out.write(f"    func.return %2 : {f32}\n  }}\n")


def _write_blob(out: TextIO, name: str, info: TensorInfo, raw: np.ndarray) -> None:
    t = GGMLType(info.ggml_type)
    align = PLAIN_TYPES[t][0] if t in PLAIN_TYPES else 1
    out.write(f'      {name}: "0x{align:02X}000000')
    flat = raw.reshape(-1)
    for start in range(0, flat.size, _CHUNK_BYTES):
        out.write(
            np.asarray(flat[start : start + _CHUNK_BYTES]).tobytes().hex().upper()
        )
    out.write('"')


def import_gguf(path: str, output: TextIO, selected: Sequence[str]) -> None:
    gguf = GGUFFile.open(path)
    tensors = gguf.tensors
    if selected:
        by_name = {t.name: t for t in tensors}
        missing = [n for n in selected if n not in by_name]
        if missing:
            raise GGUFError(
                f"no tensor named '{missing[0]}' (the file has "
                f"{', '.join(repr(t.name) for t in tensors[:8])}"
                f"{', ...' if len(tensors) > 8 else ''})"
            )
        tensors = [by_name[n] for n in dict.fromkeys(selected)]
    taken: set[str] = set()
    names = [function_name(t.name, taken) for t in tensors]
    for info in tensors:  # every check before writing anything, one tensor mapped
        raw = gguf.raw(info)
        if GGMLType(info.ggml_type) in LAYOUTS:
            _check_scales(gguf, info, raw)
        del raw
    output.write(
        f"module attributes {{gguf.version = {gguf.version} : i64, "
        f"gguf.metadata = {_metadata_text(gguf.metadata)}}} {{\n"
    )
    for name, info in zip(names, tensors):
        _write_function(output, name, info)
    output.write("}\n\n{-#\n  dialect_resources: {\n    builtin: {\n")
    for k, (name, info) in enumerate(zip(names, tensors)):
        _write_blob(output, name, info, gguf.raw(info))
        output.write(",\n" if k + 1 < len(tensors) else "\n")
    output.write("    }\n  }\n#-}\n")


# ------------------------------------------------------------------ export

_VALUE_TYPES = {t.name.lower(): t for t in ValueType}


def _metadata_value(key: str, type_name: str, attr: Attribute) -> MetadataValue:
    where = f"gguf.metadata '{key}'"
    match = re.fullmatch(r"array<(\w+)>", type_name)
    t = ValueType.ARRAY if match else _VALUE_TYPES.get(type_name)
    element = _VALUE_TYPES.get(match.group(1)) if match else None
    if t is None or (match and element in (None, ValueType.ARRAY)):
        raise ToolError(f"{where}: unknown value type '{type_name}'")

    def scalar(st: ValueType, a: Any) -> Any:
        if st == ValueType.STRING and isinstance(a, StringAttr):
            return a.data
        if st == ValueType.STRING and isinstance(a, BytesAttr):
            try:  # xDSL reads a literal with escapes as bytes
                return a.data.decode("utf-8")
            except UnicodeDecodeError:
                raise ToolError(f"{where}: {a} is not UTF-8") from None
        if st == ValueType.BOOL and isinstance(a, IntegerAttr):
            return bool(a.value.data)
        if st in _INT_TYPES and isinstance(a, IntegerAttr | int):
            v = a if isinstance(a, int) else a.value.data
            unsigned = st.name.startswith("U")
            return v + (1 << 64) if unsigned and st == ValueType.UINT64 and v < 0 else v
        if st in (ValueType.FLOAT32, ValueType.FLOAT64) and isinstance(
            a, FloatAttr | float
        ):
            return a if isinstance(a, float) else a.value.data
        raise ToolError(f"{where}: {a} is not a {st.name.lower()} value")

    if t != ValueType.ARRAY:
        return MetadataValue(t, scalar(t, attr))
    assert element is not None
    if isa(attr, ArrayAttr[Attribute]):
        return MetadataValue(t, [scalar(element, a) for a in attr.data], element)
    if isinstance(attr, DenseArrayBase):
        values = [scalar(element, v) for v in attr.get_values()]
        return MetadataValue(t, values, element)
    raise ToolError(f"{where}: {attr} is not an array")


def _module_metadata(module: ModuleOp) -> tuple[int, dict[str, MetadataValue]]:
    attrs = module.attributes
    version_attr = attrs.get("gguf.version")
    version = version_attr.value.data if isinstance(version_attr, IntegerAttr) else 3
    entries = attrs.get("gguf.metadata", ArrayAttr([]))
    if not isa(entries, ArrayAttr[Attribute]):
        raise ToolError("gguf.metadata must be an array of [key, type, value]")
    metadata: dict[str, MetadataValue] = {}
    for entry in entries.data:
        fields: tuple[Attribute, ...] = (
            entry.data if isa(entry, ArrayAttr[Attribute]) else ()
        )
        if len(fields) != 3:
            raise ToolError(f"gguf.metadata entry {entry} is not [key, type, value]")
        key, type_name, value = fields
        if not isinstance(key, StringAttr) or not isinstance(type_name, StringAttr):
            raise ToolError(f"gguf.metadata entry {entry} is not [key, type, value]")
        metadata[key.data] = _metadata_value(key.data, type_name.data, value)
    return version, metadata


def _module_tensors(
    module: ModuleOp,
) -> list[tuple[str, tuple[int, ...], GGMLType, np.ndarray]]:
    tensors: list[tuple[str, tuple[int, ...], GGMLType, np.ndarray]] = []
    for fn in module.ops:
        if not isinstance(fn, func.FuncOp):
            continue
        name_attr = fn.attributes.get("gguf.name")
        name = name_attr.data if isinstance(name_attr, StringAttr) else fn.sym_name.data
        const = next(
            (
                op
                for op in fn.walk()
                if isinstance(op, arith.ConstantOp)
                and isinstance(op.value, DenseResourceAttr)
            ),
            None,
        )
        if const is None:
            raise ToolError(
                f"@{fn.sym_name.data}: no dense_resource constant to export"
            )
        attr = const.value
        assert isinstance(attr, DenseResourceAttr)
        ctype = const.result.type
        if not isa(ctype, TensorType[Attribute]):
            raise ToolError(f"@{fn.sym_name.data}: the constant is not a tensor")
        data = np.frombuffer(blob_bytes(attr.resource_handle.data), np.uint8)
        scast = next(
            (
                u.operation
                for u in const.result.uses
                if isinstance(u.operation, StorageCastOp)
            ),
            None,
        )
        if scast is not None:
            qt = scast.result.type
            qtype = qt.element_type if isa(qt, TensorType[Attribute]) else None
            if not isa(qt, TensorType[Attribute]) or not isinstance(
                qtype, SuperblockQuantizedType
            ):
                raise ToolError(
                    f"@{fn.sym_name.data}: the bytes are not cast to a !quant.superblock tensor"
                )
            t, shape = qtype.ggml_type, tuple(qt.get_shape())
        else:
            elem = str(ctype.element_type)
            plain = {v: k for k, v in _PLAIN_ELEMENT.items()}
            if elem not in plain:
                raise ToolError(
                    f"@{fn.sym_name.data}: a tensor of {elem} has no GGUF type"
                )
            t, shape = plain[elem], tuple(ctype.get_shape())
        tensors.append((name, shape, t, data))
    return tensors


def export_gguf(path: str, output: str) -> None:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as err:
        raise ToolError(f"cannot read: {err}") from None
    module = parse_module(text)
    version, metadata = _module_metadata(module)
    tensors = _module_tensors(module)
    with open(output, "wb") as out:
        write_gguf(out, metadata, tensors, version)


# ------------------------------------------------------------------ driver


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="xquant-gguf", description="GGUF model files to MLIR and back."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    imp = sub.add_parser("import", help="GGUF -> MLIR")
    imp.add_argument("file")
    imp.add_argument("-o", "--output", required=True)
    imp.add_argument("--tensor", action="append", default=[], metavar="NAME")
    exp = sub.add_parser("export", help="MLIR -> GGUF")
    exp.add_argument("file")
    exp.add_argument("-o", "--output", required=True)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run `xquant-gguf`; 0 on success, 1 on any bad input."""
    install()
    try:
        ns = _parser().parse_args(argv)
    except SystemExit as exit_:
        return 0 if exit_.code in (0, None) else 1
    try:
        if ns.command == "import":
            with open(ns.output, "w", encoding="utf-8") as out:
                import_gguf(ns.file, out, ns.tensor)
        else:
            export_gguf(ns.file, ns.output)
        return 0
    except (GGUFError, ToolError, InterpretationError) as err:
        sys.stderr.write(f"{ns.file}: error: {err}\n")
    except (ParseError, DiagnosticException) as err:
        sys.stderr.write(f"{err}\n")
    except OSError as err:
        sys.stderr.write(f"{ns.file}: error: {err.strerror or err}\n")
    Path(ns.output).unlink(missing_ok=True)  # no half-written output
    return 1


if __name__ == "__main__":
    sys.exit(main())
