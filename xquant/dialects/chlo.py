"""The ops of StableHLO's `chlo` dialect that `stablehlo-legalize-quant-to-math` and JAX emit.

Element-wise unary math (`chlo.square`, `chlo.erf`, `chlo.erfc`, `chlo.sinh`,
...), `chlo.top_k`, and the broadcasting binary ops.

Upstream's pass builds its integer math from implicitly broadcasting binary
ops (`stablehlo/dialect/ChloOps.td`, `HLOClient_BroadcastBinaryElementwiseOp`);
xquant keeps them so the lowered IR reads as upstream's:

    %0 = chlo.broadcast_add %a, %b : (tensor<?x?xi32>, tensor<i32>) -> tensor<?x?xi32>
    %1 = chlo.broadcast_multiply %x, %s {broadcast_dimensions = array<i64: 3>}
           : (tensor<26x26x3x2xf32>, tensor<2xf32>) -> tensor<26x26x3x2xf32>

Semantics (numpy-style broadcasting): without `broadcast_dimensions` the
operands align on their trailing dimensions; with it, the lower-rank operand's
dimension `i` maps to result dimension `broadcast_dimensions[i]`. A size-1 or
equal dimension broadcasts. Element types must agree; the result's shape is
the broadcast shape (dynamic dimensions are accepted as compatible).
"""

from __future__ import annotations

from typing import ClassVar, Self, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i1,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Dialect,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypedAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa
from xdsl.utils.str_enum import StrEnum

from xquant.dialects.stablehlo.syntax import (
    array_values,
    i64_array,
    parse_functional_op_tail,
    print_functional_op_tail,
    print_operands,
)
from xquant.numerics.values import with_element


def broadcast_shape(
    lhs: tuple[int, ...], rhs: tuple[int, ...], dims: tuple[int, ...] | None
) -> tuple[int, ...] | None:
    """The result shape of broadcasting `lhs` with `rhs` (None if incompatible).

    With `dims`, the operand of lower rank maps its dimension `i` to result
    dimension `dims[i]`; without, trailing dimensions align.
    """
    big, small = (lhs, rhs) if len(lhs) >= len(rhs) else (rhs, lhs)
    if dims is None:
        dims = tuple(range(len(big) - len(small), len(big)))
    if len(dims) != len(small) or any(not 0 <= d < len(big) for d in dims):
        return None
    result = list(big)
    for size, d in zip(small, dims, strict=True):
        other = big[d]
        if size == other or size == 1:
            continue
        if other == 1:
            result[d] = size
        elif DYNAMIC_INDEX in (size, other):
            result[d] = other if other != DYNAMIC_INDEX else size
        else:
            return None
    return tuple(result)


class BroadcastBinaryOp(IRDLOperation):
    """`chlo.broadcast_<op> %lhs, %rhs [{broadcast_dimensions = array<i64: ...>}] : (T1, T2) -> T3`."""

    STABLEHLO_NAME: ClassVar[str]
    """The element-wise StableHLO op this one broadcasts (the interpreter's table key)."""

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    broadcast_dimensions = opt_prop_def(DenseArrayBase)
    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        broadcast_dimensions: tuple[int, ...] | None = None,
        result_type: Attribute | None = None,
    ):
        if result_type is None:
            result_type = _default_result_type(lhs.type, rhs.type, broadcast_dimensions)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type],
            properties=(
                {}
                if broadcast_dimensions is None
                else {"broadcast_dimensions": i64_array(broadcast_dimensions)}
            ),
        )

    @property
    def dims(self) -> tuple[int, ...] | None:
        """`broadcast_dimensions` as a tuple, None when absent (trailing alignment)."""
        attr = self.broadcast_dimensions
        return None if attr is None else array_values(attr)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        return parse_functional_op_tail(cls, parser, [lhs, rhs], None, 1)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_operands(printer, self.operands)
        print_functional_op_tail(printer, self)

    def verify_(self) -> None:
        lhs, rhs, result = self.lhs.type, self.rhs.type, self.result.type
        assert isinstance(lhs, TensorType) and isinstance(rhs, TensorType)
        assert isinstance(result, TensorType)
        if not (
            lhs.get_element_type()
            == rhs.get_element_type()
            == result.get_element_type()
        ):
            raise VerifyException(
                f"'{self.name}' op requires the same element type for all operands and results"
            )
        shape = broadcast_shape(
            tuple(lhs.get_shape()), tuple(rhs.get_shape()), self.dims
        )
        if shape is None or len(shape) != result.get_num_dims():
            raise VerifyException(
                f"'{self.name}' op operands are not broadcast compatible"
            )


def _default_result_type(
    lhs: Attribute, rhs: Attribute, dims: tuple[int, ...] | None
) -> Attribute:
    assert isa(lhs, TensorType) and isa(rhs, TensorType)
    shape = broadcast_shape(tuple(lhs.get_shape()), tuple(rhs.get_shape()), dims)
    if shape is None or shape == tuple(lhs.get_shape()):
        return lhs
    return TensorType(lhs.get_element_type(), shape)


@irdl_op_definition
class BroadcastAddOp(BroadcastBinaryOp):
    name = "chlo.broadcast_add"
    STABLEHLO_NAME: ClassVar[str] = "stablehlo.add"


@irdl_op_definition
class BroadcastSubtractOp(BroadcastBinaryOp):
    name = "chlo.broadcast_subtract"
    STABLEHLO_NAME: ClassVar[str] = "stablehlo.subtract"


@irdl_op_definition
class BroadcastMultiplyOp(BroadcastBinaryOp):
    name = "chlo.broadcast_multiply"
    STABLEHLO_NAME: ClassVar[str] = "stablehlo.multiply"


@irdl_op_definition
class BroadcastDivideOp(BroadcastBinaryOp):
    name = "chlo.broadcast_divide"
    STABLEHLO_NAME: ClassVar[str] = "stablehlo.divide"


@irdl_op_definition
class BroadcastMaximumOp(BroadcastBinaryOp):
    name = "chlo.broadcast_maximum"
    STABLEHLO_NAME: ClassVar[str] = "stablehlo.maximum"


@irdl_op_definition
class BroadcastMinimumOp(BroadcastBinaryOp):
    name = "chlo.broadcast_minimum"
    STABLEHLO_NAME: ClassVar[str] = "stablehlo.minimum"


@irdl_op_definition
class BroadcastNextAfterOp(BroadcastBinaryOp):
    """Broadcasting `chlo.next_after`."""

    name = "chlo.broadcast_next_after"
    STABLEHLO_NAME: ClassVar[str] = "chlo.next_after"


@irdl_op_definition
class BroadcastPolygammaOp(BroadcastBinaryOp):
    """Broadcasting `chlo.polygamma`."""

    name = "chlo.broadcast_polygamma"
    STABLEHLO_NAME: ClassVar[str] = "chlo.polygamma"


@irdl_op_definition
class BroadcastZetaOp(BroadcastBinaryOp):
    """Broadcasting `chlo.zeta`."""

    name = "chlo.broadcast_zeta"
    STABLEHLO_NAME: ClassVar[str] = "chlo.zeta"


CHLO_TARGET_BROADCASTS: tuple[type[BroadcastBinaryOp], ...] = (
    BroadcastNextAfterOp,
    BroadcastPolygammaOp,
    BroadcastZetaOp,
)
"""Broadcasting ops whose element-wise op is itself a chlo op (expanded in turn)."""


class ChloUnaryOp(IRDLOperation):
    """Base of chlo's element-wise unary ops on floats (`ChloOps.td`, `CHLO_UnaryElementwiseOp`):

    %0 = chlo.erf %x : tensor<16xf32> -> tensor<16xf32>
    """

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$operand attr-dict `:` type($operand) `->` type($result)"

    def __init__(self, operand: SSAValue, result_type: Attribute | None = None):
        super().__init__(
            operands=[operand],
            result_types=[operand.type if result_type is None else result_type],
        )

    def verify_(self) -> None:
        operand, result = self.operand.type, self.result.type
        if not isa(operand, TensorType) or not isa(result, TensorType):
            return
        if operand.get_element_type() != result.get_element_type():
            raise VerifyException(
                f"'{self.name}' op requires the same element type for all operands and results"
            )
        if not _compatible_shapes(
            tuple(operand.get_shape()), tuple(result.get_shape())
        ):
            raise VerifyException(
                f"'{self.name}' op requires the same shape for all operands and results"
            )


def _compatible_shapes(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return len(a) == len(b) and all(
        x == y or DYNAMIC_INDEX in (x, y) for x, y in zip(a, b, strict=True)
    )


def _unary(op_name: str, class_name: str, doc: str) -> type[ChloUnaryOp]:
    cls = type(class_name, (ChloUnaryOp,), {"name": op_name, "__doc__": doc})
    return irdl_op_definition(cls)


SquareOp = _unary("chlo.square", "SquareOp", "`x * x`.")
ErfOp = _unary("chlo.erf", "ErfOp", "The error function.")
ErfcOp = _unary(
    "chlo.erfc", "ErfcOp", "The complementary error function, `1 - erf(x)`."
)
ErfInvOp = _unary("chlo.erf_inv", "ErfInvOp", "The inverse error function.")
SinhOp = _unary("chlo.sinh", "SinhOp", "Hyperbolic sine.")
CoshOp = _unary("chlo.cosh", "CoshOp", "Hyperbolic cosine.")
TanOp = _unary("chlo.tan", "TanOp", "Tangent.")
AsinOp = _unary("chlo.asin", "AsinOp", "Inverse sine.")
AcosOp = _unary("chlo.acos", "AcosOp", "Inverse cosine.")
AtanOp = _unary("chlo.atan", "AtanOp", "Inverse tangent.")
AsinhOp = _unary("chlo.asinh", "AsinhOp", "Inverse hyperbolic sine.")
AcoshOp = _unary("chlo.acosh", "AcoshOp", "Inverse hyperbolic cosine.")
AtanhOp = _unary("chlo.atanh", "AtanhOp", "Inverse hyperbolic tangent.")
LgammaOp = _unary(
    "chlo.lgamma", "LgammaOp", "Log of the absolute value of the gamma function."
)
DigammaOp = _unary("chlo.digamma", "DigammaOp", "The digamma function.")

BesselI1eOp = _unary(
    "chlo.bessel_i1e",
    "BesselI1eOp",
    "The exponentially scaled modified Bessel function of order one.",
)
ConjOp = _unary("chlo.conj", "ConjOp", "The complex conjugate (the identity on reals).")

UNARY_OPS: tuple[type[ChloUnaryOp], ...] = (
    SquareOp,
    ErfOp,
    ErfcOp,
    ErfInvOp,
    SinhOp,
    CoshOp,
    TanOp,
    AsinOp,
    AcosOp,
    AtanOp,
    AsinhOp,
    AcoshOp,
    AtanhOp,
    LgammaOp,
    DigammaOp,
    BesselI1eOp,
    ConjOp,
)


class ChloPredicateOp(IRDLOperation):
    """Base of chlo's float classification ops (`chlo.is_inf`, ...): an i1 tensor of
    the operand's shape.

    %0 = chlo.is_inf %x : tensor<16xf32> -> tensor<16xi1>
    """

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$operand attr-dict `:` type($operand) `->` type($result)"

    def __init__(self, operand: SSAValue):
        super().__init__(
            operands=[operand], result_types=[with_element(operand.type, i1)]
        )

    def verify_(self) -> None:
        operand, result = self.operand.type, self.result.type
        if not isa(operand, TensorType) or not isa(result, TensorType):
            return
        if result.get_element_type() != i1 or not _compatible_shapes(
            tuple(operand.get_shape()), tuple(result.get_shape())
        ):
            raise VerifyException(
                f"'{self.name}' op inferred type(s) '{with_element(operand, i1)}' "
                f"are incompatible with return type(s) of operation '{result}'"
            )


def _predicate(op_name: str, class_name: str, doc: str) -> type[ChloPredicateOp]:
    cls = type(class_name, (ChloPredicateOp,), {"name": op_name, "__doc__": doc})
    return irdl_op_definition(cls)


IsInfOp = _predicate("chlo.is_inf", "IsInfOp", "`x` is +inf or -inf.")
IsPosInfOp = _predicate("chlo.is_pos_inf", "IsPosInfOp", "`x` is +inf.")
IsNegInfOp = _predicate("chlo.is_neg_inf", "IsNegInfOp", "`x` is -inf.")

PREDICATE_OPS: tuple[type[ChloPredicateOp], ...] = (IsInfOp, IsPosInfOp, IsNegInfOp)


class ChloBinaryOp(IRDLOperation):
    """Base of chlo's non-broadcasting binary ops (`ChloOps.td`: next_after, zeta,
    polygamma, mulhi): operands and result of one type.

    %0 = chlo.zeta %x, %q : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    """

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = (
        "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)"
    )

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type])

    def verify_(self) -> None:
        types = [self.lhs.type, self.rhs.type, self.result.type]
        if not all(isa(t, TensorType) for t in types):
            return
        tensors = [cast("TensorType[Attribute]", t) for t in types]
        first = tensors[0]
        for t in tensors[1:]:
            if t.get_element_type() != first.get_element_type() or not (
                _compatible_shapes(tuple(t.get_shape()), tuple(first.get_shape()))
            ):
                raise VerifyException(
                    f"'{self.name}' op requires compatible types for all operands "
                    "and results"
                )


def _binary(op_name: str, class_name: str, doc: str) -> type[ChloBinaryOp]:
    cls = type(class_name, (ChloBinaryOp,), {"name": op_name, "__doc__": doc})
    return irdl_op_definition(cls)


NextAfterOp = _binary(
    "chlo.next_after",
    "NextAfterOp",
    "The next representable value of `x` towards `y` (C's `nextafter`).",
)
PolygammaOp = _binary(
    "chlo.polygamma", "PolygammaOp", "The polygamma function of order `n` at `x`."
)
ZetaOp = _binary("chlo.zeta", "ZetaOp", "The Hurwitz zeta function zeta(x, q).")
MulhiOp = _binary(
    "chlo.mulhi",
    "MulhiOp",
    "The high N bits of the 2N-bit product of two N-bit integers.",
)

BINARY_OPS: tuple[type[ChloBinaryOp], ...] = (NextAfterOp, PolygammaOp, ZetaOp, MulhiOp)


@irdl_op_definition
class ConstantLikeOp(IRDLOperation):
    """`"chlo.constant_like"(%x) {value = 3.2 : f32} : (tensor<1x2xi64>) -> tensor<1x2xf32>`:
    a splat of `value` with the operand's shape."""

    name = "chlo.constant_like"

    operand = operand_def(TensorType)
    value = prop_def(TypedAttribute)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        result = self.result.type
        if not isa(result, TensorType):
            return
        if self.value.get_type() != result.get_element_type():
            raise VerifyException(
                "'chlo.constant_like' op value's type doesn't match element return type"
            )


@irdl_op_definition
class TopKOp(IRDLOperation):
    """`chlo.top_k(%x, k = 3) : tensor<3x10xf32> -> (tensor<3x3xf32>, tensor<3x3xi32>)`:
    the `k` largest entries of the last dimension, in descending order, and their indices
    (the lower index first among equal values)."""

    name = "chlo.top_k"

    operand = operand_def(TensorType)
    k = prop_def(IntegerAttr[I64])
    is_stable = opt_prop_def(BoolAttr)
    values = result_def(TensorType)
    indices = result_def(TensorType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        operand = self.operand.type
        if not isa(operand, TensorType):
            return
        shape = tuple(operand.get_shape())
        k = self.k.value.data
        if not shape:
            raise VerifyException("'chlo.top_k' op operand's rank must be at least 1")
        if shape[-1] != DYNAMIC_INDEX and shape[-1] < k:
            raise VerifyException(
                "'chlo.top_k' op operand's last dimension must be at least "
                f"{k}, but got {shape[-1]}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        parser.parse_punctuation("(")
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("k")
        parser.parse_punctuation("=")
        k = parser.parse_integer()
        properties: dict[str, Attribute] = {"k": IntegerAttr(k, i64)}
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("is_stable")
            parser.parse_punctuation("=")
            properties["is_stable"] = BoolAttr.from_bool(parser.parse_boolean())
        parser.parse_punctuation(")")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_type = parser.parse_type()
        parser.parse_punctuation("->")
        parser.parse_punctuation("(")
        values_type = parser.parse_type()
        parser.parse_punctuation(",")
        indices_type = parser.parse_type()
        parser.parse_punctuation(")")
        resolved = parser.resolve_operand(operand, operand_type)
        op = cls.create(
            operands=[resolved],
            result_types=[values_type, indices_type],
            properties=properties,
            attributes=attributes,
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_operand(self.operand)
        printer.print_string(f", k = {self.k.value.data}")
        if self.is_stable is not None:
            printer.print_string(
                f", is_stable = {'true' if self.is_stable.value.data else 'false'}"
            )
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)
        printer.print_string(" -> (")
        printer.print_attribute(self.values.type)
        printer.print_string(", ")
        printer.print_attribute(self.indices.type)
        printer.print_string(")")


class Precision(StrEnum):
    DEFAULT = "DEFAULT"
    HIGH = "HIGH"
    HIGHEST = "HIGHEST"


@irdl_attr_definition
class PrecisionAttr(EnumAttribute[Precision], SpacedOpaqueSyntaxAttribute):
    """`#chlo<precision HIGH>`: the precision of one `chlo.ragged_dot` operand."""

    name = "chlo.precision"


RAGGED_DOT_FIELDS = (
    "lhs_batching_dimensions",
    "rhs_batching_dimensions",
    "lhs_contracting_dimensions",
    "rhs_contracting_dimensions",
    "lhs_ragged_dimensions",
    "rhs_group_dimensions",
)


@irdl_attr_definition
class RaggedDotDimensionNumbersAttr(ParametrizedAttribute):
    """`#chlo.ragged_dot<lhs_batching_dimensions = [0], ..., rhs_group_dimensions = [0]>`:
    dot_general's dimension numbers plus the lhs ragged and rhs group dimensions
    (fields in any order when parsed, empty ones omitted when printed, as upstream)."""

    name = "chlo.ragged_dot"

    lhs_batching_dimensions: ArrayAttr[IntAttr]
    rhs_batching_dimensions: ArrayAttr[IntAttr]
    lhs_contracting_dimensions: ArrayAttr[IntAttr]
    rhs_contracting_dimensions: ArrayAttr[IntAttr]
    lhs_ragged_dimensions: ArrayAttr[IntAttr]
    rhs_group_dimensions: ArrayAttr[IntAttr]

    def dims(self, field: str) -> tuple[int, ...]:
        """One field's dimensions (`field` one of `RAGGED_DOT_FIELDS`)."""
        values: ArrayAttr[IntAttr] = getattr(self, field)
        return tuple(v.data for v in values.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        values: dict[str, list[int]] = {}

        def parse_entry() -> None:
            start = parser.pos
            key = parser.parse_identifier()
            if key not in RAGGED_DOT_FIELDS or key in values:
                parser.raise_error(
                    "failed parsing ragged dot dimension numbers attribute",
                    start,
                    parser.pos,
                )
            parser.parse_punctuation("=")
            values[key] = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE,
                lambda: parser.parse_integer(allow_boolean=False),
            )

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_entry)
        return [
            ArrayAttr([IntAttr(v) for v in values.get(f, [])])
            for f in RAGGED_DOT_FIELDS
        ]

    def print_parameters(self, printer: Printer) -> None:
        parts = [
            f"{f} = [{', '.join(str(v) for v in self.dims(f))}]"
            for f in RAGGED_DOT_FIELDS
            if self.dims(f)
        ]
        printer.print_string("<" + ", ".join(parts) + ">")


@irdl_op_definition
class RaggedDotOp(IRDLOperation):
    """`chlo.ragged_dot`: a dot_general over one ragged dimension, whose groups'
    sizes `group_sizes` gives (generic syntax, as upstream). Modes: the ragged
    dimension is an lhs free dimension (1: `[b,m,k] x [g,b,k,n] -> [b,m,n]`), a
    contracting one (2: `-> [g,b,m,n]`) or a batch one (3)."""

    name = "chlo.ragged_dot"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    group_sizes = operand_def(TensorType)
    ragged_dot_dimension_numbers = prop_def(RaggedDotDimensionNumbersAttr)
    precision_config = opt_prop_def(ArrayAttr[PrecisionAttr])
    result = result_def(TensorType)
    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)

    def verify_(self) -> None:
        types = [self.lhs.type, self.rhs.type, self.group_sizes.type, self.result.type]
        if not all(isa(t, TensorType) for t in types):
            return
        lhs, rhs, groups, _ = [cast("TensorType[Attribute]", t) for t in types]
        numbers = self.ragged_dot_dimension_numbers
        ragged = numbers.dims("lhs_ragged_dimensions")
        if len(ragged) != 1:
            raise VerifyException(
                "There must be exactly one ragged dimension in the lhs."
            )
        if not isinstance(groups.get_element_type(), IntegerType):
            raise VerifyException(
                "'chlo.ragged_dot' op operand #2 must be ranked tensor of integer values"
            )
        for side, t in (("lhs", lhs), ("rhs", rhs)):
            rank = t.get_num_dims()
            for field in RAGGED_DOT_FIELDS:
                if not field.startswith(side):
                    continue
                for d in numbers.dims(field):
                    if not 0 <= d < rank:
                        raise VerifyException(
                            f"'chlo.ragged_dot' op {field} value: {d} is out of "
                            f"range: [0, {rank})"
                        )
        group = numbers.dims("rhs_group_dimensions")
        batch_or_contracting = (
            *numbers.dims("lhs_batching_dimensions"),
            *numbers.dims("lhs_contracting_dimensions"),
        )
        if ragged[0] in batch_or_contracting:
            if group:
                raise VerifyException(
                    "There must be zero group dimensions in the rhs when the "
                    "ragged dimension is batch or contracting."
                )
        elif len(group) != 1:
            raise VerifyException(
                "There must be exactly one group dimension in the rhs when the lhs "
                "ragged dimension is non-contracting."
            )
        if self.precision_config is not None and len(
            self.precision_config.data
        ) not in (0, 2):
            raise VerifyException(
                "'chlo.ragged_dot' op expects precision config to be empty or have "
                "<= 2 elements."
            )


@irdl_op_definition
class ScanOp(IRDLOperation):
    """`chlo.scan(%in) inits(%init) dimension=0 {^bb0(%x, %acc): ...} : (...) -> (...)`:
    `body` applied along `dimension` of `inputs`, threading the carries (`inits`);
    results are the per-step `outputs` (stacked along `dimension`), then the final
    carries. `is_reverse` scans from the end."""

    name = "chlo.scan"

    inputs = var_operand_def(TensorType)
    inits = var_operand_def(TensorType)
    dimension = prop_def(IntegerAttr[I64])
    scan_dim_size = opt_prop_def(IntegerAttr[I64])
    is_reverse = opt_prop_def(BoolAttr)
    is_associative = opt_prop_def(BoolAttr)
    outputs = var_result_def(TensorType)
    carries = var_result_def(TensorType)
    body = region_def("single_block")
    irdl_options = (
        AttrSizedOperandSegments(as_property=True),
        AttrSizedResultSegments(as_property=True),
        ParsePropInAttrDict(),
    )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        inputs = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        parser.parse_keyword("inits")
        inits = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        parser.parse_keyword("dimension")
        parser.parse_punctuation("=")
        dimension = parser.parse_integer(allow_boolean=False)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        parser.parse_punctuation(":")
        function_type = parser.parse_function_type()
        operand_types = function_type.inputs.data
        result_types = function_type.outputs.data
        if len(operand_types) != len(inputs) + len(inits):
            parser.raise_error(
                "operand types must match the number of inputs and inits",
                start,
                parser.pos,
            )
        outputs = len(result_types) - len(inits)
        if outputs < 0:
            parser.raise_error(
                "not enough result types to cover the required carries",
                start,
                parser.pos,
            )
        resolved = [
            parser.resolve_operand(o, t)
            for o, t in zip([*inputs, *inits], operand_types, strict=True)
        ]
        properties: dict[str, Attribute] = {
            "dimension": IntegerAttr(dimension, i64),
            "operandSegmentSizes": DenseArrayBase.from_list(
                i32, [len(inputs), len(inits)]
            ),
            "resultSegmentSizes": DenseArrayBase.from_list(i32, [outputs, len(inits)]),
        }
        extra = dict(attributes.data) if attributes is not None else {}
        for key in ("scan_dim_size", "is_reverse", "is_associative"):
            if key in extra:
                properties[key] = extra.pop(key)
        return cls.create(
            operands=resolved,
            result_types=list(result_types),
            properties=properties,
            attributes=extra,
            regions=[body],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_string(") inits (")
        printer.print_list(self.inits, printer.print_operand)
        printer.print_string(f") dimension={self.dimension.value.data} ")
        shown = {
            key: value
            for key in ("scan_dim_size", "is_reverse", "is_associative")
            if (value := self.properties.get(key)) is not None
        }
        printer.print_op_attributes({**shown, **self.attributes}, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)
        printer.print_string(" : ")
        printer.print_function_type(
            [v.type for v in self.operands], [r.type for r in self.results]
        )

    def verify_(self) -> None:
        if not self.inputs and not self.outputs:
            raise VerifyException(
                "'chlo.scan' op at least one of inputs or outputs must be present"
            )
        dim = self.dimension.value.data
        size: int | None = (
            None if self.scan_dim_size is None else self.scan_dim_size.value.data
        )
        for i, value in enumerate(self.inputs):
            t = value.type
            if not isa(t, TensorType):
                raise VerifyException(f"'chlo.scan' op operand {i} is not ranked")
            shape = tuple(t.get_shape())
            if dim >= len(shape):
                raise VerifyException(
                    f"'chlo.scan' op scan dimension of operand {i} is out of bounds"
                )
            if shape[dim] == DYNAMIC_INDEX:
                continue
            if size is not None and size != shape[dim]:
                raise VerifyException(
                    f"'chlo.scan' op invalid scan dimension size of operand {i}"
                )
            size = shape[dim]
        args = self.body.block.args
        if len(args) != len(self.operands):
            raise VerifyException(
                f"'chlo.scan' op expects {len(self.operands)} arguments in the body, "
                f"but got {len(args)}"
            )
        for i, (value, arg) in enumerate(zip(self.operands, args, strict=True)):
            t = value.type
            if not isa(t, TensorType):
                raise VerifyException(f"'chlo.scan' op operand {i} is not ranked")
            shape = list(t.get_shape())
            if i < len(self.inputs):
                del shape[dim]
            expected = TensorType(t.get_element_type(), shape)
            arg_type = arg.type
            if not (
                isa(arg_type, TensorType)
                and arg_type.get_element_type() == expected.get_element_type()
                and _compatible_shapes(tuple(shape), tuple(arg_type.get_shape()))
            ):
                raise VerifyException(
                    f"'chlo.scan' op operand and body argument {i} are incompatible"
                )


Chlo = Dialect(
    "chlo",
    [
        *UNARY_OPS,
        *PREDICATE_OPS,
        *BINARY_OPS,
        ConstantLikeOp,
        RaggedDotOp,
        ScanOp,
        TopKOp,
        BroadcastAddOp,
        BroadcastSubtractOp,
        BroadcastMultiplyOp,
        BroadcastDivideOp,
        BroadcastMaximumOp,
        BroadcastMinimumOp,
        *CHLO_TARGET_BROADCASTS,
    ],
    [PrecisionAttr, RaggedDotDimensionNumbersAttr],
)
