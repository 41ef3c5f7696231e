"""`!quant.superblock`: two-level block quantization (GGUF k-quants) as a quant type.

    !quant.superblock<CODE:EXPR:{AXIS:SUB:SUPER}, scales S[:SF][, mins M:MF][, table {v, ...}]
                      [, codebook "G" xN], layout "L">

- `CODE` (`uN`/`iN`): the element codes `q`; `EXPR` the expressed float type.
- `{AXIS:SUB:SUPER}`: along dimension `AXIS`, sub-blocks of `SUB` elements
  grouped into super-blocks of `SUPER` (`{AXIS:B}` when both are `B`: one
  level, as Q8_0) -- the sub-channel `!quant.uniform` block spelling with a
  second block size.
- `scales S:SF`: one integer sub-block scale `sc` (`uN`/`iN`) per sub-block,
  under one float super-block scale `d` of type `SF` per super-block;
  `scales SF` alone: the block scale is that float itself.
- `mins M:MF` ("type-1" formats): integer sub-block mins `m` under a float
  super-block min scale `dmin`; `mins MF` alone (with `scales SF` alone,
  Q4_1/Q5_1): the block's float minimum `m`, *added*: `d * q + m`.
- `table {...}`: the codes index a lookup table (IQ4_NL; TQ1_0/TQ2_0's
  `{-1, 0, 1, 2}`); its size must be `2^width` of the code type.
- `codebook "ggml.iq2xxs_grid" x8` (the i-quants IQ1_S ... IQ3_S): each code
  indexes a fixed codebook of N-vectors (ggml's lattice grid of that name,
  `2^width` entries) and decodes N consecutive elements at once; the layout
  fixes the sign bits (or IQ1's +-1/8 shift) and the sub-block scale's affine
  map (e.g. IQ2: `(d * (0.5 + sc)) * 0.25`), `numerics/gguf/iquants.py`.
- `layout "ggml.Q4_K"`: the byte layout of one super-block (the codes, the
  scales and the f16 super-scales interleaved as ggml's block structs).

Value of element `e` (sub-block `j`, super-block `s`), computed in f32 and
rounded once to `EXPR`, exactly as gguf's dequantizers:

    (d[s] * sc[j]) * v[e] - (dmin[s] * m[j])        v = q, or table[q]
    d[b] * v[e] + m[b]                              one-level mins (Q4_1, Q5_1)

A tensor of this type holds its raw bytes: `quant.scast` relates
`tensor<R x N x !quant.superblock<...>>` and `tensor<R x (N / SUPER * BYTES) x i8>`
(the GGUF tensor data, unchanged). Why it is shaped so: `docs/gguf.md`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    Float16Type,
    Float32Type,
    FloatData,
    IntAttr,
    NoneAttr,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xquant.dialects.quant.block_packed import verify_block_packed_cast
from xquant.dialects.quant.float_semantics import is_float_type
from xquant.dialects.quant.types import QuantizedType, check_expressed_type
from xquant.numerics.float_format import format_float
from xquant.numerics.gguf.iq_grids import GRIDS
from xquant.numerics.gguf.iquants import IQ_FORMATS
from xquant.numerics.gguf.layouts import (
    IQ4_NL_VALUES,
    LAYOUTS,
    TERNARY_VALUES,
    BlockLayout,
    GGMLType,
)
from xquant.numerics.values import element_type

MAX_CODE_BITS = 16


@dataclass(frozen=True)
class _Spec:
    """The parameters a ggml layout fixes (everything but axis and expressed type)."""

    code: tuple[int, bool]
    sub: int
    super_: int
    scales: tuple[int, bool] | None  # None: the block scale is the f16 itself
    mins: tuple[int, bool] | None  # (0, False): the block min is the f16 itself
    table: tuple[float, ...] = ()
    codebook: tuple[str, int] | None = None  # ("ggml.iq2xxs_grid", 8)


_IQ4 = tuple(float(v) for v in IQ4_NL_VALUES)
_TERNARY = tuple(float(v) for v in TERNARY_VALUES)
_FLOAT_MIN = (0, False)
GGML_SPECS: dict[GGMLType, _Spec] = {
    GGMLType.Q4_0: _Spec((4, True), 32, 32, None, None),
    GGMLType.Q4_1: _Spec((4, False), 32, 32, None, _FLOAT_MIN),
    GGMLType.Q5_0: _Spec((5, True), 32, 32, None, None),
    GGMLType.Q5_1: _Spec((5, False), 32, 32, None, _FLOAT_MIN),
    GGMLType.Q8_0: _Spec((8, True), 32, 32, None, None),
    GGMLType.Q8_1: _Spec((8, True), 32, 32, None, None),
    GGMLType.Q2_K: _Spec((2, False), 16, 256, (4, False), (4, False)),
    GGMLType.Q3_K: _Spec((3, True), 16, 256, (6, True), None),
    GGMLType.Q4_K: _Spec((4, False), 32, 256, (6, False), (6, False)),
    GGMLType.Q5_K: _Spec((5, False), 32, 256, (6, False), (6, False)),
    GGMLType.Q6_K: _Spec((6, True), 16, 256, (8, True), None),
    GGMLType.IQ4_NL: _Spec((4, False), 32, 32, None, None, _IQ4),
    GGMLType.IQ4_XS: _Spec((4, False), 32, 256, (6, True), None, _IQ4),
    GGMLType.TQ1_0: _Spec((2, False), 256, 256, None, None, _TERNARY),
    GGMLType.TQ2_0: _Spec((2, False), 256, 256, None, None, _TERNARY),
}
GGML_SPECS.update(
    {
        GGMLType[n]: _Spec(
            (f.index_bits, False),
            f.sub,
            256,
            (f.scale_bits, False),
            None,
            codebook=(f"ggml.{f.grid}", f.dim),
        )
        for n, f in IQ_FORMATS.items()
    }
)
"""The ggml block formats `!quant.superblock` describes, and their parameters."""


def _int_text(width: int, signed: bool) -> str:
    return f"{'i' if signed else 'u'}{width}"


@irdl_attr_definition
class SuperblockQuantizedType(QuantizedType):
    """`!quant.superblock<...>`: codes under integer sub-block scales under float super-block scales."""

    name = "quant.superblock"

    code_width: IntAttr
    code_signed: IntAttr
    expressed_type: Attribute
    axis_attr: IntAttr
    sub_block_attr: IntAttr
    super_block_attr: IntAttr
    scale_width: IntAttr  # 0: the block scale is `scale_type` itself
    scale_signed: IntAttr
    scale_type: Attribute
    min_width: IntAttr  # 0: no mins, or a float min per block (`min_type`)
    min_signed: IntAttr
    min_type: Attribute  # NoneAttr without mins
    table_attr: ArrayAttr[FloatData]
    codebook_attr: StringAttr  # "": no codebook
    codebook_dim: IntAttr  # elements per codebook entry (0: no codebook)
    layout_attr: StringAttr

    # ----- construction -----

    @staticmethod
    def ggml(
        ggml_type: GGMLType, axis: int, expressed_type: Attribute | None = None
    ) -> SuperblockQuantizedType:
        """The type of a ggml block format along `axis` (expressed f32 by default)."""
        spec = GGML_SPECS[ggml_type]
        f16 = Float16Type()
        return SuperblockQuantizedType(
            IntAttr(spec.code[0]),
            IntAttr(int(spec.code[1])),
            expressed_type or Float32Type(),
            IntAttr(axis),
            IntAttr(spec.sub),
            IntAttr(spec.super_),
            IntAttr(spec.scales[0] if spec.scales else 0),
            IntAttr(int(spec.scales[1]) if spec.scales else 0),
            f16,
            IntAttr(spec.mins[0] if spec.mins else 0),
            IntAttr(int(spec.mins[1]) if spec.mins else 0),
            f16 if spec.mins else NoneAttr(),
            ArrayAttr(FloatData(v) for v in spec.table),
            StringAttr(spec.codebook[0] if spec.codebook else ""),
            IntAttr(spec.codebook[1] if spec.codebook else 0),
            StringAttr(f"ggml.{ggml_type.name}"),
        )

    # ----- accessors -----

    @property
    def axis(self) -> int:
        return self.axis_attr.data

    @property
    def sub_block(self) -> int:
        return self.sub_block_attr.data

    @property
    def super_block(self) -> int:
        return self.super_block_attr.data

    @property
    def has_mins(self) -> bool:
        return not isinstance(self.min_type, NoneAttr)

    @property
    def table(self) -> tuple[float, ...]:
        return tuple(v.data for v in self.table_attr)

    @property
    def codebook(self) -> tuple[str, int] | None:
        """(grid name, elements per entry) of a vector codebook, if any."""
        if not self.codebook_dim.data:
            return None
        return self.codebook_attr.data, self.codebook_dim.data

    @property
    def layout(self) -> str:
        return self.layout_attr.data

    @property
    def ggml_type(self) -> GGMLType:
        """The ggml block format named by the layout (the type verified it)."""
        return GGMLType[self.layout.removeprefix("ggml.")]

    @property
    def block_layout(self) -> BlockLayout:
        return LAYOUTS[self.ggml_type]

    def _spec(self) -> _Spec:
        return _Spec(
            (self.code_width.data, bool(self.code_signed.data)),
            self.sub_block,
            self.super_block,
            (self.scale_width.data, bool(self.scale_signed.data))
            if self.scale_width.data
            else None,
            (self.min_width.data, bool(self.min_signed.data))
            if self.has_mins
            else None,
            self.table,
            self.codebook,
        )

    # ----- verification -----

    def verify(self) -> None:
        check_expressed_type(self.expressed_type)
        width = self.code_width.data
        if not 0 < width <= MAX_CODE_BITS:
            raise VerifyException(f"illegal code storage type size: {width}")
        if self.axis < 0:
            raise VerifyException(f"illegal quantized dimension: {self.axis}")
        sub, sup = self.sub_block, self.super_block
        if sub < 1 or sup < 1:
            raise VerifyException(f"block sizes must be positive, got {sub} and {sup}")
        if sup % sub:
            raise VerifyException(
                f"super-block size {sup} must be a multiple of the sub-block size {sub}"
            )
        if not is_float_type(self.scale_type):
            raise VerifyException(
                f"super-block scale type must be floating point, got {self.scale_type}"
            )
        if self.scale_width.data == 0 and sub != sup:
            raise VerifyException(
                "sub-blocks without integer scales need the sub-block size to equal "
                f"the super-block size, got {sub} and {sup}"
            )
        if not 0 <= self.scale_width.data <= MAX_CODE_BITS:
            raise VerifyException(
                f"illegal sub-block scale storage type size: {self.scale_width.data}"
            )
        if self.min_width.data:
            if self.scale_width.data == 0:
                raise VerifyException("sub-block mins need integer sub-block scales")
        elif self.has_mins and self.scale_width.data:
            raise VerifyException(
                "a float block min needs a float block scale, not integer "
                "sub-block scales"
            )
        if self.has_mins:
            if not 0 <= self.min_width.data <= MAX_CODE_BITS:
                raise VerifyException(
                    f"illegal sub-block min storage type size: {self.min_width.data}"
                )
            if not is_float_type(self.min_type):
                raise VerifyException(
                    f"super-block min type must be floating point, got {self.min_type}"
                )
        if self.table_attr.data:
            if self.code_signed.data:
                raise VerifyException(
                    "a lookup table is indexed by unsigned codes, got "
                    f"{_int_text(width, True)}"
                )
            if len(self.table_attr) != 1 << width:
                raise VerifyException(
                    f"lookup table size ({len(self.table_attr)}) must equal the number "
                    f"of representable storage values ({1 << width})"
                )
        self._verify_codebook()
        self._verify_layout()

    def _verify_codebook(self) -> None:
        book = self.codebook
        if book is None:
            if self.codebook_attr.data:
                raise VerifyException("codebook vector length must be positive")
            return
        name, dim = book
        if dim < 1:
            raise VerifyException(f"codebook vector length must be positive, got {dim}")
        grid = (
            GRIDS.get(name.removeprefix("ggml.")) if name.startswith("ggml.") else None
        )
        if grid is None:
            known = ", ".join(f'"ggml.{g}"' for g in GRIDS)
            raise VerifyException(f'unknown codebook "{name}" (known: {known})')
        (entries, length) = grid[0]
        if self.table_attr.data:
            raise VerifyException("a codebook excludes a lookup table")
        if self.code_signed.data:
            raise VerifyException(
                "a codebook is indexed by unsigned codes, got "
                f"{_int_text(self.code_width.data, True)}"
            )
        if entries != 1 << self.code_width.data:
            raise VerifyException(
                f'codebook "{name}" has {entries} entries, but the codes have '
                f"{1 << self.code_width.data} values"
            )
        if dim != length:
            raise VerifyException(
                f'codebook "{name}" holds vectors of {length} elements, not {dim}'
            )
        if self.sub_block % dim:
            raise VerifyException(
                f"sub-block size {self.sub_block} must be a multiple of the codebook "
                f"vector length {dim}"
            )

    def _verify_layout(self) -> None:
        name = self.layout.removeprefix("ggml.")
        if not self.layout.startswith("ggml.") or name not in GGMLType.__members__:
            known = ", ".join(f'"ggml.{t.name}"' for t in GGML_SPECS)
            raise VerifyException(
                f'unknown super-block layout "{self.layout}" (known: {known})'
            )
        spec = GGML_SPECS.get(GGMLType[name])
        if spec is None:
            raise VerifyException(f'layout "{self.layout}" is not supported')
        if spec.table != self.table:
            want = "no lookup table"
            if spec.table == _IQ4:
                want = "the IQ4_NL table"
            elif spec.table:
                want = "table {" + ", ".join(f"{v:g}" for v in spec.table) + "}"
            raise VerifyException(f'layout "{self.layout}" requires {want}')
        if spec.codebook != self.codebook:
            want = (
                f'codebook "{spec.codebook[0]}" x{spec.codebook[1]}'
                if spec.codebook
                else "no codebook"
            )
            raise VerifyException(f'layout "{self.layout}" requires {want}')
        f16 = Float16Type()
        if (
            spec != self._spec()
            or self.scale_type != f16
            or (spec.mins is not None and self.min_type != f16)
        ):
            canonical = SuperblockQuantizedType.ggml(
                GGMLType[name], self.axis, self.expressed_type
            )
            raise VerifyException(
                f'layout "{self.layout}" requires {canonical.body_text()}'
            )

    def verify_shape(self, shape: Sequence[int]) -> None:
        """The checks against a ranked tensor's shape."""
        rank = len(shape)
        if self.axis >= rank:
            raise VerifyException(
                f"quantized dimension {self.axis} must be less than tensor rank {rank}"
            )
        if self.axis != rank - 1:
            raise VerifyException(
                f'layout "{self.layout}" packs blocks along the last dimension '
                f"({rank - 1}), not {self.axis}"
            )
        dim = shape[self.axis]
        if dim != DYNAMIC_INDEX and dim % self.super_block:
            raise VerifyException(
                f"tensor dimension size {dim} at axis {self.axis} must be divisible "
                f"by the super-block size {self.super_block}"
            )

    def storage_shape(self, shape: Sequence[int]) -> tuple[int, ...]:
        """The shape of the raw-byte tensor holding a tensor of `shape`."""
        dim = shape[self.axis]
        nbytes = (
            DYNAMIC_INDEX
            if dim == DYNAMIC_INDEX
            else dim // self.super_block * self.block_layout.type_size
        )
        return (*shape[: self.axis], nbytes, *shape[self.axis + 1 :])

    # ----- syntax -----

    def body_text(self) -> str:
        sub, sup = self.sub_block, self.super_block
        blocks = (
            f"{{{self.axis}:{sub}}}" if sub == sup else f"{{{self.axis}:{sub}:{sup}}}"
        )
        code = _int_text(self.code_width.data, bool(self.code_signed.data))
        text = f"{code}:{self.expressed_type}:{blocks}, scales "
        if self.scale_width.data:
            text += _int_text(self.scale_width.data, bool(self.scale_signed.data)) + ":"
        text += str(self.scale_type)
        if self.min_width.data:
            text += (
                f", mins {_int_text(self.min_width.data, bool(self.min_signed.data))}"
            )
            text += f":{self.min_type}"
        elif self.has_mins:
            text += f", mins {self.min_type}"
        if self.table_attr.data:
            text += ", table {" + ",".join(format_float(v) for v in self.table) + "}"
        if self.codebook is not None:
            text += f', codebook "{self.codebook[0]}" x{self.codebook[1]}'
        return text + f', layout "{self.layout}"'

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.body_text()}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        parser.parse_punctuation("<")
        code_width, code_signed = _parse_int_kind(parser, "code")
        parser.parse_punctuation(":")
        expressed = parser.parse_type()
        parser.parse_punctuation(":")
        parser.parse_punctuation("{")
        axis = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_punctuation(":")
        sub = parser.parse_integer(allow_boolean=False, allow_negative=True)
        sup = sub
        if parser.parse_optional_punctuation(":") is not None:
            sup = parser.parse_integer(allow_boolean=False, allow_negative=True)
        parser.parse_punctuation("}")
        parser.parse_punctuation(",")
        parser.parse_keyword("scales")
        scale_width, scale_signed = 0, False
        if _peek_int_kind(parser):
            scale_width, scale_signed = _parse_int_kind(parser, "scale")
            parser.parse_punctuation(":")
        scale_type = parser.parse_type()
        min_width, min_signed, min_type = 0, False, NoneAttr()
        table: list[float] = []
        parser.parse_punctuation(",")
        if parser.parse_optional_keyword("mins") is not None:
            if _peek_int_kind(parser):
                min_width, min_signed = _parse_int_kind(parser, "min")
                parser.parse_punctuation(":")
            min_type = parser.parse_type()
            parser.parse_punctuation(",")
        if parser.parse_optional_keyword("table") is not None:
            table = parser.parse_comma_separated_list(
                parser.Delimiter.BRACES, lambda: float(parser.parse_number())
            )
            parser.parse_punctuation(",")
        codebook, dim = "", 0
        if parser.parse_optional_keyword("codebook") is not None:
            codebook = parser.parse_str_literal()
            start = parser.pos
            ident = parser.parse_optional_identifier()
            if ident is None or ident[:1] != "x" or not ident[1:].isdigit():
                parser.raise_error(
                    "expected codebook vector length (xN)", start, parser.pos
                )
            dim = int(ident[1:])
            parser.parse_punctuation(",")
        parser.parse_keyword("layout")
        layout = parser.parse_str_literal()
        parser.parse_punctuation(">")
        return [
            IntAttr(code_width),
            IntAttr(int(code_signed)),
            expressed,
            IntAttr(axis),
            IntAttr(sub),
            IntAttr(sup),
            IntAttr(scale_width),
            IntAttr(int(scale_signed)),
            scale_type,
            IntAttr(min_width),
            IntAttr(int(min_signed)),
            min_type,
            ArrayAttr(FloatData(v) for v in table),
            StringAttr(codebook),
            IntAttr(dim),
            StringAttr(layout),
        ]


def _peek_int_kind(parser: AttrParser) -> bool:
    """Whether `uN:`/`iN:` (an integer scale storage) comes next, not a float type."""
    text = parser.lexer.input.content[parser.pos :].lstrip()
    head = text[:1]
    rest = text[1:]
    digits = len(rest) - len(rest.lstrip("0123456789"))
    return head in ("u", "i") and digits > 0 and rest[digits : digits + 1] == ":"


def _parse_int_kind(parser: AttrParser, what: str) -> tuple[int, bool]:
    """`uN` or `iN`: (width, signed)."""
    start = parser.pos
    ident = parser.parse_optional_identifier()
    if (
        ident is None
        or ident[:1] not in ("u", "i")
        or not ident[1:].isdigit()
        or ident[1:2] == "0"
    ):
        parser.raise_error(
            f"expected {what} storage type (uN or iN)", start, parser.pos
        )
    width = int(ident[1:])
    if not 0 < width <= MAX_CODE_BITS:
        parser.raise_error(
            f"illegal {what} storage type size: {width}", start, parser.pos
        )
    return width, ident[0] == "i"


def superblock_of(*types: Attribute) -> SuperblockQuantizedType | None:
    """The `!quant.superblock` element type among `types` (tensor or scalar), if any."""
    for t in types:
        elem = element_type(t)
        if isinstance(elem, SuperblockQuantizedType):
            return elem
    return None


def verify_cast(op_name: str, input_type: Attribute, result_type: Attribute) -> None:
    """`quant.qcast`/`dcast`/`scast` with a `!quant.superblock` side: shapes.

    qcast/dcast keep the shape; scast pairs the quantized tensor with its raw
    bytes (`i8`, the blocked dimension counted in bytes).
    """
    qtype = superblock_of(input_type, result_type)
    assert qtype is not None

    def wrong_storage(
        quantized: TensorType[Attribute], expected: tuple[int, ...]
    ) -> str:
        want = "x".join("?" if d == DYNAMIC_INDEX else str(d) for d in expected)
        return (
            f"storage shape of {quantized} must be {want}xi8: "
            f"{qtype.block_layout.type_size} bytes per super-block of "
            f"{qtype.super_block} along axis {qtype.axis}"
        )

    verify_block_packed_cast(
        op_name,
        input_type,
        result_type,
        qtype,
        SuperblockQuantizedType,
        "!quant.superblock",
        wrong_storage,
    )
