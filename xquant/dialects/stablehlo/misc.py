"""StableHLO ops outside the other families: dot, pad, reverse, einsum, cholesky, optimization_barrier,
tuple, get_tuple_element, composite, the three batch_norm ops, and two ops on their way out
of StableHLO that its passes still lower: broadcast and torch_index_select.

    %0 = stablehlo.dot %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %1 = stablehlo.dot %a, %b, precision = [DEFAULT, DEFAULT] : (...) -> ...
    %2 = stablehlo.pad %x, %v, low = [0, 1], high = [1, 0], interior = [0, 1] : (tensor<1x2xf32>, tensor<f32>) -> tensor<2x4xf32>
    %3 = stablehlo.reverse %x, dims = [1] : tensor<3x2xf32>
    %4 = stablehlo.einsum %a, %b, config = "ij,jk->ik" : (...) -> ...
    %5 = stablehlo.cholesky %a, lower = true : tensor<2x2xf32>
    %6:2 = stablehlo.optimization_barrier %a, %b : tensor<2xf32>, tensor<2xi8>
    %7 = stablehlo.tuple %a, %b : tuple<tensor<2xf32>, tensor<2xi8>>
    %8 = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>, tensor<2xi8>>) -> tensor<2xf32>
    %9 = stablehlo.composite "my.op" %a {decomposition = @my.op.impl} : (tensor<2xf32>) -> tensor<2xf32>
    "stablehlo.batch_norm_inference"(...) <{epsilon = 1.0e-05 : f32, feature_index = 1 : i64}> : ...   (generic only)
    %10 = stablehlo.broadcast %x, sizes = [4, 2] : (tensor<3xf32>) -> tensor<4x2x3xf32>
    "stablehlo.torch_index_select"(%x, %i) <{batch_dims = 0 : i64, dim = 0 : i64}> : ...   (generic only)

Quantized tensors: pad, reverse, optimization_barrier, tuple, get_tuple_element
and composite move values unchanged (pad and reverse keep scale and zero point;
pad's padding value must have the operand's); dot follows dot_general's rules;
the others admit per-tensor quantized tensors (dequantize_op_quantize).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    TupleType,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xquant.dialects.stablehlo import quantization as q
from xquant.dialects.stablehlo.attributes import PrecisionAttr
from xquant.dialects.stablehlo.dot_conv import (
    parse_precision,
    precision_text,
    verify_precision_config,
)
from xquant.dialects.stablehlo.inferred_types import (
    incompatible_return_type,
    verify_inferred_shape,
)
from xquant.dialects.stablehlo.syntax import (
    array_values,
    format_dims,
    parse_dims_property,
    parse_functional_op_tail,
    parse_keyword_value,
    parse_operand_list,
    parse_optional_attributes,
    parse_optional_operand_list,
    parse_same_type_op_tail,
    print_dims_property,
    print_extra_attributes,
    print_functional_op_tail,
    print_same_type_op_tail,
)
from xquant.dialects.stablehlo.type_utils import (
    compatible_shapes,
    dims_compatible,
    is_quantized,
    shape_of,
    type_text,
)
from xquant.numerics.values import element_type


@irdl_op_definition
class DotOp(IRDLOperation):
    """Matrix-vector / matrix-matrix product of rank-1 or rank-2 tensors (a special dot_general)."""

    name = "stablehlo.dot"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    precision_config = opt_prop_def(ArrayAttr[PrecisionAttr])
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        properties: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            parse_keyword_value(parser, "precision")
            properties["precision_config"] = parse_precision(parser)
        return parse_functional_op_tail(cls, parser, [lhs, rhs], properties)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        if self.precision_config is not None and len(self.precision_config):
            printer.print_string(
                f", precision = {precision_text(self.precision_config)}"
            )
        print_functional_op_tail(printer, self, ("precision_config",))

    def verify_(self) -> None:
        verify_precision_config(self.precision_config)
        lhs, rhs = shape_of(self.lhs.type), shape_of(self.rhs.type)
        if len(lhs) not in (1, 2) or len(rhs) not in (1, 2):
            raise VerifyException(
                f"expected operands of rank 1 or 2, but got {type_text(self.lhs.type)} and "
                f"{type_text(self.rhs.type)}"
            )
        if not dims_compatible(lhs[-1], rhs[0]):
            raise VerifyException("dot requires contracting dimensions to match")
        expected = list(lhs[:-1]) + list(rhs[1:])
        verify_inferred_shape(self.name, expected, self.result.type)
        q.verify_quantization_granularity(self.name, [self.lhs.type], False)


@irdl_op_definition
class PadOp(IRDLOperation):
    """Pad with `padding_value`: `edge_padding_low/high` per side (negative crops), `interior_padding` between elements."""

    name = "stablehlo.pad"

    operand = operand_def(TensorType)
    padding_value = operand_def(TensorType)
    edge_padding_low = prop_def(DenseArrayBase)
    edge_padding_high = prop_def(DenseArrayBase)
    interior_padding = prop_def(DenseArrayBase)
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    KEYWORDS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("low", "edge_padding_low"),
        ("high", "edge_padding_high"),
        ("interior", "interior_padding"),
    )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        properties: dict[str, Attribute] = {}
        for keyword, prop in cls.KEYWORDS:
            parser.parse_punctuation(",")
            properties[prop] = parse_dims_property(parser, keyword)
        return parse_functional_op_tail(cls, parser, [operand, value], properties)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(", ")
        printer.print_operand(self.padding_value)
        for keyword, prop in self.KEYWORDS:
            dims = cast(DenseArrayBase, self.properties[prop])  # a prop_def of one
            print_dims_property(printer, keyword, dims)
        print_functional_op_tail(printer, self, [p for _, p in self.KEYWORDS])

    def verify_(self) -> None:
        types = [self.operand.type, self.padding_value.type, self.result.type]
        q.verify_quantization_granularity(self.name, types, False)
        shape = shape_of(self.operand.type)
        if shape_of(self.padding_value.type):
            raise VerifyException(
                f"padding value type should be a rank-0 tensor, is rank {len(shape_of(self.padding_value.type))}"
            )
        low, high, interior = (
            array_values(self.edge_padding_low),
            array_values(self.edge_padding_high),
            array_values(self.interior_padding),
        )
        for label, values in (
            ("edge_padding_low", low),
            ("edge_padding_high", high),
            ("interior_padding", interior),
        ):
            if len(values) != len(shape):
                raise VerifyException(
                    f"{label} length ({len(values)}) must match operand rank ({len(shape)})"
                )
        expected: list[int] = []
        for i, dim in enumerate(shape):
            if interior[i] < 0:
                raise VerifyException(
                    f"Interior padding cannot be negative: {interior[i]}"
                )
            if dim == DYNAMIC_INDEX:
                expected.append(DYNAMIC_INDEX)
                continue
            size = dim + low[i] + high[i] + max(dim - 1, 0) * interior[i]
            if size < 0:
                raise VerifyException(
                    f"Padding result in negative size for dimension {i}"
                )
            expected.append(size)
        q.verify_same_baseline(self.name, self.operand.type, self.padding_value.type)
        q.verify_same_baseline(self.name, self.operand.type, self.result.type)
        verify_inferred_shape(self.name, expected, self.result.type)


@irdl_op_definition
class ReverseOp(IRDLOperation):
    """Reverse the order of elements along `dimensions`."""

    name = "stablehlo.reverse"

    operand = operand_def(TensorType)
    dimensions = prop_def(DenseArrayBase)
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        dims = parse_dims_property(parser, "dims")
        return parse_same_type_op_tail(cls, parser, [operand], {"dimensions": dims})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        print_dims_property(printer, "dims", self.dimensions)
        print_same_type_op_tail(printer, self, ("dimensions",))

    def verify_(self) -> None:
        types = [self.operand.type, self.result.type]
        q.verify_quantization_granularity(self.name, types, False)
        rank = len(shape_of(self.operand.type))
        dims = array_values(self.dimensions)
        if len(set(dims)) != len(dims):
            raise VerifyException(
                f"dimensions should be unique. Got: {format_dims(dims)}"
            )
        for d in dims:
            if d < 0:
                raise VerifyException(
                    f"all dimensions should be non-negative. Got dimension: {d}."
                )
            if d >= rank:
                raise VerifyException(
                    f"all dimensions should be between [0, {rank}). Got dimension: {d}."
                )
        if shape_of(self.operand.type) != shape_of(self.result.type):
            raise VerifyException(
                f"'{self.name}' op requires the same shape for all operands and results"
            )
        q.verify_same_baseline(self.name, self.operand.type, self.result.type)


@irdl_op_definition
class EinsumOp(IRDLOperation):
    """Einstein summation of two tensors, `einsum_config` like `"ij,jk->ik"`."""

    name = "stablehlo.einsum"

    lhs = operand_def(TensorType)
    rhs = operand_def(TensorType)
    einsum_config = prop_def(StringAttr)
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parse_keyword_value(parser, "config")
        config = StringAttr(parser.parse_str_literal())
        return parse_functional_op_tail(
            cls, parser, [lhs, rhs], {"einsum_config": config}
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        printer.print_string(", config = ")
        printer.print_string_literal(self.einsum_config.data)
        print_functional_op_tail(printer, self, ("einsum_config",))

    def verify_(self) -> None:
        q.verify_quantization_granularity(
            self.name, [*self.operand_types, self.result.type], False
        )


@irdl_op_definition
class CholeskyOp(IRDLOperation):
    """Cholesky factor of a batch of symmetric positive-definite matrices (`lower` picks the triangle)."""

    name = "stablehlo.cholesky"

    a = operand_def(TensorType)
    lower = opt_prop_def(BoolAttr)
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operand = parser.parse_unresolved_operand()
        properties: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            parse_keyword_value(parser, "lower")
            attr = parser.parse_attribute()
            if not isa(attr, IntegerAttr) or attr.type != IntegerType(1):
                parser.raise_error("expected a boolean attribute for 'lower'")
            properties["lower"] = attr
        return parse_same_type_op_tail(cls, parser, [operand], properties)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.a)
        if self.lower is not None and self.lower.value.data:
            printer.print_string(", lower = true")
        print_same_type_op_tail(printer, self, ("lower",))

    def verify_(self) -> None:
        types = [self.a.type, self.result.type]
        q.verify_quantization_granularity(self.name, types, False)
        shape = shape_of(self.a.type)
        if len(shape) < 2:
            raise VerifyException(
                f"argument 'a' is expected to have rank >= 2, got rank {len(shape)}"
            )
        if not dims_compatible(shape[-1], shape[-2]):
            raise VerifyException(
                f"minor dimensions of 'a' must have equal size, got shape [{', '.join(map(str, shape))}]"
            )
        if shape_of(self.result.type) != shape:
            raise VerifyException(
                f"'{self.name}' op requires the same shape for all operands and results"
            )
        q.verify_compatible_element_types(self.name, types)


@irdl_op_definition
class OptimizationBarrierOp(IRDLOperation):
    """Identity that optimizations must not move computations across."""

    name = "stablehlo.optimization_barrier"

    operand = var_operand_def()
    result = var_result_def()
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attributes = parse_optional_attributes(parser)
        if parser.parse_optional_punctuation("(") is not None:
            parser.parse_punctuation(")")
            return cls.create(attributes=attributes)
        operands = parse_operand_list(parser)
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_type
        )
        resolved = parser.resolve_operands(operands, types, parser.pos)
        return cls.create(operands=resolved, result_types=types, attributes=attributes)

    def print(self, printer: Printer) -> None:
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        if not self.operands:
            printer.print_string("()")
            return
        printer.print_string(" ")
        printer.print_list(self.operand, printer.print_operand)
        printer.print_string(" : ")
        printer.print_list(self.operand_types, printer.print_attribute)

    def verify_(self) -> None:
        if list(self.operand_types) != list(self.result_types):
            raise VerifyException(
                f"'{self.name}' op requires the same type for operand and result at index "
                f"{next(i for i, (a, b) in enumerate(zip(self.operand_types, self.result_types)) if a != b) if len(self.operand_types) == len(self.result_types) else 0}"
            )


@irdl_op_definition
class TupleOp(IRDLOperation):
    """Build a tuple of values."""

    name = "stablehlo.tuple"

    val = var_operand_def()
    result = result_def(TupleType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands = parse_optional_operand_list(parser)
        attributes = parse_optional_attributes(parser)
        parser.parse_punctuation(":")
        start = parser.pos
        result_type = parser.parse_type()
        if not isinstance(result_type, TupleType):
            parser.raise_error("expected tuple type", start, parser.pos)
        resolved = parser.resolve_operands(
            operands, list(result_type.types.data), parser.pos
        )
        return cls.create(
            operands=resolved, result_types=[result_type], attributes=attributes
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.val, printer.print_operand)
        print_extra_attributes(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if list(self.result.type.types.data) != list(self.operand_types):
            # The types of SSA values are types.
            inferred = cast(tuple[TypeAttribute, ...], tuple(self.operand_types))
            raise incompatible_return_type(
                self.name, TupleType(inferred), self.result.type
            )


@irdl_op_definition
class GetTupleElementOp(IRDLOperation):
    """Element `index` of a tuple."""

    name = "stablehlo.get_tuple_element"

    operand = operand_def(TupleType)
    index = prop_def(IntegerAttr)
    result = result_def()
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        index = parser.parse_integer(allow_boolean=False)
        parser.parse_punctuation("]")
        return parse_functional_op_tail(
            cls, parser, [operand], {"index": IntegerAttr(index, i32)}
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(f"[{self.index.value.data}]")
        print_functional_op_tail(printer, self, ("index",))

    def verify_(self) -> None:
        operand_type = self.operand.type
        assert isinstance(operand_type, TupleType)  # the operand's constraint
        types = operand_type.types.data
        index = self.index.value.data
        if not 0 <= index < len(types):
            raise VerifyException(
                f"index {index} is out of bounds of operand with size {len(types)}"
            )
        if types[index] != self.result.type:
            raise incompatible_return_type(self.name, types[index], self.result.type)


@irdl_op_definition
class CompositeOp(IRDLOperation):
    """A named op with a reference implementation `decomposition` (a func.func symbol)."""

    name = "stablehlo.composite"

    inputs = var_operand_def()
    composite_name = prop_def(StringAttr, prop_name="name")
    composite_attributes = opt_prop_def(DictionaryAttr)
    decomposition = prop_def(SymbolRefAttr)
    version = opt_prop_def(IntegerAttr)
    results_ = var_result_def()
    traits = traits_def(q.QuantizedTensorTypes())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = StringAttr(parser.parse_str_literal())
        operands = parse_optional_operand_list(parser)
        return parse_functional_op_tail(cls, parser, operands, {"name": name})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.composite_name.data)
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.inputs, printer.print_operand)
        elided = ["name"]
        if self.composite_attributes is not None and not self.composite_attributes.data:
            elided.append("composite_attributes")
        if self.version is not None and self.version.value.data == 0:
            elided.append("version")
        print_functional_op_tail(printer, self, elided)


class _BatchNormOp(IRDLOperation):
    """Shared checks of the batch_norm ops (generic syntax only, as upstream)."""

    epsilon = prop_def(FloatAttr)
    feature_index = prop_def(IntegerAttr)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    def verify_feature_operands(
        self, operand: Attribute, features: Sequence[Attribute]
    ) -> None:
        types = [*self.operand_types, *self.result_types]
        q.verify_quantization_granularity(self.name, types, False)
        for index, t in enumerate(types):
            element = element_type(t)
            if not (isinstance(element, AnyFloat) or is_quantized(t)):
                raise VerifyException(
                    f"'{self.name}' op operand #{index} must be ranked tensor of floating-point or per-tensor "
                    f"integer quantized values, but got {type_text(t)}"
                )
        shape = shape_of(operand)
        feature_index = self.feature_index.value.data
        if feature_index < 0 or feature_index >= len(shape):
            raise VerifyException(
                f"expects featureIndex to be smaller than the rank of multi-dimensional operands; got "
                f"featureIndex {feature_index}, and rank {len(shape)}."
            )
        for t in features:
            feature_shape = shape_of(t)
            if len(feature_shape) != 1 or not dims_compatible(
                feature_shape[0], shape[feature_index]
            ):
                raise VerifyException(
                    f"expects the size of scale factor to be same as the feature count, but the size of scale "
                    f"factor is {feature_shape[0] if feature_shape else 0} and the feature count is "
                    f"{shape[feature_index]}."
                )


@irdl_op_definition
class BatchNormGradOp(_BatchNormOp):
    """Gradients of batch_norm_training."""

    name = "stablehlo.batch_norm_grad"

    operand = operand_def(TensorType)
    scale = operand_def(TensorType)
    mean = operand_def(TensorType)
    variance = operand_def(TensorType)
    grad_output = operand_def(TensorType)
    grad_operand = result_def(TensorType)
    grad_scale = result_def(TensorType)
    grad_offset = result_def(TensorType)

    def verify_(self) -> None:
        self.verify_feature_operands(
            self.operand.type,
            [
                self.scale.type,
                self.mean.type,
                self.variance.type,
                self.grad_scale.type,
                self.grad_offset.type,
            ],
        )


@irdl_op_definition
class BatchNormInferenceOp(_BatchNormOp):
    """Normalize with the given mean and variance."""

    name = "stablehlo.batch_norm_inference"

    operand = operand_def(TensorType)
    scale = operand_def(TensorType)
    offset = operand_def(TensorType)
    mean = operand_def(TensorType)
    variance = operand_def(TensorType)
    result = result_def(TensorType)

    def verify_(self) -> None:
        self.verify_feature_operands(
            self.operand.type,
            [self.scale.type, self.offset.type, self.mean.type, self.variance.type],
        )


@irdl_op_definition
class BatchNormTrainingOp(_BatchNormOp):
    """Normalize with the batch's own mean and variance (also returned)."""

    name = "stablehlo.batch_norm_training"

    operand = operand_def(TensorType)
    scale = operand_def(TensorType)
    offset = operand_def(TensorType)
    output = result_def(TensorType)
    batch_mean = result_def(TensorType)
    batch_var = result_def(TensorType)

    def verify_(self) -> None:
        self.verify_feature_operands(
            self.operand.type,
            [
                self.scale.type,
                self.offset.type,
                self.batch_mean.type,
                self.batch_var.type,
            ],
        )


@irdl_op_definition
class BroadcastOp(IRDLOperation):
    """The operand repeated over new leading dims: result shape `broadcast_sizes ++ operand shape`."""

    name = "stablehlo.broadcast"

    operand = operand_def(TensorType)
    broadcast_sizes = prop_def(DenseArrayBase[I64])
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())
    assembly_format = (
        "$operand `,` `sizes` `=` $broadcast_sizes attr-dict `:` "
        "functional-type(operands, results)"
    )

    def __init__(self, operand: SSAValue, sizes: Sequence[int], result_type: Attribute):
        super().__init__(
            operands=[operand],
            properties={"broadcast_sizes": DenseArrayBase.from_list(i64, list(sizes))},
            result_types=[result_type],
        )

    def verify_(self) -> None:
        sizes = array_values(self.broadcast_sizes)
        for size in sizes:
            if size < 0:
                raise VerifyException(f"Broadcast with negative dimension size {size}")
        shape = [*sizes, *shape_of(self.operand.type)]
        inferred = TensorType(element_type(self.operand.type), shape)
        if element_type(self.result.type) != element_type(
            self.operand.type
        ) or not compatible_shapes(shape_of(self.result.type), shape):
            raise incompatible_return_type(self.name, inferred, self.result.type)


@irdl_op_definition
class TorchIndexSelectOp(IRDLOperation):
    """PyTorch's `index_select` with `batch_dims` leading batch dims shared by operand and
    index: result = `operand[:dim] ++ index[batch_dims:] ++ operand[dim + 1:]` (not in the
    StableHLO spec; upstream verifies nothing beyond the types being tensors)."""

    name = "stablehlo.torch_index_select"

    operand = operand_def(TensorType)
    index = operand_def(TensorType)
    dim = prop_def(IntegerAttr[I64])
    batch_dims = prop_def(IntegerAttr[I64])
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    def axes(self) -> tuple[int, int]:
        """`dim` and `batch_dims`, negative values counted from the end (as upstream's lowering)."""
        dim, batch = self.dim.value.data, self.batch_dims.value.data
        if dim < 0:
            dim += len(shape_of(self.operand.type))
        if batch < 0:
            batch += len(shape_of(self.index.type))
        return dim, batch


MISC_OPS: list[type[IRDLOperation]] = [
    DotOp,
    PadOp,
    ReverseOp,
    EinsumOp,
    CholeskyOp,
    OptimizationBarrierOp,
    TupleOp,
    GetTupleElementOp,
    CompositeOp,
    BatchNormGradOp,
    BatchNormInferenceOp,
    BatchNormTrainingOp,
    BroadcastOp,
    TorchIndexSelectOp,
]
