"""Parsing and printing of the `!quant.*` type bodies, following upstream's TypeParser.cpp.

Every error is raised at the offending token with upstream's message text,
and the checks that upstream makes when constructing a type are repeated
here so that they too carry a position. The parsers return the types'
parameters and the printers take them as plain values, so this module never
names the types (`xquant.dialects.quant.types` builds on it).
"""

from __future__ import annotations

import math
import re
import struct
from typing import Any, NoReturn, TypeVar

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    FloatData,
    IntAttr,
    NoneAttr,
)
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.parser import AttrParser
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xquant.dialects.parse_errors import ParseErrorWithFollowUps
from xquant.dialects.quant.constraints import (
    INT32_MAX,
    INT64_MAX,
    INT64_MIN,
    PER_AXIS,
    PER_LAYER,
    SUB_CHANNEL,
    GranularityAttr,
    check_scale,
    check_storage_range,
    default_storage_range,
    storage_integer_type,
)
from xquant.dialects.quant.float_semantics import (
    is_float_type,
    round_to_float_type,
    scale_range,
)
from xquant.dialects.quant.storage import (
    FLOAT_STORAGE_TYPES,
    storage_facts,
    storage_spelling,
)
from xquant.numerics.float_format import (
    format_float,
    format_floats,
    llvm_double,
    semantics_of,
)
from xquant.numerics.literal_text import bracketed
from xquant.xdsl_internals import (
    consume_token,
    current_token,
    parse_optional_token,
    resume_from,
)

_D = TypeVar("_D", FloatData, IntAttr)

_STORAGE_RE = re.compile(r"(si|ui|i|u)([0-9]*)")
_MAX_BUILTIN_WIDTH = (1 << 24) - 1


# ----- token helpers (upstream's wording) -----


def _punct(parser: AttrParser, punct: str) -> None:
    if parser.parse_optional_characters(punct) is None:
        _fail_wrong_token(parser, f"expected '{punct}'")


def _fail_wrong_token(parser: AttrParser, message: str) -> NoReturn:
    """Report a missing token where MLIR's `emitWrongTokenError` does.

    That is right after the previous token when whitespace (even blank lines,
    or a line ending in a `//` comment) separates it from the current one,
    so `0.99872:127 23>` is reported after `127`, not at `23`.
    """
    token = current_token(parser)
    text = parser.lexer.input.content
    original = token.span.start
    if token.kind == MLIRTokenKind.EOF:
        original = max(original - 1, 0)
    head = text[:original]
    while True:
        head = head.rstrip(" \t")
        if not head:
            _fail(parser, message, original)
        if head[-1] not in "\n\r":
            _fail(parser, message, len(head))
        head = head[:-1]
        previous_line = head[max(head.rfind("\n"), head.rfind("\r"), 0) :]
        if (comment := previous_line.find("//")) != -1:
            head = head[: len(head) - len(previous_line) + comment]


fail_wrong_token = _fail_wrong_token
"""`_fail_wrong_token` for other parsers (the location grammar in xquant.compat)."""


def _fail(
    parser: AttrParser, message: str, start: int | None = None, end: int | None = None
) -> NoReturn:
    if start is None:
        token = current_token(parser)
        start, end = token.span.start, token.span.end
    parser.raise_error(message, start, end if end is not None else start + 1)


def _integer(parser: AttrParser, low: int = INT64_MIN, high: int = INT64_MAX) -> int:
    """An integer literal (`expected integer value` otherwise), checked against a C++ width."""
    start = parser.pos
    value = parser.parse_optional_integer(allow_boolean=False, allow_negative=True)
    if value is None:
        _fail(parser, "expected integer value")
        raise AssertionError  # unreachable: _fail raises
    if not low <= value <= high:
        _fail(parser, "integer value too large", start, parser.pos)
    return value


def _float(parser: AttrParser) -> float:
    """A float literal, as MLIR's `parseFloat(double&)`: decimal float or 0x-bit pattern."""
    start = parser.pos
    negative = parse_optional_token(parser, MLIRTokenKind.MINUS) is not None  # pyright: ignore[reportPrivateUsage]
    token = current_token(parser)
    if token.kind == MLIRTokenKind.FLOAT_LIT:
        consume_token(parser)
        value = float(token.text)
        return -value if negative else value
    if token.kind != MLIRTokenKind.INTEGER_LIT:
        _fail(parser, "expected floating point literal")
    text = token.text
    if not text.lower().startswith("0x"):
        _fail(
            parser,
            "unexpected decimal integer literal for a floating point value",
            start,
            token.span.end,
        )
    if negative:
        _fail(
            parser,
            "hexadecimal float literal should not have a leading minus",
            start,
            token.span.end,
        )
    bits = int(text, 16)
    if bits >= 1 << 64:
        _fail(
            parser,
            "hexadecimal float constant out of range for type",
            token.span.start,
            token.span.end,
        )
    consume_token(parser)
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def _checked(
    parser: AttrParser, start: int | None, check: object, *args: object
) -> None:
    """Run a type-construction check, reporting its failure at `start` (default: the current token)."""
    try:
        check(*args)  # type: ignore[operator]
    except VerifyException as err:
        _fail(parser, str(err), start)


# ----- storage and expressed types -----


def _parse_storage(parser: AttrParser) -> tuple[Attribute, bool, int, int]:
    """The storage type, optionally `<min:max>`: (storage type, signed, min, max).

    An integer (`iN`/`siN`/`uiN`, or the keyword `uN`: a signless `iN` with
    the unsigned flag), one of main's float storage types, or a
    `!quant.quantile` type. Upstream keeps `siN`/`uiN` as written, which makes
    a distinct quantized type (see `types`) and prints as written.
    """

    token = current_token(parser)
    start, end = token.span.start, token.span.end
    if token.kind == MLIRTokenKind.EXCLAMATION_IDENT:
        attr = parser.parse_type()
        facts = storage_facts(attr)
        if facts is None or not isinstance(attr, ParametrizedAttribute):
            _fail(parser, "illegal storage type prefix", start, end)
            raise AssertionError
        if not 0 < facts.width <= 32:
            _fail(parser, f"illegal storage type size: {facts.width}", start, end)
        return _parse_bounds(parser, attr, facts.signed, facts[2:])
    ident = parser.parse_optional_identifier()
    if ident is not None and ident in FLOAT_STORAGE_TYPES:
        attr = FLOAT_STORAGE_TYPES[ident]
        facts = storage_facts(attr)
        assert facts is not None
        return _parse_bounds(parser, attr, True, facts[2:])
    match = _STORAGE_RE.fullmatch(ident) if ident is not None else None
    # As upstream: a builtin integer type, else a keyword that must be `u<width>`.
    if ident is None:
        _fail(parser, "expected valid keyword", start, end)
        raise AssertionError
    if match is None or not match.group(2):
        message = (
            "expected storage type width"
            if ident.startswith("u")
            else "illegal storage type prefix"
        )
        _fail(parser, message, start, end)
        raise AssertionError
    prefix, digits = match.groups()
    width = int(digits)
    if prefix != "u" and width >= 1 << 32:
        _fail(
            parser, "invalid integer width", start, end
        )  # MLIR's lexer: no `unsigned`
    if prefix != "u" and width > _MAX_BUILTIN_WIDTH:
        _fail(
            parser,
            f"integer bitwidth is limited to {_MAX_BUILTIN_WIDTH} bits",
            start,
            end,
        )
    if prefix == "u" and width >= 1 << 32:
        _fail(parser, "expected storage type width", start, end)
    signed = prefix in ("i", "si")
    builtin = prefix in ("si", "ui")
    if not 0 < width <= 32:
        _fail(parser, f"illegal storage type size: {width}", start, end)
    storage = storage_integer_type(width, signed, builtin)
    return _parse_bounds(parser, storage, signed, default_storage_range(width, signed))


def _parse_bounds(
    parser: AttrParser, storage: Attribute, signed: bool, default: tuple[int, int]
) -> tuple[Attribute, bool, int, int]:
    low, high = default
    if parser.parse_optional_characters("<") is None:
        return storage, signed, low, high
    min_start = parser.pos
    storage_min = _integer(parser)
    _punct(parser, ":")
    max_start = parser.pos
    storage_max = _integer(parser)
    _punct(parser, ">")
    if storage_min < low:
        _fail(parser, f"illegal storage type minimum: {storage_min}", min_start)
    if storage_max > high:
        _fail(parser, f"illegal storage type maximum: {storage_max}", max_start)
    return storage, signed, storage_min, storage_max


def _verify_storage(
    parser: AttrParser, mnemonic: int, storage: tuple[Attribute, bool, int, int]
) -> None:
    """The type verifier's storage check, which upstream reports at the mnemonic once the body is read."""
    facts = storage_facts(storage[0], storage[1])
    assert facts is not None
    _checked(
        parser,
        mnemonic,
        check_storage_range,
        facts.width,
        (facts.default_min, facts.default_max),
        storage[2],
        storage[3],
    )


def _parse_float_type(parser: AttrParser) -> Attribute:
    start = parser.pos
    parsed = parser.parse_optional_type()
    if parsed is None:
        _fail_wrong_token(parser, "expected non-function type")
    if not is_float_type(parsed):
        _fail(parser, "invalid kind of type specified", start, parser.pos)
    return parsed


def _storage_attrs(
    storage: Attribute, signed: bool, low: int, high: int
) -> list[Attribute]:
    return [storage, IntAttr(int(signed)), IntAttr(low), IntAttr(high)]


def storage_text(
    storage: Attribute, signed: bool, bounds: tuple[int, int] | None
) -> str:
    """The storage part of a type body: `i8`, `ui8`, `f8E4M3FN`, or `u4<1:15>` when `bounds` are given."""
    text = storage_spelling(storage, signed)
    return text if bounds is None else f"{text}<{bounds[0]}:{bounds[1]}>"


# ----- !quant.any -----


_OPENING = {">": "<", "]": "[", ")": "(", "}": "{"}
_BRACKET = re.compile(r"->|[<>\[\](){}]")  # `->` is one token, not a `>`


def _open_body(parser: AttrParser) -> int:
    """Consume the `<` that opens a type body, after upstream's lexer check.

    MLIR first scans a pretty dialect type to its matching `>` (`<>[](){}` must
    nest; `->` is one token) and, failing that, reports the innermost open
    bracket at the `<`; only then is the body parsed. In the opaque form
    `!quant<uniform<...>>` the scan starts at the dialect's `<`.

    Returns where the mnemonic (`uniform`) starts: upstream reports the type
    verifier's errors there.
    """
    text, start = parser.lexer.input.content, parser.pos
    # Look back a bounded window: slicing or regex-searching the whole text
    # before every type made parsing quadratic in the file size.
    window = max(0, start - 256)
    head = text[window:start].rstrip()
    found = re.search(r"\w+$", head)
    mnemonic = window + found.start() if found is not None else start
    if mnemonic > 0 and text[mnemonic - 1 : mnemonic] == "<":
        start = mnemonic - 1
    if text[start : start + 1] == "<":
        stack: list[str] = []
        # Only the brackets matter: visiting them alone keeps a body of a
        # million scales from costing a Python step per character.
        for match in _BRACKET.finditer(text, start):
            c = match.group()
            if c in "<[({":
                stack.append(c)
            elif c in _OPENING:
                if stack[-1] != _OPENING[c]:
                    break
                stack.pop()
                if not stack:
                    break
        if stack:
            _fail(
                parser,
                f"unbalanced '{stack[-1]}' character in pretty dialect name",
                start,
                start + 1,
            )
    _punct(parser, "<")
    return mnemonic


def parse_any(parser: AttrParser) -> list[Attribute]:
    mnemonic = _open_body(parser)
    storage = _parse_storage(parser)
    expressed: Attribute = NoneAttr()
    if parser.parse_optional_characters(":") is not None:
        expressed = _parse_float_type(parser)
    _punct(parser, ">")
    _verify_storage(parser, mnemonic, storage)
    return [*_storage_attrs(*storage), expressed]


# ----- !quant.uniform -----


def _parse_scale_zero(parser: AttrParser, expressed: Attribute) -> tuple[float, int]:

    scale = _float(parser)
    _checked(parser, None, check_scale, scale, expressed)
    zero_point = 0
    if parser.parse_optional_characters(":") is not None:
        zero_point = _integer(parser)
    return scale, zero_point


def _parse_param_list(
    parser: AttrParser,
    expressed: Attribute,
    scales: list[float],
    zero_points: list[int],
) -> list[int]:
    """The body of `{...}` after its `{`, nested to any depth; returns the shape of the braces.

    Iterative (a stack of the enclosing lists), so thousands of levels parse as
    in upstream instead of exhausting Python's recursion limit.
    """
    enclosing: list[tuple[int, list[int] | None]] = []  # (size so far, element shape)
    size, inner = 0, None
    while True:
        if parser.parse_optional_characters("{") is not None:
            enclosing.append((size, inner))
            size, inner = 0, None
            continue
        scale, zero_point = _parse_scale_zero(parser, expressed)
        scales.append(scale)
        zero_points.append(zero_point)
        dims: list[int] = []
        while (
            True
        ):  # fold the finished element into its list, closing lists that end here
            size += 1
            if inner is None:
                inner = dims
            elif inner != dims:
                _fail(
                    parser,
                    "tensor literal is invalid; ranks are not consistent between elements",
                )
            if parser.parse_optional_characters(",") is not None:
                break
            _punct(parser, "}")
            dims = [size, *inner]
            if not enclosing:
                return dims
            size, inner = enclosing.pop()


def _parse_block_info(parser: AttrParser) -> list[tuple[int, int, int]]:
    """`{AX:BS, ...}` after its `{`: (axis, block, position) triples."""
    info: list[tuple[int, int, int]] = []
    if parser.parse_optional_characters("}") is not None:
        return info
    while True:
        start = parser.pos
        axis = _integer(parser, -(1 << 31), INT32_MAX)
        _punct(parser, ":")
        block = _integer(parser)
        info.append((axis, block, start))
        if parser.parse_optional_characters(",") is None:
            break
    _punct(parser, "}")
    return info


# A scale list in its common spelling: decimal float scales (a `.` is
# required), optional decimal zero points, braces. Possessive, so a million
# elements need no backtracking stack.
_SCALE = rb"-?[0-9]++\.[0-9]*+(?:[eE][-+]?[0-9]++)?+"
_ZERO_POINT = rb"-?[0-9]{1,15}+"  # exact through a double
_PARAM = _SCALE + rb"(?::" + _ZERO_POINT + rb")?+"
_PARAMS = re.compile(_PARAM + rb"(?:," + _PARAM + rb")*+")
_NO_ZERO_POINT = re.compile(_SCALE + rb"(?=,|$)")
_PARAM_BODY = re.compile(r"[-+0-9.eE:,{} \t\r\n]*+")
_ROUNDING_DTYPES = {"f32": np.float32, "f16": np.float16, "f64": np.float64}


def _brace_shape(skeleton: bytes) -> list[int] | None:
    """The shape of nested braces `{{,},{,}}` -> [2, 2], or None if not regular."""
    rank = len(skeleton) - len(skeleton.lstrip(b"{"))
    if rank == 0:
        return None
    inner_end = skeleton.find(b"}")
    shape = [skeleton.count(b",", rank, inner_end) + 1]
    inner = b"{" + b"," * (shape[0] - 1) + b"}"
    for level in reversed(range(rank - 1)):
        # Count the groups of the first brace at `level` by their fixed length.
        position, count = level + 1, 0
        while True:
            position += len(inner)
            count += 1
            if skeleton[position : position + 1] != b",":
                break
            position += 1
        shape.insert(0, count)
        inner = b"{" + b",".join([inner] * count) + b"}"
    return shape if inner == skeleton else None


def _fast_param_list(
    parser: AttrParser, expressed: Attribute
) -> tuple[np.ndarray, np.ndarray, list[int]] | None:
    """`{...}` of a per-axis or sub-channel type, read with whole-array work.

    None (nothing consumed) for any other spelling, or when a scale fails its
    range check: `_parse_param_list` then reads it and reports the error at
    its token, as upstream.
    """
    text, start = parser.lexer.input.content, parser.pos
    if text[start : start + 1] != "{":
        return None
    end = text.find(">", start)
    body = text[start:end]
    if end < 0 or _PARAM_BODY.fullmatch(body) is None:
        return None
    raw = body.encode("ascii")
    compact = raw.translate(None, b" \t\r\n")
    shape = _brace_shape(compact.translate(None, b"0123456789.-+eE:"))
    if shape is None or not bracketed(raw, math.prod(shape), b"{}"):
        return None
    elements = compact.translate(None, b"{}")
    if _PARAMS.fullmatch(elements) is None:
        return None
    count = math.prod(shape)
    colons = elements.count(b":")
    if colons == 0:
        scales = np.fromstring(elements, dtype=np.float64, sep=",")
        zero_points = np.zeros(count, dtype=np.int64)
    else:
        if colons != count:  # some zero points left out: they are 0
            elements = _NO_ZERO_POINT.sub(rb"\g<0>:0", elements)
        both = np.fromstring(elements.replace(b":", b","), dtype=np.float64, sep=",")
        scales, zero_points = both[0::2], both[1::2].astype(np.int64)
    low, high = scale_range(expressed)
    if len(scales) != count or not ((scales >= low) & (scales <= high)).all():
        return None
    resume_from(parser, end)
    return scales, zero_points, shape


def _round_scales(
    scales: list[float] | np.ndarray, expressed: Attribute
) -> list[float] | np.ndarray:
    """Sub-channel scales rounded into the expressed type (numpy's casts for the
    types whose cast from double rounds once, as `round_to_float_type`)."""
    dtype = _ROUNDING_DTYPES.get(semantics_of(expressed).name)
    if dtype is None:
        return [round_to_float_type(float(s), expressed) for s in scales]
    return np.asarray(scales, dtype=np.float64).astype(dtype).astype(np.float64)


# Parsed `!quant.uniform` bodies by their text: a type with a million scales
# is typically spelled several times (signature, op result, return), and the
# same parameter objects then also make the types compare equal at once.
_UNIFORM_CACHE: dict[str, tuple[list[Attribute], int]] = {}
_UNIFORM_CACHE_SIZE = 8
_CACHED_LENGTH = 4096  # shorter bodies parse faster than they hash


def _body_end(text: str, start: int) -> int:
    """Where the `>` matching the `<` at `start` is, or -1."""
    depth = 0
    for match in _BRACKET.finditer(text, start):
        c = match.group()
        if c in "<[({":
            depth += 1
        elif c in _OPENING:
            depth -= 1
            if depth == 0:
                return match.start() if c == ">" else -1
    return -1


def parse_uniform(parser: AttrParser) -> list[Attribute]:
    text, start = parser.lexer.input.content, parser.pos
    end = _body_end(text, start)
    key = text[start : end + 1] if end - start > _CACHED_LENGTH else None
    if key is not None and (cached := _UNIFORM_CACHE.get(key)) is not None:
        params, length = cached
        resume_from(parser, start + length)
        return params
    params = _parse_uniform(parser)
    if key is not None and parser.pos - start <= len(key):
        if len(_UNIFORM_CACHE) >= _UNIFORM_CACHE_SIZE:
            del _UNIFORM_CACHE[next(iter(_UNIFORM_CACHE))]
        _UNIFORM_CACHE[key] = (params, parser.pos - start)
    return params


def _parse_uniform(parser: AttrParser) -> list[Attribute]:
    mnemonic = _open_body(parser)
    storage = _parse_storage(parser)
    facts = storage_facts(storage[0], storage[1])
    assert facts is not None
    _punct(parser, ":")
    expressed = _parse_float_type(parser)

    granularity = PER_LAYER
    block_info: list[tuple[int, int, int]] = []
    if parser.parse_optional_characters(":") is not None:
        if parser.parse_optional_characters("{") is not None:
            granularity = SUB_CHANNEL
            block_info = _parse_block_info(parser)
        else:
            granularity = PER_AXIS
            start = parser.pos
            block_info = [(_integer(parser, -(1 << 31), INT32_MAX), 0, start)]
    _punct(parser, ",")

    scales: list[float] | np.ndarray = []
    zero_points: list[int] | np.ndarray = []
    params_start = parser.pos
    if granularity == PER_LAYER:
        scale, zero_point = _parse_scale_zero(parser, expressed)
        scales, zero_points, shape = [scale], [zero_point], []
    elif (fast := _fast_param_list(parser, expressed)) is not None:
        scales, zero_points, shape = fast
    else:
        scale_list: list[float] = []
        zero_point_list: list[int] = []
        _punct(parser, "{")
        shape = _parse_param_list(parser, expressed, scale_list, zero_point_list)
        scales, zero_points = scale_list, zero_point_list
    _punct(parser, ">")
    # Upstream's verifyInvariants: after the body, in this order, at the mnemonic.
    _verify_storage(parser, mnemonic, storage)
    for axis, block, _ in block_info:
        if axis < 0:
            _fail(parser, f"illegal quantized dimension: {axis}", mnemonic)
        if granularity == SUB_CHANNEL and block <= 0:
            _fail(parser, f"illegal block size: {block}", mnemonic)

    if granularity == PER_AXIS:
        shape = [len(scales)]
    if granularity == SUB_CHANNEL:
        scales = _round_scales(scales, expressed)
        low, high = facts.default_min, facts.default_max
        points = np.asarray(zero_points, dtype=np.int64)
        outside = np.flatnonzero((points < low) | (points > high))
        if len(outside):
            zp = int(points[outside[0]])
            _fail(
                parser,
                f"zero point {zp} out of storage type range [{low}, {high}]",
                params_start,
            )
    return [
        *_storage_attrs(*storage),
        expressed,
        GranularityAttr(granularity),
        ArrayAttr(IntAttr(axis) for axis, _, _ in block_info),
        ArrayAttr(
            IntAttr(block) for _, block, _ in block_info if granularity == SUB_CHANNEL
        ),
        ArrayAttr(IntAttr(n) for n in shape),
        ArrayAttr(_plain_data(FloatData, _listed(scales))),
        ArrayAttr(_plain_data(IntAttr, _listed(zero_points))),
    ]


def _listed(values: list[Any] | np.ndarray) -> list[Any]:
    """The Python numbers of a parsed list or of a numpy array (`tolist`)."""
    return values.tolist() if isinstance(values, np.ndarray) else values


def _plain_data(cls: type[_D], values: list[Any]) -> tuple[_D, ...]:
    """`cls(v)` for each of `values`, Python floats / ints straight from the
    parser or numpy, built without re-running xDSL's per-object verification
    (an isinstance check that is most of the cost for a million scales)."""
    new, set_data = object.__new__, object.__setattr__
    made: list[_D] = []
    for value in values:
        item = new(cls)
        set_data(item, "data", value)
        made.append(item)
    return tuple(made)


def scale_zero_text(scale: float, zero_point: int, float_type: Attribute | None) -> str:
    """`scale:zp` (`scale` when zp is 0), the scale printed for `float_type`."""
    text = format_float(scale, float_type)
    if float_type is not None and text.startswith("0x"):
        text = _decimal_scale(scale)
    return f"{text}:{zero_point}" if zero_point != 0 else text


def _decimal_scale(scale: float) -> str:
    """A decimal literal for a sub-channel scale that upstream would print in hex.

    Upstream prints such a scale (e.g. 1048576 in f32) as the hex bits of the
    expressed type (`0x49800000`) but parses hex scales as the bits of a
    double, so its own output does not read back (`scale 6.092449e-315 out of
    expressed type range`). The shortest round-tripping decimal reads back
    identically in both tools.
    """
    text = repr(float(scale))
    if "." not in text:
        mantissa, _, exponent = text.partition("e")
        text = f"{mantissa}.0e{exponent}" if exponent else f"{mantissa}.0"
    return text


# The printed scale lists of the last types printed, by the identity of their
# parameter arrays (types parsed from the same text share them).
_PRINT_CACHE: dict[tuple[int, int], tuple[object, object, str]] = {}
_PRINT_CACHE_SIZE = 8
_CACHED_SCALES = 256  # fewer print faster than they are looked up


def sub_channel_body(
    scales: ArrayAttr[FloatData],
    zero_points: ArrayAttr[IntAttr],
    scales_shape: list[int],
    expressed: Attribute,
) -> str:
    """The nested `{scale:zp, ...}` braces of a sub-channel type, cached by list identity."""
    key = (id(scales), id(zero_points))
    cached = _PRINT_CACHE.get(key)
    if cached is not None and cached[0] is scales and cached[1] is zero_points:
        return cached[2]
    items = scale_zero_texts(scales, zero_points, expressed)
    text = _nest(items, scales_shape)
    if len(scales) >= _CACHED_SCALES:
        if len(_PRINT_CACHE) >= _PRINT_CACHE_SIZE:
            del _PRINT_CACHE[next(iter(_PRINT_CACHE))]
        _PRINT_CACHE[key] = (scales, zero_points, text)
    return text


def scale_zero_texts(
    scales_attr: ArrayAttr[FloatData],
    zero_points_attr: ArrayAttr[IntAttr],
    float_type: Attribute | None,
) -> list[str]:
    """`scale:zp` (`scale` when zp is 0) for every scale, formatted as one array."""
    scales = np.array([s.data for s in scales_attr], dtype=np.float64)
    zero_points = [z.data for z in zero_points_attr]
    texts = format_floats(scales, float_type)
    if float_type is not None:
        texts = [
            _decimal_scale(scale) if text.startswith("0x") else text
            for text, scale in zip(texts, scales.tolist(), strict=True)
        ]
    return [
        f"{text}:{zp}" if zp != 0 else text
        for text, zp in zip(texts, zero_points, strict=True)
    ]


def _nest(items: list[str], shape: list[int]) -> str:
    """Items laid out in braces following `shape`, joined by `, ` (upstream's dense printer).

    Built innermost dimension first, without recursion, so any depth prints.
    """
    level = items
    for axis in reversed(range(len(shape))):
        width = shape[axis]
        level = [
            "{" + ", ".join(level[g * width : (g + 1) * width]) + "}"
            for g in range(math.prod(shape[:axis]))
        ]
    return level[0] if level else ""


# ----- !quant.calibrated -----


def parse_calibrated(parser: AttrParser) -> list[Attribute]:
    mnemonic = _open_body(parser)
    type_start = parser.pos
    try:
        expressed = _parse_float_type(parser)
    except ParseError as err:
        raise _followed_by(parser, err, type_start, "expecting float expressed type")
    try:
        _punct(parser, "<")
        low = _float(parser)
        _punct(parser, ":")
        high = _float(parser)
        _punct(parser, ">")
    except ParseError as err:
        raise _followed_by(parser, err, type_start, "calibrated values must be present")
    _punct(parser, ">")
    if not high > low:
        _fail(
            parser,
            f"illegal min and max: ({llvm_double(low)}:{llvm_double(high)})",
            mnemonic,
        )
    return [expressed, FloatData(low), FloatData(high)]


def _followed_by(
    parser: AttrParser, err: ParseError, start: int, message: str
) -> ParseErrorWithFollowUps:
    """`err`, then `message` at `start`, as upstream's caller reports its failure."""
    span = Span(start, start + 1, parser.lexer.input)
    return ParseErrorWithFollowUps(err, [(span, message)])


# ----- !quant.quantile -----


def _parse_type(parser: AttrParser) -> Attribute:
    parsed = parser.parse_optional_type()
    if parsed is None:
        _fail_wrong_token(parser, "expected non-function type")
    return parsed


def parse_quantile(
    parser: AttrParser, check: object
) -> tuple[Attribute, Attribute, list[float], tuple[int, int] | None]:
    """`<STORAGE:QTYPE, {v, ...}[, <min:max>]>`, then `check` (the verifier) at the mnemonic."""
    mnemonic = _open_body(parser)
    storage = _parse_type(parser)
    _punct(parser, ":")
    quantile_type = _parse_type(parser)
    _punct(parser, ",")
    _punct(parser, "{")
    values: list[float] = []
    if parser.parse_optional_characters("}") is None:
        values.append(_float(parser))
        while parser.parse_optional_characters(",") is not None:
            values.append(_float(parser))
        _punct(parser, "}")
    value_range: tuple[int, int] | None = None
    if parser.parse_optional_characters(",") is not None:
        _punct(parser, "<")
        low = _integer(parser)
        _punct(parser, ":")
        high = _integer(parser)
        _punct(parser, ">")
        value_range = (low, high)
    _punct(parser, ">")
    _checked(parser, mnemonic, check, storage, quantile_type, values, value_range)
    return storage, quantile_type, values, value_range
