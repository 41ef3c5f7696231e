"""The diagnostic of MLIR's result-type inference check, shared by every StableHLO op that has one.

Upstream's ops infer their result types (`InferTypeOpInterface` /
`InferShapedTypeOpInterface`); when the declared types differ, MLIR reports

    'stablehlo.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'

xquant's verifiers compute the inferred type themselves and raise this
message, built here once so that its wording stays upstream's everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from xquant.dialects.stablehlo.type_utils import compatible_shapes, shape_of, type_text
from xquant.numerics.values import element_type


def incompatible_return_types(
    op_name: str, inferred: Sequence[Attribute], actual: Sequence[Attribute]
) -> VerifyException:
    """`'<op>' op inferred type(s) <inferred> are incompatible with return type(s) of operation <actual>`."""
    inferred_text = ", ".join(type_text(t) for t in inferred)
    actual_text = ", ".join(type_text(t) for t in actual)
    return VerifyException(
        f"'{op_name}' op inferred type(s) {inferred_text} are incompatible with return type(s) of "
        f"operation {actual_text}"
    )


def incompatible_return_type(
    op_name: str, inferred: Attribute, actual: Attribute
) -> VerifyException:
    """The message for a single-result op."""
    return incompatible_return_types(op_name, [inferred], [actual])


def verify_inferred_shape(
    op_name: str, shape: Sequence[int], actual: Attribute
) -> None:
    """The result's shape is compatible with the inferred `shape` (a dynamic size matches any)."""
    if not compatible_shapes(shape_of(actual), shape):
        raise incompatible_result_shape(op_name, shape, actual)


def incompatible_result_shape(
    op_name: str, shape: Sequence[int], actual: Attribute
) -> VerifyException:
    """The message when only the shape is inferred: the result's element type in `shape`."""
    inferred = TensorType(element_type(actual), shape)
    return incompatible_return_type(op_name, inferred, actual)
