"""`mx-tensor-generalize`: linalg named ops with `!mx_tensor.tensor` operands to `linalg.generic`.

Approach 2 of the design note: an MX operand is taken apart
(`mx_tensor.deconstruct`) and each part becomes its own generic input, the
scale read through `d floordiv block` maps; the body decodes the element,
applies the scale, casts every input to the computation type
(`accumulator_type`, else the output element type), computes, and casts
back to the output element type. Each elementwise op is one arith op in
the body (`_FLOAT_OPS` / `_INT_OPS`): max/min are arith.maximumf/minimumf
as in their MLIR definitions (NaN propagates, -0.0 < +0.0), maxsi/minsi
for an integer computation type. A matmul with an `accumulator_type` other
than its output type accumulates in a tensor of that type (extf of the
output first, truncf of the sum after), exactly as the interpreter defines.

Covers linalg.add, sub, mul, max, min and matmul; `lower-mx-tensor` runs
these patterns first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, IntegerType, ModuleOp, TensorType
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import AddOp, MatmulOp, MaxOp, MinOp, MulOp, SubOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.utils.hints import isa

from xquant.asm.diagnostics import OpDiagnostic
from xquant.dialects.mx_tensor.ops import DeconstructOp
from xquant.dialects.mx_tensor.types import MxTensorType
from xquant.numerics.values import element_type
from xquant.transforms.utils.mx_emitters import (
    Constants,
    build_generic,
    emit_cast,
    emit_decode,
)
from xquant.transforms.utils.op_list import OpList

__all__ = ["GENERALIZE_PATTERNS", "GeneralizeMxLinalg", "MxTensorGeneralizePass"]

_FLOAT_OPS: dict[type[Operation], Callable[..., Operation]] = {
    AddOp: arith.AddfOp,
    SubOp: arith.SubfOp,
    MulOp: arith.MulfOp,
    MaxOp: arith.MaximumfOp,
    MinOp: arith.MinimumfOp,
}
_INT_OPS: dict[type[Operation], Callable[..., Operation]] = {
    AddOp: arith.AddiOp,
    SubOp: arith.SubiOp,
    MulOp: arith.MuliOp,
    MaxOp: arith.MaxSIOp,
    MinOp: arith.MinSIOp,
}
_GENERALIZED: frozenset[type[Operation]] = frozenset((*_FLOAT_OPS, MatmulOp))


@dataclass
class _Input:
    """One named-op input as generic inputs: its values, maps, and how to read its scalar."""

    values: list[SSAValue]
    maps: list[AffineMap]
    mx_type: MxTensorType | None


def _inputs(ops: OpList, operand: SSAValue, data_map: AffineMap) -> _Input:
    mx_type = operand.type
    if not isinstance(mx_type, MxTensorType):
        return _Input([operand], [data_map], None)
    deconstruct = DeconstructOp(operand)
    ops.ops.append(deconstruct)
    scale_exprs = tuple(
        e if b == 1 else e // b
        for e, b in zip(data_map.results, mx_type.block_shape, strict=True)
    )
    scale_map = AffineMap(data_map.num_dims, 0, scale_exprs)
    parts: list[SSAValue] = list(deconstruct.results)
    return _Input(parts, [scale_map] + [data_map] * (len(parts) - 1), mx_type)


def _read(
    body: OpList,
    consts: Constants,
    item: _Input,
    args: Sequence[SSAValue],
    compute: Attribute,
) -> SSAValue:
    if item.mx_type is None:
        return emit_cast(body, args[0], compute)
    value = emit_decode(body, consts, args[0], args[1:], item.mx_type)
    return emit_cast(body, value, compute)


class GeneralizeMxLinalg(RewritePattern):
    """linalg.add/sub/mul/max/min/matmul with at least one MX operand -> linalg.generic."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, NamedOperation) or type(op) not in _GENERALIZED:
            return
        if not any(isinstance(o.type, MxTensorType) for o in op.inputs):
            return
        if not op.results:
            raise OpDiagnostic(
                op,
                f"'{op.name}' op with !mx_tensor.tensor operands needs tensor semantics",
            )
        ops = OpList()
        consts = Constants(ops)
        maps = [m.data for m in op.get_indexing_maps().data]
        inputs = [_inputs(ops, o, m) for o, m in zip(op.inputs, maps, strict=False)]
        output = op.outputs[0]
        out_type = output.type
        assert isa(out_type, TensorType)
        out_element = element_type(out_type)
        compute = op.attributes.get("accumulator_type", out_element)
        is_float = isinstance(compute, AnyFloat)
        if not is_float and not isa(compute, IntegerType):
            raise OpDiagnostic(
                op,
                f"'{op.name}' op accumulator_type must be a float or integer type, got {compute}",
            )
        matmul = isinstance(op, MatmulOp)
        flat_values = [v for item in inputs for v in item.values]
        flat_maps = [m for item in inputs for m in item.maps]
        accumulate_apart = matmul and compute != out_element
        acc_type = (
            TensorType(compute, out_type.get_shape()) if accumulate_apart else out_type
        )
        init = output
        out_map = maps[-1]
        identity = AffineMap.identity(out_type.get_num_dims())
        if accumulate_apart:
            (init,) = build_generic(
                ops,
                [output],
                [identity],
                [acc_type],
                lambda b, a: [emit_cast(b, a[0], compute)],
            )

        def body(b: OpList, args: Sequence[SSAValue]) -> list[SSAValue]:
            values: list[SSAValue] = []
            position = 0
            for item in inputs:
                values.append(
                    _read(
                        b,
                        consts,
                        item,
                        args[position : position + len(item.values)],
                        compute,
                    )
                )
                position += len(item.values)
            if matmul:
                mul, add = (
                    (arith.MulfOp, arith.AddfOp)
                    if is_float
                    else (arith.MuliOp, arith.AddiOp)
                )
                product = b.add(mul(values[0], values[1]))
                accumulator = emit_cast(b, args[-1], compute)
                total = b.add(add(accumulator, product))
                return [total if accumulate_apart else emit_cast(b, total, out_element)]
            combined = b.add(
                (_FLOAT_OPS if is_float else _INT_OPS)[type(op)](values[0], values[1])
            )
            return [emit_cast(b, combined, out_element)]

        iterators = [IteratorType(str(it.data)) for it in op.get_iterator_types().data]
        (result,) = build_generic(
            ops, flat_values, flat_maps, [acc_type], body, iterators, [init], [out_map]
        )
        if accumulate_apart:
            (result,) = build_generic(
                ops,
                [result],
                [identity],
                [out_type],
                lambda b, a: [emit_cast(b, a[0], out_element)],
            )
        rewriter.replace(op, ops.ops, [result])


GENERALIZE_PATTERNS: tuple[RewritePattern, ...] = (GeneralizeMxLinalg(),)


@dataclass(frozen=True)
class MxTensorGeneralizePass(ModulePass):
    """Rewrite linalg named ops with `!mx_tensor.tensor` operands into `linalg.generic`s."""

    name = "mx-tensor-generalize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(list(GENERALIZE_PATTERNS))
        ).rewrite_module(op)
