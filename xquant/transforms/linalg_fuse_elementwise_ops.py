"""`linalg-fuse-elementwise-ops`: fuse producer generics into their consumers.

Upstream MLIR's pass of that name, on tensors. A `linalg.generic` whose
result feeds an input of another `linalg.generic` is folded into it when:

- the producer is all-parallel, has one result with one use (this operand),
  and its output indexing map is a permutation (so it can be inverted);
- the producer's body does not read its output block argument or use
  `linalg.index` (remapping indices is not implemented);
- producer and consumer sit in the same block;
- after fusion every loop of the consumer is still sized by some operand (a
  reduction loop may have been sized by the fused operand alone).

The fused op takes the producer's inputs in place of the fused operand, with
maps `producer_input_map o inverse(producer_output_map) o consumer_map`, and
runs the producer's body, then the consumer's. The pattern set also carries
upstream's clean-ups: an input defined by a splat `arith.constant` becomes a
scalar constant (created before the op and used in the body), duplicate
inputs (same value, same map) are merged, and unused inputs dropped unless
they size a loop. Trivially dead ops, tensor generics with a pure body among
them, are erased, as MLIR's greedy driver does. Chains of element-wise ops,
which `stablehlo-legalize-to-linalg` emits one generic per op, collapse into
one generic per chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
)
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.transforms.dead_code_elimination import dce, would_be_trivially_dead
from xdsl.utils.hints import isa


def _maps(op: GenericOp) -> list[AffineMap]:
    return [attr.data for attr in op.indexing_maps]


def _all_parallel(op: GenericOp) -> bool:
    return all(str(it.data) == "parallel" for it in op.iterator_types)


def _is_permutation(m: AffineMap) -> bool:
    dims = [e.position for e in m.results if isinstance(e, AffineDimExpr)]
    return len(dims) == len(m.results) == m.num_dims and len(set(dims)) == m.num_dims


def _loops_sized(maps: Sequence[AffineMap], n_loops: int) -> bool:
    """Every loop appears as a plain dimension in some map (linalg's loop-bound rule)."""
    sized = {
        e.position for m in maps for e in m.results if isinstance(e, AffineDimExpr)
    }
    return sized >= set(range(n_loops))


def _rebuild(
    op: GenericOp,
    inputs: Sequence[SSAValue],
    input_maps: Sequence[AffineMap],
    body: Region,
) -> GenericOp:
    """`op` with other inputs and body; outputs, iterators and attributes kept."""
    output_maps = _maps(op)[len(op.inputs) :]
    return GenericOp(
        inputs,
        op.outputs,
        body,
        [AffineMapAttr(m) for m in (*input_maps, *output_maps)],
        op.iterator_types,
        [r.type for r in op.results],
        op.doc,
        op.library_call,
    )


def _fusable_producer(consumer: GenericOp, index: int) -> GenericOp | None:
    """The producer of input `index` when upstream's fusion rules allow fusing it."""
    value = consumer.inputs[index]
    producer = value.owner
    if not isinstance(producer, GenericOp) or producer.parent is not consumer.parent:
        return None
    if len(producer.results) != 1 or len(producer.outputs) != 1:
        return None
    if not value.has_one_use() or not _all_parallel(producer):
        return None
    producer_block = producer.body.block
    if producer_block.args[len(producer.inputs)].uses:
        return None  # the producer reads its init value
    if any(isinstance(op, IndexOp) for op in producer.walk()):
        return None
    out_map = _maps(producer)[-1]
    consumer_map = _maps(consumer)[index]
    if not _is_permutation(out_map) or len(consumer_map.results) != out_map.num_dims:
        return None
    return producer


def _fused_input_maps(
    producer: GenericOp, consumer: GenericOp, index: int
) -> list[AffineMap]:
    producer_maps = _maps(producer)
    inverse = producer_maps[-1].inverse_permutation()
    assert inverse is not None
    to_producer_loops = inverse.compose(_maps(consumer)[index])
    consumer_maps = _maps(consumer)[: len(consumer.inputs)]
    fused = [m.compose(to_producer_loops) for m in producer_maps[:-1]]
    return [*consumer_maps[:index], *fused, *consumer_maps[index + 1 :]]


def _fused_body(producer: GenericOp, consumer: GenericOp, index: int) -> Region:
    """Consumer args before `index`, producer inputs, the rest; producer ops, then consumer ops."""
    p_block, c_block = producer.body.block, consumer.body.block
    n_p = len(producer.inputs)
    c_args, p_args = list(c_block.args), list(p_block.args[:n_p])
    ordered = [*c_args[:index], *p_args, *c_args[index + 1 :]]
    block = Block(arg_types=[a.type for a in ordered])
    mapper: dict[SSAValue, SSAValue] = dict(zip(ordered, block.args))
    *p_ops, p_yield = list(p_block.ops)
    for op in p_ops:
        block.add_op(op.clone(mapper))
    yielded = p_yield.operands[0]
    mapper[c_args[index]] = mapper.get(yielded, yielded)
    for op in c_block.ops:
        block.add_op(op.clone(mapper))
    return Region(block)


class FuseElementwiseProducer(RewritePattern):
    """Fold an all-parallel producer generic into the consumer reading its result."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        for index in range(len(op.inputs)):
            producer = _fusable_producer(op, index)
            if producer is None:
                continue
            maps = _fused_input_maps(producer, op, index)
            outputs = _maps(op)[len(op.inputs) :]
            if not _loops_sized([*maps, *outputs], len(op.iterator_types)):
                continue
            inputs = [*op.inputs[:index], *producer.inputs, *op.inputs[index + 1 :]]
            fused = _rebuild(op, inputs, maps, _fused_body(producer, op, index))
            rewriter.replace(op, fused)
            rewriter.erase(producer)
            return


def _splat_scalar(
    value: SSAValue,
) -> IntegerAttr[IntegerType | IndexType] | FloatAttr[AnyFloat] | None:
    """The scalar attribute of a splat `arith.constant` tensor, else None."""
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp):
        return None
    dense = owner.value
    if not isa(dense, DenseIntOrFPElementsAttr):
        return None
    element = dense.get_element_type()
    count = len(dense)
    data = dense.data.data
    if count == 0 or data != data[: len(data) // count] * count:
        return None
    first = data[: len(data) // count]
    if isinstance(element, IndexType) or (
        isinstance(element, IntegerType)
        and element.signedness.data == Signedness.SIGNLESS
    ):
        # arith.constant takes signless integers only (upstream crashes on ui8 here)
        return IntegerAttr.unpack(element, first, 1)[0]
    if isa(element, AnyFloat):
        return FloatAttr.unpack(element, first, 1)[0]
    return None


class FoldSplatConstantInput(RewritePattern):
    """A splat constant input becomes a scalar `arith.constant` the body uses directly."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        args = op.body.block.args
        for index, value in enumerate(op.inputs):
            if not args[index].uses or (scalar := _splat_scalar(value)) is None:
                continue
            constant = arith.ConstantOp(scalar)
            rewriter.insert(constant, InsertPoint.before(op))
            args[index].replace_all_uses_with(constant.result)
            rewriter.has_done_action = True
            return


class MergeDuplicateInputs(RewritePattern):
    """Inputs with the same value and map share one block argument."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        args, maps = op.body.block.args, _maps(op)
        first: dict[tuple[SSAValue, AffineMap], int] = {}
        for index, value in enumerate(op.inputs):
            seen = first.setdefault((value, maps[index]), index)
            if seen != index and args[index].uses:
                args[index].replace_all_uses_with(args[seen])
                rewriter.has_done_action = True


class DropUnusedInputs(RewritePattern):
    """Inputs the body never reads are dropped, unless one of them sizes a loop."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        n_in = len(op.inputs)
        args, maps = op.body.block.args, _maps(op)
        keep = [i for i in range(n_in) if args[i].uses]
        if len(keep) == n_in:
            return
        kept_maps = [maps[i] for i in keep]
        if not _loops_sized([*kept_maps, *maps[n_in:]], len(op.iterator_types)):
            return
        body = op.detach_region(op.body)
        for i in reversed(range(n_in)):
            if i not in keep:
                body.block.erase_arg(body.block.args[i])
        inputs = [op.inputs[i] for i in keep]
        rewriter.replace(op, _rebuild(op, inputs, kept_maps, body))


class EraseDeadGeneric(RewritePattern):
    """A tensor generic whose results are unused and whose body is pure has no effect.

    xDSL gives `linalg.generic` no memory-effect interface, so its `dce` keeps
    such ops; MLIR's greedy driver erases them, and fusion leaves them behind.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if any(result.uses for result in op.results):
            return
        if len(op.results) != len(op.outputs):
            return  # buffer semantics: it writes memory
        body = list(op.body.block.ops)[:-1]
        if all(_side_effect_free(inner) for inner in body):
            rewriter.erase(op)


def _side_effect_free(op: Operation) -> bool:
    # Every arith and math op is side-effect free in MLIR; xDSL 0.74 misses the
    # trait on some (arith.extsi), so the dialect decides, then xDSL's traits.
    if op.name.split(".", 1)[0] in ("arith", "math") and not op.regions:
        return True
    return op.name in ("linalg.index", "tensor.extract") or would_be_trivially_dead(op)


@dataclass(frozen=True)
class LinalgFuseElementwiseOpsPass(ModulePass):
    """Fuse element-wise `linalg.generic` producers into their consumers (upstream's rules)."""

    name = "linalg-fuse-elementwise-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = GreedyRewritePatternApplier(
            [
                FoldSplatConstantInput(),
                MergeDuplicateInputs(),
                DropUnusedInputs(),
                FuseElementwiseProducer(),
                EraseDeadGeneric(),
            ]
        )
        PatternRewriteWalker(patterns, apply_recursively=True).rewrite_module(op)
        dce(op)
