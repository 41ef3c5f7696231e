"""Shape and data-movement ops: reshape, transpose, broadcast_in_dim, concatenate, slice, iota, gather.

    %0 = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
    %1 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %2 = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
    %3 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<1xf32>, tensor<2xf32>) -> tensor<3xf32>
    %4 = stablehlo.slice %x [0:2, 1:3:2] : (tensor<2x3xf32>) -> tensor<2x1xf32>
    %5 = stablehlo.iota dim = 0 : tensor<4xi32>
    %6 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<...>, slice_sizes = array<i64: ...>}> : ...

They move storage integers unchanged, so on quantized tensors the result has
the operand's scale and zero point (`baseline_element_type` equality); a
per-axis axis must follow the data (reshape_c3, transpose_c4, broadcast_in_dim_c6).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xquant.dialects.stablehlo import quantization as q
from xquant.dialects.stablehlo.attributes import GatherDimensionNumbersAttr
from xquant.dialects.stablehlo.inferred_types import (
    incompatible_result_shape,
    verify_inferred_shape,
)
from xquant.dialects.stablehlo.syntax import (
    FUNCTIONAL_TYPE_FORMAT,
    VariadicOperandWithAttribute,
    array_values,
    dims_property,
    format_dims,
    i64_array,
)
from xquant.dialects.stablehlo.type_utils import (
    compatible_element_types,
    dims_compatible,
    is_quantized,
    shape_of,
    type_text,
)
from xquant.numerics.values import element_type

_SAME_ELEMENT_TYPE = "requires the same element type for all operands and results"


def _same_element_type(operand: Attribute, result: Attribute) -> None:
    """Non-quantized element types must be equal (quantized ones are checked by the quantization rules)."""
    if is_quantized(operand) or is_quantized(result):
        if is_quantized(operand) == is_quantized(result) and compatible_element_types(
            element_type(operand), element_type(result)
        ):
            return
        raise VerifyException(_SAME_ELEMENT_TYPE)
    _verify_equal_element_types([operand], result)


def _verify_equal_element_types(
    operands: Sequence[Attribute], result: Attribute
) -> None:
    """Every operand's element type is the result's (quantized types compared whole)."""
    if any(element_type(t) != element_type(result) for t in operands):
        raise VerifyException(_SAME_ELEMENT_TYPE)


class UnaryShapeOp(IRDLOperation):
    """`stablehlo.<op> %x : (T) -> R`, or with a dimension list `%x, dims = [..]`."""

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    assembly_format = FUNCTIONAL_TYPE_FORMAT
    DIMS_PROPERTY: ClassVar[str | None] = None

    def verify_(self) -> None:
        operand_type, result_type = self.operand.type, self.result.type
        q.verify_quantization_granularity(self.name, [operand_type, result_type], True)
        _same_element_type(operand_type, result_type)
        self.verify_shapes(operand_type, result_type)

    def verify_shapes(self, operand_type: Attribute, result_type: Attribute) -> None:
        """The op's own shape and quantization rules (element types are checked already)."""
        raise NotImplementedError


class DimsShapeOp(UnaryShapeOp):
    """A `UnaryShapeOp` whose `dims = [..]` list is its `DIMS_PROPERTY`."""

    def __init__(self, operand: SSAValue, dims: Sequence[int], result_type: Attribute):
        assert self.DIMS_PROPERTY is not None
        super().__init__(
            operands=[operand],
            result_types=[result_type],
            properties={self.DIMS_PROPERTY: i64_array(dims)},
        )

    @property
    def dims(self) -> tuple[int, ...]:
        assert self.DIMS_PROPERTY is not None
        return array_values(dims_property(self, self.DIMS_PROPERTY))


@irdl_op_definition
class ReshapeOp(UnaryShapeOp):
    """Same elements in row-major order, new shape."""

    name = "stablehlo.reshape"

    def __init__(self, operand: SSAValue, result_type: Attribute):
        super().__init__(operands=[operand], result_types=[result_type])

    def verify_shapes(self, operand_type: Attribute, result_type: Attribute) -> None:
        operand_count, result_count = (
            math.prod(shape_of(operand_type)),
            math.prod(shape_of(result_type)),
        )
        dynamic = DYNAMIC_INDEX in (*shape_of(operand_type), *shape_of(result_type))
        if not dynamic and operand_count != result_count:
            raise VerifyException(
                f"number of output elements ({result_count}) doesn't match expected number of elements "
                f"({operand_count})"
            )
        q.verify_reshape_quantization(operand_type, result_type)


@irdl_op_definition
class TransposeOp(DimsShapeOp):
    """`result[i] = operand[permute(i)]`: result dimension d is operand dimension permutation[d]."""

    name = "stablehlo.transpose"
    permutation = prop_def(DenseArrayBase[I64])
    DIMS_PROPERTY: ClassVar[str | None] = "permutation"
    assembly_format = (
        "$operand `,` `dims` `=` $permutation attr-dict `:` "
        "functional-type(operands, results)"
    )

    def verify_shapes(self, operand_type: Attribute, result_type: Attribute) -> None:
        shape, perm = shape_of(operand_type), self.dims
        if sorted(perm) != list(range(len(shape))):
            raise VerifyException(
                f"Permutation {format_dims(perm)} is not a permutation of the operand dimensions "
                f"(rank {len(shape)})"
            )
        expected = tuple(shape[p] for p in perm)
        if shape_of(result_type) != expected:
            raise incompatible_result_shape(self.name, expected, result_type)
        q.verify_transpose_quantization(operand_type, result_type, perm)


@irdl_op_definition
class BroadcastInDimOp(DimsShapeOp):
    """Operand dimension i becomes result dimension broadcast_dimensions[i]; size-1 dims expand."""

    name = "stablehlo.broadcast_in_dim"
    broadcast_dimensions = prop_def(DenseArrayBase[I64])
    DIMS_PROPERTY: ClassVar[str | None] = "broadcast_dimensions"
    assembly_format = (
        "$operand `,` `dims` `=` $broadcast_dimensions attr-dict `:` "
        "functional-type(operands, results)"
    )

    def verify_shapes(self, operand_type: Attribute, result_type: Attribute) -> None:
        shape, result_shape, dims = (
            shape_of(operand_type),
            shape_of(result_type),
            self.dims,
        )
        if len(dims) != len(shape):
            raise VerifyException(
                f"broadcast_dimensions size ({len(dims)}) does not match operand rank ({len(shape)})"
            )
        for i, d in enumerate(dims):
            if not 0 <= d < len(result_shape):
                raise VerifyException(
                    f"broadcast_dimensions contains invalid value {d} for result with rank {len(result_shape)}"
                )
            if shape[i] != 1 and shape[i] != result_shape[d]:
                raise VerifyException(
                    f"size of operand dimension {i} ({shape[i]}) is not equal to 1 or size of result dimension "
                    f"{d} ({result_shape[d]})"
                )
        if len(set(dims)) != len(dims):
            duplicate = _first_duplicate(dims)
            raise VerifyException(
                f"broadcast_dimensions should not have duplicates, but {format_dims(dims)} contains "
                f"{duplicate} more than once"
            )
        q.verify_broadcast_quantization(operand_type, result_type, dims)


@irdl_op_definition
class ConcatenateOp(IRDLOperation):
    """Join inputs along `dimension`."""

    name = "stablehlo.concatenate"

    inputs = var_operand_def(TensorType)
    result = result_def(TensorType)
    dimension = prop_def(IntegerAttr[I64])
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    custom_directives = (VariadicOperandWithAttribute,)
    assembly_format = (
        "custom<VariadicOperandWithAttribute>($inputs) `dim` `=` $dimension "
        "attr-dict `:` functional-type(operands, results)"
    )

    def verify_(self) -> None:
        types = [*self.operand_types, self.result.type]
        q.verify_quantization_granularity(self.name, types, False)
        _verify_equal_element_types(self.operand_types, self.result.type)
        shapes = [shape_of(t) for t in self.operand_types]
        dim = self.dimension.value.data
        rank = len(shapes[0]) if shapes else 0
        if not 0 <= dim < rank:
            raise VerifyException(
                f"dimension {dim} is out-of-bounds for input rank {rank}"
            )
        for shape in shapes:
            if len(shape) != rank or any(
                not dims_compatible(a, b)
                for i, (a, b) in enumerate(zip(shape, shapes[0]))
                if i != dim
            ):
                raise VerifyException(
                    "shapes of operands must match except along the concatenation dimension"
                )
        expected = list(shapes[0])
        sizes = [s[dim] for s in shapes]
        expected[dim] = DYNAMIC_INDEX if DYNAMIC_INDEX in sizes else sum(sizes)
        verify_inferred_shape(self.name, expected, self.result.type)


@irdl_custom_directive
class SliceRanges(CustomDirective):
    """`custom<SliceRanges>`: `[0:2, 1:3:2]`, start:limit(:stride) per dimension
    (a stride of 1 is left out)."""

    start_indices: AttributeVariable
    limit_indices: AttributeVariable
    strides: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        starts: list[int] = []
        limits: list[int] = []
        strides: list[int] = []

        def parse_range() -> None:
            starts.append(parser.parse_integer(allow_boolean=False))
            parser.parse_punctuation(":")
            limits.append(parser.parse_integer(allow_boolean=False))
            stride = 1
            if parser.parse_optional_punctuation(":") is not None:
                stride = parser.parse_integer(allow_boolean=False)
            strides.append(stride)

        parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_range)
        self.start_indices.set(state, i64_array(starts))
        self.limit_indices.set(state, i64_array(limits))
        self.strides.set(state, i64_array(strides))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        starts, limits, strides = (
            array_values(dims_property(op, d.name))
            for d in (self.start_indices, self.limit_indices, self.strides)
        )
        ranges = [
            f"{start}:{limit}" + (f":{stride}" if stride != 1 else "")
            for start, limit, stride in zip(starts, limits, strides)
        ]
        printer.print_string("[" + ", ".join(ranges) + "]")


@irdl_op_definition
class SliceOp(IRDLOperation):
    """`operand[start:limit:stride]` per dimension."""

    name = "stablehlo.slice"

    operand = operand_def(TensorType)
    result = result_def(TensorType)
    start_indices = prop_def(DenseArrayBase)
    limit_indices = prop_def(DenseArrayBase)
    strides = prop_def(DenseArrayBase)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    custom_directives = (SliceRanges,)
    assembly_format = (
        "$operand custom<SliceRanges>($start_indices, $limit_indices, $strides) "
        "attr-dict `:` functional-type(operands, results)"
    )

    def verify_(self) -> None:
        operand_type, result_type = self.operand.type, self.result.type
        q.verify_quantization_granularity(self.name, [operand_type, result_type], False)
        _verify_equal_element_types([operand_type], result_type)
        shape = shape_of(operand_type)
        starts, limits, strides = (
            array_values(a)
            for a in (self.start_indices, self.limit_indices, self.strides)
        )
        if not len(starts) == len(limits) == len(strides) == len(shape):
            raise VerifyException(
                "the number of start, limit and stride indices must equal the operand rank"
            )
        expected: list[int] = []
        for dim, (start, limit, stride) in enumerate(zip(starts, limits, strides)):
            if not 0 <= start <= limit <= shape[dim] or stride <= 0:
                raise VerifyException(
                    f"invalid slice {start}:{limit}:{stride} of dimension {dim} with size {shape[dim]}"
                )
            expected.append(-(-(limit - start) // stride))
        if list(shape_of(result_type)) != expected:
            raise incompatible_result_shape(self.name, expected, result_type)


@irdl_op_definition
class IotaOp(IRDLOperation):
    """`result[i] = i[iota_dimension]` (quantized: the storage is the index, as upstream)."""

    name = "stablehlo.iota"

    iota_dimension = prop_def(IntegerAttr[I64])
    output = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    assembly_format = "`dim` `=` $iota_dimension attr-dict `:` type($output)"

    def verify_(self) -> None:
        shape = shape_of(self.output.type)
        q.verify_quantization_granularity(self.name, [self.output.type], False)
        dim = self.iota_dimension.value.data
        if not 0 <= dim < len(shape):
            raise VerifyException(
                "iota dimension cannot go beyond the output rank or be negative."
            )


@irdl_op_definition
class GatherOp(IRDLOperation):
    """Slices of `operand` at the `start_indices` (spec "gather"); generic syntax only, as upstream."""

    name = "stablehlo.gather"

    operand = operand_def(TensorType)
    start_indices = operand_def(TensorType)
    result = result_def(TensorType)
    dimension_numbers = prop_def(GatherDimensionNumbersAttr)
    slice_sizes = prop_def(DenseArrayBase)
    indices_are_sorted = opt_prop_def(BoolAttr)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    @property
    def sizes(self) -> tuple[int, ...]:
        return array_values(self.slice_sizes)

    def verify_(self) -> None:
        operand_type, result_type = self.operand.type, self.result.type
        indices_type = self.start_indices.type
        q.verify_quantization_granularity(self.name, [operand_type, result_type], False)
        if element_type(operand_type) != element_type(result_type):
            raise VerifyException(
                "requires the same element type for operand and result"
            )
        if not isinstance(element_type(indices_type), IntegerType):
            raise VerifyException(
                f"'{self.name}' op operand #1 must be ranked tensor of integer values, but got "
                f"{type_text(indices_type)}"
            )
        shape, sizes = shape_of(operand_type), self.sizes
        indices_shape, result_shape = shape_of(indices_type), shape_of(result_type)
        verify_gather_dimension_numbers(
            self.dimension_numbers, shape, indices_shape, len(result_shape)
        )
        if len(sizes) != len(shape):
            raise VerifyException(
                f"slice_sizes size ({len(sizes)}) not equal to (implied) operand rank ({len(shape)})"
            )
        for dim, (size, bound) in enumerate(zip(sizes, shape)):
            if size < 0 or (bound != DYNAMIC_INDEX and size > bound):
                raise VerifyException(
                    f"slice size ({size}) is out of bounds for operand dimension ({bound}) at index {dim}"
                )
        numbers = self.dimension_numbers
        for name, dims in (
            ("collapsed_slice_dims", numbers.collapsed_slice_dims),
            ("operand_batching_dims", numbers.operand_batching_dims),
        ):
            for dim in dims:
                if sizes[dim] > 1:
                    raise VerifyException(
                        f"slice_sizes {name} dimension {dim} should <= 1 but got {sizes[dim]}"
                    )
        expected = gather_result_shape(indices_shape, numbers, sizes)
        verify_inferred_shape(self.name, expected, result_type)


def verify_gather_dimension_numbers(
    numbers: GatherDimensionNumbersAttr,
    operand_shape: Sequence[int],
    indices_shape: Sequence[int],
    result_rank: int,
) -> None:
    """gather_c1 .. gather_c19: the dimension numbers fit the operand, start indices and result.

    After these hold, `gather_result_shape` is well defined.
    """
    operand_rank, indices_rank = len(operand_shape), len(indices_shape)
    offset_dims, collapsed = numbers.offset_dims, numbers.collapsed_slice_dims
    operand_batching = numbers.operand_batching_dims
    indices_batching = numbers.start_indices_batching_dims
    index_vector_dim, start_index_map = (
        numbers.index_vector_dim,
        numbers.start_index_map,
    )
    if len(offset_dims) + len(collapsed) + len(operand_batching) != operand_rank:
        raise VerifyException(
            f"offset_dims size ({len(offset_dims)}) plus collapsed_slice_dims size ({len(collapsed)}) plus "
            f"operand_batching_dims size ({len(operand_batching)}) is not equal to operand rank ({operand_rank})"
        )
    if not 0 <= index_vector_dim <= indices_rank:
        raise VerifyException(
            f"index_vector_dim {index_vector_dim} is out of bounds for start_indices rank {indices_rank}, "
            f"expected to be in [0, {indices_rank}]"
        )
    index_vector_size = (
        indices_shape[index_vector_dim] if index_vector_dim < indices_rank else 1
    )
    if index_vector_size != DYNAMIC_INDEX and len(start_index_map) != index_vector_size:
        raise VerifyException(
            f"start_index_map size ({len(start_index_map)}) is not equal to the index vector size "
            f"({index_vector_size}) of start_indices at index_vector_dim {index_vector_dim}"
        )
    _verify_dimension_list("offset_dims", offset_dims, result_rank, "result", True)
    _verify_dimension_list(
        "collapsed_slice_dims", collapsed, operand_rank, "operand", True
    )
    _verify_dimension_list(
        "operand_batching_dims", operand_batching, operand_rank, "operand", True
    )
    _verify_dimension_list(
        "start_indices_batching_dims", indices_batching, indices_rank, "start_indices"
    )
    _verify_dimension_list("start_index_map", start_index_map, operand_rank, "operand")
    _verify_disjoint(
        "collapsed_slice_dims", collapsed, "operand_batching_dims", operand_batching
    )
    _verify_disjoint(
        "start_index_map", start_index_map, "operand_batching_dims", operand_batching
    )
    if index_vector_dim in indices_batching:
        raise VerifyException(
            f"index_vector_dim {index_vector_dim} must not be in start_indices_batching_dims "
            f"{format_dims(indices_batching)}"
        )
    if len(operand_batching) != len(indices_batching):
        raise VerifyException(
            f"operand_batching_dims size ({len(operand_batching)}) is not equal to "
            f"start_indices_batching_dims size ({len(indices_batching)})"
        )
    for operand_dim, indices_dim in zip(operand_batching, indices_batching):
        if operand_shape[operand_dim] != indices_shape[indices_dim]:
            raise VerifyException(
                f"operand dimension {operand_dim} (size {operand_shape[operand_dim]}) and start_indices "
                f"dimension {indices_dim} (size {indices_shape[indices_dim]}) are batching dimensions of "
                "different sizes"
            )
    batch_rank = indices_rank - (1 if index_vector_dim < indices_rank else 0)
    if result_rank != batch_rank + len(offset_dims):
        raise VerifyException(
            f"result rank ({result_rank}) is not equal to the start_indices batch rank ({batch_rank}) plus "
            f"offset_dims size ({len(offset_dims)})"
        )


def _first_duplicate(dims: Sequence[int]) -> int:
    """The first dimension of `dims` that appeared before it (callers know there is one)."""
    return next(d for i, d in enumerate(dims) if d in dims[:i])


def _verify_dimension_list(
    name: str, dims: Sequence[int], rank: int, rank_of: str, is_sorted: bool = False
) -> None:
    """Each of `dims` is a dimension of a rank-`rank` value, once; in ascending order if `is_sorted`."""
    for dim in dims:
        if not 0 <= dim < rank:
            raise VerifyException(
                f"{name} contains {dim}, which is out of bounds for {rank_of} rank {rank}, "
                f"expected to be in [0, {rank})"
            )
    if len(set(dims)) != len(dims):
        duplicate = _first_duplicate(dims)
        raise VerifyException(
            f"{name} {format_dims(dims)} contains dimension {duplicate} more than once"
        )
    if is_sorted and list(dims) != sorted(dims):
        raise VerifyException(
            f"{name} {format_dims(dims)} must be sorted in ascending order"
        )


def _verify_disjoint(
    name: str, dims: Sequence[int], other_name: str, other: Sequence[int]
) -> None:
    if shared := sorted(set(dims) & set(other)):
        raise VerifyException(
            f"{name} {format_dims(dims)} and {other_name} {format_dims(other)} share dimension {shared[0]}"
        )


def gather_result_shape(
    indices_shape: Sequence[int],
    numbers: GatherDimensionNumbersAttr,
    slice_sizes: Sequence[int],
) -> list[int]:
    """The shape the spec's gather produces (gather_c22): batch dims of the indices interleaved with the offset dims.

    Expects `verify_gather_dimension_numbers` to hold.
    """
    batch_shape = [
        d for i, d in enumerate(indices_shape) if i != numbers.index_vector_dim
    ]
    dropped = set(numbers.collapsed_slice_dims) | set(numbers.operand_batching_dims)
    offset_sizes = [s for i, s in enumerate(slice_sizes) if i not in dropped]
    rank = len(batch_shape) + len(offset_sizes)
    result: list[int] = []
    batch_iter, offset_iter = iter(batch_shape), iter(offset_sizes)
    for dim in range(rank):
        result.append(
            next(offset_iter) if dim in numbers.offset_dims else next(batch_iter)
        )
    return result


STRUCTURAL_OPS: list[type[IRDLOperation]] = [
    ReshapeOp,
    TransposeOp,
    BroadcastInDimOp,
    ConcatenateOp,
    SliceOp,
    IotaOp,
    GatherOp,
]
