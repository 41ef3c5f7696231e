"""xDSL 0.74 cannot read `linalg.generic`'s result types in parentheses.

MLIR reads the types after the region with `parseOptionalArrowTypeList`:
`-> (t1, t2)` (any count) or one bare type; it prints several results in
parentheses, and so does xDSL's printer. xDSL's `GenericOp.parse` reads a bare
`parse_attribute` list, so `(t1, t2)` is taken for the start of a function type
("Expected '->'") and neither upstream's output nor xDSL's own reads back.
Reproducer:

    #map = affine_map<(d0) -> (d0)>
    func.func @f(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
      %r:2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
          ins(%a : tensor<4xf32>) outs(%a, %a : tensor<4xf32>, tensor<4xf32>) {
      ^bb0(%x: f32, %o1: f32, %o2: f32):
        linalg.yield %x, %x : f32, f32
      } -> (tensor<4xf32>, tensor<4xf32>)
      func.return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
    }

The fix keeps xDSL's parser and lets only that list be parenthesised; the bare
list it already accepts still parses. `GenericOp.parse` is a classmethod that the
parser calls by op name, so it is wrapped in place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects.linalg.ops import GenericOp
from xdsl.parser import Parser


class _ParenthesisedResultsParser:
    """Forwards to a parser, but reads a parenthesised list right after `->`.

    `GenericOp.parse` calls `parse_optional_punctuation` on this proxy only for
    that `->`, then `parse_comma_separated_list` for the result types; the ops in
    the region are parsed by the real parser and never see the proxy.
    """

    def __init__(self, parser: Parser):
        self._parser = parser
        self._after_arrow = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._parser, name)

    def parse_optional_punctuation(self, punctuation: Any) -> Any:
        token = self._parser.parse_optional_punctuation(punctuation)
        self._after_arrow = token == "->"
        return token

    def parse_comma_separated_list(
        self,
        delimiter: Parser.Delimiter,
        parse: Callable[[], Any],
        context_msg: str = "",
    ) -> list[Any]:
        if self._after_arrow:
            self._after_arrow = False
            types = self._parser.parse_optional_comma_separated_list(
                Parser.Delimiter.PAREN, parse, context_msg
            )
            if types is not None:
                return types
        return self._parser.parse_comma_separated_list(delimiter, parse, context_msg)


_xdsl_parse: Callable[[type[GenericOp], Parser], GenericOp] = GenericOp.parse.__func__


def _parse(cls: type[GenericOp], parser: Parser) -> GenericOp:
    proxy: Any = _ParenthesisedResultsParser(parser)
    return _xdsl_parse(cls, proxy)


def install() -> None:
    """Let `linalg.generic` read `-> (t1, ...)` as MLIR does (idempotent)."""
    setattr(GenericOp, "parse", classmethod(_parse))
