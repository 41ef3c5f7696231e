"""Collectives and side-effecting communication: all_gather, all_to_all, all_reduce, reduce_scatter,
collective_permute, send, recv, infeed, outfeed, after_all, replica_id, partition_id.

All use the generic syntax upstream (`"stablehlo.all_gather"(%x) <{...}> : ...`)
except `stablehlo.after_all %a, %b : !stablehlo.token`. Quantized operands
are allowed per tensor (the collectives) or per axis as well (send, outfeed,
which move storage unchanged).
"""

from __future__ import annotations

from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    BoolAttr,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
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
from xdsl.irdl.declarative_assembly_format import (
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xquant.dialects.stablehlo import quantization as q
from xquant.dialects.stablehlo.reductions import body_types
from xquant.dialects.stablehlo.type_utils import shape_of
from xquant.dialects.stablehlo.types import ChannelHandleAttr, TokenType
from xquant.numerics.values import element_type


def _verify_dim(label: str, dim: int, rank: int) -> None:
    if not 0 <= dim < rank:
        raise VerifyException(
            f"{label} attribute value must be in range [0, {rank}), but got {dim}"
            if dim >= 0
            else f"{label} cannot be negative"
        )


def _verify_replica_groups(groups: DenseIntOrFPElementsAttr | None) -> None:
    if groups is None:
        return
    shape = groups.get_shape()
    if len(shape) != 2:
        raise VerifyException("replica groups should be a rank 2 tensor")
    # Replica ids are integers (a float literal truncates, as before).
    values = [int(v) for v in cast(tuple[float, ...], groups.get_values())]
    seen: set[int] = set()
    for v in values:
        if v == -1:
            continue
        if v in seen:
            raise VerifyException(f"replica id #{v} seen more than once")
        seen.add(v)


class _CollectiveOp(IRDLOperation):
    """Base of the tensor collectives: the optional channel, traits and operand checks."""

    channel_handle = opt_prop_def(ChannelHandleAttr)
    traits = traits_def(q.QuantizedTensorTypes())

    PER_AXIS: ClassVar[bool] = False

    def verify_quantization(self) -> None:
        q.verify_quantization_granularity(
            self.name, [*self.operand_types, *self.result_types], self.PER_AXIS
        )


@irdl_op_definition
class AllGatherOp(_CollectiveOp):
    """Concatenate each process's operands along `all_gather_dim` within replica groups."""

    name = "stablehlo.all_gather"

    operands_ = var_operand_def(TensorType)
    all_gather_dim = prop_def(IntegerAttr)
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    use_global_device_ids = opt_prop_def(UnitAttr)
    results_ = var_result_def(TensorType)

    def verify_(self) -> None:
        self.verify_quantization()
        _verify_replica_groups(self.replica_groups)
        dim = self.all_gather_dim.value.data
        for t in self.operand_types:
            _verify_dim("all_gather_dim", dim, len(shape_of(t)))


@irdl_op_definition
class AllToAllOp(_CollectiveOp):
    """Split along `split_dimension`, exchange, concatenate along `concat_dimension`."""

    name = "stablehlo.all_to_all"

    operands_ = var_operand_def(TensorType)
    split_dimension = prop_def(IntegerAttr)
    concat_dimension = prop_def(IntegerAttr)
    split_count = prop_def(IntegerAttr)
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    results_ = var_result_def(TensorType)

    def verify_(self) -> None:
        self.verify_quantization()
        _verify_replica_groups(self.replica_groups)
        if self.split_count.value.data <= 0:
            raise VerifyException(
                f"AllToAll split_count must be > 0, got {self.split_count.value.data}"
            )
        for t in self.operand_types:
            rank = len(shape_of(t))
            _verify_dim(
                "AllToAll split_dimension", self.split_dimension.value.data, rank
            )
            _verify_dim(
                "AllToAll concat_dimension", self.concat_dimension.value.data, rank
            )


@irdl_op_definition
class AllReduceOp(_CollectiveOp):
    """Reduce the operands across replica groups with `computation`."""

    name = "stablehlo.all_reduce"

    operands_ = var_operand_def(TensorType)
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    use_global_device_ids = opt_prop_def(UnitAttr)
    computation = region_def("single_block")
    results_ = var_result_def(TensorType)

    def verify_(self) -> None:
        self.verify_quantization()
        _verify_replica_groups(self.replica_groups)
        args, returned = body_types(self.computation)
        accumulators = [TensorType(element_type(t), []) for t in self.operand_types]
        if len(args) != 2 * len(accumulators):
            raise VerifyException(
                f"Reduction-region must take {2 * len(accumulators)} parameters, but takes {len(args)} parameter(s)"
            )
        q.verify_reducer_types(accumulators, accumulators, args, returned)


@irdl_op_definition
class ReduceScatterOp(_CollectiveOp):
    """all_reduce, then scatter the result along `scatter_dimension`."""

    name = "stablehlo.reduce_scatter"

    operand = operand_def(TensorType)
    scatter_dimension = prop_def(IntegerAttr)
    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    use_global_device_ids = opt_prop_def(UnitAttr)
    computation = region_def("single_block")
    result = result_def(TensorType)

    def verify_(self) -> None:
        self.verify_quantization()
        _verify_replica_groups(self.replica_groups)
        rank = len(shape_of(self.operand.type))
        _verify_dim("scatter dim", self.scatter_dimension.value.data, rank)
        args, returned = body_types(self.computation)
        accumulator = [TensorType(element_type(self.operand.type), [])]
        if len(args) != 2:
            raise VerifyException(
                f"Reduction-region must take 2 parameters, but takes {len(args)} parameter(s)"
            )
        q.verify_reducer_types(accumulator, accumulator, args, returned)


@irdl_op_definition
class CollectivePermuteOp(_CollectiveOp):
    """Send each process's operand to the process given by `source_target_pairs`."""

    name = "stablehlo.collective_permute"

    operand = operand_def(TensorType)
    source_target_pairs = prop_def(DenseIntOrFPElementsAttr)
    result = result_def(TensorType)

    def verify_(self) -> None:
        self.verify_quantization()
        shape = self.source_target_pairs.get_shape()
        if len(shape) != 2:
            raise VerifyException(
                f"expect source_target_pairs attribute to be of rank 2, but got rank {len(shape)}"
            )
        if shape[1] != 2:
            raise VerifyException(
                f"expect source_target_pairs attribute of shape (N, 2), but got ({shape[0]}, {shape[1]})"
            )
        if self.operand.type != self.result.type:
            raise VerifyException(
                f"'{self.name}' op requires the same type for all operands and results"
            )


class _TokenWriteOp(IRDLOperation):
    """Base of send and outfeed: write `inputs` after `token`, return a token."""

    inputs = var_operand_def()
    token = operand_def(TokenType)
    result = result_def(TokenType)
    traits = traits_def(q.QuantizedTensorTypes())


class _TokenReadOp(IRDLOperation):
    """Base of recv and infeed: read values after `token`; the last result is a token."""

    token = operand_def(TokenType)
    results_ = var_result_def()
    traits = traits_def(q.QuantizedTensorTypes())

    def verify_(self) -> None:
        if not self.results or not isinstance(self.results[-1].type, TokenType):
            raise VerifyException(
                "last element of result types is expected to be of token type"
            )


@irdl_op_definition
class SendOp(_TokenWriteOp):
    """Send `inputs` on a channel, after `token`."""

    name = "stablehlo.send"

    channel_handle = prop_def(ChannelHandleAttr)
    is_host_transfer = opt_prop_def(BoolAttr)
    source_target_pairs = opt_prop_def(DenseIntOrFPElementsAttr)


@irdl_op_definition
class RecvOp(_TokenReadOp):
    """Receive values on a channel, after `token`."""

    name = "stablehlo.recv"

    channel_handle = prop_def(ChannelHandleAttr)
    is_host_transfer = opt_prop_def(BoolAttr)
    source_target_pairs = opt_prop_def(DenseIntOrFPElementsAttr)


@irdl_op_definition
class OutfeedOp(_TokenWriteOp):
    """Write `inputs` to the outfeed, after `token`."""

    name = "stablehlo.outfeed"

    outfeed_config = opt_prop_def(StringAttr)


@irdl_op_definition
class InfeedOp(_TokenReadOp):
    """Read values from the infeed, after `token`."""

    name = "stablehlo.infeed"

    infeed_config = opt_prop_def(StringAttr)
    layout = opt_prop_def(Attribute)


@irdl_custom_directive
class VariadicSameOperandsAndResultType(CustomDirective):
    """`custom<VariadicSameOperandsAndResultType>`: `!stablehlo.token`, the result's type
    and every operand's; one type per operand (the last also the result's) parses too."""

    operand_types: TypeDirective
    result_type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        types = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_type
        )
        result_type = types[-1]
        count = sum(len(o) for o in state.operands if o is not None)
        self.operand_types.set(
            state, types if len(types) == count else [result_type] * count
        )
        self.result_type.set(state, (result_type,))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        (result_type,) = self.result_type.get(op)
        printer.print_attribute(result_type)


@irdl_op_definition
class AfterAllOp(IRDLOperation):
    """`stablehlo.after_all %a, %b : !stablehlo.token`: a token ordered after all inputs."""

    name = "stablehlo.after_all"

    inputs = var_operand_def(TokenType)
    result = result_def(TokenType)
    traits = traits_def(q.QuantizedTensorTypes())

    custom_directives = (VariadicSameOperandsAndResultType,)
    assembly_format = (
        "$inputs attr-dict `:` "
        "custom<VariadicSameOperandsAndResultType>(type($inputs), type($result))"
    )


@irdl_op_definition
class ReplicaIdOp(IRDLOperation):
    """`tensor<ui32>`: this process's replica id."""

    name = "stablehlo.replica_id"

    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes())


@irdl_op_definition
class PartitionIdOp(IRDLOperation):
    """`tensor<ui32>`: this process's partition id."""

    name = "stablehlo.partition_id"

    result = result_def(TensorType)
    traits = traits_def(q.QuantizedTensorTypes())


COLLECTIVE_OPS: list[type[IRDLOperation]] = [
    AllGatherOp,
    AllToAllOp,
    AllReduceOp,
    ReduceScatterOp,
    CollectivePermuteOp,
    SendOp,
    RecvOp,
    OutfeedOp,
    InfeedOp,
    AfterAllOp,
    ReplicaIdOp,
    PartitionIdOp,
]
