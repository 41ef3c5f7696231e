"""`xquant.compat.dialect_mnemonics`: unknown names of a registered dialect, as MLIR treats them."""

from __future__ import annotations

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin
from xdsl.dialects.test import Test
from xdsl.parser import AttrParser, Parser
from xdsl.utils.exceptions import ParseError

from xquant.compat import dialect_mnemonics
from xquant.dialects.quant import Quant

TEXT = '!qalias = !quant.foobar\n\n"test.op"() {t = !qalias} : () -> ()\n'


def _parse(text: str, allow_unregistered: bool) -> str:
    ctx = Context(allow_unregistered=allow_unregistered)
    for dialect in (Builtin, Test, Quant):
        ctx.load_dialect(dialect)
    return str(Parser(ctx, text, "t.mlir").parse_module())


@pytest.fixture
def pristine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        AttrParser,
        "_parse_dialect_type_or_attribute_body",
        dialect_mnemonics.xdsl_parse_body,
    )


@pytest.mark.usefixtures("pristine")
def test_xdsl_still_has_the_bug() -> None:
    """Fails once xDSL rejects unknown names of registered dialects at the name."""
    with pytest.raises(ParseError) as info:
        _parse(TEXT, allow_unregistered=False)
    assert info.value.msg == "'quant.foobar' is not registered"
    assert info.value.span.get_location().line == 3  # two lines after the type
    printed = _parse(TEXT, allow_unregistered=True)  # quant is registered, yet:
    assert "!quant.foobar" in printed


@pytest.mark.parametrize("allow_unregistered", [False, True])
@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        (TEXT, 18, "unknown quantized type foobar"),
        ("!a = !quant<bar>\n", 13, "unknown quantized type bar"),
        (
            '"test.op"() {a = #quant.uniform<i8:f32, 1.0>} : () -> ()\n',
            25,
            "dialect 'quant' provides no attribute parsing hook",
        ),
    ],
)
def test_claimed_dialect_rejects_unknown_names(
    text: str, column: int, message: str, allow_unregistered: bool
) -> None:
    dialect_mnemonics.install()
    with pytest.raises(ParseError) as info:
        _parse(text, allow_unregistered)
    location = info.value.span.get_location()
    assert (info.value.msg, location.line, location.col) == (message, 1, column)


def test_malformed_quant_type_checked_with_unregistered_allowed() -> None:
    dialect_mnemonics.install()
    with pytest.raises(ParseError, match="out of expressed type range"):
        _parse('"test.op"() {t = !quant.uniform<i8:f32, -1.0>} : () -> ()', True)


def test_unclaimed_and_unregistered_dialects_unchanged() -> None:
    dialect_mnemonics.install()
    printed = _parse('"test.op"() {a = !foo.bar<1>, b = !test.nope} : () -> ()', True)
    assert "!foo.bar<1>" in printed and "!test.nope" in printed
    with pytest.raises(ParseError, match=r"'foo\.bar' is not registered"):
        _parse('"test.op"() {a = !foo.bar} : () -> ()', False)
