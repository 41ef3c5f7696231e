"""Dynamic-shape ops: get_dimension_size, dynamic_broadcast_in_dim, dynamic_reshape, dynamic_slice,
dynamic_update_slice, dynamic_iota, real_dynamic_slice, set_dimension_size.

    %0 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x?xf32>) -> tensor<i32>
    %1 = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [0, 1] : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    %2 = stablehlo.dynamic_reshape %x, %shape : (tensor<6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    %3 = stablehlo.dynamic_slice %x, %i, %j, sizes = [1, 4] : (tensor<3x4xf32>, tensor<i64>, tensor<i64>) -> tensor<1x4xf32>
    %4 = stablehlo.dynamic_update_slice %x, %u, %i, %j : (tensor<3x4xf32>, tensor<1x4xf32>, tensor<i64>, tensor<i64>) -> tensor<3x4xf32>
    %5 = stablehlo.dynamic_iota %shape, dim = 1 : (tensor<2xi32>) -> tensor<?x?xf32>
    %6 = stablehlo.real_dynamic_slice %x, %start, %limit, %strides : (tensor<8xf32>, tensor<1xindex>, tensor<1xindex>, tensor<1xindex>) -> tensor<?xf32>
    %7 = stablehlo.set_dimension_size %x, %n, dim = 0 : (tensor<8xf32>, tensor<i32>) -> tensor<?xf32, #stablehlo.bounds<8>>

Data movement only: on quantized tensors operand and result share scale and
zero point. dynamic_broadcast_in_dim, dynamic_reshape and get_dimension_size
accept per-axis types; the slicing ops only per-tensor ones.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xquant.dialects.stablehlo import quantization as q
from xquant.dialects.stablehlo.constant import ConstantOp
from xquant.dialects.stablehlo.inferred_types import (
    incompatible_result_shape,
    incompatible_return_type,
)
from xquant.dialects.stablehlo.syntax import (
    FUNCTIONAL_TYPE_FORMAT,
    VariadicOperandWithAttribute,
    array_values,
    format_dims,
)
from xquant.dialects.stablehlo.type_utils import dims_compatible, shape_of, type_text
from xquant.numerics.values import element_type


def _verify_index_tensor(
    op_name: str, label: str, t: Attribute, rank: int, index: bool = False
) -> None:
    element = element_type(t)
    if (
        not (isa(element, IntegerType) or (index and isa(element, IndexType)))
        or not isa(t, TensorType)
        or len(t.get_shape()) != rank
    ):
        kind = "0D" if rank == 0 else "1D"
        values = "index or integer" if index else "integer"
        raise VerifyException(
            f"'{op_name}' op {label} must be {kind} tensor of {values} values, but got {type_text(t)}"
        )


@irdl_op_definition
class GetDimensionSizeOp(IRDLOperation):
    """The size of dimension `dimension` of `operand`, as a `tensor<i32>`."""

    name = "stablehlo.get_dimension_size"

    operand = operand_def(TensorType)
    dimension = prop_def(IntegerAttr[I64])
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    assembly_format = (
        "$operand `,` `dim` `=` $dimension attr-dict `:` "
        "functional-type(operands, results)"
    )

    def verify_(self) -> None:
        rank = len(shape_of(self.operand.type))
        dim = self.dimension.value.data
        if dim < 0:
            raise VerifyException(
                f"'{self.name}' op attribute 'dimension' failed to satisfy constraint: 64-bit signless integer "
                "attribute whose value is non-negative"
            )
        if dim >= rank:
            raise VerifyException(
                f"requires dimension attribute in range [0, {rank}); found ({dim})"
            )
        result = self.result.type
        element = result.get_element_type()
        if not (
            result.get_shape() == ()
            and isa(element, IntegerType)
            and element.bitwidth == 32
        ):
            raise VerifyException(
                f"'{self.name}' op result #0 must be 0D tensor of 32-bit signless integer values, "
                f"but got {type_text(result)}"
            )


@irdl_op_definition
class DynamicBroadcastInDimOp(IRDLOperation):
    """broadcast_in_dim to a shape given at run time by `output_dimensions`."""

    name = "stablehlo.dynamic_broadcast_in_dim"

    operand = operand_def(TensorType)
    output_dimensions = operand_def(TensorType)
    broadcast_dimensions = prop_def(DenseArrayBase[I64])
    known_expanding_dimensions = opt_prop_def(DenseArrayBase)
    known_nonexpanding_dimensions = opt_prop_def(DenseArrayBase)
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$operand `,` $output_dimensions `,` `dims` `=` $broadcast_dimensions "
        "attr-dict `:` functional-type(operands, results)"
    )

    def verify_(self) -> None:
        operand_type, result_type = self.operand.type, self.result.type
        _verify_index_tensor(
            self.name, "operand #1", self.output_dimensions.type, 1, True
        )
        shape, result_shape = shape_of(operand_type), shape_of(result_type)
        dims = array_values(self.broadcast_dimensions)
        if len(dims) != len(shape):
            raise VerifyException(
                f"broadcast_dimensions size ({len(dims)}) does not match operand rank ({len(shape)})"
            )
        if len(result_shape) < len(shape):
            raise VerifyException(
                f"result rank ({len(result_shape)}) is less than operand rank ({len(shape)})"
            )
        for i, d in enumerate(dims):
            if not 0 <= d < len(result_shape):
                raise VerifyException(
                    f"broadcast_dimensions contains invalid value {d} for result with rank {len(result_shape)}"
                )
            if shape[i] != 1 and not dims_compatible(shape[i], result_shape[d]):
                raise VerifyException(
                    f"size of operand dimension {i} ({shape[i]}) is not compatible with size of result "
                    f"dimension {d} ({result_shape[d]})"
                )
        if len(set(dims)) != len(dims):
            raise VerifyException(
                f"broadcast_dimensions should not have duplicates, but {format_dims(dims)} has some"
            )
        output_shape = shape_of(self.output_dimensions.type)
        if (
            output_shape
            and output_shape[0] != DYNAMIC_INDEX
            and output_shape[0] != len(result_shape)
        ):
            raise VerifyException(
                f"result rank ({len(result_shape)}) is not equal to number of output dimensions "
                f"({output_shape[0]})"
            )
        q.verify_same_element_type(self.name, operand_type, result_type)
        q.verify_broadcast_quantization(operand_type, result_type, dims)


@irdl_op_definition
class DynamicReshapeOp(IRDLOperation):
    """reshape to a shape given at run time."""

    name = "stablehlo.dynamic_reshape"

    operand = operand_def(TensorType)
    output_shape = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())
    assembly_format = FUNCTIONAL_TYPE_FORMAT

    def verify_(self) -> None:
        _verify_index_tensor(self.name, "operand #1", self.output_shape.type, 1)
        result_rank = len(shape_of(self.result.type))
        output = shape_of(self.output_shape.type)
        if output[0] != DYNAMIC_INDEX and output[0] != result_rank:
            raise VerifyException(
                "output should have a rank equal to the number of elements in output_shape"
            )
        q.verify_same_element_type(self.name, self.operand.type, self.result.type)
        q.verify_reshape_quantization(self.operand.type, self.result.type)


@irdl_op_definition
class DynamicSliceOp(IRDLOperation):
    """`operand[start:start+size]` with run-time start indices (clamped into range)."""

    name = "stablehlo.dynamic_slice"

    operand = operand_def(TensorType)
    start_indices = var_operand_def(TensorType)
    slice_sizes = prop_def(DenseArrayBase[I64])
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())

    custom_directives = (VariadicOperandWithAttribute,)
    assembly_format = (
        "$operand `,` custom<VariadicOperandWithAttribute>($start_indices) "
        "`sizes` `=` $slice_sizes attr-dict `:` functional-type(operands, results)"
    )

    def verify_(self) -> None:
        types = [self.operand.type, self.result.type]
        q.verify_quantization_granularity(self.name, types, False)
        shape = shape_of(self.operand.type)
        sizes = array_values(self.slice_sizes)
        if len(self.start_indices) != len(shape):
            raise VerifyException(
                f"has mismatched number of start indices ({len(self.start_indices)}) and the rank of operand "
                f"({len(shape)})"
            )
        if len(sizes) != len(shape):
            raise VerifyException(
                f"has mismatched number of slice sizes ({len(sizes)}) and rank of operand ({len(shape)})"
            )
        for i, (size, dim) in enumerate(zip(sizes, shape)):
            if size < 0:
                raise VerifyException(
                    f"has negative size index to dynamic slice: {size}"
                )
            if dim != DYNAMIC_INDEX and size > dim:
                raise VerifyException(
                    f"has slice size {size} greater than dimension size {dim} in dimension {i} of operand"
                )
        for index, t in enumerate(self.start_indices.types):
            _verify_index_tensor(self.name, f"operand #{index + 1}", t, 0)
        if shape_of(self.result.type) != sizes:
            raise incompatible_result_shape(self.name, sizes, self.result.type)
        q.verify_same_baseline(self.name, self.operand.type, self.result.type)


@irdl_op_definition
class DynamicUpdateSliceOp(IRDLOperation):
    """`operand` with `update` written at run-time start indices."""

    name = "stablehlo.dynamic_update_slice"

    operand = operand_def(TensorType)
    update = operand_def(TensorType)
    start_indices = var_operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())
    assembly_format = FUNCTIONAL_TYPE_FORMAT

    def verify_(self) -> None:
        types = [self.operand.type, self.update.type, self.result.type]
        q.verify_quantization_granularity(self.name, types, False)
        shape, update = shape_of(self.operand.type), shape_of(self.update.type)
        if len(update) != len(shape):
            raise VerifyException(
                f"update rank does not match operand rank: {len(update)} != {len(shape)}."
            )
        if len(self.start_indices) != len(shape):
            raise VerifyException(
                f"expects number of start_indices to match operand rank: {len(self.start_indices)} != "
                f"{len(shape)}."
            )
        for i, (u, d) in enumerate(zip(update, shape)):
            if u != DYNAMIC_INDEX and d != DYNAMIC_INDEX and u > d:
                raise VerifyException(
                    f"expects size at dimension {i} of update to be in range [0, {d}]. Got: {u}."
                )
        for index, t in enumerate(self.start_indices.types):
            _verify_index_tensor(self.name, f"operand #{index + 2}", t, 0)
        q.verify_same_baseline(self.name, self.operand.type, self.update.type)
        q.verify_same_baseline(self.name, self.operand.type, self.result.type)
        if any(
            not dims_compatible(a, b) for a, b in zip(shape, shape_of(self.result.type))
        ):
            raise incompatible_return_type(
                self.name, self.operand.type, self.result.type
            )


def _constant_ints(value: SSAValue) -> list[int] | None:
    """The integers of a `stablehlo.constant` defining `value` (upstream's `matchInts`), or None."""
    owner = value.owner
    if not isinstance(owner, ConstantOp) or not isinstance(
        owner.value, DenseIntOrFPElementsAttr
    ):
        return None
    values = [v for v in owner.value.get_values() if isinstance(v, int)]
    if len(values) != len(owner.value.get_values()):
        return None
    return values


@irdl_op_definition
class DynamicIotaOp(IRDLOperation):
    """iota of a shape given at run time (`output_shape`, a 1-D integer tensor)."""

    name = "stablehlo.dynamic_iota"

    output_shape = operand_def(TensorType)
    iota_dimension = prop_def(IntegerAttr[I64])
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())
    assembly_format = (
        "$output_shape `,` `dim` `=` $iota_dimension attr-dict `:` "
        "functional-type(operands, results)"
    )

    def verify_(self) -> None:
        _verify_index_tensor(self.name, "operand #0", self.output_shape.type, 1, True)
        if self.iota_dimension.value.data < 0:
            raise VerifyException(
                "attribute 'iota_dimension' failed to satisfy constraint: 64-bit "
                "signless integer attribute whose value is non-negative"
            )
        result_shape = shape_of(self.result.type)
        if self.iota_dimension.value.data >= len(result_shape):
            raise VerifyException("iota dimension cannot go beyond the output rank.")
        shape = _constant_ints(self.output_shape)
        if shape is not None and (
            len(shape) != len(result_shape)
            or not all(dims_compatible(a, b) for a, b in zip(shape, result_shape))
        ):
            raise VerifyException(
                f"output shape [{', '.join(map(str, shape))}] is incompatible with "
                f"return type of operation {type_text(self.result.type)}"
            )


@irdl_op_definition
class RealDynamicSliceOp(IRDLOperation):
    """slice with start, limit and strides given at run time (1-D index or integer tensors)."""

    name = "stablehlo.real_dynamic_slice"

    operand = operand_def(TensorType)
    start_indices = operand_def(TensorType)
    limit_indices = operand_def(TensorType)
    strides = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())
    assembly_format = "operands attr-dict `:` functional-type(operands, results)"

    def verify_(self) -> None:
        labels = ("start_indices", "limit_indices", "strides")
        values = (self.start_indices, self.limit_indices, self.strides)
        for i, value in enumerate(values, 1):
            _verify_index_tensor(self.name, f"operand #{i}", value.type, 1, True)
        if element_type(self.operand.type) != element_type(self.result.type):
            raise VerifyException(
                "failed to verify that all of {operand, result} have same element type"
            )
        rank = len(shape_of(self.operand.type))
        for label, value in zip(labels, values):
            (size,) = shape_of(value.type)
            if size != DYNAMIC_INDEX and size != rank:
                raise VerifyException(
                    f"has mismatched number of operand rank ({rank}) and {label} "
                    f"size ({size})"
                )


@irdl_op_definition
class SetDimensionSizeOp(IRDLOperation):
    """The operand with dimension `dimension` cut to the run-time `size` (a rank-0 i32)."""

    name = "stablehlo.set_dimension_size"

    operand = operand_def(TensorType)
    size = operand_def(TensorType)
    dimension = prop_def(IntegerAttr[I64])
    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes(), Pure())
    assembly_format = (
        "$operand `,` $size `,` `dim` `=` $dimension attr-dict `:` "
        "functional-type(operands, results)"
    )

    def verify_(self) -> None:
        if element_type(self.size.type) != IntegerType(32):
            raise VerifyException(
                "'stablehlo.set_dimension_size' op operand #1 must be ranked tensor "
                f"of 32-bit signless integer values, but got {type_text(self.size.type)}"
            )
        if shape_of(self.size.type):
            raise VerifyException("size operand should be of rank-0")
        shape = list(shape_of(self.operand.type))
        dimension = self.dimension.value.data
        if not 0 <= dimension < len(shape):
            raise VerifyException(
                f"expects dimension to be in range [0, {len(shape)}); got: [{dimension}]."
            )
        size = _constant_ints(self.size)
        if size is None or size[0] != shape[dimension]:
            shape[dimension] = DYNAMIC_INDEX
        result_shape = shape_of(self.result.type)
        if element_type(self.result.type) != element_type(self.operand.type) or not (
            len(result_shape) == len(shape)
            and all(dims_compatible(a, b) for a, b in zip(result_shape, shape))
        ):
            raise incompatible_result_shape(self.name, shape, self.result.type)


DYNAMISM_OPS: list[type[IRDLOperation]] = [
    GetDimensionSizeOp,
    DynamicBroadcastInDimOp,
    DynamicReshapeOp,
    DynamicSliceOp,
    DynamicUpdateSliceOp,
    DynamicIotaOp,
    RealDynamicSliceOp,
    SetDimensionSizeOp,
]
