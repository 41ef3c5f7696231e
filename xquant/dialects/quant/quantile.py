"""`!quant.quantile<STORAGE:QTYPE, {v0,v1,...}[, <min:max>]>`: a lookup-table storage type.

LLVM main (PRs #190321, #204793): a stored value `s` (of the integer or
float STORAGE type) stands for the table entry `LUT[s - min]`, where `min` is
the explicit range's minimum or the storage type's default minimum. NF4 is
the example: `ui4` indices into 16 normal-distribution quantiles. On its own
it is not a quantized type (`quant.qcast` rejects it); it is the storage type
of a `!quant.uniform` or `!quant.any`, which then scales the table values.

Upstream keeps the table as doubles and prints them as MLIR prints an f64
attribute when the type stands alone, but with `raw_ostream`'s `%e` when it
is printed inside another quant type; both are reproduced.
"""

from __future__ import annotations

import io
import math

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, FloatData, IntAttr
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xquant.dialects.quant import syntax
from xquant.dialects.quant.float_semantics import is_float_type, scale_range
from xquant.dialects.quant.storage import (
    StorageFacts,
    as_integer_type,
    float_storage_format,
    storage_facts,
)
from xquant.numerics.dtypes import integer_facts
from xquant.numerics.float_format import format_float, llvm_double

__all__ = ["QuantileQuantizedType", "check_quantile"]

_INT64 = 1 << 64


def _wrap64(value: int) -> int:
    """`value` as a C++ int64_t computation would leave it."""
    value %= _INT64
    return value - _INT64 if value >= 1 << 63 else value


def check_quantile(
    storage: Attribute,
    quantile_type: Attribute,
    values: list[float],
    value_range: tuple[int, int] | None,
) -> None:
    """Upstream's `QuantileType::verify`, its checks in its order and words."""
    if as_integer_type(storage) is None and not is_float_type(storage):
        raise VerifyException("storage type must be an integer or float type")
    if as_integer_type(quantile_type) is None and not is_float_type(quantile_type):
        raise VerifyException("quantile type must be a float or integer type")
    if not values:
        raise VerifyException("quantile values must not be empty")
    if value_range is not None and not value_range[0] < value_range[1]:
        raise VerifyException("storage min must be less than storage max")
    if value_range is not None:
        count = _wrap64(value_range[1] - value_range[0] + 1)
    else:
        count = 1 << _width(storage)
    if len(values) != count:
        raise VerifyException(
            f"quantile LUT size ({len(values)}) must equal the number of "
            f"representable storage values ({count})"
        )
    if not all(math.isfinite(v) for v in values):
        raise VerifyException("quantile values must be finite (no NaN or infinity)")


def _width(storage: Attribute) -> int:
    integer = as_integer_type(storage)
    if integer is not None:
        return integer_facts(integer)[0]
    fmt = float_storage_format(storage)
    if fmt is not None:
        return fmt.width
    bits = getattr(storage, "bitwidth", None)
    return bits if isinstance(bits, int) else 0


@irdl_attr_definition
class QuantileQuantizedType(ParametrizedAttribute, TypeAttribute):
    """A storage type whose stored values index a table of `quantile_type` values."""

    name = "quant.quantile"

    storage_type: Attribute
    quantile_type: Attribute
    quantiles_attr: ArrayAttr[FloatData]
    range_attr: ArrayAttr[IntAttr]  # [] (the storage type's range) or [min, max]

    @staticmethod
    def get(
        storage_type: Attribute,
        quantile_type: Attribute,
        quantiles: list[float] | np.ndarray,
        value_range: tuple[int, int] | None = None,
    ) -> QuantileQuantizedType:
        return QuantileQuantizedType(
            storage_type,
            quantile_type,
            ArrayAttr(FloatData(float(v)) for v in np.asarray(quantiles).flat),
            ArrayAttr(IntAttr(b) for b in (value_range or ())),
        )

    @property
    def quantiles(self) -> np.ndarray:
        """The table, as float64."""
        return np.array([v.data for v in self.quantiles_attr], dtype=np.float64)

    @property
    def explicit_range(self) -> tuple[int, int] | None:
        if not self.range_attr.data:
            return None
        low, high = self.range_attr.data
        return low.data, high.data

    @property
    def storage_width(self) -> int:
        return _width(self.storage_type)

    @property
    def is_signed(self) -> bool:
        facts = storage_facts(self.storage_type)
        return True if facts is None else facts.signed

    @property
    def storage_min(self) -> int:
        """The stored value that indexes the first table entry."""
        return self.quantile_storage_facts().default_min

    @property
    def storage_max(self) -> int:
        return self.quantile_storage_facts().default_max

    def quantile_storage_facts(self) -> StorageFacts:
        """As the storage of a `!quant.uniform`: its storage's width and sign, its range."""
        facts = storage_facts(self.storage_type)
        if facts is None:  # f16, bf16, ...: not storage on their own
            largest = int(scale_range(self.storage_type)[1])
            facts = StorageFacts(self.storage_width, True, -largest, largest)
        explicit = self.explicit_range
        if explicit is not None:
            facts = facts._replace(default_min=explicit[0], default_max=explicit[1])
        return facts

    def verify(self) -> None:
        check_quantile(
            self.storage_type,
            self.quantile_type,
            [v.data for v in self.quantiles_attr],
            self.explicit_range,
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        storage, quantile_type, values, value_range = syntax.parse_quantile(
            parser, check_quantile
        )
        return [
            storage,
            quantile_type,
            ArrayAttr(FloatData(v) for v in values),
            ArrayAttr(IntAttr(b) for b in (value_range or ())),
        ]

    def _body(self, nested: bool) -> str:
        out = io.StringIO()
        printer = Printer(stream=out)
        printer.print_attribute(self.storage_type)
        printer.print_string(":")
        printer.print_attribute(self.quantile_type)
        fmt = llvm_double if nested else format_float
        values = ",".join(fmt(v.data) for v in self.quantiles_attr)
        text = f"<{out.getvalue()}, {{{values}}}"
        explicit = self.explicit_range
        if explicit is not None:
            text += f", <{explicit[0]}:{explicit[1]}>"
        return text + ">"

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(self._body(nested=False))

    def storage_text(self) -> str:
        """The type as upstream prints it inside `!quant.uniform<...>` / `!quant.any<...>`."""
        return f"!quant.quantile{self._body(nested=True)}"
