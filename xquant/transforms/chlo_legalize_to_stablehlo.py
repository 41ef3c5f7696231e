"""`chlo-legalize-to-stablehlo`: `chlo` broadcasting ops on static shapes to
`broadcast_in_dim` + the StableHLO element-wise op (upstream's pass of that
name, the static-shape part), and chlo's element-wise math to upstream's
StableHLO expansions (`chlo_decompositions`). `stablehlo-legalize-quant-to-math` emits these
ops as upstream does; this pass and `legalize_chlo` take them further."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.hints import isa

from xquant.dialects import chlo
from xquant.dialects import stablehlo as shlo
from xquant.dialects.stablehlo import elementwise as ew
from xquant.numerics.values import element_type
from xquant.transforms.utils.chlo_decompositions import expand, expand_top_k
from xquant.transforms.utils.stablehlo_emitters import (
    HloBuilder,
    is_static,
    retype,
    shape_of,
)

CHLO_TO_STABLEHLO: dict[str, type[ew.BinaryElementwiseOp] | type[chlo.ChloBinaryOp]] = {
    "chlo.broadcast_add": ew.AddOp,
    "chlo.broadcast_subtract": ew.SubtractOp,
    "chlo.broadcast_multiply": ew.MultiplyOp,
    "chlo.broadcast_divide": ew.DivideOp,
    "chlo.broadcast_maximum": ew.MaximumOp,
    "chlo.broadcast_minimum": ew.MinimumOp,
    "chlo.broadcast_next_after": chlo.NextAfterOp,
    "chlo.broadcast_polygamma": chlo.PolygammaOp,
    "chlo.broadcast_zeta": chlo.ZetaOp,
}


class LowerChloBroadcast(RewritePattern):
    """A `chlo` broadcasting op on static shapes: `broadcast_in_dim` of each operand
    to the result shape, then the StableHLO element-wise op. Dynamic shapes stay."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, chlo.BroadcastBinaryOp) or not is_static(op.result.type):
            return
        result_type = op.result.type
        assert isa(result_type, TensorType)
        rank = result_type.get_num_dims()
        b = HloBuilder()
        operands: list[SSAValue] = []
        for value in (op.lhs, op.rhs):
            if value.type == result_type:
                operands.append(value)
                continue
            value_rank = len(shape_of(value.type))
            dims = (
                op.dims
                if op.dims is not None and value_rank < rank
                else tuple(range(rank - value_rank, rank))
            )
            target = retype(result_type, element_type(value.type))
            operands.append(b.add(shlo.BroadcastInDimOp(value, dims, target)))
        b.add(CHLO_TO_STABLEHLO[op.name](operands[0], operands[1]))
        rewriter.insert(b.ops, InsertPoint.before(op))
        rewriter.replace(op, [], [b.ops[-1].results[0]])


@dataclass
class LowerChloOp(RewritePattern):
    """chlo's element-wise math (`chlo.erf`, `chlo.zeta`, `chlo.mulhi`, ...) and
    `chlo.constant_like` to upstream's StableHLO expansion (`chlo_decompositions`);
    ops whose expansion is not reproduced stay. With `full_constants`, constants are
    splats of the full static shape, as upstream prints them."""

    full_constants: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(
            op,
            chlo.ChloUnaryOp
            | chlo.ChloPredicateOp
            | chlo.ChloBinaryOp
            | chlo.ConstantLikeOp
            | chlo.RaggedDotOp
            | chlo.ScanOp,
        ):
            return
        expanded = expand(op, op.operands, self.full_constants)
        if expanded is None:
            return
        b, values = expanded
        rewriter.insert(b.ops, InsertPoint.before(op))
        rewriter.replace(op, [], values)


class LowerTopK(RewritePattern):
    """`chlo.top_k` -> iota, `stablehlo.sort` on `GT`, two slices (dynamic forms on dynamic shapes)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, chlo.TopKOp):
            return
        b = expand_top_k(op)
        if b is None:
            return
        rewriter.insert(b.ops, InsertPoint.before(op))
        rewriter.replace(op, [], [b.ops[-2].results[0], b.ops[-1].results[0]])


@dataclass(frozen=True)
class ChloLegalizeToStablehloPass(ModulePass):
    """`chlo` broadcasting ops to `broadcast_in_dim` + StableHLO element-wise ops (static shapes).

    What upstream's interpreter pipeline runs after `stablehlo-legalize-quant-to-math`;
    `legalize_chlo` is the same as a function, for pipelines that lower further.
    """

    name = "chlo-legalize-to-stablehlo"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        legalize_chlo(op, upstream_form=True)


def legalize_chlo(module: ModuleOp, upstream_form: bool = False) -> None:
    """Rewrite every static-shape `chlo` op of `module` that has an expansion into StableHLO.

    `upstream_form` prints as upstream's pass does: constants as splats of the full
    shape, and no dead-code elimination (a chlo op whose result is unused still
    expands). Otherwise (pipelines that lower further) constants are rank-0 and
    broadcast, and dead ops go."""
    PatternRewriteWalker(
        GreedyRewritePatternApplier(
            [LowerChloBroadcast(), LowerChloOp(upstream_form), LowerTopK()],
            dce_enabled=not upstream_form,
        )
    ).rewrite_module(module)
