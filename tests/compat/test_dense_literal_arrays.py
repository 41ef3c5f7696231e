"""`dense_literal_arrays`: xDSL reads dense literals element by element; the
fast path gives the same attribute and the same errors as xDSL's own path.

The reproducer counts the element objects xDSL's parser builds (no timing:
the benchmark `benchmarks/bench_literals.py` times it). The equivalence
tests parse each literal with the fast path installed and with xDSL's own
path (the fast path patched out), and compare the attributes, or the error
messages and positions.
"""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin, DenseIntOrFPElementsAttr
from xdsl.parser import AttrParser, Parser
from xdsl.utils.exceptions import ParseError

from xquant.compat import dense_literal_arrays, install


def _parse(text: str) -> DenseIntOrFPElementsAttr | str:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Arith)
    try:
        attr = Parser(ctx, text).parse_attribute()
    except ParseError as err:
        return f"{err.span.start}:{err.msg}"
    except ValueError as err:  # xDSL's own path lets some through
        return f"ValueError: {err}"
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    return attr


def _both(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    install()
    fast = _parse(text)
    monkeypatch.setattr(dense_literal_arrays, "_fast", lambda parser, type: None)
    slow = _parse(text)
    return fast, slow


def test_xdsl_parses_element_by_element(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pristine xDSL builds one element object per number (the fix builds none)."""
    calls = 0
    element = AttrParser._parse_tensor_literal_element  # pyright: ignore[reportPrivateUsage]

    def counting(self: AttrParser) -> object:
        nonlocal calls
        calls += 1
        return element(self)

    monkeypatch.setattr(AttrParser, "_parse_tensor_literal_element", counting)
    text = "dense<[" + ", ".join(["1"] * 300) + "]> : tensor<300xi8>"
    _, slow = _both(text, monkeypatch)
    assert calls == 300, "xDSL no longer parses element by element: the fix can go"
    calls = 0
    monkeypatch.undo()
    monkeypatch.setattr(AttrParser, "_parse_tensor_literal_element", counting)
    assert _parse(text) == slow
    assert calls == 0


SAME = [
    "dense<[[1, -2, 3], [4, 5, -128]]> : tensor<2x3xi8>",
    "dense<[[1, 2], [3, 4]]> : tensor<2x2xui8>",
    "dense<[999999999999999999, -999999999999999999]> : tensor<2xi64>",
    "dense<[1, 2, 3]> : tensor<3xindex>",
    "dense<[true, false, true]> : tensor<3xi1>",
    "dense<[[1.5, -2.0e-3], [0.1, 3]]> : tensor<2x2xf32>",
    "dense<[1.0E+2, -0.0, -0, 0.30000000000000004, 1.e5]> : tensor<5xf64>",
    "dense<[65504.0, 6.1e-5, 1]> : tensor<3xf16>",
    "dense<[1.0, 2.0]> : vector<2xf32>",
    "dense<[1.0, 0x7F800000, -2.5, 0xFF800000]> : tensor<4xf32>",
    "dense<[[0x7C00, 1.0], [0x3C00, -0]]> : tensor<2x2xf16>",
    "dense<[0x7FF0000000000000, 0.5]> : tensor<2xf64>",
    "dense<[[[1, 2]], [[3, 4]]]> : tensor<2x1x2xi16>",
    "dense<[\n  [1, 2], // a comment\n  [3, 4]]> : tensor<2x2xi32>",
    # Left to xDSL's path (errors and unusual spellings), compared all the same.
    "dense<[1, 2, 3]> : tensor<2xi8>",
    "dense<[[1, 2], [3]]> : tensor<2x2xi8>",
    "dense<[1, 300]> : tensor<2xi8>",
    "dense<[1, -3]> : tensor<2xui8>",
    "dense<[1, 1.5]> : tensor<2xi8>",
    "dense<[1, 2,]> : tensor<2xi8>",
    "dense<[1,, 2]> : tensor<3xi8>",
    "dense<[1, +2]> : tensor<2xi8>",
    "dense<[1, 99999999999999999999]> : tensor<2xi64>",
    "dense<[9223372036854775807, -9223372036854775807]> : tensor<2xi64>",
    "dense<[.5, 1.0]> : tensor<2xf32>",
    "dense<[1e5, 1.0]> : tensor<2xf32>",
    "dense<[1.0, 0x7F800000]> : tensor<2xf32>",
    "dense<[1.0, 0x7FC00001]> : tensor<2xf32>",
    "dense<[1.0, 0x1FF800000]> : tensor<2xf32>",
    "dense<[1.0, -0x7F800000]> : tensor<2xf32>",
    "dense<[1.0, 0xZZ]> : tensor<2xf32>",
    "dense<[1, 0x10]> : tensor<2xi8>",
    "dense<[1.0, 1.0e39]> : tensor<2xf32>",
    "dense<[true, 1]> : tensor<2xi1>",
    "dense<[1.0, 2.0]> : tensor<2xbf16>",
    "dense<[1, 2]> : tensor<?xi8>",
    "dense<[1, 2]> tensor<2xi8>",
    "dense<[1, 2]> : tensor<2x1xi8>",
    "dense<[1, 2]5> : tensor<2xi8>",
    "dense<[[1], [2]]3> : tensor<2x1xi8>",
    "dense<4[1, 2]> : tensor<2xi8>",
    "dense<[1 2, 3]> : tensor<2xi8>",
    "dense<[tr ue, false]> : tensor<2xi1>",
    "dense<[1.5 e3, 2.0]> : tensor<2xf32>",
    "dense<[]> : tensor<0xi8>",
    "dense<5> : tensor<3xi8>",
]


@pytest.mark.parametrize("text", SAME)
def test_same_as_xdsl(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, slow = _both(text, monkeypatch)
    assert fast == slow


def test_fast_path_is_taken() -> None:
    """The common spellings do not reach xDSL's path."""
    install()
    for text in SAME[:13]:  # not the comment
        ctx = Context()
        ctx.load_dialect(Builtin)
        parser = Parser(ctx, text)
        parser.parse_characters("dense")
        assert dense_literal_arrays._fast(parser, None) is not None, text  # pyright: ignore[reportPrivateUsage]
