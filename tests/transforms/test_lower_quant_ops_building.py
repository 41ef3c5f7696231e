"""lower-quant-ops' quick builders build what xDSL's own builders build.

The pass builds its ops with `Operation.create` and shares attributes
between ops (see `xquant.transforms.utils.quant_emitters`), and drives its rewrites in
one walk instead of `PatternRewriteWalker`. Each shortcut is compared here
with the xDSL path it replaces: the op's `__init__`, `from_list`, the
pattern walker. The FileCheck files and the upstream suite check the text.
"""

from __future__ import annotations

import gc
import math

import pytest
from xdsl.dialects import arith
from xdsl.dialects import math as xmath
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float32Type,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    f32,
    i8,
    i32,
)
from xdsl.ir import Block, Operation

import xquant
from xquant.transforms.lower_quant_ops import (
    LowerQuantOpsPass,
)
from xquant.transforms.utils.op_list import OpList
from xquant.transforms.utils.quant_emitters import (
    dense_constant,
    scalar_constant,
)


def _same_op(built: Operation, reference: Operation) -> None:
    assert type(built) is type(reference)
    assert list(built.operands) == list(reference.operands)
    assert built.result_types == reference.result_types
    assert built.properties == reference.properties
    assert built.attributes == reference.attributes


def test_create_matches_init() -> None:
    block = Block(arg_types=[f32, f32, IntegerType(1), i8, i32])
    x, y, flag, q, wide = block.args
    cases: list[tuple[type[Operation], tuple, object, Operation]] = [
        (arith.DivfOp, (x, y), f32, arith.DivfOp(x, y)),
        (arith.MaximumfOp, (x, y), f32, arith.MaximumfOp(x, y)),
        (xmath.RoundEvenOp, (x,), f32, xmath.RoundEvenOp(x)),
        (arith.SelectOp, (flag, x, y), f32, arith.SelectOp(flag, x, y)),
        (arith.FPToSIOp, (x,), i8, arith.FPToSIOp(x, i8)),
        (arith.ExtSIOp, (q,), i32, arith.ExtSIOp(q, i32)),
        (arith.SIToFPOp, (wide,), f32, arith.SIToFPOp(wide, f32)),
        (arith.MaxSIOp, (q, q), i8, arith.MaxSIOp(q, q)),
    ]
    for cls, operands, result_type, reference in cases:
        ops = OpList()
        ops.create(cls, operands, result_type)  # pyright: ignore[reportArgumentType]
        _same_op(ops.ops[0], reference)


def test_quantize_body_matches_init() -> None:
    """The properties quant_emitters passes for cmpf and subi are their builders' defaults."""
    from xquant.transforms.utils import quant_emitters

    block = Block(arg_types=[f32, i32])
    x, wide = block.args
    ops = OpList()
    ops.create(arith.CmpfOp, (x, x), IntegerType(1), quant_emitters._CMPF_UNO)  # pyright: ignore[reportPrivateUsage]
    ops.create(arith.SubiOp, (wide, wide), i32, quant_emitters._NO_OVERFLOW)  # pyright: ignore[reportPrivateUsage]
    _same_op(ops.ops[0], arith.CmpfOp(x, x, "uno"))
    _same_op(ops.ops[1], arith.SubiOp(wide, wide))


@pytest.mark.parametrize(
    ("element", "values"),
    [
        (i8, [-128, -1, 0, 127]),
        (i8, [200, 255, -128, 5]),  # unsigned-range values: from_list normalizes
        (i32, [-(2**31), 2**31 - 1, 7, 0]),
        (IntegerType(8, Signedness.SIGNED), [-3, 4, 5, 6]),
        (f32, [0.5, -0.0, 3.25, 1e-3]),
        (f32, [1, 2, 3, 4]),  # integer zero points of a float tensor
    ],
)
@pytest.mark.parametrize("size", ["small", "large"])
def test_dense_constant_matches_from_list(
    element: IntegerType | Float32Type, values: list[int] | list[float], size: str
) -> None:
    repeat = 1 if size == "small" else 100  # 400 elements: past the memo limit
    data = values * repeat
    type = TensorType(element, [len(data)])
    ops = OpList()
    dense_constant(ops, data, type)  # pyright: ignore[reportArgumentType]
    (op,) = ops.ops
    _same_op(op, arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(type, data)))  # pyright: ignore[reportArgumentType, reportCallIssue]


def test_scalar_constants_keep_the_sign_of_zero() -> None:
    ops = OpList()
    scalar_constant(ops, 0.0, f32)
    scalar_constant(ops, -0.0, f32)
    positive, negative = (op.properties["value"] for op in ops.ops)
    assert math.copysign(1.0, positive.value.data) == 1.0  # pyright: ignore[reportAttributeAccessIssue]
    assert math.copysign(1.0, negative.value.data) == -1.0  # pyright: ignore[reportAttributeAccessIssue]


CHAIN = """
func.func @f(%x: tensor<2x4xf32>, %w: tensor<2x4x!quant.uniform<i8:f32:1, {0.5:1, 0.25:-2, 2.0, 1.0:3}>>) -> tensor<2x4xf32> {
  %q = quant.qcast %x : tensor<2x4xf32> to tensor<2x4x!quant.uniform<i8:f32, 0.5:3>>
  %d = quant.dcast %q : tensor<2x4x!quant.uniform<i8:f32, 0.5:3>> to tensor<2x4xf32>
  %e = quant.dcast %w : tensor<2x4x!quant.uniform<i8:f32:1, {0.5:1, 0.25:-2, 2.0, 1.0:3}>> to tensor<2x4xf32>
  %s = arith.addf %d, %e : tensor<2x4xf32>
  %t = quant.qcast %s : tensor<2x4xf32> to tensor<2x4x!quant.uniform<u8:f32:{0:1, 1:2}, {{0.5:1, 2.0:3}, {1.0:0, 4.0:9}}>>
  %u = quant.dcast %t : tensor<2x4x!quant.uniform<u8:f32:{0:1, 1:2}, {{0.5:1, 2.0:3}, {1.0:0, 4.0:9}}>> to tensor<2x4xf32>
  return %u : tensor<2x4xf32>
}
"""


def test_the_pass_leaves_the_collector_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pass is a library: it must not switch Python's garbage collector."""

    def forbidden() -> None:
        raise AssertionError("the pass touched the garbage collector")

    monkeypatch.setattr(gc, "disable", forbidden)
    monkeypatch.setattr(gc, "enable", forbidden)
    for rounding in ("toward-zero", "nearest-even"):
        module: ModuleOp = xquant.parse_module(CHAIN)
        LowerQuantOpsPass(rounding).apply(xquant.make_context(), module)
        module.verify()
