"""The quant types' invariants, shared by their parser and their constructors.

Upstream checks the same rules in `QuantTypes.cpp` (`verifyInvariants`) and
in the type parser (`TypeParser.cpp`), with the same messages; here both the
parser (`syntax.py`) and the type classes (`types.py`) call these functions,
so neither depends on the other for them.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType, Signedness
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute
from xdsl.irdl import irdl_attr_definition
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xquant.dialects.quant.float_semantics import scale_range
from xquant.numerics.dtypes import integer_range
from xquant.numerics.float_format import llvm_double

__all__ = [
    "INT32_MAX",
    "INT64_MAX",
    "INT64_MIN",
    "MAX_STORAGE_BITS",
    "PER_AXIS",
    "PER_LAYER",
    "SUB_CHANNEL",
    "Granularity",
    "GranularityAttr",
    "check_scale",
    "check_storage",
    "check_storage_range",
    "default_storage_range",
    "storage_integer_type",
]

# The parser's integer limits (upstream parses into int64; axes into int32).
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
INT32_MAX = (1 << 31) - 1


class Granularity(StrEnum):
    """How the scales of a `!quant.uniform` type vary: per tensor, per axis slice, per block."""

    PER_LAYER = "per_layer"
    PER_AXIS = "per_axis"
    SUB_CHANNEL = "sub_channel"


@irdl_attr_definition
class GranularityAttr(EnumAttribute[Granularity]):
    """The granularity parameter of `!quant.uniform` (never printed: the type's syntax implies it)."""

    name = "quant.granularity"


# The members by the short names the parser and the type use.
PER_LAYER = Granularity.PER_LAYER
PER_AXIS = Granularity.PER_AXIS
SUB_CHANNEL = Granularity.SUB_CHANNEL

MAX_STORAGE_BITS = 32


def default_storage_range(width: int, signed: bool) -> tuple[int, int]:
    """The full range of an `iN` (signed) or `uN` (unsigned) storage type."""
    return integer_range(width, signed)


def check_storage(width: int, signed: bool, storage_min: int, storage_max: int) -> None:
    """The storage checks shared by the parser and the constructors (upstream texts)."""
    check_storage_range(
        width, default_storage_range(width, signed), storage_min, storage_max
    )


def check_storage_range(
    width: int, default: tuple[int, int], storage_min: int, storage_max: int
) -> None:
    """`check_storage` for any storage type, given its default range (float, quantile)."""
    if not 0 < width <= MAX_STORAGE_BITS:
        raise VerifyException(f"illegal storage type size: {width}")
    low, high = default
    if storage_min < low:
        raise VerifyException(f"illegal storage type minimum: {storage_min}")
    if storage_max > high:
        raise VerifyException(f"illegal storage type maximum: {storage_max}")
    if storage_max - storage_min <= 0:
        raise VerifyException(
            f"illegal storage min and storage max: ({storage_min}:{storage_max})"
        )


def check_scale(scale: float, expressed_type: Attribute) -> None:
    """A scale must lie in [smallest denormal, largest finite] of the expressed type."""
    low, high = scale_range(expressed_type)
    if not low <= scale <= high:
        raise VerifyException(
            f"scale {llvm_double(scale)} out of expressed type range [{llvm_double(low)}, {llvm_double(high)}]"
        )


def storage_integer_type(width: int, signed: bool, builtin: bool) -> IntegerType:
    """The storage type as upstream keeps it: `siN`/`uiN` if spelled so (`builtin`), else `iN`."""
    if not builtin:
        return IntegerType(width)
    return IntegerType(width, Signedness.SIGNED if signed else Signedness.UNSIGNED)
