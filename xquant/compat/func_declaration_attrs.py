"""xDSL 0.74 drops the argument attributes of a `func.func` declaration.

MLIR keeps `{...}` after each input type of a declaration as that argument's
attributes (`arg_attrs`), as it does for the named arguments of a definition.
xDSL's `parse_func_op_like` reads them for named arguments only; for the bare
types of a declaration it "consumes" them and throws them away, so the
attributes vanish without a word:

    func.func private @decl(i32 {test.attr = 1 : i32})

parses to a `FuncOp` whose `arg_attrs` is `None`. The fix keeps xDSL's parser
and hands it a parser proxy that records the dictionary read after each bare
input type; `FuncOp.parse` then sets `arg_attrs` from them. Result attributes
are kept by xDSL already. `FuncOp.parse` is a classmethod the parser calls by op
name, so it is wrapped in place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute
from xdsl.parser import Parser


class _DeclarationAttrsParser:
    """Forwards to a parser, recording the attributes of each bare input type.

    Only the first comma-separated list `parse_func_op_like` reads (the
    inputs) is watched: a type read there, then the optional dictionary after it.
    """

    def __init__(self, parser: Parser):
        self._parser = parser
        self._in_inputs = False
        self._inputs_done = False
        self._after_type = False
        self.input_attrs: list[dict[str, Attribute]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._parser, name)

    def parse_comma_separated_list(
        self,
        delimiter: Parser.Delimiter,
        parse: Callable[[], Any],
        context_msg: str = "",
    ) -> list[Any]:
        if self._inputs_done:
            return self._parser.parse_comma_separated_list(
                delimiter, parse, context_msg
            )
        self._inputs_done = True
        self._in_inputs = True
        try:
            return self._parser.parse_comma_separated_list(
                delimiter, parse, context_msg
            )
        finally:
            self._in_inputs = False

    def parse_optional_type(self) -> Attribute | None:
        found = self._parser.parse_optional_type()
        self._after_type = self._in_inputs and found is not None
        return found

    def parse_optional_dictionary_attr_dict(self) -> dict[str, Attribute]:
        attrs = self._parser.parse_optional_dictionary_attr_dict()
        if self._after_type:
            self._after_type = False
            self.input_attrs.append(attrs)
        return attrs


_xdsl_parse: Callable[[type[FuncOp], Parser], FuncOp] = FuncOp.parse.__func__


def _parse(cls: type[FuncOp], parser: Parser) -> FuncOp:
    proxy = _DeclarationAttrsParser(parser)
    # The proxy stands in for the parser: it forwards what it does not override.
    op = _xdsl_parse(cls, cast(Parser, proxy))
    if op.arg_attrs is None and any(proxy.input_attrs):
        op.arg_attrs = ArrayAttr(DictionaryAttr(attrs) for attrs in proxy.input_attrs)
    return op


def install() -> None:
    """Keep a declaration's argument attributes, as MLIR does (idempotent)."""
    setattr(FuncOp, "parse", classmethod(_parse))
