"""`xquant.compat.dense_resource_handles`: a second parse keeps its `dense_resource` blobs."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from xquant import parse_module, print_module

SOURCE = """\
func.func @f() -> tensor<2xi32> {
  %0 = arith.constant dense_resource<handles_blob> : tensor<2xi32>
  func.return %0 : tensor<2xi32>
}
{-# dialect_resources: { builtin: { handles_blob: "0x040000000100000002000000" } } #-}
"""


def test_xdsl_still_has_the_bug() -> None:
    """Fails once xDSL's second parse keeps the blob (then drop the module)."""
    script = textwrap.dedent(
        f"""
        from xdsl.context import Context
        from xdsl.dialects.builtin import Builtin
        from xdsl.dialects.arith import Arith
        from xdsl.dialects.func import Func
        from xdsl.parser import Parser
        from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
        source = {SOURCE!r}
        for _ in range(2):
            ctx = Context()
            for d in (Builtin, Arith, Func):
                ctx.load_dialect(d)
            module = Parser(ctx, source).parse_module()
        const = next(op for op in module.walk() if op.name == "arith.constant")
        key = const.value.resource_handle.data
        print(repr(Builtin.get_interface(OpAsmDialectInterface).lookup(key)))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "''"


def test_second_parse_names_its_blob() -> None:
    parse_module(SOURCE)
    printed = print_module(parse_module(SOURCE))
    handle = printed.split("dense_resource<", 1)[1].split(">", 1)[0]
    assert f'{handle}: "0x040000000100000002000000"' in printed
