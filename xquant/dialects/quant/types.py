"""The `quant` dialect's types, as upstream MLIR defines them.

- `!quant.any<STORAGE[<min:max>][:EXPR]>`
- `!quant.uniform<STORAGE[<min:max>]:EXPR, SCALE[:ZP]>`                      per-layer
- `!quant.uniform<STORAGE[<min:max>]:EXPR:AXIS, {S0[:Z0],S1[:Z1],...}>`       per-axis
- `!quant.uniform<STORAGE[<min:max>]:EXPR:{AX:BS, ...}, {{S:Z, ...}, ...}>`   sub-channel
- `!quant.calibrated<EXPR<MIN:MAX>>`

Upstream has a C++ class per uniform granularity; xDSL maps one mnemonic to
one class, so `UniformQuantizedType` covers all three and says which one it
is (`is_per_layer`, `is_per_axis`, `is_sub_channel`). Every granularity is
also viewed as sub-channel by `block_sizes_for(shape)`, which is how the
numerics treat them.

Storage is the integer type as written plus a signedness flag, as upstream
stores it: `iN` and `uN` keep a signless `iN` (flag signed / unsigned), while
the builtin spellings `siN` and `uiN` keep that builtin type. All four print
as `iN` / `uN` (mlir-opt 22.1.8 does the same), yet `!quant.uniform<ui8:...>`
and `!quant.uniform<u8:...>` are distinct types: only a signless storage type
can meet `quant.scast`. Everything numeric goes by `storage_width` and
`is_signed`, which agree for both spellings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    FloatData,
    IntAttr,
    IntegerType,
    NoneAttr,
    Signedness,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xquant.dialects.quant import syntax
from xquant.dialects.quant.constraints import (
    INT32_MAX,
    INT64_MAX,
    INT64_MIN,
    MAX_STORAGE_BITS,
    PER_AXIS,
    PER_LAYER,
    SUB_CHANNEL,
    Granularity,
    GranularityAttr,
    check_scale,
    check_storage_range,
    default_storage_range,
    storage_integer_type,
)
from xquant.dialects.quant.float_semantics import (
    is_float_type,
    round_to_float_type,
)
from xquant.dialects.quant.quantile import QuantileQuantizedType
from xquant.dialects.quant.storage import (
    StorageFacts,
    as_integer_type,
    float_storage_format,
    storage_facts,
)
from xquant.numerics.dtypes import integer_facts
from xquant.numerics.float_format import format_float, llvm_double
from xquant.numerics.storage_formats import FloatStorageFormat


def check_expressed_type(expressed_type: Attribute) -> None:
    if not is_float_type(expressed_type):
        raise VerifyException(
            f"expressed type must be floating point, got {expressed_type}"
        )


class QuantizedType(ParametrizedAttribute, TypeAttribute):
    """Base of every `!quant.*` type: a storage integer and the float it stands for."""

    if TYPE_CHECKING:  # declared by each concrete type, in its own parameter order
        expressed_type: Attribute

    @classmethod
    def unknown_mnemonic_message(cls, mnemonic: str, is_type: bool) -> str:
        """Upstream's error for `!quant.<mnemonic>` it does not define, or any `#quant.*`.

        Defining this claims the `quant` namespace: such names are errors even
        with `--allow-unregistered-dialect` (see `xquant.compat.dialect_mnemonics`).
        """
        if not is_type:
            return "dialect 'quant' provides no attribute parsing hook"
        return f"unknown quantized type {mnemonic}"

    @property
    def expressed(self) -> Attribute | None:
        """The expressed float type, or None (only `!quant.any` may omit it)."""
        return (
            None if isinstance(self.expressed_type, NoneAttr) else self.expressed_type
        )


class StorageQuantizedType(QuantizedType):
    """A quantized type with a storage type (`any` and `uniform`).

    The storage is an integer type, a float storage type (`f8E4M3FN`, ...) or
    a `!quant.quantile` table (see `storage`); `storage_type` is always an
    integer type: the storage itself when it is one, else the signless
    integer of its width (the bits, as a container).
    """

    if TYPE_CHECKING:
        storage_spec: Attribute
        signed: IntAttr
        storage_min_attr: IntAttr
        storage_max_attr: IntAttr

    @property
    def _facts(self) -> StorageFacts:
        facts = storage_facts(self.storage_spec, self.is_signed)
        if facts is None:
            raise VerifyException(
                f"illegal storage type: {self.storage_spec} is not a quantized storage type"
            )
        return facts

    @property
    def storage_type(self) -> IntegerType:
        """The integer storage type, or the signless integer of a float/quantile storage's width."""
        integer = as_integer_type(self.storage_spec)
        if integer is not None:
            return integer
        return IntegerType(self.storage_width)

    @property
    def is_integer_storage(self) -> bool:
        return isinstance(self.storage_spec, IntegerType)

    @property
    def float_storage(self) -> FloatStorageFormat | None:
        """The float format of float storage (`f8E4M3FN`, ...), else None."""
        return float_storage_format(self.storage_spec)

    @property
    def quantile(self) -> QuantileQuantizedType | None:
        """The lookup table of `!quant.quantile` storage, else None."""
        spec = self.storage_spec
        return spec if isinstance(spec, QuantileQuantizedType) else None

    @property
    def storage_element(self) -> Attribute:
        """The element type stored values are held in: the integer or float storage type,
        or the storage type of a quantile table."""
        quantile = self.quantile
        return self.storage_spec if quantile is None else quantile.storage_type

    @property
    def storage_width(self) -> int:
        return self._facts.width

    @property
    def signless_storage_type(self) -> IntegerType:
        """The signless `iN` that integer arithmetic on the stored values uses."""
        return IntegerType(self.storage_width)

    @property
    def has_signless_storage(self) -> bool:
        """Whether the storage was written `iN`/`uN` (not `siN`/`uiN`), so `quant.scast` can carry it."""
        integer = as_integer_type(self.storage_spec)
        return integer is not None and integer_facts(integer)[1] == Signedness.SIGNLESS

    @property
    def is_signed(self) -> bool:
        return bool(self.signed.data)

    @property
    def storage_min(self) -> int:
        return self.storage_min_attr.data

    @property
    def storage_max(self) -> int:
        return self.storage_max_attr.data

    @property
    def has_storage_bounds(self) -> bool:
        """Whether the bounds differ from the storage type's default range (then they print)."""
        facts = self._facts
        return (self.storage_min, self.storage_max) != (
            facts.default_min,
            facts.default_max,
        )

    def _storage_text(self) -> str:
        bounds = (self.storage_min, self.storage_max)
        return syntax.storage_text(
            self.storage_spec,
            self.is_signed,
            bounds if self.has_storage_bounds else None,
        )

    def _verify_storage(self) -> None:
        spec = self.storage_spec
        integer = as_integer_type(spec)
        if integer is not None:
            builtin = integer_facts(integer)[1]
            if builtin != Signedness.SIGNLESS and (builtin == Signedness.SIGNED) != (
                self.is_signed
            ):
                raise VerifyException(
                    f"storage type {spec} contradicts the "
                    f"{'signed' if self.is_signed else 'unsigned'} flag"
                )
        facts = self._facts
        if not isinstance(spec, IntegerType) and facts.signed != self.is_signed:
            raise VerifyException(
                f"storage type {spec} contradicts the "
                f"{'signed' if self.is_signed else 'unsigned'} flag"
            )
        check_storage_range(
            facts.width,
            (facts.default_min, facts.default_max),
            self.storage_min,
            self.storage_max,
        )


def _storage_params(
    width: int,
    signed: bool,
    storage_min: int | None,
    storage_max: int | None,
    builtin: bool = False,
    storage: Attribute | None = None,
) -> tuple[Attribute, IntAttr, IntAttr, IntAttr]:
    if storage is not None:
        facts = storage_facts(storage)
        if facts is None:
            raise VerifyException("illegal storage type prefix")
        width, signed = facts.width, facts.signed
        low, high = facts.default_min, facts.default_max
    else:
        low, high = default_storage_range(width, signed) if 0 < width else (0, 0)
    if not 0 < width <= MAX_STORAGE_BITS:
        raise VerifyException(f"illegal storage type size: {width}")
    return (
        storage_integer_type(width, signed, builtin) if storage is None else storage,
        IntAttr(int(signed)),
        IntAttr(low if storage_min is None else storage_min),
        IntAttr(high if storage_max is None else storage_max),
    )


@irdl_attr_definition
class AnyQuantizedType(StorageQuantizedType):
    """`!quant.any<i8<-8:7>:f32>`: a storage type, optional bounds and expressed type, no parameters."""

    name = "quant.any"

    storage_spec: Attribute
    signed: IntAttr
    storage_min_attr: IntAttr
    storage_max_attr: IntAttr
    expressed_type: Attribute

    @staticmethod
    def get(
        width: int,
        signed: bool = True,
        expressed_type: Attribute | None = None,
        storage_min: int | None = None,
        storage_max: int | None = None,
        *,
        builtin_signedness: bool = False,
        storage: Attribute | None = None,
    ) -> AnyQuantizedType:
        return AnyQuantizedType(
            *_storage_params(
                width, signed, storage_min, storage_max, builtin_signedness, storage
            ),
            NoneAttr() if expressed_type is None else expressed_type,
        )

    def verify(self) -> None:
        self._verify_storage()
        if self.expressed is not None:
            check_expressed_type(self.expressed_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return syntax.parse_any(parser)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self._storage_text()}")
        if self.expressed is not None:
            printer.print_string(":")
            printer.print_attribute(self.expressed_type)
        printer.print_string(">")


@irdl_attr_definition
class UniformQuantizedType(StorageQuantizedType):
    """`!quant.uniform<...>`: affine quantization `real = (stored - zero_point) * scale`.

    `granularity` is a `Granularity` (per-layer, per-axis, sub-channel). Scales and zero
    points are kept flat with their shape in `scales_shape`: () per-layer, (N,)
    per-axis, the brace nesting for sub-channel.
    """

    name = "quant.uniform"

    PER_LAYER: ClassVar[Granularity] = PER_LAYER
    PER_AXIS: ClassVar[Granularity] = PER_AXIS
    SUB_CHANNEL: ClassVar[Granularity] = SUB_CHANNEL

    storage_spec: Attribute
    signed: IntAttr
    storage_min_attr: IntAttr
    storage_max_attr: IntAttr
    expressed_type: Attribute
    granularity: GranularityAttr
    quantized_dimensions_attr: ArrayAttr[IntAttr]
    block_sizes_attr: ArrayAttr[IntAttr]
    scales_shape: ArrayAttr[IntAttr]
    scales_attr: ArrayAttr[FloatData]
    zero_points_attr: ArrayAttr[IntAttr]

    # ----- constructors (same checks as the parser) -----

    @staticmethod
    def per_layer(
        width: int,
        signed: bool,
        expressed_type: Attribute,
        scale: float,
        zero_point: int = 0,
        storage_min: int | None = None,
        storage_max: int | None = None,
        *,
        builtin_signedness: bool = False,
        storage: Attribute | None = None,
    ) -> UniformQuantizedType:
        return UniformQuantizedType._make(
            width,
            signed,
            expressed_type,
            UniformQuantizedType.PER_LAYER,
            [],
            [],
            (),
            [scale],
            [zero_point],
            storage_min,
            storage_max,
            builtin_signedness,
            storage,
        )

    @staticmethod
    def per_axis(
        width: int,
        signed: bool,
        expressed_type: Attribute,
        axis: int,
        scales: Sequence[float],
        zero_points: Sequence[int] | None = None,
        storage_min: int | None = None,
        storage_max: int | None = None,
        *,
        builtin_signedness: bool = False,
        storage: Attribute | None = None,
    ) -> UniformQuantizedType:
        zps = [0] * len(scales) if zero_points is None else list(zero_points)
        if len(zps) != len(scales):
            raise VerifyException(
                f"illegal number of scales and zeroPoints: {len(scales)}, {len(zps)}"
            )
        return UniformQuantizedType._make(
            width,
            signed,
            expressed_type,
            UniformQuantizedType.PER_AXIS,
            [axis],
            [],
            (len(scales),),
            list(scales),
            zps,
            storage_min,
            storage_max,
            builtin_signedness,
            storage,
        )

    @staticmethod
    def sub_channel(
        width: int,
        signed: bool,
        expressed_type: Attribute,
        block_info: Sequence[tuple[int, int]],
        scales: np.ndarray | Sequence[float],
        zero_points: np.ndarray | Sequence[int] | None = None,
        storage_min: int | None = None,
        storage_max: int | None = None,
        *,
        builtin_signedness: bool = False,
        storage: Attribute | None = None,
    ) -> UniformQuantizedType:
        scale_array = np.asarray(scales, dtype=np.float64)
        zp_array = (
            np.zeros(scale_array.shape, np.int64)
            if zero_points is None
            else np.asarray(zero_points)
        )
        if zp_array.shape != scale_array.shape:
            raise VerifyException(
                f"shape of scales and zeroPoints ({list(scale_array.shape)} vs {list(zp_array.shape)}) does not match"
            )
        check_expressed_type(expressed_type)
        rounded = [
            round_to_float_type(float(s), expressed_type) for s in scale_array.flat
        ]
        return UniformQuantizedType._make(
            width,
            signed,
            expressed_type,
            UniformQuantizedType.SUB_CHANNEL,
            [axis for axis, _ in block_info],
            [block for _, block in block_info],
            scale_array.shape,
            rounded,
            [int(z) for z in zp_array.flat],
            storage_min,
            storage_max,
            builtin_signedness,
            storage,
        )

    @staticmethod
    def _make(
        width: int,
        signed: bool,
        expressed_type: Attribute,
        granularity: Granularity,
        dims: Sequence[int],
        blocks: Sequence[int],
        shape: Sequence[int],
        scales: Sequence[float],
        zero_points: Sequence[int],
        storage_min: int | None,
        storage_max: int | None,
        builtin_signedness: bool,
        storage: Attribute | None = None,
    ) -> UniformQuantizedType:
        return UniformQuantizedType(
            *_storage_params(
                width, signed, storage_min, storage_max, builtin_signedness, storage
            ),
            expressed_type,
            GranularityAttr(granularity),
            ArrayAttr(IntAttr(d) for d in dims),
            ArrayAttr(IntAttr(b) for b in blocks),
            ArrayAttr(IntAttr(n) for n in shape),
            ArrayAttr(FloatData(float(s)) for s in scales),
            ArrayAttr(IntAttr(int(z)) for z in zero_points),
        )

    # ----- accessors -----

    @property
    def is_per_layer(self) -> bool:
        return self.granularity.data == self.PER_LAYER

    @property
    def is_per_axis(self) -> bool:
        return self.granularity.data == self.PER_AXIS

    @property
    def is_sub_channel(self) -> bool:
        return self.granularity.data == self.SUB_CHANNEL

    @property
    def quantized_dimension(self) -> int | None:
        """The axis of a per-axis type, else None."""
        return self.quantized_dimensions_attr.data[0].data if self.is_per_axis else None

    @property
    def quantized_dimensions(self) -> tuple[int, ...]:
        """Axes with parameters: `(axis,)` per-axis, the block-info axes sub-channel, () per-layer."""
        return tuple(d.data for d in self.quantized_dimensions_attr)

    @property
    def block_sizes(self) -> tuple[int, ...]:
        """Block sizes of a sub-channel type, in block-info order (empty otherwise)."""
        return tuple(b.data for b in self.block_sizes_attr)

    @property
    def block_size_info(self) -> tuple[tuple[int, int], ...]:
        """`(axis, block size)` pairs of a sub-channel type, in the order written (empty otherwise)."""
        if not self.is_sub_channel:
            return ()
        return tuple(zip(self.quantized_dimensions, self.block_sizes, strict=True))

    @property
    def scale_shape(self) -> tuple[int, ...]:
        """Shape of the scales (and zero points): () per-layer, (N,) per-axis, the braces sub-channel."""
        return tuple(n.data for n in self.scales_shape)

    @property
    def scales(self) -> np.ndarray:
        """Scales as float64, shaped () per-layer, (N,) per-axis, like the braces sub-channel."""
        shape = self.scale_shape
        return np.array([s.data for s in self.scales_attr], dtype=np.float64).reshape(
            shape
        )

    @property
    def zero_points(self) -> np.ndarray:
        """Zero points as int64, shaped like `scales`."""
        shape = self.scale_shape
        return np.array(
            [z.data for z in self.zero_points_attr], dtype=np.int64
        ).reshape(shape)

    @property
    def scale(self) -> float:
        """The scale of a per-layer type."""
        if not self.is_per_layer:
            raise ValueError(f"{self} is not per-layer")
        return self.scales_attr.data[0].data

    @property
    def zero_point(self) -> int:
        """The zero point of a per-layer type."""
        if not self.is_per_layer:
            raise ValueError(f"{self} is not per-layer")
        return self.zero_points_attr.data[0].data

    def block_sizes_for(self, shape: Sequence[int]) -> tuple[int, ...]:
        """The block size along each dimension of a tensor of `shape`.

        Per-layer: the whole tensor is one block. Per-axis: 1 on the axis, the
        full dimension elsewhere. Sub-channel: the listed block sizes, the full
        dimension on unlisted axes. Element `i` then uses `scales[i // block]`
        once the scales are broadcast to the tensor's rank (see `scales_for`).
        """
        blocks = list(shape)
        if self.is_per_axis:
            blocks[self.quantized_dimensions[0]] = 1
        for axis, block in self.block_size_info:
            blocks[axis] = block
        return tuple(blocks)

    def scales_for(self, shape: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
        """Scales and zero points with one dimension per dimension of a tensor of `shape`.

        A dimension is 1 where the parameter is shared and the number of
        blocks where it varies, so `scales[i // (shape // scales.shape)]` is
        the scale of element `i`. For a sub-channel type on an unranked
        tensor, the scale tensor may be given compactly (one dimension per
        quantized axis, in increasing axis order);
        it is expanded here to the runtime rank.
        """
        scales, zero_points = self.scales, self.zero_points
        rank = len(shape)
        if self.is_per_layer:
            return scales.reshape((1,) * rank), zero_points.reshape((1,) * rank)
        full = [1] * rank

        def misfit() -> ValueError:
            # Built only when raised: printing a type with many scales is slow.
            return ValueError(
                f"the scales of {self} do not fit a tensor of shape {list(shape)}"
            )

        if self.is_per_axis:
            axis = self.quantized_dimensions[0]
            if axis >= rank or shape[axis] != scales.shape[0]:
                raise misfit()
            full[axis] = scales.shape[0]
            return scales.reshape(full), zero_points.reshape(full)
        if scales.ndim == rank:
            return scales, zero_points
        axes = sorted(set(self.quantized_dimensions))
        compact = (
            [scales.shape[a] for a in axes]
            if scales.ndim > max(axes, default=-1)
            else list(scales.shape)
        )
        if (
            len(compact) != len(axes)
            or scales.size != int(np.prod(compact))
            or max(axes, default=-1) >= rank
        ):
            raise misfit()
        for axis, count in zip(axes, compact, strict=True):
            full[axis] = count
        return scales.reshape(full), zero_points.reshape(full)

    # ----- verification -----

    def verify(self) -> None:
        self._verify_storage()
        check_expressed_type(self.expressed_type)
        granularity = self.granularity.data
        n_scales = len(self.scales_attr)
        if n_scales != len(self.zero_points_attr):
            raise VerifyException(
                f"illegal number of scales and zeroPoints: {n_scales}, {len(self.zero_points_attr)}"
            )
        if int(np.prod(self.scale_shape)) != n_scales:
            raise VerifyException("scales do not fill their shape")
        # The parser's integer limits, so that every constructed type prints text that reads back.
        for zp in self.zero_points_attr:
            if not INT64_MIN <= zp.data <= INT64_MAX:
                raise VerifyException(f"zero point {zp.data}: integer value too large")
        for axis in self.quantized_dimensions:
            if axis > INT32_MAX:
                raise VerifyException(
                    f"quantized dimension {axis}: integer value too large"
                )
        for scale in self.scales_attr:
            check_scale(scale.data, self.expressed_type)
        for axis in self.quantized_dimensions:
            if axis < 0:
                raise VerifyException(f"illegal quantized dimension: {axis}")
        if granularity == self.PER_LAYER and (
            n_scales != 1 or self.quantized_dimensions
        ):
            raise VerifyException("a per-layer type has exactly one scale and no axis")
        if granularity == self.PER_AXIS and (
            n_scales == 0 or len(self.quantized_dimensions) != 1
        ):
            raise VerifyException("a per-axis type has one axis and at least one scale")
        if granularity == self.SUB_CHANNEL:
            self._verify_sub_channel()

    def _verify_sub_channel(self) -> None:
        if len(self.quantized_dimensions) != len(self.block_sizes):
            raise VerifyException(
                "number of quantized dimensions and block sizes "
                f"({len(self.quantized_dimensions)} vs {len(self.block_sizes)}) does not match"
            )
        for block in self.block_sizes:
            if block <= 0:
                raise VerifyException(f"illegal block size: {block}")
            if block > INT64_MAX:
                raise VerifyException(f"block size {block}: integer value too large")
        if not self.scale_shape or 0 in self.scale_shape:
            raise VerifyException(
                f"sub-channel scales must be a non-empty tensor of rank >= 1, got shape {list(self.scale_shape)}"
            )
        # Deliberately stricter than upstream, which wraps out-of-range zero points.
        low, high = self._facts.default_min, self._facts.default_max
        for zp in self.zero_points_attr:
            if not low <= zp.data <= high:
                raise VerifyException(
                    f"zero point {zp.data} out of storage type range [{low}, {high}]"
                )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return syntax.parse_uniform(parser)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self._storage_text()}:")
        printer.print_attribute(self.expressed_type)
        scales, zero_points = self.scales_attr, self.zero_points_attr
        if self.is_per_layer:
            text = syntax.scale_zero_text(
                scales.data[0].data, zero_points.data[0].data, None
            )
            printer.print_string(f", {text}>")
            return
        if self.is_per_axis:
            body = ",".join(syntax.scale_zero_texts(scales, zero_points, None))
            printer.print_string(f":{self.quantized_dimensions[0]}, {{{body}}}>")
            return
        blocks = ", ".join(f"{a}:{b}" for a, b in self.block_size_info)
        body = syntax.sub_channel_body(
            scales,
            zero_points,
            [n.data for n in self.scales_shape],
            self.expressed_type,
        )
        printer.print_string(f":{{{blocks}}}, {body}>")


@irdl_attr_definition
class CalibratedQuantizedType(QuantizedType):
    """`!quant.calibrated<f32<-1.0:1.0>>`: an expressed type and the observed range, no storage yet."""

    name = "quant.calibrated"

    expressed_type: Attribute
    min_attr: FloatData
    max_attr: FloatData

    @staticmethod
    def get(
        expressed_type: Attribute, min_value: float, max_value: float
    ) -> CalibratedQuantizedType:
        return CalibratedQuantizedType(
            expressed_type, FloatData(min_value), FloatData(max_value)
        )

    @property
    def min(self) -> float:
        return self.min_attr.data

    @property
    def max(self) -> float:
        return self.max_attr.data

    def verify(self) -> None:
        check_expressed_type(self.expressed_type)
        if not self.max > self.min:
            raise VerifyException(
                f"illegal min and max: ({llvm_double(self.min)}:{llvm_double(self.max)})"
            )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return syntax.parse_calibrated(parser)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.expressed_type)
        low, high = format_float(self.min), format_float(self.max)
        printer.print_string(f"<{low}:{high}>>")
