"""`arith` ops upstream MLIR has and xDSL 0.74 lacks, and MLIR's cast verifier.

- `arith.remf`: the float remainder (C's `fmod`: the result has the dividend's
  sign); `stablehlo-legalize-to-linalg` lowers a float `stablehlo.remainder` to it.
- `arith.index_castui`: like `index_cast`, zero-extending when it widens.
- `verify_cast`: MLIR's `Arith_CastOp` rules and messages (`areCastCompatible`), used by
  `index_castui` and, through `xquant.compat.arith_casts`, by xDSL's own cast ops.

`xquant.compat.upstream_ops` registers the ops in xDSL's `Arith` dialect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from xdsl.dialects.arith import FloatingPointLikeBinaryOperation
from xdsl.dialects.builtin import (
    AnyFloat,
    ContainerType,
    IndexType,
    IntegerType,
    Signedness,
    TensorType,
    UnrankedTensorType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

ElementCheck = Callable[[Attribute], bool]


def _signless_int(attr: Attribute) -> bool:
    return isa(attr, IntegerType) and attr.signedness.data == Signedness.SIGNLESS


def _float(attr: Attribute) -> bool:
    return isinstance(attr, AnyFloat)


def _int_or_index(attr: Attribute) -> bool:
    return _signless_int(attr) or isinstance(attr, IndexType)


_INT = (_signless_int, "signless-fixed-width-integer-like")
_FLOAT = (_float, "floating-point-like")
_INDEX = (_int_or_index, "signless-integer-like or memref of signless-integer")


def _width(attr: Attribute) -> int:
    assert isinstance(attr, IntegerType | AnyFloat)
    return attr.bitwidth


def _grows(src: Attribute, dst: Attribute) -> bool:
    return _width(dst) > _width(src)


def _shrinks(src: Attribute, dst: Attribute) -> bool:
    return _width(dst) < _width(src)


def _one_index(src: Attribute, dst: Attribute) -> bool:
    return isinstance(src, IndexType) != isinstance(dst, IndexType)


def _any(src: Attribute, dst: Attribute) -> bool:
    return True


# name -> (operand element rule, result element rule, element compatibility)
_RULES: dict[
    str,
    tuple[
        tuple[ElementCheck, str],
        tuple[ElementCheck, str],
        Callable[[Attribute, Attribute], bool],
    ],
] = {
    "arith.extsi": (_INT, _INT, _grows),
    "arith.extui": (_INT, _INT, _grows),
    "arith.trunci": (_INT, _INT, _shrinks),
    "arith.extf": (_FLOAT, _FLOAT, _grows),
    "arith.truncf": (_FLOAT, _FLOAT, _shrinks),
    "arith.sitofp": (_INT, _FLOAT, _any),
    "arith.uitofp": (_INT, _FLOAT, _any),
    "arith.fptosi": (_FLOAT, _INT, _any),
    "arith.fptoui": (_FLOAT, _INT, _any),
    "arith.index_cast": (_INDEX, _INDEX, _one_index),
    "arith.index_castui": (_INDEX, _INDEX, _one_index),
}


def _element(attr: Attribute) -> Attribute | None:
    """The element of a scalar, vector or tensor type; None for anything else (memref...)."""
    # isinstance and a cast: isa() of a union costs microseconds per verified op.
    if isinstance(attr, VectorType | TensorType | UnrankedTensorType):
        return cast(ContainerType[Attribute], attr).get_element_type()
    if isinstance(attr, IntegerType | IndexType | AnyFloat):
        return cast(Attribute, attr)
    return None


def _shape(attr: Attribute) -> tuple[int, ...] | None:
    """The static/dynamic shape of a ranked container, () for a scalar, None if unranked."""
    if isinstance(attr, VectorType | TensorType):
        return tuple(attr.get_shape())
    if isinstance(attr, UnrankedTensorType):
        return None
    return ()


def _scalable(attr: Attribute) -> tuple[bool, ...]:
    if not isa(attr, VectorType):
        return ()
    return tuple(bool(d.value.data) for d in attr.scalable_dims)


def _kind(attr: Attribute) -> type[Attribute] | None:
    """The container class, or None for a scalar."""
    kind = type(attr)
    if isinstance(attr, VectorType | TensorType | UnrankedTensorType):
        return kind
    return None


def _same_dims(a: Attribute, b: Attribute) -> bool:
    """MLIR's `SameInputOutputTensorDims`: the same kind of container with identical dims.

    Unranked tensors match only unranked ones (upstream crashes on them).
    """
    return _kind(a) is _kind(b) and _shape(a) == _shape(b)


def _same_scalability(a: Attribute, b: Attribute) -> bool:
    """What `SameOperandsAndResultShape` adds once the dims agree: scalable vector dims."""
    return _scalable(a) == _scalable(b)


def verify_cast(op: Operation) -> None:
    """MLIR's `Arith_CastOp` checks, in its order and with its messages."""
    (in_ok, in_summary), (out_ok, out_summary), compatible = _RULES[op.name]
    src_type, dst_type = op.operands[0].type, op.results[0].type
    src, dst = _element(src_type), _element(dst_type)
    if src is None or not in_ok(src):
        raise VerifyException(
            f"'{op.name}' op operand #0 must be {in_summary}, but got '{src_type}'"
        )
    if dst is None or not out_ok(dst):
        raise VerifyException(
            f"'{op.name}' op result #0 must be {out_summary}, but got '{dst_type}'"
        )
    if not _same_dims(src_type, dst_type):
        raise VerifyException(
            f"'{op.name}' op failed to verify that input and output have the same tensor dimensions"
        )
    if not _same_scalability(src_type, dst_type):
        raise VerifyException(
            f"'{op.name}' op requires the same shape for all operands and results"
        )
    if not compatible(src, dst):
        raise VerifyException(
            f"'{op.name}' op operand type '{src_type}' and result type '{dst_type}' are cast incompatible"
        )


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """`arith.index_castui`: like `index_cast`, zero-extending when it widens."""

    name = "arith.index_castui"

    input = operand_def()
    result = result_def()
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"
    traits = traits_def(Pure())

    def __init__(self, input_arg: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[input_arg], result_types=[target_type])

    def verify_(self) -> None:
        verify_cast(self)


@irdl_op_definition
class RemFOp(FloatingPointLikeBinaryOperation):
    """`arith.remf`: the remainder of truncating division, with the dividend's sign."""

    name = "arith.remf"

    traits = traits_def(Pure())


EXTRA_OPS = (RemFOp, IndexCastUIOp)
"""The ops `xquant.compat.upstream_ops` adds to xDSL's `Arith`."""
