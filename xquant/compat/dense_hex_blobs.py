"""xDSL 0.74 reads `i1` hexadecimal dense blobs a byte per element.

MLIR bit-packs `i1` in hexadecimal blobs: `dense<"0x05"> : tensor<3xi1>` is
`[true, false, true]` (least significant bit first, ceil(n / 8) bytes; a single
0x00 / 0xFF byte is a splat). xDSL reads one byte per element and takes any single
byte for a splat, so that blob becomes all true and `"0x0580" : tensor<16xi1>` is
rejected. Reproducer:

    %c = arith.constant dense<"0x05"> : tensor<3xi1>

A blob of the wrong size is also reported at the string, with MLIR's message
("elements hex data size is invalid for provided type"), for every element type.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, IntegerType
from xdsl.parser import AttrParser
from xdsl.utils.lexer import Position

_ParseDense = Callable[[AttrParser, Any], DenseIntOrFPElementsAttr]
_xdsl_parse_dense: _ParseDense = AttrParser.parse_dense_int_or_fp_elements_attr


def _blob_bytes(
    parser: AttrParser, hex_string: str, start: Position, end: Position
) -> bytes:
    try:
        return bytes.fromhex(hex_string[2:])
    except ValueError:
        parser.raise_error("Hex string in denseAttr is invalid", start, end)


def _unpack_i1(data: bytes, count: int) -> list[int] | None:
    """MLIR's `isValidRawBuffer` for i1: one splat byte 0x00 / 0xFF (any byte for one
    element), or exactly ceil(count / 8) bytes of bits, least significant first."""
    if len(data) == 1 and (count == 1 or data[0] in (0x00, 0xFF)):
        return [data[0] & 1] * count
    if len(data) != (count + 7) // 8:
        return None
    bits = np.unpackbits(np.frombuffer(data, np.uint8), bitorder="little")
    return bits[:count].tolist()


def _plain_blob(parser: AttrParser) -> tuple[str, Position] | None:
    """`<"0x...">`'s string and where its quote is, with the parser past the
    string, when the string has no escapes; else None (nothing consumed).

    The `<` is skipped without lexing what follows: megabytes of hex digits
    would otherwise go through the lexer's string regex, which takes seconds
    on them."""
    content, less = parser.lexer.input.content, parser.pos
    quote = content.find('"', less)
    close = content.find('"', quote + 1)
    text = content[quote + 1 : close]
    if close < 0 or "\\" in text or "\n" in text:
        return None
    parser._resume_from(close + 1)  # pyright: ignore[reportPrivateUsage]
    return text, quote


def _parse_dense(parser: AttrParser, type: Any = None) -> DenseIntOrFPElementsAttr:
    head = parser.lexer.input.content[parser.pos : parser.pos + 64]
    if not head.startswith("<") or not head[1:].lstrip().startswith('"0x'):
        return _xdsl_parse_dense(parser, type)
    if (blob := _plain_blob(parser)) is not None:
        hex_string, start = blob
    else:
        parser.parse_punctuation("<", " in dense attribute")
        start = parser.pos
        hex_string = parser.parse_str_literal()
    end = start + len(hex_string) + 2  # the quotes; a hex string has no escapes
    parser.parse_punctuation(">", " in dense attribute")
    if type is None:
        parser.parse_punctuation(":", " in dense attribute")
        type = parser._parse_dense_literal_type()  # pyright: ignore[reportPrivateUsage]
    data = _blob_bytes(parser, hex_string, start, end)
    count = math.prod(type.get_shape())
    element = type.element_type
    size_error = f"elements hex data size is invalid for provided type: '{type}'"
    if isinstance(element, IntegerType) and element.bitwidth == 1:
        if (bits := _unpack_i1(data, count)) is None:
            parser.raise_error(size_error, start, end)
        return DenseIntOrFPElementsAttr.from_list(type, bits)
    # Any other element type: xDSL's own reading of a hexadecimal blob.
    if len(data) == element.compile_time_size:
        data *= count
    attr = DenseIntOrFPElementsAttr(type, BytesAttr(data))
    if len(attr) != count:
        parser.raise_error(size_error, start, end)
    return attr


def install() -> None:
    """Read `dense<"0x..."> : tensor<...xi1>` bit-packed, as MLIR (idempotent)."""
    setattr(AttrParser, "parse_dense_int_or_fp_elements_attr", _parse_dense)
