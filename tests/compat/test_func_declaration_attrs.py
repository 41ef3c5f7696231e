"""`xquant.compat.func_declaration_attrs`: a declaration keeps its argument attributes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    UnitAttr,
)
from xdsl.dialects.func import FuncOp

from xquant import parse_module

ROOT = Path(__file__).resolve().parents[2]
SOURCE = "func.func private @decl(i32 {test.attr = 1 : i32}, f32, i8 {a.b})"

PRISTINE = f"""
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin
from xdsl.dialects.func import Func
from xdsl.parser import Parser
ctx = Context()
ctx.load_dialect(Builtin)
ctx.load_dialect(Func)
print(Parser(ctx, {SOURCE!r}).parse_module().ops.first.arg_attrs)
"""


def test_bug_is_still_in_xdsl() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PRISTINE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.strip() == "None", (
        "xDSL now keeps a declaration's argument attributes: "
        "xquant/compat/func_declaration_attrs.py can go"
    )


def test_declaration_keeps_argument_attributes() -> None:
    module = parse_module(SOURCE)
    assert isinstance(module, ModuleOp)
    func = module.ops.first
    assert isinstance(func, FuncOp)
    assert func.arg_attrs == ArrayAttr(
        [
            DictionaryAttr({"test.attr": IntegerAttr(1, 32)}),
            DictionaryAttr({}),
            DictionaryAttr({"a.b": UnitAttr()}),
        ]
    )


def test_definition_and_plain_declaration_unchanged() -> None:
    module = parse_module(
        "func.func private @p(i32) -> i32\n"
        "func.func @d(%a: i32 {x.y}) -> (i32 {r.s}) { func.return %a : i32 }"
    )
    plain, definition = list(module.ops)
    assert isinstance(plain, FuncOp) and plain.arg_attrs is None
    assert isinstance(definition, FuncOp)
    assert definition.arg_attrs is not None and definition.res_attrs is not None
