"""xDSL 0.74 never verifies a dialect's discardable attributes against their op.

MLIR asks the dialect that owns a discardable attribute (`sdy.sharding` on a
`stablehlo.add`, on a `func.func` argument) to verify it against its op
(`Dialect::verifyOperationAttribute`, `verifyRegionArgAttribute`,
`verifyRegionResultAttribute`): Shardy checks a sharding's rank against the
value's type there. xDSL's `Operation.verify` checks only the op's own
`verify_`, so

    func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {}]>})

verifies in xDSL (mlir-opt with Shardy: "'func.func' op arg 0 - sharding
doesn't match tensor rank: 2 != 1"). The fix runs, before an op's own
verifier, the verifier of each dialect in `VERIFIERS` whose `prefix.` names
one of the op's discardable attributes or, for a function, of its argument
or result attributes.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from xdsl.dialects import func
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

__all__ = ["VERIFIERS", "install"]

VERIFIERS: dict[str, str] = {
    "sdy": "xquant.dialects.sdy_dialect:verify_discardable_attributes",
}
"""Dialect prefix -> `module:function` taking the op (imported when first used)."""

_loaded: dict[str, Callable[[Operation], None]] = {}


def _verifier(prefix: str) -> Callable[[Operation], None]:
    if prefix not in _loaded:
        module, name = VERIFIERS[prefix].split(":")
        _loaded[prefix] = getattr(import_module(module), name)
    return _loaded[prefix]


def _prefixes(op: Operation) -> set[str]:
    names = [name for name in op.attributes if "." in name]
    if isinstance(op, func.FuncOp):
        for attrs in (op.arg_attrs, op.res_attrs):
            if attrs is not None:
                names += [name for entry in attrs.data for name in entry.data]
    return {name.split(".", 1)[0] for name in names} & VERIFIERS.keys()


def verify_dialect_attributes(op: Operation) -> None:
    for prefix in sorted(_prefixes(op)):
        _verifier(prefix)(op)


def install() -> None:
    """Idempotent."""
    if getattr(Operation.verify, "_xquant_dialect_attributes", False):
        return
    original = Operation.verify

    def verify(self: Operation, verify_nested_ops: bool = True) -> None:
        try:
            verify_dialect_attributes(self)
        except VerifyException as err:
            self.emit_error(f"Operation does not verify: {err}", err)
        original(self, verify_nested_ops)

    verify._xquant_dialect_attributes = True  # pyright: ignore[reportFunctionMemberAccess]
    Operation.verify = verify
