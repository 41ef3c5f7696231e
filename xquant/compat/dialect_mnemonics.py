"""xDSL 0.74 cannot reject an unknown mnemonic of a registered dialect as MLIR does.

MLIR hands every `!quant.xxx` to the `quant` dialect's parser, which rejects a
mnemonic it does not know (`unknown quantized type foobar`, at `foobar`), with
or without `-allow-unregistered-dialect`: only *unregistered* dialects become
opaque types. xDSL looks the full name up in the context instead, so for

    !qalias = !quant.foobar

it reports `'quant.foobar' is not registered` at the token *after* the type
(the next line, or two lines on when a blank line follows), and with
`Context(allow_unregistered=True)` (`--allow-unregistered-dialect`) it accepts
`!quant.foobar`, `#quant.uniform<...>` or any other `quant` name unchecked as
an `UnregisteredAttr`, although `quant` is registered.

The fix lets a dialect claim its namespace: one of its attribute classes
defines a classmethod `unknown_mnemonic_message(mnemonic, is_type) -> str`.
For a claimed dialect an unknown mnemonic is an error at the mnemonic, with
that message, whatever `allow_unregistered` says. Unclaimed dialects keep
xDSL's behaviour, since several of xDSL's dialects define only part of
upstream's types and `--allow-unregistered-dialect` is how IR using the rest
still reads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.ir import Dialect, TypeAttribute
from xdsl.parser import AttrParser

UnknownMnemonic = Callable[[str, bool], str]
"""The error for an unknown mnemonic: `(mnemonic, is_type) -> message`."""


def claim_of(dialect: Dialect) -> UnknownMnemonic | None:
    """The claim of `dialect` on its namespace: its `unknown_mnemonic_message`, if any."""
    for attr in dialect.attributes:
        if (hook := getattr(attr, "unknown_mnemonic_message", None)) is not None:
            return hook
    return None


def _defines(dialect: Dialect, name: str, is_type: bool) -> bool:
    """Whether `dialect` has a type (`!`) or a non-type attribute (`#`) called `name`."""
    return any(
        attr.name == name and issubclass(attr, TypeAttribute) == is_type
        for attr in dialect.attributes
    )


def _mnemonic_start(
    parser: AttrParser, name: str, is_type: bool, opaque_end: int | None
) -> int:
    """Where the mnemonic of `name` starts; its token has already been consumed."""
    dialect_name, mnemonic = name.split(".", 1)
    if opaque_end is not None:  # `!quant<foobar>`: the mnemonic ends there
        return opaque_end - len(mnemonic)
    token_start = parser._current_token.span.start  # pyright: ignore[reportPrivateUsage]
    sigil = "!" if is_type else "#"
    found = parser.lexer.input.content.rfind(sigil + name, 0, token_start)
    return token_start if found < 0 else found + len(sigil) + len(dialect_name) + 1


xdsl_parse_body = AttrParser._parse_dialect_type_or_attribute_body  # pyright: ignore[reportPrivateUsage]
"""xDSL's own method (tests check that it still has the bug)."""


def _parse_dialect_type_or_attribute_body(
    self: AttrParser,
    attr_name: str,
    is_type: bool,
    is_opaque: bool,
    starting_opaque_pos: Any,
) -> Any:
    dialect_name, dot, mnemonic = attr_name.partition(".")
    if dot and (dialect := self.ctx.get_optional_dialect(dialect_name)) is not None:
        unknown = claim_of(dialect)
        if unknown is not None and not _defines(dialect, attr_name, is_type):
            start = _mnemonic_start(self, attr_name, is_type, starting_opaque_pos)
            self.raise_error(
                unknown(mnemonic, is_type), start, start + max(len(mnemonic), 1)
            )
    return xdsl_parse_body(self, attr_name, is_type, is_opaque, starting_opaque_pos)


def install() -> None:
    """Route names of claimed dialects through the claim check (idempotent)."""
    setattr(
        AttrParser,
        "_parse_dialect_type_or_attribute_body",
        _parse_dialect_type_or_attribute_body,
    )
