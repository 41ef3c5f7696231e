"""Moved to `xquant.numerics.values`; kept only until every importer is switched."""

from xquant.numerics.dtypes import cast_float
from xquant.numerics.values import (
    IdentityCache,
    IntInfo,
    as_value,
    dtype_of,
    element_type,
    finish,
    from_unsigned,
    int_info,
    integer_matmul,
    is_float_dtype,
    is_ml_float,
    loop_order_matmul,
    signed_view,
    unsigned_view,
    wrap,
)

__all__ = [
    "IdentityCache",
    "IntInfo",
    "as_value",
    "cast_float",
    "dtype_of",
    "element_type",
    "finish",
    "from_unsigned",
    "int_info",
    "integer_matmul",
    "is_float_dtype",
    "is_ml_float",
    "loop_order_matmul",
    "signed_view",
    "unsigned_view",
    "wrap",
]
