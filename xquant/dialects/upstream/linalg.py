"""`linalg.div`, `linalg.batch_matmul`, `linalg.matvec`, `linalg.vecmat` and
`linalg.dot`, which xDSL 0.74's linalg lacks.

Both follow upstream's OpDSL definitions (`BinaryFn::div`: `divf` on floats,
signed `divsi` on integers; batch_matmul: `C[b, m, n] += A[b, m, k] * B[b, k, n]`)
and the assembly of xDSL's other named ops (inputs cast to the output's
element type in the body, as MLIR's `cast_signed`), so
`linalg.div ins(%a, %b : ...) outs(%c : ...) -> ...` and
`linalg.batch_matmul ins(...) outs(...)` parse, print and verify like their
siblings. `xquant.compat.upstream_ops` adds them to xDSL's `Linalg`
dialect (the interpreter runs them through `xquant/interpreter/linalg.py`).
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Callable, Sequence
from typing import ClassVar, Self, cast

from xdsl.builder import Builder
from xdsl.dialects import arith, complex
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    ComplexType,
    DenseArrayBase,
    DenseIntElementsAttr,
    IntegerType,
    MemRefType,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.abstract_ops import (
    ConvOperation,
    ElementwiseOperation,
    NamedOperation,
    PoolingOperation,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.irdl import (
    IRDLOperation,
    SameVariadicOperandSize,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xquant.numerics.values import element_type


def cast_signed(value: SSAValue, target: Attribute) -> SSAValue:
    """MLIR's `cast_signed` of a scalar block argument (built inside an implicit region)."""
    source = value.type
    if source == target:
        return value
    if isinstance(source, AnyFloat) and isinstance(target, AnyFloat):
        if source.bitwidth == target.bitwidth:
            return value
        if source.bitwidth < target.bitwidth:
            return arith.ExtFOp(value, target).result
        return arith.TruncFOp(value, target).result
    if isinstance(target, AnyFloat):
        return arith.SIToFPOp(value, target).result
    if isinstance(source, AnyFloat) and isa(target, IntegerType):
        return arith.FPToSIOp(value, target).result
    if isa(source, IntegerType) and isa(target, IntegerType):
        if source.width.data < target.width.data:
            return arith.ExtSIOp(value, target).result
        return arith.TruncIOp(value, target).result
    return value


def _result_types(
    outputs: Sequence[SSAValue], res: Sequence[Attribute] | None
) -> Sequence[Attribute]:
    if res is not None:
        return res
    # Tensor outputs give results; memref outputs are updated in place.
    return tuple(o.type for o in outputs if not isinstance(o.type, MemRefType))


def _build(
    op: NamedOperation,
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    res: Sequence[Attribute] | None,
    attributes: dict[str, Attribute] | None,
) -> None:
    """The constructor every named op shares: results from tensor outputs, hidden body."""
    NamedOperation.__init__(
        op,
        ins=inputs,
        outs=outputs,
        result_types=_result_types(outputs, res),
        attributes=attributes,
        hidden_region=type(op).get_hidden_region(inputs, outputs),
    )


class _NamedOpInit:
    """The constructor every named op here shares (`_build`), as xDSL's named ops take it."""

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        # Mixed into NamedOperation subclasses only.
        _build(cast(NamedOperation, self), inputs, outputs, res, attributes)


@irdl_op_definition
class DivOp(_NamedOpInit, ElementwiseOperation):
    """Divides two tensors elementwise (`divf`, or signed `divsi` for integers)."""

    name = "linalg.div"

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        div = arith.DivfOp if isinstance(arg_types[-1], AnyFloat) else arith.DivSIOp

        @Builder.implicit_region(arg_types)
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            out = arg_types[-1]
            YieldOp(div(cast_signed(args[0], out), cast_signed(args[1], out)))

        return hidden_region


@irdl_op_definition
class BatchMatmulOp(_NamedOpInit, NamedOperation):
    """`C[b, m, n] += A[b, m, k] * B[b, k, n]`."""

    name = "linalg.batch_matmul"

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True

    indexing_maps = prop_def(
        ArrayAttr[AffineMapAttr],
        default_value=ArrayAttr(
            [
                AffineMapAttr(AffineMap.from_callable(lambda b, m, _, k: (b, m, k))),
                AffineMapAttr(AffineMap.from_callable(lambda b, _, n, k: (b, k, n))),
                AffineMapAttr(AffineMap.from_callable(lambda b, m, n, _: (b, m, n))),
            ]
        ),
    )

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        is_float = isinstance(arg_types[-1], AnyFloat)
        add, mul = (
            (arith.AddfOp, arith.MulfOp) if is_float else (arith.AddiOp, arith.MuliOp)
        )

        @Builder.implicit_region(arg_types)
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            out = arg_types[-1]
            product = mul(cast_signed(args[0], out), cast_signed(args[1], out))
            YieldOp(add(product, args[2]))

        return hidden_region

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return tuple(m.data for m in self.indexing_maps.data)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        parallel = IteratorTypeAttr.parallel()
        return ArrayAttr([parallel, parallel, parallel, IteratorTypeAttr.reduction()])


class _VectorContraction(_NamedOpInit, NamedOperation, ABC):
    """A matvec/vecmat/dot: `C += A * B` summed over the last loop, fixed maps.

    As MLIR's OpDSL ops they have no `indexing_maps` attribute; the body is
    batch_matmul's (inputs `cast_signed` to the output's element type).
    """

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True

    MAPS: ClassVar[tuple[AffineMap, AffineMap, AffineMap]]

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        return BatchMatmulOp.get_hidden_region(inputs, outputs)

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return self.MAPS

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        loops = self.MAPS[0].num_dims
        return ArrayAttr(
            [*[IteratorTypeAttr.parallel()] * (loops - 1), IteratorTypeAttr.reduction()]
        )


@irdl_op_definition
class MatvecOp(_VectorContraction):
    """`y[m] += A[m, k] * x[k]`."""

    name = "linalg.matvec"

    MAPS: ClassVar[tuple[AffineMap, AffineMap, AffineMap]] = (
        AffineMap.from_callable(lambda m, k: (m, k)),
        AffineMap.from_callable(lambda _, k: (k,)),
        AffineMap.from_callable(lambda m, _: (m,)),
    )


@irdl_op_definition
class VecmatOp(_VectorContraction):
    """`y[n] += x[k] * A[k, n]`."""

    name = "linalg.vecmat"

    MAPS: ClassVar[tuple[AffineMap, AffineMap, AffineMap]] = (
        AffineMap.from_callable(lambda _, k: (k,)),
        AffineMap.from_callable(lambda n, k: (k, n)),
        AffineMap.from_callable(lambda n, _: (n,)),
    )


@irdl_op_definition
class DotOp(_VectorContraction):
    """`c[] += a[k] * b[k]`."""

    name = "linalg.dot"

    MAPS: ClassVar[tuple[AffineMap, AffineMap, AffineMap]] = (
        AffineMap.from_callable(lambda k: (k,)),
        AffineMap.from_callable(lambda k: (k,)),
        AffineMap(1, 0, ()),
    )


# ---------------------------------------------------------------------------------------
# linalg.map and a variadic linalg.reduce, printed as MLIR prints them


def _print_operand_group(
    printer: Printer, keyword: str, values: Sequence[SSAValue]
) -> None:
    """` ins(%a, %b : T, T)`: MLIR's spacing (xDSL's ReduceOp prints `ins(%a:T)`)."""
    printer.print_string(f" {keyword}(")
    printer.print_list(values, printer.print_ssa_value)
    printer.print_string(" : ")
    printer.print_list([v.type for v in values], printer.print_attribute)
    printer.print_string(")")


def _parse_operand_group(parser: Parser, keyword: str) -> list[SSAValue]:
    """`keyword(%a, %b : T, T)`, or nothing (an empty list) when the keyword is absent."""
    pos = parser.pos
    if not parser.parse_optional_characters(keyword):
        return []
    parser.parse_punctuation("(")
    unresolved = parser.parse_comma_separated_list(
        Parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return list(parser.resolve_operands(unresolved, types, pos))


def _payload_op(block: Block, init_first: bool) -> Operation | None:
    """The single op of a body MLIR prints in short form (`findPayloadOp`), if any.

    The body must be that op and a yield of its result; its operands are the block
    arguments in order (map: the inputs, without the init), or for reduce the
    init first and then the inputs.
    """
    ops = list(block.ops)
    if len(ops) != 2 or not isinstance(ops[1], YieldOp):
        return None
    payload, terminator = ops
    if not payload.operands or tuple(terminator.operands) != tuple(payload.results):
        return None
    args = list(block.args)
    if init_first:
        expected = [args[-1], *args[:-1]]
    else:
        expected = args[: len(payload.operands)]
        if len(payload.operands) != len(args) - 1:
            return None
    if list(payload.operands) != expected:
        return None
    return payload


def _print_short_form(printer: Printer, payload: Operation) -> None:
    """` { arith.addf }`: the payload's name and attributes, fastmath `none` elided."""
    attrs: dict[str, Attribute] = {**payload.properties, **payload.attributes}
    for name, value in list(attrs.items()):
        if isinstance(value, arith.FastMathFlagsAttr) and not value.data:
            del attrs[name]
            break
    printer.print_string(" { " + payload.name)
    printer.print_op_attributes(attrs)
    printer.print_string(" }")


def _parse_short_form(parser: Parser) -> tuple[str, dict[str, Attribute]] | None:
    """`{ op.name {attrs} }` before `ins`, or None."""
    if parser.parse_optional_punctuation("{") is None:
        return None
    name = parser.parse_identifier()
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation("}")
    return name, attrs


def _payload_body(
    parser: Parser,
    name: str,
    attrs: dict[str, Attribute],
    arg_types: Sequence[Attribute],
    init_first: bool,
) -> Region:
    """The body a short form stands for: `name` applied to the block arguments, yielded."""
    op_type = parser.ctx.get_optional_op(name)
    if op_type is None:
        parser.raise_error(f"unregistered payload operation {name}")
    block = Block(arg_types=arg_types)
    args = list(block.args)
    operands = [args[-1], *args[:-1]] if init_first else args[:-1]
    definition = (
        op_type.get_irdl_definition() if issubclass(op_type, IRDLOperation) else None
    )
    properties = {
        k: v for k, v in attrs.items() if definition and k in definition.properties
    }
    attributes = {k: v for k, v in attrs.items() if k not in properties}
    payload = op_type.create(
        operands=operands,
        result_types=[arg_types[-1]],
        properties=properties,
        attributes=attributes,
    )
    block.add_ops([payload, YieldOp(*payload.results)])
    return Region(block)


def _print_body(printer: Printer, region: Region) -> None:
    """The long form's `(%in: T, %init: T) { ... }` on its own, indented line."""
    with printer.indented():
        printer.print_string("\n")
        with printer.in_parens():
            printer.print_list(region.blocks[0].args, printer.print_block_argument)
        printer.print_string(" ")
        printer.print_region(region, print_entry_block_args=False)


def _parse_body(parser: Parser) -> Region:
    args = parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, parser.parse_argument
    )
    return parser.parse_region(args)


def _print_payload_or_body(
    printer: Printer,
    op: Operation,
    region: Region,
    init_first: bool,
    print_operands: Callable[[], None],
) -> None:
    """`{ payload }` before the operands and attributes when the body is one op, else the body after them."""
    block = region.blocks.first
    assert block is not None
    payload = _payload_op(block, init_first)
    if payload is not None:
        _print_short_form(printer, payload)
    print_operands()
    printer.print_op_attributes(op.attributes)
    if payload is None:
        _print_body(printer, region)


def _parse_payload_or_body(
    parser: Parser,
    short: tuple[str, dict[str, Attribute]] | None,
    operands: Sequence[SSAValue],
    init_first: bool,
) -> Region:
    """The region: the long form's body, or the one the short form read before the operands stands for."""
    if short is None:
        return _parse_body(parser)
    return _payload_body(
        parser, *short, [element_type(v.type) for v in operands], init_first
    )


def _shape(value: SSAValue) -> tuple[int, ...]:
    t = value.type
    return tuple(t.get_shape()) if isinstance(t, TensorType | MemRefType) else ()


@irdl_op_definition
class MapOp(IRDLOperation):
    """`linalg.map`: the body applied to the inputs' elements at each index of the init.

    As MLIR 22, the body takes one argument per input and one for the init's
    element (`(%in, %in_0, %init)`); a body that is one op on the inputs in order
    prints (and parses) as `linalg.map { arith.addf } ins(...) outs(...)`.
    """

    name = "linalg.map"

    inputs = var_operand_def(base(TensorType) | base(MemRefType))
    init = operand_def(base(TensorType) | base(MemRefType))
    result = var_result_def(TensorType)
    mapper = region_def("single_block")

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        init: SSAValue,
        mapper: Region,
        attributes: dict[str, Attribute] | None = None,
    ):
        results = [init.type] if isa(init.type, TensorType) else []
        super().__init__(
            operands=[inputs, init],
            result_types=[results],
            regions=[mapper],
            attributes=attributes,
        )

    @property
    def outputs(self) -> tuple[SSAValue, ...]:
        """The init, as the structured ops' `outputs` (the printer's block-argument names)."""
        return (self.init,)

    def verify_(self) -> None:
        block = self.mapper.blocks.first
        assert block is not None
        if len(block.args) != len(self.inputs) + 1:
            raise VerifyException(
                "expects number of operands to match the arity of mapper, but got: "
                f"{len(self.inputs) + 1} and {len(block.args)}"
            )
        for i, (value, arg) in enumerate(zip((*self.inputs, self.init), block.args)):
            if element_type(value.type) != arg.type:
                raise VerifyException(
                    f"expected element type of input {element_type(value.type)} to match "
                    f"bbArg type {arg.type}"
                )
            if _shape(value) != _shape(self.init):
                raise VerifyException(
                    f"expected shape of input ({', '.join(map(str, _shape(value)))}) "
                    f"to match shape of output ({', '.join(map(str, _shape(self.init)))})"
                    if i < len(self.inputs)
                    else "unreachable"
                )
        if self.result and self.result[0].type != self.init.type:
            raise VerifyException("expected the result type to be the init's type")

    def print(self, printer: Printer) -> None:
        def print_operands() -> None:
            if self.inputs:
                _print_operand_group(printer, "ins", self.inputs)
            _print_operand_group(printer, "outs", [self.init])

        _print_payload_or_body(printer, self, self.mapper, False, print_operands)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        short = _parse_short_form(parser)
        inputs = _parse_operand_group(parser, "ins")
        pos = parser.pos
        outs = _parse_operand_group(parser, "outs")
        if len(outs) != 1:
            parser.raise_error("expected one init in outs(...)", pos, parser.pos)
        attributes = parser.parse_optional_attr_dict()
        region = _parse_payload_or_body(parser, short, [*inputs, *outs], False)
        return cls(inputs, outs[0], region, attributes)


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """`linalg.reduce` with any number of inputs and inits, as MLIR's (xDSL's has one of each).

    The body takes the inputs' elements then the inits'; a body that is one op on
    `(%init, %in)` prints (and parses) as `linalg.reduce { arith.addf } ins(...)`.
    """

    name = "linalg.reduce"

    inputs = var_operand_def(base(TensorType) | base(MemRefType))
    inits = var_operand_def(base(TensorType) | base(MemRefType))
    result = var_result_def(TensorType)
    combiner = region_def("single_block")
    dimensions = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (SameVariadicOperandSize(),)

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        inits: Sequence[SSAValue],
        dimensions: Sequence[int],
        combiner: Region,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[inputs, inits],
            result_types=[[v.type for v in inits if isa(v.type, TensorType)]],
            regions=[combiner],
            properties={"dimensions": DenseArrayBase.from_list(i64, dimensions)},
            attributes=attributes,
        )

    @property
    def outputs(self) -> tuple[SSAValue, ...]:
        """The inits, as the structured ops' `outputs` (the printer's block-argument names)."""
        return tuple(self.inits)

    def verify_(self) -> None:
        dims = self.dimensions.get_values()
        for value in self.inputs:
            rank = len(_shape(value))
            if any(not 0 <= d < rank for d in dims):
                raise VerifyException(
                    f"dimensions for reduction should be in the range [0, {rank - 1}]."
                )
        for init in self.inits:
            kept = [
                s for d, s in enumerate(_shape(self.inputs[0])) if d not in set(dims)
            ]
            if list(_shape(init)) != kept:
                raise VerifyException(
                    "init dimensions [" + ", ".join(map(str, _shape(init))) + "] "
                    "doesn't match input dimensions after reduction ["
                    + ", ".join(map(str, kept))
                    + "]"
                )
        block = self.combiner.blocks.first
        assert block is not None
        expected = [element_type(v.type) for v in (*self.inputs, *self.inits)]
        if [a.type for a in block.args] != expected:
            raise VerifyException(
                "mismatching number or types of block arguments and operands: "
                f"expected {len(expected)}"
            )

    def print(self, printer: Printer) -> None:
        def print_operands() -> None:
            _print_operand_group(printer, "ins", self.inputs)
            _print_operand_group(printer, "outs", self.inits)
            printer.print_string(" dimensions = [")
            printer.print_list(self.dimensions.get_values(), printer.print_int)
            printer.print_string("] ")

        _print_payload_or_body(printer, self, self.combiner, True, print_operands)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        short = _parse_short_form(parser)
        inputs = _parse_operand_group(parser, "ins")
        inits = _parse_operand_group(parser, "outs")
        parser.parse_keyword("dimensions")
        parser.parse_punctuation("=")
        dimensions = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
        )
        attributes = parser.parse_optional_attr_dict()
        region = _parse_payload_or_body(parser, short, [*inputs, *inits], True)
        return cls(inputs, inits, dimensions, region, attributes)


# ---------------------------------------------------------------------------------------
# Channel-last pooling (stablehlo-legalize-to-linalg lowers reduce_window to them)


class _ChannelLastPooling(PoolingOperation, ABC):
    """`linalg.pooling_n[d]hwc_{sum,max,min}`: `O[n, o.., c] = O op I[n, o * s + k * d.., c]`.

    The window operand only gives the window's shape; as MLIR's OpDSL definitions,
    the body is `out op in` (`addf`/`addi`, `maximumf`/`maxsi`, `minimumf`/`minsi`).
    """

    SPATIAL: ClassVar[int] = 2
    KIND: ClassVar[str] = "sum"

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
        *,
        strides: DenseIntElementsAttr,
        dilations: DenseIntElementsAttr,
    ):
        super().__init__(
            inputs,
            outputs,
            _result_types(outputs, res),
            attributes,
            strides=strides,
            dilations=dilations,
        )

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        is_float = isinstance(arg_types[-1], AnyFloat)
        combine = {
            "sum": (arith.AddfOp, arith.AddiOp),
            "max": (arith.MaximumfOp, arith.MaxSIOp),
            "min": (arith.MinimumfOp, arith.MinSIOp),
        }[cls.KIND][0 if is_float else 1]

        @Builder.implicit_region(arg_types)
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(combine(args[2], cast_signed(args[0], arg_types[-1])))

        return hidden_region

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        spatial = self.SPATIAL
        loops = 2 + 2 * spatial
        dims = [AffineExpr.dimension(i) for i in range(loops)]
        n, outs, c, window = (
            dims[0],
            dims[1 : 1 + spatial],
            dims[1 + spatial],
            dims[2 + spatial :],
        )
        strides = self.strides.get_values()
        dilations = self.dilations.get_values()
        positions = tuple(
            o * int(s) + k * int(d)
            for o, k, s, d in zip(outs, window, strides, dilations, strict=True)
        )
        return (
            AffineMap(loops, 0, (n, *positions, c)),
            AffineMap(loops, 0, tuple(window)),
            AffineMap(loops, 0, (n, *outs, c)),
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr(
            (IteratorTypeAttr.parallel(),) * (2 + self.SPATIAL)
            + (IteratorTypeAttr.reduction(),) * self.SPATIAL
        )


@irdl_op_definition
class PoolingNhwcSumOp(_ChannelLastPooling):
    name = "linalg.pooling_nhwc_sum"
    KIND: ClassVar[str] = "sum"


@irdl_op_definition
class PoolingNhwcMaxOp(_ChannelLastPooling):
    name = "linalg.pooling_nhwc_max"
    KIND: ClassVar[str] = "max"


@irdl_op_definition
class PoolingNhwcMinOp(_ChannelLastPooling):
    name = "linalg.pooling_nhwc_min"
    KIND: ClassVar[str] = "min"


@irdl_op_definition
class PoolingNdhwcSumOp(_ChannelLastPooling):
    name = "linalg.pooling_ndhwc_sum"
    SPATIAL: ClassVar[int] = 3
    KIND: ClassVar[str] = "sum"


@irdl_op_definition
class PoolingNdhwcMaxOp(_ChannelLastPooling):
    name = "linalg.pooling_ndhwc_max"
    SPATIAL: ClassVar[int] = 3
    KIND: ClassVar[str] = "max"


@irdl_op_definition
class PoolingNdhwcMinOp(_ChannelLastPooling):
    name = "linalg.pooling_ndhwc_min"
    SPATIAL: ClassVar[int] = 3
    KIND: ClassVar[str] = "min"


CHANNEL_LAST_POOLING: dict[tuple[int, str], type[_ChannelLastPooling]] = {
    (op.SPATIAL, op.KIND): op
    for op in (
        PoolingNhwcSumOp,
        PoolingNhwcMaxOp,
        PoolingNhwcMinOp,
        PoolingNdhwcSumOp,
        PoolingNdhwcMaxOp,
        PoolingNdhwcMinOp,
    )
}
"""(spatial dims, "sum"/"max"/"min") -> the pooling op."""


# ---------------------------------------------------------------------------------------
# Channel-last convolutions (stablehlo-legalize-to-linalg lowers convolution to them)


def element_types(operands: Sequence[SSAValue]) -> list[Attribute]:
    """The body's block argument types: the operands' element types (complex included)."""
    return [element_type(o.type) for o in operands]


def mac_region(arg_types: Sequence[Attribute]) -> Region:
    """`out + cast(in) * cast(filter)` in the output's element type, as OpDSL's convolutions."""
    out = arg_types[-1]

    @Builder.implicit_region(arg_types)
    def hidden_region(args: tuple[BlockArgument, ...]) -> None:
        if isinstance(out, ComplexType):
            product = complex.MulOp(args[0], args[1]).result
            YieldOp(complex.AddOp(args[2], product))
            return
        a, b = cast_signed(args[0], out), cast_signed(args[1], out)
        if isinstance(out, AnyFloat):
            YieldOp(arith.AddfOp(args[2], arith.MulfOp(a, b)))
        else:
            YieldOp(arith.AddiOp(args[2], arith.MuliOp(a, b)))

    return hidden_region


class _ChannelLastConv(ConvOperation, ABC):
    """`linalg.conv_{1,2,3}d_n[d]hwc_[d]hwcf` and `linalg.depthwise_conv_*`, as MLIR's OpDSL
    defines them (`O += cast(I[n, o * s + k * d.., c]) * cast(K[k.., c, ...])`).

    `KIND` is "f" (a plain convolution, loops `n, o.., f, k.., c`), "" (depthwise,
    loops `n, o.., c, k..`) or "m" (depthwise with a channel multiplier, loops
    `n, o.., c, m, k..`); the 3-D depthwise forms keep OpDSL's own loop order
    (`n, o.., k.., c` and `n, o.., m, k.., c`). The reduction loops run in that
    order, which is the order the interpreter sums in.
    """

    SPATIAL: ClassVar[int] = 2
    KIND: ClassVar[str] = "f"

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
        *,
        strides: DenseIntElementsAttr,
        dilations: DenseIntElementsAttr,
    ):
        super().__init__(
            inputs,
            outputs,
            _result_types(outputs, res),
            attributes,
            strides=strides,
            dilations=dilations,
        )

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        return mac_region(element_types((*inputs, *outputs)))

    def _layout(self) -> tuple[int, list[str]]:
        """The number of loops and each loop's role, in OpDSL's order."""
        spatial = self.SPATIAL
        outs = [f"o{j}" for j in range(spatial)]
        window = [f"k{j}" for j in range(spatial)]
        if self.KIND == "f":
            roles = ["n", *outs, "f", *window, "c"]
        elif self.KIND == "":
            roles = (
                ["n", *outs, *window, "c"]
                if spatial == 3
                else ["n", *outs, "c", *window]
            )
        else:
            roles = (
                ["n", *outs, "m", *window, "c"]
                if spatial == 3
                else ["n", *outs, "c", "m", *window]
            )
        return len(roles), roles

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        loops, roles = self._layout()
        dim = {role: AffineExpr.dimension(i) for i, role in enumerate(roles)}
        spatial = range(self.SPATIAL)
        strides = self.strides.get_values()
        dilations = self.dilations.get_values()
        positions = [
            dim[f"o{j}"] * int(strides[j]) + dim[f"k{j}"] * int(dilations[j])
            for j in spatial
        ]
        window = [dim[f"k{j}"] for j in spatial]
        outs = [dim[f"o{j}"] for j in spatial]
        tail = {
            "f": (["c", "f"], ["f"]),
            "": (["c"], ["c"]),
            "m": (["c", "m"], ["c", "m"]),
        }
        kernel_tail, out_tail = tail[self.KIND]
        return (
            AffineMap(loops, 0, (dim["n"], *positions, dim["c"])),
            AffineMap(loops, 0, (*window, *(dim[r] for r in kernel_tail))),
            AffineMap(loops, 0, (dim["n"], *outs, *(dim[r] for r in out_tail))),
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        _, roles = self._layout()
        return ArrayAttr(
            IteratorTypeAttr.reduction()
            if role[0] == "k" or (role == "c" and self.KIND == "f")
            else IteratorTypeAttr.parallel()
            for role in roles
        )


@irdl_op_definition
class Conv1DNwcWcfOp(_ChannelLastConv):
    name = "linalg.conv_1d_nwc_wcf"
    SPATIAL: ClassVar[int] = 1


@irdl_op_definition
class Conv2DNhwcHwcfOp(_ChannelLastConv):
    """Replaces xDSL's `Conv2DNhwc_HwcfOp`, whose body cannot be complex."""

    name = "linalg.conv_2d_nhwc_hwcf"


@irdl_op_definition
class Conv3DNdhwcDhwcfOp(_ChannelLastConv):
    name = "linalg.conv_3d_ndhwc_dhwcf"
    SPATIAL: ClassVar[int] = 3


@irdl_op_definition
class DepthwiseConv1DNwcWcOp(_ChannelLastConv):
    name = "linalg.depthwise_conv_1d_nwc_wc"
    SPATIAL: ClassVar[int] = 1
    KIND: ClassVar[str] = ""


@irdl_op_definition
class DepthwiseConv1DNwcWcmOp(_ChannelLastConv):
    name = "linalg.depthwise_conv_1d_nwc_wcm"
    SPATIAL: ClassVar[int] = 1
    KIND: ClassVar[str] = "m"


@irdl_op_definition
class DepthwiseConv2DNhwcHwcOp(_ChannelLastConv):
    name = "linalg.depthwise_conv_2d_nhwc_hwc"
    KIND: ClassVar[str] = ""


@irdl_op_definition
class DepthwiseConv2DNhwcHwcmOp(_ChannelLastConv):
    name = "linalg.depthwise_conv_2d_nhwc_hwcm"
    KIND: ClassVar[str] = "m"


@irdl_op_definition
class DepthwiseConv3DNdhwcDhwcOp(_ChannelLastConv):
    name = "linalg.depthwise_conv_3d_ndhwc_dhwc"
    SPATIAL: ClassVar[int] = 3
    KIND: ClassVar[str] = ""


@irdl_op_definition
class DepthwiseConv3DNdhwcDhwcmOp(_ChannelLastConv):
    name = "linalg.depthwise_conv_3d_ndhwc_dhwcm"
    SPATIAL: ClassVar[int] = 3
    KIND: ClassVar[str] = "m"


CHANNEL_LAST_CONV: dict[tuple[int, str], type[_ChannelLastConv]] = {
    (op.SPATIAL, op.KIND): op
    for op in (
        Conv1DNwcWcfOp,
        Conv2DNhwcHwcfOp,
        Conv3DNdhwcDhwcfOp,
        DepthwiseConv1DNwcWcOp,
        DepthwiseConv1DNwcWcmOp,
        DepthwiseConv2DNhwcHwcOp,
        DepthwiseConv2DNhwcHwcmOp,
        DepthwiseConv3DNdhwcDhwcOp,
        DepthwiseConv3DNdhwcDhwcmOp,
    )
}
"""(spatial dims, "f" / "" (depthwise) / "m" (depthwise, multiplier)) -> the convolution."""


EXTRA_OPS = (
    DivOp,
    BatchMatmulOp,
    MatvecOp,
    VecmatOp,
    DotOp,
    MapOp,
    ReduceOp,
    *CHANNEL_LAST_POOLING.values(),
    *CHANNEL_LAST_CONV.values(),
)
"""The ops `xquant.compat.upstream_ops` adds to xDSL's `Linalg` dialect
(`ReduceOp` in place of xDSL's single-input one, `Conv2DNhwcHwcfOp` in place of
xDSL's real-only `Conv2DNhwc_HwcfOp`)."""
