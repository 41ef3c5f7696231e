"""xDSL 0.74 parses a dense literal one token at a time, in Python.

`dense<[[...]]> : tensor<512x2048xi8>` (a million integers, 4.6 MB of text)
takes xDSL 0.74 over 20 s and 400 MB: every element goes through the lexer,
a `_TensorLiteralElement` object, a nested list and `struct.pack`. mlir-opt
reads it in 0.13 s. Reproducer (time it, or count the element objects):

    %c = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>

The fix reads the common spellings of a bracketed literal with whole-array
work: the body is cut at its `>`, the bracket skeleton compared with the one
the type's shape implies, and the elements converted by numpy after one
check that every element is spelled as MLIR's lexer reads it. Anything else
(a splat, hexadecimal elements, complex numbers, comments, other element
types, out-of-range or malformed values, a shape mismatch) goes to xDSL's
own path, from the same position, so the attribute and every error
(message and location) are the ones xDSL gives.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    Signedness,
)
from xdsl.parser import AttrParser
from xdsl.utils.exceptions import ParseError
from xdsl.utils.hints import isa

from xquant.numerics.literal_text import bracketed

_ParseDense = Callable[[AttrParser, Any], DenseIntOrFPElementsAttr]

# What a body may hold for the fast path to try it: numbers, booleans, brackets.
_BODY = re.compile(rb"[ \t\r\n]*+\[[-+0-9a-fA-F.x,\[\] \t\r\ntruls]*+")
# MLIR's (and xDSL's) float literal, or a decimal integer; possessive, so a
# million elements need no backtracking stack.
_NUMBER = rb"-?[0-9]++(?:\.[0-9]*+(?:[eE][-+]?[0-9]++)?)?+"
_FLOAT_ELEMENTS = re.compile(_NUMBER + rb"(?:," + _NUMBER + rb")*+")
# At most 18 digits: numpy clamps what does not fit an int64.
_INTEGER = rb"-?[0-9]{1,18}+"
_INTEGER_ELEMENTS = re.compile(_INTEGER + rb"(?:," + _INTEGER + rb")*+")
_MINUS_ZERO = re.compile(rb"-0++(?![^,])")
# A float element given by its bits (MLIR's spelling of NaN and infinities).
_HEX = rb"0x[0-9a-fA-F]++"
_HEX_ELEMENTS = re.compile(_HEX + rb"(?:," + _HEX + rb")*+")

_fallback: _ParseDense | None = None


def _skeleton(shape: list[int]) -> bytes:
    """The brackets and commas of a literal of `shape`: `[[,],[,]]` for 2x2."""
    text = b"[" + b"," * (shape[-1] - 1) + b"]"
    for size in reversed(shape[:-1]):
        text = b"[" + b",".join([text] * size) + b"]"
    return text


def _integers(elements: bytes, element: IntegerType | IndexType) -> np.ndarray | None:
    """The values of decimal integer elements, or None if any is out of range
    or spelled otherwise (`+1`, `0x1`, `1_0`: numpy takes some xDSL does not)."""
    if _INTEGER_ELEMENTS.fullmatch(elements) is None:
        return None
    values = np.fromstring(elements, dtype=np.int64, sep=",")
    if isinstance(element, IndexType):
        return values
    width = element.bitwidth
    if element.signedness.data == Signedness.UNSIGNED:
        low, high = 0, (1 << width) - 1
    else:
        low, high = -(1 << (width - 1)), (1 << (width - 1)) - 1
    if len(values) and (values.min() < low or values.max() > high):
        return None
    return values


def _booleans(elements: bytes) -> np.ndarray | None:
    tokens = np.array(elements.split(b","))
    true = tokens == b"true"
    if not (true | (tokens == b"false")).all():
        return None
    return np.where(true, -1, 0).astype(np.int8)  # xDSL stores i1 true as -1


def _floats(elements: bytes, dtype: np.dtype) -> np.ndarray | None:
    """Float or integer elements as xDSL reads them: `float(text)`, then packed;
    hexadecimal elements are bit patterns (`dense_hex_float_elements`)."""
    if b"x" in elements:
        return _floats_with_bits(elements, dtype)
    values = _decimals(elements)
    if values is None:
        return None
    with np.errstate(over="ignore"):
        typed = values.astype(dtype)
    if not np.isfinite(typed).all():
        return None  # overflow: xDSL's own message
    return typed


def _decimals(elements: bytes) -> np.ndarray | None:
    """Decimal float or integer elements as doubles, as xDSL reads them."""
    if _FLOAT_ELEMENTS.fullmatch(elements) is None:
        return None
    values = np.fromstring(elements, dtype=np.float64, sep=",")
    for match in _MINUS_ZERO.finditer(elements):
        if elements[match.start() - 1 : match.start()] in (b"", b","):
            # The integer -0: xDSL negates the integer 0, which is +0.0.
            values[elements.count(b",", 0, match.start())] = 0.0
    return values


def _floats_with_bits(elements: bytes, dtype: np.dtype) -> np.ndarray | None:
    """`_floats` of a list with `0x...` elements: those are the bits of the
    element (a NaN is left to xDSL's path, which may quiet it on the way)."""
    tokens = np.array(elements.split(b","))
    is_hex = np.char.startswith(tokens, b"0x")
    hex_tokens = tokens[is_hex].tolist()
    if _HEX_ELEMENTS.fullmatch(b",".join(hex_tokens)) is None:
        return None
    bits = [int(token, 16) for token in hex_tokens]
    width = dtype.itemsize * 8
    if max(bits).bit_length() > width:
        return None  # xDSL's "out of range" error
    typed = np.empty(len(tokens), dtype=dtype)
    typed[is_hex] = np.array(bits, dtype=f"uint{width}").view(dtype)
    if np.isnan(typed[is_hex]).any():
        return None
    if not is_hex.all():
        values = _decimals(b",".join(tokens[~is_hex].tolist()))
        if values is None:
            return None
        with np.errstate(over="ignore"):
            decimals = values.astype(dtype)
        if not np.isfinite(decimals).all():
            return None
        typed[~is_hex] = decimals
    return typed


def _values(elements: bytes, element: Any) -> np.ndarray | None:
    if isa(element, IntegerType) and element.bitwidth == 1:
        return _booleans(elements)
    if isa(element, IntegerType) and element.bitwidth <= 64:
        return _integers(elements, element)
    if isinstance(element, IndexType):
        return _integers(elements, element)
    if isinstance(element, Float16Type | Float32Type | Float64Type):
        return _floats(elements, np.dtype(element.format))
    return None


def _fast(parser: AttrParser, type: Any) -> DenseIntOrFPElementsAttr | None:
    """The attribute, parsed past its end, or None (nothing consumed)."""
    content = parser.lexer.input.content
    start = parser.pos
    if content[start : start + 1] != "<":
        return None
    if content[start + 1 : start + 64].lstrip()[:1] != "[":
        return None  # a splat or a hex blob
    end = content.find(">", start)
    if end < 0:
        return None
    body = content[start + 1 : end].encode("ascii", "replace")
    if _BODY.fullmatch(body) is None:
        return None
    parser._resume_from(end + 1)  # pyright: ignore[reportPrivateUsage]
    if type is None:
        try:
            parser.parse_punctuation(":", " in dense attribute")
            type = parser._parse_dense_literal_type()  # pyright: ignore[reportPrivateUsage]
        except ParseError:
            parser._resume_from(start)  # pyright: ignore[reportPrivateUsage]
            return None
    after = parser.pos
    shape = list(type.get_shape())
    attr = None
    if shape and all(n > 0 for n in shape):
        attr = _from_body(body, type, shape)
    if attr is None:
        parser._resume_from(start)  # pyright: ignore[reportPrivateUsage]
        return None
    parser._resume_from(after)  # pyright: ignore[reportPrivateUsage]
    return attr


def _from_body(
    body: bytes, type: Any, shape: list[int]
) -> DenseIntOrFPElementsAttr | None:
    if not bracketed(body, math.prod(shape), b"[]"):
        return None
    compact = body.translate(None, b" \t\r\n")
    if compact.translate(None, b"0123456789abcdefABCDEF.-+xtruls") != _skeleton(shape):
        return None
    elements = compact.translate(None, b"[]")
    if b",," in elements or elements.startswith(b",") or elements.endswith(b","):
        return None
    element = type.element_type
    values = _values(elements, element)
    if values is None or len(values) != math.prod(shape):
        return None
    data = values.astype(np.dtype(element.format)).tobytes()
    return DenseIntOrFPElementsAttr(type, BytesAttr(data))


def _parse_dense(parser: AttrParser, type: Any = None) -> DenseIntOrFPElementsAttr:
    assert _fallback is not None
    attr = _fast(parser, type)
    return attr if attr is not None else _fallback(parser, type)


def install() -> None:
    """Parse large bracketed dense literals with numpy (idempotent; install after
    the other dense-literal fixes, which it falls back to)."""
    global _fallback
    if _fallback is not None:
        return
    _fallback = AttrParser.parse_dense_int_or_fp_elements_attr
    setattr(AttrParser, "parse_dense_int_or_fp_elements_attr", _parse_dense)
