"""`lower-mx-tensor`: every `mx_tensor` op and value to plain tensors, linalg, arith and tensor ops.

An `!mx_tensor.tensor` value becomes its scale tensor and data tensor(s), a
1:N type conversion that also rewrites function signatures, returns and
calls. The rewrites compute exactly what `xquant.numerics.mx` computes (the
interpreter runs both and the tests compare the bits):

- `dequantize`: one `linalg.generic`; the scale is read through
  `d floordiv block` indexing maps, then extf (or the E8M0 bit trick for an
  i8 scale byte) and a multiply; split storage is joined with extui/shli/ori.
- `quantize`: `tensor.expand_shape` to (blocks, block) dimensions and a
  reduction generic for each block's max |x| bit pattern; a generic over the
  scale shape for the shared exponent (integer bit operations) giving the
  scale and 2^-e; an element-wise generic that scales, clamps and truncf's
  (shrui/trunci into the split-storage parts).
- `extract_slice` / `insert_slice`: `tensor` slices of each part, the scale
  at `offset floordiv block`.
- `empty` / `construct` / `deconstruct`: the parts themselves.

linalg named ops with MX operands are first generalized by the
`mx-tensor-generalize` patterns. Values that flow through other ops (e.g.
scf iteration arguments) are reported as errors against that op.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    UnrealizedConversionCastOp,
    f32,
    i32,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.hints import isa

from xquant.asm.diagnostics import OpDiagnostic
from xquant.dialects.mx_tensor.ops import (
    ConstructOp,
    DeconstructOp,
    DequantizeOp,
    EmptyOp,
    ExtractSliceOp,
    InsertSliceOp,
    QuantizeOp,
)
from xquant.dialects.mx_tensor.slicing import plan_slice
from xquant.dialects.mx_tensor.types import MxTensorType
from xquant.numerics.mx import Algorithm, element_format
from xquant.transforms.mx_tensor_generalize import MxTensorGeneralizePass
from xquant.transforms.utils.mx_emitters import (
    I8,
    Constants,
    build_generic,
    emit_abs_bits,
    emit_codes_to_parts,
    emit_decode,
    emit_encode,
    emit_exponent,
    emit_join,
    emit_nvfp4_scale,
    emit_scale_element,
)
from xquant.transforms.utils.op_list import OpList

__all__ = ["LowerMxTensorPass", "build_generic", "parts_of"]


# ---------------------------------------------------------------------------------------
# helpers


def block_map(mx_type: MxTensorType) -> AffineMap:
    """`(d0, d1, ...) -> (d0 floordiv b0, ...)` from the data to the scale."""
    exprs = [
        AffineExpr.dimension(d) if b == 1 else AffineExpr.dimension(d) // b
        for d, b in enumerate(mx_type.block_shape)
    ]
    return AffineMap(mx_type.get_num_dims(), 0, tuple(exprs))


def parts_of(ops: OpList, value: SSAValue) -> list[SSAValue]:
    """The scale and data tensors of an MX value (a `deconstruct`, folded away later)."""
    op = DeconstructOp(value)
    ops.ops.append(op)
    return list(op.results)


def _signless_scale(ops: OpList, scale: SSAValue) -> SSAValue:
    """An integer scale of another signedness viewed as signless i8 (same bits)."""
    scale_type = scale.type
    assert isa(scale_type, TensorType)
    element = scale_type.get_element_type()
    if not isa(element, IntegerType) or element.signedness.data == Signedness.SIGNLESS:
        return scale
    return ops.add(
        UnrealizedConversionCastOp.get(
            [scale], [TensorType(I8, scale_type.get_shape())]
        )
    )


def _typed_scale(ops: OpList, scale: SSAValue, mx_type: MxTensorType) -> SSAValue:
    """A signless i8 scale tensor cast back to the type's integer scale type if that differs."""
    if scale.type == mx_type.scale:
        return scale
    return ops.add(UnrealizedConversionCastOp.get([scale], [mx_type.scale]))


def _replace(
    rewriter: PatternRewriter, op: Operation, ops: OpList, results: Sequence[SSAValue]
) -> None:
    rewriter.replace(op, ops.ops, list(results))


def _construct(
    ops: OpList, parts: Sequence[SSAValue], mx_type: MxTensorType
) -> SSAValue:
    return ops.add(ConstructOp(parts, mx_type))


# ---------------------------------------------------------------------------------------
# patterns


class LowerDequantize(RewritePattern):
    """`dequantize` -> one generic: scale via floordiv maps, decode, multiply, truncf."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DequantizeOp, rewriter: PatternRewriter) -> None:
        mx_type = op.input.type
        result_type = op.result.type
        assert isinstance(mx_type, MxTensorType) and isinstance(result_type, TensorType)
        ops = OpList()
        consts = Constants(ops)
        scale, *data = parts_of(ops, op.input)
        scale = _signless_scale(ops, scale)
        rank = mx_type.get_num_dims()
        out_element = result_type.get_element_type()
        has_tensor_scale = op.tensor_scale is not None

        def body(b: OpList, args: Sequence[SSAValue]) -> list[SSAValue]:
            tensor_scale = args[1 + len(data)] if has_tensor_scale else None
            value = emit_decode(
                b, consts, args[0], args[1 : 1 + len(data)], mx_type, tensor_scale
            )
            if out_element != value.type:
                value = b.add(arith.TruncFOp(value, out_element))
            return [value]

        inputs = [scale, *data]
        maps = [block_map(mx_type)] + [AffineMap.identity(rank)] * len(data)
        if op.tensor_scale is not None:
            inputs.append(op.tensor_scale)
            maps.append(AffineMap(rank, 0, ()))
        (result,) = build_generic(ops, inputs, maps, [result_type], body)
        _replace(rewriter, op, ops, [result])


class LowerQuantize(RewritePattern):
    """`quantize` -> block max (reduction), shared exponent (per block), elements (element-wise)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: QuantizeOp, rewriter: PatternRewriter) -> None:
        mx_type = op.result.type
        input_type = op.input.type
        assert isinstance(mx_type, MxTensorType) and isinstance(input_type, TensorType)
        ops = OpList()
        consts = Constants(ops)
        amax_bits = self._block_max_bits(ops, consts, op.input, mx_type)
        scale_shape = mx_type.scale_shape
        scale_rank = len(scale_shape)
        fmt = element_format(mx_type.compute_type)
        algorithm = op.algorithm_kind
        scale_element = mx_type.scale_type
        if isinstance(scale_element, IntegerType):
            scale_element = I8

        def exponent_body(b: OpList, args: Sequence[SSAValue]) -> list[SSAValue]:
            if algorithm is Algorithm.NVFP4:
                tensor_scale = args[1] if op.tensor_scale is not None else None
                return list(emit_nvfp4_scale(b, consts, args[0], tensor_scale))
            byte, factor = emit_exponent(b, consts, args[0], fmt, algorithm)
            return [emit_scale_element(b, consts, byte, scale_element), factor]

        scale_inputs = [amax_bits]
        scale_maps = [AffineMap.identity(scale_rank)]
        if op.tensor_scale is not None:
            scale_inputs.append(op.tensor_scale)
            scale_maps.append(AffineMap(scale_rank, 0, ()))
        scale, factor = build_generic(
            ops,
            scale_inputs,
            scale_maps,
            [TensorType(scale_element, scale_shape), TensorType(f32, scale_shape)],
            exponent_body,
        )
        storage = mx_type.storage_types

        def element_body(b: OpList, args: Sequence[SSAValue]) -> list[SSAValue]:
            element = emit_encode(b, consts, args[0], args[1], mx_type.compute_type)
            if not mx_type.is_split:
                return [element]
            return emit_codes_to_parts(b, consts, element, storage)

        rank = mx_type.get_num_dims()
        data = build_generic(
            ops,
            [op.input, factor],
            [AffineMap.identity(rank), block_map(mx_type)],
            [TensorType(t, mx_type.get_shape()) for t in storage],
            element_body,
        )
        result = _construct(ops, [_typed_scale(ops, scale, mx_type), *data], mx_type)
        _replace(rewriter, op, ops, [result])

    @staticmethod
    def _block_max_bits(
        ops: OpList, consts: Constants, x: SSAValue, mx_type: MxTensorType
    ) -> SSAValue:
        """tensor<S0xS1x..xi32>: the largest |x| bit pattern of every block."""
        interleaved: list[int] = []
        groups: list[list[int]] = []
        for count, block in zip(mx_type.scale_shape, mx_type.block_shape, strict=True):
            groups.append([len(interleaved), len(interleaved) + 1])
            interleaved += [count, block]
        x_type = x.type
        assert isa(x_type, TensorType)
        expanded_type = TensorType(x_type.get_element_type(), interleaved)
        reassociation = ArrayAttr(
            ArrayAttr(IntegerAttr(i, i64) for i in g) for g in groups
        )
        expanded = ops.add(
            tensor.ExpandShapeOp(x, [], reassociation, interleaved, expanded_type)
        )
        scale_shape = mx_type.scale_shape
        zeros_type = TensorType(i32, scale_shape)
        zeros = ops.add(
            arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(zeros_type, [0]))
        )
        n = len(interleaved)
        out_map = AffineMap(
            n, 0, tuple(AffineExpr.dimension(2 * d) for d in range(len(scale_shape)))
        )
        iterators = [
            IteratorType.PARALLEL if d % 2 == 0 else IteratorType.REDUCTION
            for d in range(n)
        ]

        def body(b: OpList, args: Sequence[SSAValue]) -> list[SSAValue]:
            return [b.add(arith.MaxSIOp(emit_abs_bits(b, consts, args[0]), args[1]))]

        (amax,) = build_generic(
            ops,
            [expanded],
            [AffineMap.identity(n)],
            [zeros_type],
            body,
            iterators,
            [zeros],
            [out_map],
        )
        return amax


class LowerEmpty(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: EmptyOp, rewriter: PatternRewriter) -> None:
        mx_type = op.result.type
        assert isinstance(mx_type, MxTensorType)
        ops = OpList()
        parts = [
            ops.add(tensor.EmptyOp([], t)) for t in [mx_type.scale, *mx_type.data.data]
        ]
        _replace(rewriter, op, ops, [_construct(ops, parts, mx_type)])


def _mixed_offsets(op: ExtractSliceOp | InsertSliceOp) -> list[SSAValue | int]:
    dynamic = iter(op.offsets)
    return [
        next(dynamic) if o == DYNAMIC_INDEX else o
        for o in op.static_offsets.get_values()
    ]


def _scale_offsets(
    ops: OpList, offsets: Sequence[SSAValue | int], blocks: Sequence[int]
) -> list[SSAValue | int]:
    result: list[SSAValue | int] = []
    for offset, block in zip(offsets, blocks, strict=True):
        if isinstance(offset, int):
            result.append(offset // block)
            continue
        divisor = ops.add(arith.ConstantOp(IntegerAttr(block, IndexType())))
        result.append(ops.add(arith.FloorDivSIOp(offset, divisor)))
    return result


class LowerExtractSlice(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ExtractSliceOp, rewriter: PatternRewriter) -> None:
        source, tile = op.source.type, op.result.type
        assert isinstance(source, MxTensorType) and isinstance(tile, MxTensorType)
        plans = plan_slice(
            source, tile, op.static_sizes.get_values(), op.static_strides.get_values()
        )
        ops = OpList()
        scale, *data = parts_of(ops, op.source)
        offsets = _mixed_offsets(op)
        ones = [1] * len(plans)
        scale_offsets = _scale_offsets(ops, offsets, [p.block for p in plans])
        new_scale = ops.add(
            tensor.ExtractSliceOp(
                scale, scale_offsets, [p.scale_size for p in plans], ones, tile.scale
            )
        )
        sizes = [p.size for p in plans]
        new_data = [
            ops.add(tensor.ExtractSliceOp(part, offsets, sizes, ones, t))
            for part, t in zip(data, tile.data.data, strict=True)
        ]
        _replace(rewriter, op, ops, [_construct(ops, [new_scale, *new_data], tile)])


class LowerInsertSlice(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: InsertSliceOp, rewriter: PatternRewriter) -> None:
        tile, dest = op.source.type, op.dest.type
        assert isinstance(tile, MxTensorType) and isinstance(dest, MxTensorType)
        plans = plan_slice(
            dest,
            tile,
            op.static_sizes.get_values(),
            op.static_strides.get_values(),
            True,
        )
        ops = OpList()
        tile_scale, *tile_data = parts_of(ops, op.source)
        dest_scale, *dest_data = parts_of(ops, op.dest)
        offsets = _mixed_offsets(op)
        scale_offsets = _scale_offsets(ops, offsets, [p.block for p in plans])
        new_scale = _insert(
            ops, tile_scale, dest_scale, scale_offsets, [p.scale_size for p in plans]
        )
        sizes = [p.size for p in plans]
        new_data = [
            _insert(ops, t, d, offsets, sizes)
            for t, d in zip(tile_data, dest_data, strict=True)
        ]
        _replace(rewriter, op, ops, [_construct(ops, [new_scale, *new_data], dest)])


def _insert(
    ops: OpList,
    source: SSAValue,
    dest: SSAValue,
    offsets: Sequence[SSAValue | int],
    sizes: Sequence[int],
) -> SSAValue:
    dynamic = [o for o in offsets if isinstance(o, SSAValue)]
    static = [DYNAMIC_INDEX if isinstance(o, SSAValue) else o for o in offsets]
    return ops.add(
        tensor.InsertSliceOp.get(source, dest, sizes, static, [1] * len(sizes), dynamic)
    )


class FoldDeconstruct(RewritePattern):
    """`deconstruct(construct(parts))` -> the parts (re-split when `storage_types` asks for other parts)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DeconstructOp, rewriter: PatternRewriter) -> None:
        producer = op.input.owner
        if not isinstance(producer, ConstructOp):
            return
        mx_type = op.input.type
        assert isinstance(mx_type, MxTensorType)
        scale, *data = producer.parts
        wanted = (
            tuple(op.storage_types.data)
            if op.storage_types is not None
            else mx_type.storage_types
        )
        if wanted == mx_type.storage_types:
            rewriter.replace(op, [], [scale, *data])
            return
        ops = OpList()
        consts = Constants(ops)
        rank = mx_type.get_num_dims()

        def body(b: OpList, args: Sequence[SSAValue]) -> list[SSAValue]:
            element = (
                args[0]
                if not mx_type.is_split
                else emit_join(b, consts, args[: len(data)], mx_type)
            )
            return emit_codes_to_parts(b, consts, element, wanted)

        parts = build_generic(
            ops,
            data,
            [AffineMap.identity(rank)] * len(data),
            [TensorType(t, mx_type.get_shape()) for t in wanted],
            body,
        )
        _replace(rewriter, op, ops, [scale, *parts])


class EraseDeadConstruct(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConstructOp, rewriter: PatternRewriter) -> None:
        if not op.result.uses:
            rewriter.erase(op)


# ---------------------------------------------------------------------------------------
# function boundaries (1:N)


def _expanded(types: Sequence[Attribute]) -> list[Attribute]:
    result: list[Attribute] = []
    for t in types:
        result += [t.scale, *t.data.data] if isinstance(t, MxTensorType) else [t]
    return result


def expand_function_boundaries(module: ModuleOp) -> None:
    """func.func arguments/results, func.return and func.call: an MX value becomes its parts."""
    rewriter = Rewriter()
    for op in list(module.walk()):
        if isinstance(op, func.FuncOp):
            _expand_func(op, rewriter)
        elif isinstance(op, func.ReturnOp | func.CallOp):
            _expand_operands(op, rewriter)
    for op in list(module.walk()):
        if isinstance(op, func.CallOp):
            _expand_call_results(op, rewriter)


def _expand_func(op: func.FuncOp, rewriter: Rewriter) -> None:
    inputs, outputs = (
        list(op.function_type.inputs.data),
        list(op.function_type.outputs.data),
    )
    if not any(isinstance(t, MxTensorType) for t in (*inputs, *outputs)):
        return
    op.function_type = FunctionType.from_lists(_expanded(inputs), _expanded(outputs))
    if not op.body.blocks:
        return
    entry = op.body.blocks.first
    assert entry is not None
    for arg in list(entry.args):
        mx_type = arg.type
        if not isinstance(mx_type, MxTensorType):
            continue
        index = arg.index
        parts = [
            entry.insert_arg(t, index + 1 + k)
            for k, t in enumerate([mx_type.scale, *mx_type.data.data])
        ]
        construct = ConstructOp(parts, mx_type)
        rewriter.insert_op(construct, InsertPoint.at_start(entry))
        arg.replace_all_uses_with(construct.result)
        entry.erase_arg(arg)


def _expand_operands(op: Operation, rewriter: Rewriter) -> None:
    if not any(isinstance(o.type, MxTensorType) for o in op.operands):
        return
    new_operands: list[SSAValue] = []
    for operand in op.operands:
        if not isinstance(operand.type, MxTensorType):
            new_operands.append(operand)
            continue
        deconstruct = DeconstructOp(operand)
        rewriter.insert_op(deconstruct, InsertPoint.before(op))
        new_operands += list(deconstruct.results)
    op.operands = new_operands


def _expand_call_results(op: func.CallOp, rewriter: Rewriter) -> None:
    if not any(isinstance(r.type, MxTensorType) for r in op.results):
        return
    new_call = func.CallOp(
        op.callee, list(op.arguments), _expanded([r.type for r in op.results])
    )
    rewriter.insert_op(new_call, InsertPoint.before(op))
    results = iter(new_call.results)
    replacements: list[SSAValue] = []
    for result in op.results:
        mx_type = result.type
        if not isinstance(mx_type, MxTensorType):
            replacements.append(next(results))
            continue
        parts = [next(results) for _ in range(1 + len(mx_type.data.data))]
        construct = ConstructOp(parts, mx_type)
        rewriter.insert_op(construct, InsertPoint.before(op))
        replacements.append(construct.result)
    rewriter.replace_op(op, [], replacements)


def _check_lowered(module: ModuleOp) -> None:
    """Report the first op other than a construct/deconstruct that still touches an MX value."""
    for op in module.walk():
        if isinstance(op, ConstructOp | DeconstructOp):
            continue
        if any(isinstance(v.type, MxTensorType) for v in (*op.operands, *op.results)):
            raise OpDiagnostic(
                op,
                f"'{op.name}' op cannot be lowered by lower-mx-tensor: it uses an !mx_tensor.tensor value "
                "that is not produced and consumed by mx_tensor ops, linalg named ops or function boundaries",
            )


@dataclass(frozen=True)
class LowerMxTensorPass(ModulePass):
    """Lower every `mx_tensor` op and value to tensor/linalg/arith IR (see the module docstring)."""

    name = "lower-mx-tensor"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        MxTensorGeneralizePass().apply(ctx, op)
        expand_function_boundaries(op)
        patterns: list[RewritePattern] = [
            LowerQuantize(),
            LowerDequantize(),
            LowerEmpty(),
            LowerExtractSlice(),
            LowerInsertSlice(),
        ]
        PatternRewriteWalker(GreedyRewritePatternApplier(patterns)).rewrite_module(op)
        cleanup: list[RewritePattern] = [FoldDeconstruct(), EraseDeadConstruct()]
        PatternRewriteWalker(GreedyRewritePatternApplier(cleanup)).rewrite_module(op)
        _check_lowered(op)
