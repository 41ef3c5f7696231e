"""`quant.qcast`, `quant.dcast` and `quant.scast`, with upstream's verifiers and folds.

All three print as `quant.qcast %x : T to T'`. Messages carry upstream's
`'quant.xcast' op` prefix so that a diagnostic reads the same as mlir-opt's.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerType,
    Signedness,
    TensorType,
    UnrankedTensorType,
)
from xdsl.interfaces import HasFolderInterface
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

from xquant.dialects.quant import nf4
from xquant.dialects.quant.float_semantics import is_float_type
from xquant.dialects.quant.superblock import superblock_of, verify_cast
from xquant.dialects.quant.types import (
    QuantizedType,
    StorageQuantizedType,
    UniformQuantizedType,
)
from xquant.numerics.dtypes import integer_facts
from xquant.numerics.values import element_type


def _is_container(attr: Attribute) -> bool:
    return isinstance(attr, TensorType | UnrankedTensorType)


def _same_scalar_or_tensor_shape(a: Attribute, b: Attribute) -> bool:
    if not _is_container(a) and not _is_container(b):
        return True
    if isinstance(a, UnrankedTensorType) and isinstance(b, UnrankedTensorType):
        return True
    if isinstance(a, TensorType) and isinstance(b, TensorType):
        return a.get_shape() == b.get_shape()
    return False


def _is_signless_int(attr: Attribute) -> bool:
    if not isa(attr, IntegerType):
        return False
    return integer_facts(attr)[1] == Signedness.SIGNLESS


class _QuantCastOp(IRDLOperation):
    """Shared checks: operand/result kinds, shapes, then the per-axis / sub-channel rules."""

    input = operand_def()
    result = result_def()

    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"
    traits = traits_def(Pure())

    def __init__(self, input: SSAValue | Operation, result_type: Attribute):
        super().__init__(operands=[input], result_types=[result_type])

    def _error(self, message: str) -> VerifyException:
        """An ODS-generated check's error: upstream's `emitOpError` prefixes the op name."""
        return VerifyException(f"'{self.name}' op {message}")

    @staticmethod
    def _plain_error(message: str) -> VerifyException:
        """A hand-written check's error: upstream's `op->emitError` adds no prefix."""
        return VerifyException(message)

    def _check_kind(self, attr: Attribute, which: str, ok: bool, summary: str) -> None:
        if not ok:
            raise self._error(
                f"{which} must be scalar or tensor of {summary}, but got '{attr}'"
            )

    def _check_shapes(self) -> None:
        if superblock_of(self.input.type, self.result.type) is not None:
            verify_cast(self.name, self.input.type, self.result.type)
            return
        if nf4.double_quantized_of(self.input.type, self.result.type) is not None:
            nf4.verify_cast(self.name, self.input.type, self.result.type)
            return
        if not _same_scalar_or_tensor_shape(self.input.type, self.result.type):
            raise self._error(
                "failed to verify that input and result are both scalars or both tensors with matching shape"
            )

    def _check_expressed(self, qtype: QuantizedType, float_type: Attribute) -> None:
        if qtype.expressed != float_type:
            raise self._plain_error(
                "expressed type in quantized type expected to match float type"
            )

    def _check_granularity(self, qtype: QuantizedType, container: Attribute) -> None:
        if not isinstance(qtype, UniformQuantizedType):
            return
        if qtype.is_per_axis:
            self._check_per_axis(qtype, container)
        if qtype.is_sub_channel:
            self._check_sub_channel(qtype, container)

    def _check_per_axis(
        self, qtype: UniformQuantizedType, container: Attribute
    ) -> None:
        if not _is_container(container):
            raise self._plain_error("scalar types may not use per-axis quantization")
        if not isinstance(container, TensorType):
            return
        axis = qtype.quantized_dimensions[0]
        shape = container.get_shape()
        if axis >= len(shape):
            raise self._plain_error("quantized dimension must be less than tensor rank")
        if shape[axis] != DYNAMIC_INDEX and shape[axis] != len(qtype.scales_attr):
            raise self._plain_error(
                "quantized dimension size does not match number of scales"
            )

    def _check_sub_channel(
        self, qtype: UniformQuantizedType, container: Attribute
    ) -> None:
        if not _is_container(container):
            raise self._plain_error("scalar types may not use sub-channel quantization")
        if not isinstance(container, TensorType):
            # Deliberately unlike upstream: sub-channel on an unranked tensor is accepted;
            # its scales are expanded to the runtime shape (`UniformQuantizedType.scales_for`).
            return
        shape = container.get_shape()
        rank = len(shape)
        for axis, block in qtype.block_size_info:
            if axis >= rank:
                raise self._plain_error(
                    f"quantized dimension {axis} must be less than tensor rank {rank}"
                )
            if shape[axis] != DYNAMIC_INDEX and shape[axis] % block != 0:
                raise self._plain_error(
                    f"tensor dimension size {shape[axis]} at axis {axis} must be divisible by the "
                    f"corresponding block size {block}"
                )
        if 0 in shape:
            raise self._plain_error(
                "tensor dimension size of zero is not allowed with sub-channel quantization"
            )
        scale_shape = qtype.scale_shape
        if len(scale_shape) != rank:
            raise self._plain_error(
                f"Rank of scales {len(scale_shape)} must match the rank of the tensor {rank}"
            )
        blocks = dict(qtype.block_size_info)
        for axis, dim in enumerate(shape):
            if axis in blocks and dim == DYNAMIC_INDEX:
                continue
            expected = dim // blocks[axis] if axis in blocks else 1
            if scale_shape[axis] != expected:
                raise self._plain_error(
                    f"dimension size {scale_shape[axis]} of scales tensor at axis {axis} should match "
                    f"(tensor dimension at axis / block sizes at axis) = {expected}"
                )


@irdl_op_definition
class QuantizeCastOp(_QuantCastOp, HasFolderInterface):
    """Quantize a float scalar or tensor: `quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<...>>`."""

    name = "quant.qcast"

    def verify_(self) -> None:
        in_elem, out_elem = (
            element_type(self.input.type),
            element_type(self.result.type),
        )
        self._check_kind(
            self.input.type, "operand #0", is_float_type(in_elem), "floating-point"
        )
        self._check_kind(
            self.result.type,
            "result #0",
            isinstance(out_elem, QuantizedType),
            "quantized type",
        )
        self._check_shapes()
        assert isinstance(out_elem, QuantizedType)
        self._check_expressed(out_elem, in_elem)
        self._check_granularity(out_elem, self.input.type)

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        """`qcast(dcast x) -> x` when `x` already has the result type."""
        producer = self.input.owner
        if (
            isinstance(producer, DequantizeCastOp)
            and producer.input.type == self.result.type
        ):
            return (producer.input,)
        return None


@irdl_op_definition
class DequantizeCastOp(_QuantCastOp, HasFolderInterface):
    """Dequantize a quantized scalar or tensor back to its expressed float type."""

    name = "quant.dcast"

    def verify_(self) -> None:
        in_elem, out_elem = (
            element_type(self.input.type),
            element_type(self.result.type),
        )
        self._check_kind(
            self.input.type,
            "operand #0",
            isinstance(in_elem, QuantizedType),
            "quantized type",
        )
        self._check_kind(
            self.result.type, "result #0", is_float_type(out_elem), "floating-point"
        )
        self._check_shapes()
        assert isinstance(in_elem, QuantizedType)
        self._check_expressed(in_elem, out_elem)
        self._check_granularity(in_elem, self.input.type)

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        """`dcast(qcast x) -> x` (the types necessarily match)."""
        producer = self.input.owner
        if (
            isinstance(producer, QuantizeCastOp)
            and producer.input.type == self.result.type
        ):
            return (producer.input,)
        return None


@irdl_op_definition
class StorageCastOp(_QuantCastOp, HasFolderInterface):
    """Reinterpret between a quantized type and its signless storage integer; no value changes."""

    name = "quant.scast"

    def verify_(self) -> None:
        in_elem, out_elem = (
            element_type(self.input.type),
            element_type(self.result.type),
        )
        summary = "signless integer or quantized type"
        self._check_kind(
            self.input.type, "operand #0", _is_int_or_quant(in_elem), summary
        )
        self._check_kind(
            self.result.type, "result #0", _is_int_or_quant(out_elem), summary
        )
        self._check_shapes()
        if isinstance(in_elem, IntegerType) == isinstance(out_elem, IntegerType):
            raise self._error(
                "failed to verify that input must be integer and result must be quantized, or vice versa"
            )
        qtype = in_elem if isinstance(in_elem, QuantizedType) else out_elem
        int_type: Attribute = (
            out_elem if isinstance(in_elem, QuantizedType) else in_elem
        )
        if superblock_of(qtype) is not None or nf4.double_quantized_of(qtype):
            return  # raw bytes: `verify_cast` checked them
        if (
            not isinstance(qtype, StorageQuantizedType)
            or qtype.storage_spec != int_type
        ):
            raise self._plain_error(
                "storage type in quantized type expected to match integer type"
            )
        self._check_granularity(qtype, self.input.type)

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        """`scast(scast x) -> x` when `x` already has the result type."""
        producer = self.input.owner
        if (
            isinstance(producer, StorageCastOp)
            and producer.input.type == self.result.type
        ):
            return (producer.input,)
        return None


def _is_int_or_quant(attr: Attribute) -> bool:
    return _is_signless_int(attr) or isinstance(attr, QuantizedType)
