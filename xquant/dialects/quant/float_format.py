"""Moved to `xquant.numerics.float_format` (the one float formatter); this name
stays only until every importer has moved, and is then deleted."""

from xquant.numerics.float_format import (
    FloatSemantics,
    apfloat_to_string,
    format_float,
    llvm_double,
    round_double,
    semantics_of,
)

__all__ = [
    "FloatSemantics",
    "apfloat_to_string",
    "format_float",
    "llvm_double",
    "round_double",
    "semantics_of",
]
