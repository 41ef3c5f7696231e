"""`xquant.transforms.canonicalize`: MLIR's `EraseIdentityLinalgOp` on `linalg.generic`."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from xdsl.context import Context

from xquant import parse_module
from xquant.transforms.canonicalize import CanonicalizePass

IDENTITY = """\
#map = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
"""


def _canonicalized(source: str) -> str:
    module = parse_module(source)
    CanonicalizePass().apply(Context(), module)
    return str(module)


def test_xdsl_still_has_the_bug() -> None:
    """Fails once xDSL's canonicalize erases an identity generic (then drop the module)."""
    script = textwrap.dedent(
        f"""
        from xdsl.context import Context
        from xdsl.dialects import get_all_dialects
        from xdsl.parser import Parser
        from xdsl.transforms.canonicalize import CanonicalizePass

        ctx = Context()
        for name, factory in get_all_dialects().items():
            ctx.register_dialect(name, factory)
        module = Parser(ctx, {IDENTITY!r}).parse_module()
        CanonicalizePass().apply(ctx, module)
        print("linalg.generic" in str(module))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "True"


def test_identity_generic_is_erased() -> None:
    text = _canonicalized(IDENTITY)
    assert "linalg.generic" not in text
    assert "func.return %a : tensor<4xf32>" in text


def test_yielding_the_init_forwards_the_init() -> None:
    text = _canonicalized(IDENTITY.replace("linalg.yield %x", "linalg.yield %o"))
    assert "func.return %b : tensor<4xf32>" in text


def test_a_body_with_an_op_stays() -> None:
    source = IDENTITY.replace(
        "    linalg.yield %x : f32",
        "    %n = arith.negf %x : f32\n    linalg.yield %n : f32",
    )
    assert "linalg.generic" in _canonicalized(source)


def test_different_maps_stay() -> None:
    source = IDENTITY.replace(
        "indexing_maps = [#map, #map]",
        "indexing_maps = [affine_map<(d0) -> (3 - d0)>, #map]",
    )
    assert "linalg.generic" in _canonicalized(source)


def test_a_static_result_of_a_dynamic_input_gets_a_cast() -> None:
    source = IDENTITY.replace("%a: tensor<4xf32>", "%a: tensor<?xf32>").replace(
        "ins(%a : tensor<4xf32>)", "ins(%a : tensor<?xf32>)"
    )
    text = _canonicalized(source)
    assert "tensor.cast %a : tensor<?xf32> to tensor<4xf32>" in text
