"""The `mx_tensor` ops: build, take apart, quantize, dequantize and slice MX tensors.

Messages carry MLIR's `'mx_tensor.op' op` prefix and name the dimension,
operand or numbers that disagree. The numeric meaning of every op is in
`xquant.numerics.mx`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    BFloat16Type,
    DenseArrayBase,
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.dialects.utils import (
    DynamicIndexList,
    EnumAttribute,
    verify_dynamic_index_list,
)
from xdsl.ir import Attribute, Operation, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    opt_operand_def,
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

from xquant.dialects.mx_tensor.slicing import check_offsets, plan_slice
from xquant.dialects.mx_tensor.types import MxTensorType, type_width
from xquant.numerics.mx import NVFP4_BLOCK, Algorithm, is_e8m0_scale_type

__all__ = [
    "AlgorithmAttr",
    "ConstructOp",
    "DeconstructOp",
    "DequantizeOp",
    "EmptyOp",
    "ExtractSliceOp",
    "InsertSliceOp",
    "QuantizeOp",
    "split_types",
]


def _is_float_value_type(attr: Attribute) -> bool:
    """f16, bf16 or f32: the float types quantize reads and dequantize writes."""
    return isinstance(attr, Float16Type | BFloat16Type | Float32Type)


@irdl_attr_definition
class AlgorithmAttr(EnumAttribute[Algorithm], SpacedOpaqueSyntaxAttribute):
    """How `mx_tensor.quantize` chooses block scales: `floor`, `rceil` or `nvfp4`.

    The op's syntax spells it as a string (`{algorithm = "nvfp4"}`); the
    generic form as `#mx_tensor<algorithm nvfp4>`.
    """

    name = "mx_tensor.algorithm"


def _error(op: Operation, message: str) -> VerifyException:
    return VerifyException(f"'{op.name}' op {message}")


def _check_float_values(
    op: Operation,
    what: str,
    values: TensorType[Attribute],
    mx_type: MxTensorType,
    whose: str,
) -> None:
    """quantize's input / dequantize's result: an f16, bf16 or f32 tensor of the MX type's data shape.

    `whose` follows the data shape in the message (" of the result", or nothing).
    """
    element = values.get_element_type()
    if not _is_float_value_type(element):
        raise _error(op, f"{what} element type must be f16, bf16 or f32, got {element}")
    if values.get_shape() != mx_type.get_shape():
        raise _error(
            op,
            f"{what} shape {list(values.get_shape())} does not match the data shape "
            f"{list(mx_type.get_shape())}{whose}",
        )


def split_types(
    mx_type: MxTensorType, storage_types: ArrayAttr[Attribute] | None
) -> list[Attribute]:
    """The data tensor types a value of `mx_type` is taken apart into (split by `storage_types`)."""
    if storage_types is None:
        return list(mx_type.data.data)
    return [TensorType(t, mx_type.get_shape()) for t in storage_types.data]


def _check_storage_types(
    op: Operation, storage_types: ArrayAttr[Attribute], compute: Attribute
) -> None:
    for index, storage in enumerate(storage_types.data):
        if (
            not isa(storage, IntegerType)
            or storage.signedness.data != Signedness.SIGNLESS
        ):
            raise _error(
                op,
                f"storage type #{index} is {storage}; storage types must be signless integers",
            )
    widths = [type_width(t) for t in storage_types.data]
    if sum(widths) != type_width(compute):
        raise _error(
            op,
            f"storage widths {' + '.join(map(str, widths))} = {sum(widths)} do not add up to the "
            f"{type_width(compute)} bits of {compute}",
        )


def _check_tensor_scale(op: Operation, tensor_scale: SSAValue | None) -> None:
    """The NVFP4 per-tensor scale operand is a `tensor<f32>` (rank 0)."""
    if tensor_scale is None:
        return
    scale_type = tensor_scale.type
    if (
        not isa(scale_type, TensorType)
        or scale_type.get_shape() != ()
        or not isinstance(scale_type.get_element_type(), Float32Type)
    ):
        raise _error(op, f"tensor_scale must be tensor<f32>, got {scale_type}")


def _parse_mx_type(parser: Parser) -> MxTensorType:
    pos = parser.pos
    mx_type = parser.parse_type()
    if not isinstance(mx_type, MxTensorType):
        parser.raise_error(
            f"expected an !mx_tensor.tensor type, got {mx_type}", pos, parser.pos
        )
    return mx_type


@irdl_op_definition
class EmptyOp(IRDLOperation):
    """An MX tensor with unspecified contents: `%m = mx_tensor.empty : !mx_tensor.tensor<...>`."""

    name = "mx_tensor.empty"

    result = result_def(MxTensorType)
    assembly_format = "attr-dict `:` type($result)"
    traits = traits_def(Pure())

    def __init__(self, result_type: MxTensorType):
        super().__init__(result_types=[result_type])


@irdl_op_definition
class ConstructOp(IRDLOperation):
    """Bundle a scale tensor and data tensor(s) into an MX tensor (no numeric change).

    `%m = mx_tensor.construct %scale, %data : !mx_tensor.tensor<...>`; the operand
    types are the type's scale and data tensors, in order.
    """

    name = "mx_tensor.construct"

    parts = var_operand_def(TensorType)
    result = result_def(MxTensorType)
    traits = traits_def(Pure())

    def __init__(
        self, parts: Sequence[SSAValue | Operation], result_type: MxTensorType
    ):
        super().__init__(operands=[parts], result_types=[result_type])

    def verify_(self) -> None:
        mx_type = self.result.type
        assert isinstance(mx_type, MxTensorType)
        expected = [mx_type.scale, *mx_type.data.data]
        if len(self.parts) != len(expected):
            raise _error(
                self,
                f"expected {len(expected)} operands (the scale and {len(expected) - 1} data tensor(s)), "
                f"got {len(self.parts)}",
            )
        for index, (part, want) in enumerate(zip(self.parts, expected, strict=True)):
            if part.type != want:
                what = "the scale" if index == 0 else f"data tensor #{index - 1}"
                raise _error(
                    self,
                    f"operand #{index} has type {part.type} but {what} of the result is {want}",
                )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pos = parser.pos
        unresolved = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        mx_type = _parse_mx_type(parser)
        types = [mx_type.scale, *mx_type.data.data]
        if len(unresolved) != len(types):
            parser.raise_error(
                f"expected {len(types)} operands for {mx_type}, got {len(unresolved)}",
                pos,
                parser.pos,
            )
        op = cls(parser.resolve_operands(unresolved, types, pos), mx_type)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.parts, printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class DeconstructOp(IRDLOperation):
    """Take an MX tensor apart into its scale tensor and data tensor(s).

    `%s, %d = mx_tensor.deconstruct %m : !mx_tensor.tensor<...>`. With
    `{storage_types = [i2, i4]}` the element bit patterns are returned split
    into those integer tensors, most significant bits first, whatever the
    type's own storage.
    """

    name = "mx_tensor.deconstruct"

    input = operand_def(MxTensorType)
    storage_types = opt_attr_def(ArrayAttr[Attribute])
    parts = var_result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(
        self,
        input: SSAValue | Operation,
        storage_types: Sequence[Attribute] | None = None,
    ):
        value = SSAValue.get(input)
        mx_type = value.type
        assert isinstance(mx_type, MxTensorType)
        storage = ArrayAttr(storage_types) if storage_types is not None else None
        super().__init__(
            operands=[value],
            result_types=[[mx_type.scale, *split_types(mx_type, storage)]],
            attributes={"storage_types": storage} if storage is not None else {},
        )

    def verify_(self) -> None:
        mx_type = self.input.type
        assert isinstance(mx_type, MxTensorType)
        if self.storage_types is not None:
            _check_storage_types(self, self.storage_types, mx_type.compute_type)
        expected = [mx_type.scale, *split_types(mx_type, self.storage_types)]
        if len(self.parts) != len(expected):
            raise _error(
                self, f"expected {len(expected)} results, got {len(self.parts)}"
            )
        for index, (part, want) in enumerate(zip(self.parts, expected, strict=True)):
            if part.type != want:
                raise _error(
                    self, f"result #{index} has type {part.type} but expected {want}"
                )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        unresolved = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        mx_type = _parse_mx_type(parser)
        storage = attributes.pop("storage_types", None)
        storage_types: list[Attribute] | None = None
        if storage is not None:
            if not isa(storage, ArrayAttr):
                parser.raise_error(
                    "storage_types must be an array of integer types", pos, parser.pos
                )
            storage_types = list(storage.data)
        value = parser.resolve_operand(unresolved, mx_type)
        op = cls(value, storage_types)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.input)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)


@irdl_op_definition
class QuantizeOp(IRDLOperation):
    """Quantize a float tensor to an MX tensor (OCP MX v1.0 section 6.3, or NVFP4).

    Attributes `block_factor`, `scale_type`, `compute_type` and
    `storage_types` restate the result type and must agree with it;
    `algorithm` is `"floor"` (the spec, default) or `"rceil"` (the scale is
    rounded up so the block maximum never saturates), both with E8M0 scales
    (f8E8M0FNU, or an 8-bit integer holding the byte); or `"nvfp4"`:
    f8E4M3FN block scales over blocks of 16 along one dimension (the
    contraction axis: the last of an activation `MxK`, the first of a weight
    `KxN`), f4E2M1FN elements, and an optional per-tensor scale operand
    (`%x, %g {algorithm = "nvfp4"} : tensor<...xf32>, tensor<f32> -> ...`).
    """

    name = "mx_tensor.quantize"

    input = operand_def(TensorType)
    tensor_scale = opt_operand_def(TensorType)
    block_factor = opt_attr_def(ArrayAttr[IntegerAttr])
    scale_type = opt_attr_def(Attribute)
    compute_type = opt_attr_def(Attribute)
    storage_types = opt_attr_def(ArrayAttr[Attribute])
    algorithm = opt_attr_def(AlgorithmAttr)
    result = result_def(MxTensorType)

    traits = traits_def(Pure())

    def __init__(
        self,
        input: SSAValue | Operation,
        result_type: MxTensorType,
        algorithm: str = "floor",
        tensor_scale: SSAValue | Operation | None = None,
    ):
        attributes: dict[str, Attribute] = {
            "block_factor": ArrayAttr(
                IntegerAttr(b, i64) for b in result_type.block_shape
            ),
            "scale_type": result_type.scale_type,
            "compute_type": result_type.compute_type,
        }
        if result_type.is_split:
            attributes["storage_types"] = ArrayAttr(result_type.storage_types)
        if algorithm != Algorithm.FLOOR:
            attributes["algorithm"] = AlgorithmAttr(Algorithm(algorithm))
        super().__init__(
            operands=[input, [] if tensor_scale is None else [tensor_scale]],
            result_types=[result_type],
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        """`%x[, %g] {attributes} : tensor<...>[, tensor<f32>] -> !mx_tensor.tensor<...>`."""
        unresolved = [parser.parse_unresolved_operand()]
        if parser.parse_optional_punctuation(",") is not None:
            unresolved.append(parser.parse_unresolved_operand())
        attributes_start = parser.pos
        attributes = parser.parse_optional_attr_dict()
        if isinstance(name := attributes.get("algorithm"), StringAttr):
            if name.data not in {a.value for a in Algorithm}:
                parser.raise_error(
                    f'\'{cls.name}\' op algorithm must be "floor", "rceil" or '
                    f'"nvfp4", got "{name.data}"',
                    attributes_start,
                    parser.pos,
                )
            attributes["algorithm"] = AlgorithmAttr(Algorithm(name.data))
        parser.parse_punctuation(":")
        pos = parser.pos
        types = [parser.parse_type()]
        while parser.parse_optional_punctuation(",") is not None:
            types.append(parser.parse_type())
        if len(types) != len(unresolved):
            parser.raise_error(
                f"expected {len(unresolved)} operand type(s), got {len(types)}",
                pos,
                parser.pos,
            )
        parser.parse_punctuation("->")
        result_type = _parse_mx_type(parser)
        operands = [parser.resolve_operand(u, t) for u, t in zip(unresolved, types)]
        op = cls.create(
            operands=operands,
            result_types=[result_type],
        )
        op.attributes |= attributes
        return op

    NOTE_ORDER: ClassVar[tuple[str, ...]] = (
        "block_factor",
        "scale_type",
        "compute_type",
        "storage_types",
        "algorithm",
    )

    def print(self, printer: Printer) -> None:
        """The design note's form: its attributes in its order (others after, by name),
        whatever order they were parsed in; `block_factor` as a plain list (`[256, 256]`)."""
        printer.print_string(" ")
        printer.print_ssa_value(self.input)
        if self.tensor_scale is not None:
            printer.print_string(", ")
            printer.print_ssa_value(self.tensor_scale)
        if self.attributes:
            names = [n for n in self.NOTE_ORDER if n in self.attributes]
            names += sorted(n for n in self.attributes if n not in self.NOTE_ORDER)
            printer.print_string(" {")
            printer.print_list(
                names,
                lambda name: self._print_attribute(
                    printer, name, self.attributes[name]
                ),
            )
            printer.print_string("}")
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        if self.tensor_scale is not None:
            printer.print_string(", ")
            printer.print_attribute(self.tensor_scale.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    @staticmethod
    def _print_attribute(printer: Printer, name: str, value: Attribute) -> None:
        printer.print_string(f"{name} = ")
        if name == "block_factor" and isa(value, ArrayAttr):
            entries = [a for a in value.data if isa(a, IntegerAttr)]
            if len(entries) == len(value.data) and all(a.type == i64 for a in entries):
                printer.print_string(
                    "[" + ", ".join(str(a.value.data) for a in entries) + "]"
                )
                return
        if isinstance(value, AlgorithmAttr):
            printer.print_attribute(StringAttr(value.data.value))
            return
        printer.print_attribute(value)

    @property
    def algorithm_kind(self) -> Algorithm:
        return self.algorithm.data if self.algorithm is not None else Algorithm.FLOOR

    def verify_(self) -> None:
        input_type, mx_type = self.input.type, self.result.type
        assert isa(input_type, TensorType) and isinstance(mx_type, MxTensorType)
        _check_float_values(self, "input", input_type, mx_type, " of the result")
        if self.algorithm_kind is Algorithm.NVFP4:
            self._check_nvfp4(mx_type)
        elif self.tensor_scale is not None:
            raise _error(self, 'a tensor_scale operand needs algorithm = "nvfp4"')
        elif not is_e8m0_scale_type(mx_type.scale_type):
            raise _error(
                self,
                f"quantize computes power-of-two scales; the scale type must be f8E8M0FNU or an 8-bit "
                f"integer, got {mx_type.scale_type}",
            )
        _check_tensor_scale(self, self.tensor_scale)
        self._check_restated(mx_type)

    def _check_nvfp4(self, mx_type: MxTensorType) -> None:
        """NVFP4: f8E4M3FN scales, f4E2M1FN elements, blocks of 16 along one dimension."""
        if not isinstance(mx_type.scale_type, Float8E4M3FNType):
            raise _error(
                self, f"nvfp4 block scales are f8E4M3FN, got {mx_type.scale_type}"
            )
        if not isinstance(mx_type.compute_type, Float4E2M1FNType):
            raise _error(
                self, f"nvfp4 elements are f4E2M1FN, got {mx_type.compute_type}"
            )
        blocks = list(mx_type.block_shape)
        if sorted(blocks) != [1] * (len(blocks) - 1) + [NVFP4_BLOCK]:
            raise _error(
                self,
                f"nvfp4 blocks are {NVFP4_BLOCK} elements along one dimension (the contraction axis) "
                f"and 1 along the others, got {blocks}",
            )

    def _check_restated(self, mx_type: MxTensorType) -> None:
        if self.block_factor is not None:
            factors = [a.value.data for a in self.block_factor.data]
            blocks = list(mx_type.block_shape)
            if len(factors) != len(blocks):
                raise _error(
                    self,
                    f"block_factor has {len(factors)} entries for data of rank {len(blocks)}",
                )
            for dim, (factor, block) in enumerate(zip(factors, blocks, strict=True)):
                if factor != block:
                    raise _error(
                        self,
                        f"block_factor {factors} does not match the result type's blocks {blocks} (dimension "
                        f"{dim}: {mx_type.get_shape()[dim]} / {mx_type.scale_shape[dim]} = {block})",
                    )
        if self.scale_type is not None and self.scale_type != mx_type.scale_type:
            raise _error(
                self,
                f"scale_type {self.scale_type} does not match the result's scale type {mx_type.scale_type}",
            )
        if self.compute_type is not None and self.compute_type != mx_type.compute_type:
            raise _error(
                self,
                f"compute_type {self.compute_type} does not match the result's compute type {mx_type.compute_type}",
            )
        storage = (
            tuple(self.storage_types.data)
            if self.storage_types is not None
            else (mx_type.compute_type,)
        )
        if storage != mx_type.storage_types:
            given = "[" + ", ".join(map(str, storage)) + "]"
            actual = "[" + ", ".join(map(str, mx_type.storage_types)) + "]"
            raise _error(
                self,
                f"storage_types {given} do not match the result's data storage {actual}",
            )


@irdl_op_definition
class DequantizeOp(IRDLOperation):
    """`decode(element) * scale` as a float tensor (computed in f32, rounded once to the result type).

    `%y = mx_tensor.dequantize %m : !mx_tensor.tensor<...> -> tensor<...xf32>`; the
    result is f32, f16 or bf16 with the data shape. An NVFP4 tensor (f8E4M3FN
    block scales) may come with its per-tensor scale:
    `mx_tensor.dequantize %m, %g : !mx_tensor.tensor<...>, tensor<f32> -> ...`
    computes `decode(element) * (g * scale)`.
    """

    name = "mx_tensor.dequantize"

    input = operand_def(MxTensorType)
    tensor_scale = opt_operand_def(TensorType)
    result = result_def(TensorType)
    assembly_format = (
        "$input (`,` $tensor_scale^)? attr-dict `:` type($input) "
        "(`,` type($tensor_scale)^)? `->` type($result)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        input: SSAValue | Operation,
        result_type: TensorType[Attribute],
        tensor_scale: SSAValue | Operation | None = None,
    ):
        super().__init__(
            operands=[input, [] if tensor_scale is None else [tensor_scale]],
            result_types=[result_type],
        )

    def verify_(self) -> None:
        mx_type, result_type = self.input.type, self.result.type
        assert isinstance(mx_type, MxTensorType) and isinstance(result_type, TensorType)
        _check_float_values(self, "result", result_type, mx_type, "")
        if self.tensor_scale is None:
            return
        _check_tensor_scale(self, self.tensor_scale)
        if not isinstance(mx_type.scale_type, Float8E4M3FNType):
            raise _error(
                self,
                f"tensor_scale is the NVFP4 per-tensor scale; the block scales must be f8E4M3FN, "
                f"got {mx_type.scale_type}",
            )


class _SliceOp(IRDLOperation):
    """Shared offsets/sizes/strides handling (as `tensor.extract_slice` / `insert_slice`)."""

    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    custom_directives = (DynamicIndexList,)
    traits = traits_def(Pure())

    def _verify_lists(self) -> None:
        for values, dynamic, what in (
            (self.static_offsets, self.offsets, "offset"),
            (self.static_sizes, self.sizes, "size"),
            (self.static_strides, self.strides, "stride"),
        ):
            verify_dynamic_index_list(
                values.get_values(), dynamic, DYNAMIC_INDEX, f" in the {what} arguments"
            )

    def _verify_plan(
        self, source: MxTensorType, tile: MxTensorType, inserting: bool
    ) -> None:
        try:
            plans = plan_slice(
                source,
                tile,
                self.static_sizes.get_values(),
                self.static_strides.get_values(),
                inserting,
            )
        except VerifyException as err:
            raise _error(self, str(err)) from None
        if (
            problem := check_offsets(
                plans, self.static_offsets.get_values(), source.get_shape()
            )
        ) is not None:
            raise _error(self, problem)

    @staticmethod
    def _index_lists(
        offsets: Sequence[SSAValue | int], sizes: Sequence[int]
    ) -> tuple[list[SSAValue], list[int]]:
        dynamic = [o for o in offsets if isinstance(o, SSAValue)]
        static = [DYNAMIC_INDEX if isinstance(o, SSAValue) else o for o in offsets]
        del sizes
        return dynamic, static


@irdl_op_definition
class ExtractSliceOp(_SliceOp):
    """A tile of an MX tensor: the data slice and the scales that cover it.

    `%t = mx_tensor.extract_slice %m[0, 32] [32, 32] [1, 1] : SRC to TILE`. A tile
    smaller than a block has one scale per dimension, the (broadcast) scale of
    the block it lies in; see `xquant.dialects.mx_tensor.slicing`.
    """

    name = "mx_tensor.extract_slice"

    source = operand_def(MxTensorType)
    result = result_def(MxTensorType)

    assembly_format = (
        "$source ``"
        "custom<DynamicIndexList>($offsets, $static_offsets)"
        "custom<DynamicIndexList>($sizes, $static_sizes)"
        "custom<DynamicIndexList>($strides, $static_strides)"
        "attr-dict `:` type($source) `to` type($result)"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        offsets: Sequence[SSAValue | int],
        result_type: MxTensorType,
    ):
        dynamic, static = self._index_lists(offsets, result_type.get_shape())
        rank = len(static)
        super().__init__(
            operands=[source, dynamic, [], []],
            result_types=[result_type],
            properties={
                "static_offsets": DenseArrayBase.from_list(i64, static),
                "static_sizes": DenseArrayBase.from_list(i64, result_type.get_shape()),
                "static_strides": DenseArrayBase.from_list(i64, [1] * rank),
            },
        )

    def verify_(self) -> None:
        self._verify_lists()
        source, tile = self.source.type, self.result.type
        assert isinstance(source, MxTensorType) and isinstance(tile, MxTensorType)
        self._verify_plan(source, tile, inserting=False)


@irdl_op_definition
class InsertSliceOp(_SliceOp):
    """Write a tile into an MX tensor: its data and its scales (whole blocks only).

    `%r = mx_tensor.insert_slice %t into %m[0, 256] [256, 256] [1, 1] : TILE into DEST`.
    The tile must consist of whole destination blocks: a smaller tile would
    change the scale of the rest of its block.
    """

    name = "mx_tensor.insert_slice"

    DEST_TYPE: ClassVar = VarConstraint("DEST_TYPE", base(MxTensorType))

    source = operand_def(MxTensorType)
    dest = operand_def(DEST_TYPE)
    result = result_def(DEST_TYPE)

    assembly_format = (
        "$source `into` $dest ``"
        "custom<DynamicIndexList>($offsets, $static_offsets)"
        "custom<DynamicIndexList>($sizes, $static_sizes)"
        "custom<DynamicIndexList>($strides, $static_strides)"
        "attr-dict `:` type($source) `into` type($dest)"
    )

    def __init__(
        self,
        source: SSAValue | Operation,
        dest: SSAValue | Operation,
        offsets: Sequence[SSAValue | int],
    ):
        tile = SSAValue.get(source).type
        dest_type = SSAValue.get(dest).type
        assert isinstance(tile, MxTensorType)
        dynamic, static = self._index_lists(offsets, tile.get_shape())
        super().__init__(
            operands=[source, dest, dynamic, [], []],
            result_types=[dest_type],
            properties={
                "static_offsets": DenseArrayBase.from_list(i64, static),
                "static_sizes": DenseArrayBase.from_list(i64, tile.get_shape()),
                "static_strides": DenseArrayBase.from_list(i64, [1] * len(static)),
            },
        )

    def verify_(self) -> None:
        self._verify_lists()
        tile, dest = self.source.type, self.dest.type
        assert isinstance(tile, MxTensorType) and isinstance(dest, MxTensorType)
        self._verify_plan(dest, tile, inserting=True)
