"""Shardy's `#sdy.op_sharding_rule`: how an op can be partitioned, factor by factor.

    {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k],[k, j])->([i, j])
        {i=8, j=16, k=8} reduction={k}>}

Each operand and result dimension maps to factors (`i`..`z`, then `z_1`,
`z_2`, ...; `ij` is a dimension of two factors); `{i=8, ...}` gives their
sizes; `reduction`, `need_replication`, `permutation` and
`blocked_propagation` list special factors; `, custom` marks a user rule. The
syntax and messages are Shardy's (attrs.td, parsers.cc, printers.cc,
verifiers.cc `verifyOpShardingRuleAttr`). A rule describes partitioning
only: on one device it changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, BoolAttr, IntAttr, TensorType
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xquant.xdsl_internals import consume_token, current_token

__all__ = [
    "DimMappingAttr",
    "OpShardingRuleAttr",
    "TensorMappingAttr",
    "factor_symbol",
    "verify_sharding_rule_for_op",
]

_START_AT_Z = ord("z") - ord("i")  # 17, Shardy's kStartAtZ
_INT64_MAX = 2**63 - 1


def factor_symbol(index: int) -> str:
    """Shardy's `factorSymbolString`: 0 -> `i`, 17 -> `z`, 18 -> `z_1`."""
    if index <= _START_AT_Z:
        return chr(ord("i") + index)
    return f"z_{index - _START_AT_Z}"


def _split_symbol(parser: AttrParser, text: str) -> tuple[int, str]:
    """Shardy's `parseFactorSymbolIndex`: the first factor of `text` and the rest."""
    if not text.startswith("z_"):
        symbol = text[0]
        if not "i" <= symbol <= "z":
            parser.raise_error(
                f"expecting symbol from 'i' to 'z'. Received: '{symbol}'"
            )
        return ord(symbol) - ord("i"), text[1:]
    end = 2
    while end < len(text) and text[end].isdigit():
        end += 1
    if end == 2:
        parser.raise_error(f"expecting integer after 'z_'. Received: '{text}'")
    digits = text[2:end]
    if digits[0] == "0":
        parser.raise_error(
            f"expecting positive integer without leading zeros. Received: '{digits}'"
        )
    if int(digits) > _INT64_MAX:
        parser.raise_error(f"expecting symbol index <=2^63-1. Received: '{digits}'")
    return int(digits) + _START_AT_Z, text[end:]


def _parse_keyword_text(parser: AttrParser) -> str:
    token = current_token(parser)
    if token.kind is not MLIRTokenKind.BARE_IDENT:
        parser.raise_error("expected valid keyword")
    consume_token(parser)
    return token.text


# ----- attributes ------------------------------------------------------------------


@irdl_attr_definition
class DimMappingAttr(ParametrizedAttribute):
    """`ij`: the factors one dimension is mapped to (empty: none, an error)."""

    name = "sdy.dim_mapping"

    factor_indices: ArrayAttr[IntAttr] = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (_parse_dim_mapping(parser).factor_indices,)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.text())

    @property
    def indices(self) -> list[int]:
        return [i.data for i in self.factor_indices.data]

    def text(self) -> str:
        return "".join(factor_symbol(i) for i in self.indices)


def _parse_dim_mapping(parser: AttrParser) -> DimMappingAttr:
    token = current_token(parser)
    if token.kind is not MLIRTokenKind.BARE_IDENT:
        # Deferred to verification, as Shardy does.
        return DimMappingAttr(ArrayAttr(()))
    consume_token(parser)
    text = token.text
    indices: list[int] = []
    while text:
        index, text = _split_symbol(parser, text)
        indices.append(index)
    return DimMappingAttr(ArrayAttr(IntAttr(i) for i in indices))


@irdl_attr_definition
class TensorMappingAttr(ParametrizedAttribute):
    """`[i, jk]`: the factor mapping of each dimension of one tensor."""

    name = "sdy.tensor_mapping"

    dim_mappings: ArrayAttr[DimMappingAttr] = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (_parse_tensor_mapping(parser).dim_mappings,)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.text())

    @property
    def rank(self) -> int:
        return len(self.dim_mappings.data)

    def text(self) -> str:
        return "[" + ", ".join(d.text() for d in self.dim_mappings.data) + "]"


def _parse_tensor_mapping(parser: AttrParser) -> TensorMappingAttr:
    dims = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: _parse_dim_mapping(parser)
    )
    return TensorMappingAttr(ArrayAttr(dims))


_SPECIAL = ("reduction", "need_replication", "permutation", "blocked_propagation")


@irdl_attr_definition
class OpShardingRuleAttr(ParametrizedAttribute):
    """`<([i, j],[j, k])->([i, k]) {i=4, j=2, k=8} reduction={j}, custom>`."""

    name = "sdy.op_sharding_rule"

    factor_sizes: ArrayAttr[IntAttr] = param_def()
    operand_mappings: ArrayAttr[TensorMappingAttr] = param_def()
    result_mappings: ArrayAttr[TensorMappingAttr] = param_def()
    reduction_factors: ArrayAttr[IntAttr] = param_def()
    need_replication_factors: ArrayAttr[IntAttr] = param_def()
    permutation_factors: ArrayAttr[IntAttr] = param_def()
    blocked_propagation_factors: ArrayAttr[IntAttr] = param_def()
    is_custom_rule: BoolAttr = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        mappings: list[list[TensorMappingAttr]] = []
        for index in range(2):
            if index:
                parser.parse_punctuation("->")
            parser.parse_punctuation("(")
            items = [_parse_tensor_mapping(parser)]
            while parser.parse_optional_punctuation(",") is not None:
                items.append(_parse_tensor_mapping(parser))
            parser.parse_punctuation(")")
            mappings.append(items)
        sizes: list[int] = []
        if parser.parse_optional_punctuation("{") is not None:
            expected = 0
            while True:
                text = _parse_keyword_text(parser)
                index, rest = _split_symbol(parser, text)
                if index != expected:
                    parser.raise_error(
                        "expecting factor indices to be ordered like an iota "
                        "([0,1,2,...], e.g. {i=#, j=#, ...}). Expecting factor "
                        f"index symbol '{factor_symbol(expected)}', received: "
                        f"'{factor_symbol(index)}'"
                    )
                if rest:
                    parser.raise_error(f"expecting single factor symbol: {rest}")
                expected += 1
                parser.parse_punctuation("=")
                sizes.append(parser.parse_integer(allow_boolean=False))
                if parser.parse_optional_punctuation("}") is not None:
                    break
                parser.parse_punctuation(",")
        special: dict[str, list[int]] = {}
        for kind in _SPECIAL:
            special[kind] = []
            if parser.parse_optional_keyword(kind) is None:
                continue
            parser.parse_punctuation("=")

            def parse_factor() -> int:
                return _split_symbol(parser, _parse_keyword_text(parser))[0]

            if parser.parse_optional_punctuation("{") is not None:
                special[kind].append(parse_factor())
                while parser.parse_optional_punctuation(",") is not None:
                    special[kind].append(parse_factor())
                parser.parse_punctuation("}")
            else:
                special[kind].append(parse_factor())
        custom = False
        if parser.parse_optional_punctuation(",") is not None:
            if parser.parse_optional_keyword("custom") is None:
                parser.raise_error("expected 'custom'")
            custom = True
        parser.parse_punctuation(">")
        return (
            _ints(sizes),
            ArrayAttr(mappings[0]),
            ArrayAttr(mappings[1]),
            *(_ints(special[kind]) for kind in _SPECIAL),
            BoolAttr.from_bool(custom),
        )

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(self.text())

    def text(self) -> str:
        """The parameters as Shardy prints them, `<(...)->(...) ...>`."""
        operands = ", ".join(m.text() for m in self.operand_mappings.data)
        results = ", ".join(m.text() for m in self.result_mappings.data)
        parts = [f"<({operands})->({results})"]
        sizes = [s.data for s in self.factor_sizes.data]
        if sizes:
            body = ", ".join(f"{factor_symbol(i)}={s}" for i, s in enumerate(sizes))
            parts.append(f" {{{body}}}")
        for kind, factors in zip(_SPECIAL, self.special_factors(), strict=True):
            if factors:
                body = ", ".join(factor_symbol(f) for f in factors)
                parts.append(f" {kind}={{{body}}}")
        if self.is_custom_rule.value.data:
            parts.append(", custom")
        return "".join(parts) + ">"

    def special_factors(self) -> tuple[list[int], ...]:
        return tuple(
            [f.data for f in group.data]
            for group in (
                self.reduction_factors,
                self.need_replication_factors,
                self.permutation_factors,
                self.blocked_propagation_factors,
            )
        )

    @property
    def sizes(self) -> list[int]:
        return [s.data for s in self.factor_sizes.data]


def _ints(values: Sequence[int]) -> ArrayAttr[IntAttr]:
    return ArrayAttr(IntAttr(v) for v in values)


def _value_prefix(kind: str, count: int, index: int) -> str:
    """Shardy's `getEmitValueInRangeErrorFn`: `operand - ` or `operand 1 - `."""
    return f"{kind} - " if count == 1 else f"{kind} {index} - "


def _verify_mappings(
    mappings: Sequence[TensorMappingAttr], sizes: Sequence[int], kind: str
) -> set[int]:
    if not mappings:
        raise VerifyException(
            f"number of {kind}s mappings cannot be 0. Op sharding rules can only be "
            "defined on operations with at least one operand and result."
        )
    seen: set[int] = set()
    for index, mapping in enumerate(mappings):
        prefix = _value_prefix(kind, len(mappings), index)
        value_seen: set[int] = set()
        for dim in mapping.dim_mappings.data:
            factors = dim.indices
            if not factors:
                raise VerifyException(
                    prefix + "dim mapping must have at least one factor"
                )
            for factor in factors:
                if not 0 <= factor < len(sizes):
                    raise VerifyException(
                        prefix + "expecting factor indices to be within "
                        f"0<=...<num_factors; received: {factor}, num_factors: "
                        f"{len(sizes)}"
                    )
                if factor in value_seen:
                    raise VerifyException(
                        prefix + "cannot reuse factors for the same tensor value"
                    )
                if sizes[factor] == 1 and len(factors) > 1:
                    raise VerifyException(
                        prefix + "dim mapping can't have a factor of size 1 if there "
                        "are multiple factors"
                    )
                value_seen.add(factor)
        seen |= value_seen
    return seen


def _verify_special(indices: Sequence[int], count: int) -> None:
    """Shardy's `indicesSortedUniqueInBound`."""
    if not indices:
        return
    if list(indices) != sorted(indices):
        raise VerifyException("indices of special factors must be sorted")
    if len(set(indices)) != len(indices):
        raise VerifyException("indices of special factors must be unique")
    if indices[0] < 0:
        raise VerifyException("index must be non-negative")
    if indices[-1] >= count:
        raise VerifyException(f"index must be less than {count}, got: {indices[-1]}")


def verify_sharding_rule_for_op(rule: OpShardingRuleAttr, op: Operation) -> None:
    """Shardy's `verifyOpShardingRuleAttr` (messages without the op prefix)."""
    sizes = rule.sizes
    seen: list[set[int]] = []
    for kind, mappings, values in (
        ("operand", rule.operand_mappings.data, op.operand_types),
        ("result", rule.result_mappings.data, op.result_types),
    ):
        if len(values) != len(mappings):
            raise VerifyException(
                f"number of {kind}s and mappings must match: {len(values)} != "
                f"{len(mappings)}"
            )
        for index, (typ, mapping) in enumerate(zip(values, mappings, strict=True)):
            prefix = _value_prefix(kind, len(mappings), index)
            shape = _static_shape(typ)
            if shape is None:
                raise VerifyException(
                    prefix
                    + f"expected a ranked tensor with a static shape. type: {typ}"
                )
            if mapping.rank != len(shape):
                raise VerifyException(
                    prefix + f"mapping rank must match: {mapping.rank} != {len(shape)}"
                )
        seen.append(_verify_mappings(mappings, sizes, kind))
    seen_operands, seen_results = seen
    for index, size in enumerate(sizes):
        if index not in seen_operands and index not in seen_results:
            raise VerifyException(
                f"has factor {factor_symbol(index)}={size} that isn't used in "
                "operand and result mappings"
            )
    reduction, replication, permutation, blocked = rule.special_factors()
    for group in (reduction, replication, permutation):
        _verify_special(group, len(sizes))
    if len(set(reduction) | set(replication) | set(permutation)) != len(
        reduction
    ) + len(replication) + len(permutation):
        raise VerifyException(
            "a factor can only be in one of the reduction, need replication, or "
            "permutation factor sets"
        )
    _verify_special(blocked, len(sizes))
    if any(factor in seen_results for factor in reduction):
        raise VerifyException("reduction factor cannot be in result mappings")


def _static_shape(typ: Attribute) -> tuple[int, ...] | None:
    if not isa(typ, TensorType):
        return None
    shape = tuple(typ.get_shape())
    return None if any(d < 0 for d in shape) else shape
