"""`siN`/`uiN` storage: kept as that builtin type, distinct from `iN`/`uN`.

LLVM main (PR #187300; IREE 3.13's iree-opt) prints `!quant.uniform<ui8:f32, 1.0>`
as written, `!quant.uniform<ui8:f32, 1.000000e+00>` (mlir-opt 22.1.8 printed `u8`,
main wins), and keeps it a different type from `!quant.uniform<u8:f32, 1.0>`
(returning one as the other fails); `quant.scast` only accepts a signless storage
type. Numerics go by width and signedness, which both spellings share.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    Builtin,
    IntAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    f32,
)
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from xquant.dialects.quant import Quant, UniformQuantizedType
from xquant.numerics import uniform
from xquant.transforms.normalize_quant_types import normalized_element


def _parse(text: str) -> ModuleOp:
    ctx = Context()
    for dialect in (Builtin, func.Func, arith.Arith, Quant):
        ctx.load_dialect(dialect)
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


def _type(text: str) -> UniformQuantizedType:
    module = _parse(f"func.func private @f() -> {text}")
    fn = module.body.block.first_op
    assert isinstance(fn, func.FuncOp)
    result = fn.function_type.outputs.data[0]
    assert isinstance(result, UniformQuantizedType)
    return result


@pytest.mark.parametrize(
    ("written", "printed", "storage", "signed"),
    [
        ("i8", "i8", IntegerType(8), True),
        ("u8", "u8", IntegerType(8), False),
        ("si8", "si8", IntegerType(8, Signedness.SIGNED), True),
        ("ui8", "ui8", IntegerType(8, Signedness.UNSIGNED), False),
        ("ui4<1:9>", "ui4<1:9>", IntegerType(4, Signedness.UNSIGNED), False),
    ],
)
def test_storage_kept_as_written_printed_as_upstream(
    written: str, printed: str, storage: IntegerType, signed: bool
) -> None:
    qtype = _type(f"!quant.uniform<{written}:f32, 1.0>")
    assert qtype.storage_type == storage
    assert qtype.is_signed is signed
    assert str(qtype) == f"!quant.uniform<{printed}:f32, 1.000000e+00>"


@pytest.mark.parametrize(("builtin", "plain"), [("ui8", "u8"), ("si8", "i8")])
def test_builtin_spelling_is_a_distinct_type(builtin: str, plain: str) -> None:
    assert _type(f"!quant.uniform<{builtin}:f32, 1.0>") != _type(
        f"!quant.uniform<{plain}:f32, 1.0>"
    )
    # mlir-opt: "type of return operand 0 (...) doesn't match function result type"
    with pytest.raises(VerifyException):
        _parse(
            f"func.func @h(%a: !quant.uniform<{builtin}:f32, 1.0>) -> !quant.uniform<{plain}:f32, 1.0> {{\n"
            f"  func.return %a : !quant.uniform<{builtin}:f32, 1.0>\n}}"
        )


def test_scast_needs_signless_storage() -> None:
    text = (
        "func.func @g(%x: !quant.uniform<si8:f32, 1.0>) -> i8 {\n"
        "  %0 = quant.scast %x : !quant.uniform<si8:f32, 1.0> to i8\n"
        "  func.return %0 : i8\n}"
    )
    with pytest.raises(
        VerifyException,
        match="storage type in quantized type expected to match integer type",
    ):
        _parse(text)
    _parse(text.replace("si8", "i8"))


def test_constructors_and_verifier() -> None:
    t = UniformQuantizedType.per_layer(8, False, f32, 1.0, builtin_signedness=True)
    assert t.storage_type == IntegerType(8, Signedness.UNSIGNED)
    assert not t.has_signless_storage
    assert t.signless_storage_type == IntegerType(8)
    assert t != UniformQuantizedType.per_layer(8, False, f32, 1.0)
    params = list(t.parameters)
    params[1] = IntAttr(1)  # the signed flag on a `ui8` storage type
    with pytest.raises(
        VerifyException, match="storage type ui8 contradicts the signed flag"
    ):
        UniformQuantizedType(*params)


def test_numerics_go_by_signedness() -> None:
    plain = _type("!quant.uniform<u8:f32, 0.5:10>")
    builtin = _type("!quant.uniform<ui8:f32, 0.5:10>")
    x = np.array([-10.0, 0.0, 1.0, 200.0], dtype=np.float32)
    np.testing.assert_array_equal(
        uniform.quantize(x, plain), uniform.quantize(x, builtin)
    )


def test_normalize_keeps_the_storage_type() -> None:
    qtype = _type("!quant.uniform<si8:f32:{0:1}, {{2.0:1}, {3.0:2}}>")
    normalized = normalized_element(qtype)
    assert normalized is not None and normalized.is_per_axis
    assert normalized.storage_type == IntegerType(8, Signedness.SIGNED)
