"""`!quant.double_quantized`: a quantile table under double-quantized block scales (NF4).

    !quant.double_quantized<!quant.quantile<ui4:T, {v0, ..., v15}>:T:{AXIS:BLOCK},
                            scales i8:T:{SCALER_BLOCK}, mean T, layout "torchao.nf4">

QLoRA's NF4 as torchao's `to_nf4` stores it (`xquant.numerics.nf4_double`):

- the storage is upstream's `!quant.quantile`: a `ui4` code indexes a table
  of 16 values (NF4's quantiles) converted to `T`;
- `{AXIS:BLOCK}`: sub-channel blocks of `BLOCK` elements along `AXIS` (the
  last dimension), as in sub-channel `!quant.uniform`; one scale per block;
- `scales i8:T:{SCALER_BLOCK}`: those block scales are themselves quantized:
  stored as `i8`, with one `T` factor per `SCALER_BLOCK` consecutive blocks
  (row-major over the whole tensor);
- `mean T`: one per-tensor offset added to every block scale.

Value of element `e` of block `b` (scaler group `g = b / SCALER_BLOCK`), every
operation rounded to `T` (f32 or bf16) as torchao computes it:

    scale[b] = T(T(sc[b]) / factor[g]) + mean        x = T(table[q[e]] * scale[b])

A tensor of this type holds its four parts as one byte tensor: `quant.scast`
relates `tensor<D0 x ... x N x !quant.double_quantized<...>>` and the 1-D
`tensor<B x i8>` of layout "torchao.nf4": the packed codes (two per byte,
the even element in the high nibble), the `i8` block scales, the factors
and the mean (little endian), in that order. Why it is shaped so: `docs/gguf.md`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float32Type,
    IntAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xquant.dialects.quant.block_packed import verify_block_packed_cast
from xquant.dialects.quant.quantile import QuantileQuantizedType
from xquant.dialects.quant.types import QuantizedType, check_expressed_type
from xquant.numerics.nf4_double import NF4_TABLE, storage_size
from xquant.numerics.values import element_type

LAYOUTS = ("torchao.nf4",)
"""The byte layouts of the storage tensor (`numerics.nf4_double.to_bytes`)."""


def _is_ui4(attr: Attribute) -> bool:
    return attr == IntegerType(4, Signedness.UNSIGNED)


@irdl_attr_definition
class DoubleQuantizedType(QuantizedType):
    """`!quant.double_quantized<...>`: table codes under `i8` block scales under
    per-group float factors and a per-tensor mean (NF4 as torchao stores it)."""

    name = "quant.double_quantized"

    storage_type: Attribute  # a !quant.quantile
    expressed_type: Attribute
    axis_attr: IntAttr
    block_attr: IntAttr
    scale_storage: Attribute  # i8
    factor_type: Attribute
    scaler_block_attr: IntAttr
    mean_type: Attribute
    layout_attr: StringAttr

    # ----- construction -----

    @staticmethod
    def nf4(
        axis: int,
        expressed_type: Attribute | None = None,
        block: int = 64,
        scaler_block: int = 256,
    ) -> DoubleQuantizedType:
        """torchao's NF4 (`to_nf4(w, block, scaler_block)`) along `axis`, in `T`."""
        t = expressed_type or BFloat16Type()
        table = QuantileQuantizedType.get(
            IntegerType(4, Signedness.UNSIGNED), t, list(NF4_TABLE)
        )
        return DoubleQuantizedType(
            table,
            t,
            IntAttr(axis),
            IntAttr(block),
            IntegerType(8),
            t,
            IntAttr(scaler_block),
            t,
            StringAttr(LAYOUTS[0]),
        )

    # ----- accessors -----

    @property
    def quantile(self) -> QuantileQuantizedType:
        assert isinstance(self.storage_type, QuantileQuantizedType)
        return self.storage_type

    @property
    def axis(self) -> int:
        return self.axis_attr.data

    @property
    def block(self) -> int:
        return self.block_attr.data

    @property
    def scaler_block(self) -> int:
        return self.scaler_block_attr.data

    @property
    def layout(self) -> str:
        return self.layout_attr.data

    # ----- verification -----

    def verify(self) -> None:
        check_expressed_type(self.expressed_type)
        t = self.expressed_type
        if not isinstance(t, Float32Type | BFloat16Type):
            raise VerifyException(
                f"expressed type of !quant.double_quantized must be f32 or bf16, got {t}"
            )
        storage = self.storage_type
        if (
            not isinstance(storage, QuantileQuantizedType)
            or not _is_ui4(storage.storage_type)
            or storage.explicit_range is not None
        ):
            raise VerifyException(
                "storage of !quant.double_quantized must be a !quant.quantile table "
                f"of 16 values indexed by ui4, got {storage}"
            )
        if storage.quantile_type != t:
            raise VerifyException(
                f"quantile type {storage.quantile_type} must be the expressed type {t} "
                "(the table is converted to the weight's type)"
            )
        if self.axis < 0:
            raise VerifyException(f"illegal quantized dimension: {self.axis}")
        if self.block < 2 or self.block % 2:
            raise VerifyException(
                f"block size must be a positive even number (two codes per byte), "
                f"got {self.block}"
            )
        if self.scale_storage != IntegerType(8):
            raise VerifyException(
                f"block scales must be stored as i8, got {self.scale_storage}"
            )
        for what, ftype in (
            ("scale factor", self.factor_type),
            ("mean", self.mean_type),
        ):
            if ftype != t:
                raise VerifyException(
                    f"{what} type {ftype} must be the expressed type {t} "
                    "(every step is computed in the weight's type)"
                )
        if self.scaler_block < 1:
            raise VerifyException(
                f"scaler block size must be positive, got {self.scaler_block}"
            )
        if self.layout not in LAYOUTS:
            known = ", ".join(f'"{k}"' for k in LAYOUTS)
            raise VerifyException(
                f'unknown !quant.double_quantized layout "{self.layout}" (known: {known})'
            )

    def verify_shape(self, shape: Sequence[int]) -> None:
        """The checks against a ranked tensor's shape."""
        rank = len(shape)
        if any(d < 0 for d in shape):
            raise VerifyException(
                f"!quant.double_quantized needs a static shape, got {_shape_text(shape)}"
            )
        if self.axis >= rank:
            raise VerifyException(
                f"quantized dimension {self.axis} must be less than tensor rank {rank}"
            )
        if self.axis != rank - 1:
            raise VerifyException(
                f"blocks run along the last dimension ({rank - 1}), not {self.axis}"
            )
        dim = shape[self.axis]
        if dim % self.block:
            raise VerifyException(
                f"tensor dimension size {dim} at axis {self.axis} must be divisible "
                f"by the block size {self.block}"
            )
        blocks = math.prod(shape) // self.block
        if blocks % self.scaler_block:
            raise VerifyException(
                f"number of blocks {blocks} must be divisible by the scaler block "
                f"size {self.scaler_block}"
            )

    def part_sizes(self, shape: Sequence[int]) -> tuple[int, int, int, int]:
        """Bytes of the codes, the i8 scales, the factors and the mean."""
        itemsize = 4 if isinstance(self.expressed_type, Float32Type) else 2
        return storage_size(math.prod(shape), itemsize, self.block, self.scaler_block)

    def storage_shape(self, shape: Sequence[int]) -> tuple[int]:
        """The shape of the byte tensor holding a tensor of `shape`."""
        return (sum(self.part_sizes(shape)),)

    # ----- syntax -----

    def body_text(self) -> str:
        t = self.expressed_type
        return (
            f"{self.quantile.storage_text()}:{t}:{{{self.axis}:{self.block}}}, "
            f"scales {self.scale_storage}:{self.factor_type}:{{{self.scaler_block}}}, "
            f'mean {self.mean_type}, layout "{self.layout}"'
        )

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.body_text()}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        parser.parse_punctuation("<")
        storage = parser.parse_type()
        parser.parse_punctuation(":")
        expressed = parser.parse_type()
        parser.parse_punctuation(":")
        parser.parse_punctuation("{")
        axis = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_punctuation(":")
        block = parser.parse_integer(allow_boolean=False, allow_negative=True)
        parser.parse_punctuation("}")
        parser.parse_punctuation(",")
        parser.parse_keyword("scales")
        scale_storage = parser.parse_type()
        parser.parse_punctuation(":")
        factor_type = parser.parse_type()
        parser.parse_punctuation(":")
        parser.parse_punctuation("{")
        scaler_block = parser.parse_integer(allow_boolean=False, allow_negative=True)
        parser.parse_punctuation("}")
        parser.parse_punctuation(",")
        parser.parse_keyword("mean")
        mean_type = parser.parse_type()
        parser.parse_punctuation(",")
        parser.parse_keyword("layout")
        layout = parser.parse_str_literal()
        parser.parse_punctuation(">")
        return [
            storage,
            expressed,
            IntAttr(axis),
            IntAttr(block),
            scale_storage,
            factor_type,
            IntAttr(scaler_block),
            mean_type,
            StringAttr(layout),
        ]


def _shape_text(shape: Sequence[int]) -> str:
    return "x".join("?" if d < 0 else str(d) for d in shape)


def double_quantized_of(*types: Attribute) -> DoubleQuantizedType | None:
    """The `!quant.double_quantized` element type among `types`, if any."""
    for t in types:
        elem = element_type(t)
        if isinstance(elem, DoubleQuantizedType):
            return elem
    return None


def verify_cast(op_name: str, input_type: Attribute, result_type: Attribute) -> None:
    """`quant.qcast`/`dcast`/`scast` with a `!quant.double_quantized` side: shapes.

    qcast/dcast keep the shape; scast pairs the quantized tensor with its
    bytes, a 1-D `i8` tensor of exactly the four parts' size.
    """
    qtype = double_quantized_of(input_type, result_type)
    assert qtype is not None

    def wrong_storage(
        quantized: TensorType[Attribute], expected: tuple[int, ...]
    ) -> str:
        shape = quantized.get_shape()
        codes, scales, factors, mean = qtype.part_sizes(shape)
        groups = scales // qtype.scaler_block
        return (
            f"storage of {_shape_text(shape)} elements must be "
            f"tensor<{expected[0]}xi8>: {codes} code bytes, {scales} i8 block "
            f"scales, {groups} {qtype.factor_type} factor{'s' if groups > 1 else ''} "
            f"({factors} bytes) and a {mean}-byte mean"
        )

    verify_block_packed_cast(
        op_name,
        input_type,
        result_type,
        qtype,
        DoubleQuantizedType,
        "!quant.double_quantized",
        wrong_storage,
    )
