"""xDSL 0.74's `linalg.add/sub/mul/matmul` bodies do not cast inputs to the output type.

MLIR's named ops cast every input to the output element type in their hidden body
(OpDSL's `cast_signed`), so mixed element types are valid. xDSL builds the body
without casts, so an `arith.addf` of a bf16 and an f8 value fails to verify.
Reproducer:

    func.func @f(%a: tensor<4xbf16>, %b: tensor<4xf8E4M3FN>) -> tensor<4xbf16> {
      %r = linalg.add ins(%a, %b : tensor<4xbf16>, tensor<4xf8E4M3FN>) outs(%a : tensor<4xbf16>) -> tensor<4xbf16>
      func.return %r : tensor<4xbf16>
    }

The fix gives those four ops a `get_hidden_region` that casts first
(extf/truncf/sitofp/fptosi/extsi/trunci), as MLIR's do; a complex matmul's body
is `complex.mul`/`complex.add` (xDSL's would be `arith.muli`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, ComplexType
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.ops import AddOp, MatmulOp, MulOp, SubOp, YieldOp
from xdsl.ir import BlockArgument, Operation, Region, SSAValue

from xquant.dialects.upstream.linalg import cast_signed, element_types, mac_region
from xquant.numerics.values import element_type

_BinaryBuilder = Callable[[SSAValue, SSAValue], Operation]

_FLOAT_OPS: dict[type[NamedOperation], _BinaryBuilder] = {
    AddOp: arith.AddfOp,
    SubOp: arith.SubfOp,
    MulOp: arith.MulfOp,
}
_INT_OPS: dict[type[NamedOperation], _BinaryBuilder] = {
    AddOp: arith.AddiOp,
    SubOp: arith.SubiOp,
    MulOp: arith.MuliOp,
}


def _binary_region(
    cls: type[NamedOperation], inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> Region:
    arg_types = cls.body_arg_types((*inputs, *outputs))
    out = arg_types[-1]
    build = (_FLOAT_OPS if isinstance(out, AnyFloat) else _INT_OPS)[cls]

    @Builder.implicit_region(arg_types)
    def hidden_region(args: tuple[BlockArgument, ...]) -> None:
        lhs, rhs = cast_signed(args[0], out), cast_signed(args[1], out)
        YieldOp(build(lhs, rhs))

    return hidden_region


def _matmul_region(
    cls: type[NamedOperation], inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> Region:
    if isinstance(element_type(outputs[0].type), ComplexType):
        return mac_region(element_types((*inputs, *outputs)))
    arg_types = cls.body_arg_types((*inputs, *outputs))
    out = arg_types[-1]
    is_float = isinstance(out, AnyFloat)
    mul, add = (
        (arith.MulfOp, arith.AddfOp) if is_float else (arith.MuliOp, arith.AddiOp)
    )

    @Builder.implicit_region(arg_types)
    def hidden_region(args: tuple[BlockArgument, ...]) -> None:
        product = mul(cast_signed(args[0], out), cast_signed(args[1], out))
        YieldOp(add(args[2], product))  # MLIR: `addf %out, %mul`

    return hidden_region


def install() -> None:
    """Give add/sub/mul/matmul hidden bodies with input casts (idempotent)."""
    for op in (AddOp, SubOp, MulOp):
        setattr(op, "get_hidden_region", classmethod(_binary_region))
    setattr(MatmulOp, "get_hidden_region", classmethod(_matmul_region))
