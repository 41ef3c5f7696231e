"""What a quantized type may store, as LLVM main's `QuantStorageTypeInterface` says.

A storage type is an integer type (`iN`, `siN`, `uiN`, or the keyword `uN`),
one of the float formats `f8E4M3FN`, `f8E5M2`, `f4E2M1FN`, or a
`!quant.quantile` lookup table. Each has a width, a signedness and a default
`[min, max]` range that explicit `<min:max>` bounds may narrow; this module
answers those questions without naming the quantile type (which implements
`quantile_storage_facts`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from xdsl.dialects import builtin
from xdsl.dialects.builtin import IntegerType, Signedness
from xdsl.ir import Attribute
from xdsl.utils.hints import isa

from xquant.numerics.dtypes import integer_facts, integer_range
from xquant.numerics.storage_formats import FLOAT_STORAGE_FORMATS, FloatStorageFormat

__all__ = [
    "FLOAT_STORAGE_TYPES",
    "StorageFacts",
    "as_integer_type",
    "float_storage_format",
    "storage_facts",
    "storage_spelling",
]

# The float types main accepts as storage, by their spelling.
FLOAT_STORAGE_TYPES: dict[str, Attribute] = {
    "f8E4M3FN": builtin.Float8E4M3FNType(),
    "f8E5M2": builtin.Float8E5M2Type(),
    "f4E2M1FN": builtin.Float4E2M1FNType(),
}
_FORMAT_OF_TYPE = {
    type(attr): FLOAT_STORAGE_FORMATS[name]
    for name, attr in FLOAT_STORAGE_TYPES.items()
}


class StorageFacts(NamedTuple):
    """Width, signedness and default range of a storage type."""

    width: int
    signed: bool
    default_min: int
    default_max: int


def as_integer_type(attr: Attribute) -> IntegerType[int, Signedness] | None:
    """`attr` typed as an integer type, or None."""
    return attr if isa(attr, IntegerType[int, Signedness]) else None


def float_storage_format(attr: Attribute) -> FloatStorageFormat | None:
    """The float storage format of `attr`, or None if it is not a float storage type."""
    return _FORMAT_OF_TYPE.get(type(attr))


def storage_facts(attr: Attribute, signed: bool | None = None) -> StorageFacts | None:
    """The facts of a storage type, or None if `attr` cannot be quantized storage.

    `signed` overrides the signedness of a signless integer (`u8` keeps a
    signless `i8` with the unsigned flag).
    """
    integer = as_integer_type(attr)
    if integer is not None:
        width, kind = integer_facts(integer)
        is_signed = kind != Signedness.UNSIGNED if signed is None else signed
        return StorageFacts(width, is_signed, *integer_range(width, is_signed))
    fmt = float_storage_format(attr)
    if fmt is not None:
        return StorageFacts(fmt.width, True, *fmt.default_range)
    hook: Any = getattr(attr, "quantile_storage_facts", None)
    result: object = None if hook is None else hook()
    return result if isinstance(result, StorageFacts) else None


def storage_spelling(attr: Attribute, signed: bool) -> str:
    """How a storage type prints in a `!quant.*` body: as written (main: `ui8`, `si8`, `u8`, `i8`)."""
    integer = as_integer_type(attr)
    if integer is not None:
        width, kind = integer_facts(integer)
        prefixes = {Signedness.SIGNED: "si", Signedness.UNSIGNED: "ui"}
        return f"{prefixes.get(kind, 'i' if signed else 'u')}{width}"
    fmt = float_storage_format(attr)
    if fmt is not None:
        return fmt.name
    text: Any = getattr(attr, "storage_text", None)
    if callable(text):
        return str(text())
    raise ValueError(f"{attr} is not a quantized storage type")
