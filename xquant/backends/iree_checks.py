"""StableHLO's checks under the IREE backend: computed by IREE, compared on the host.

IREE compiles computations, not test assertions: `check.*` ops and
`custom_call @check.*` have no lowering. `split_checks` moves every check op
of a function's body out of the module IREE compiles: the function returns
its own results (less those a check computes) and then the values the checks
read; a host module gets, under the same function name, a function taking
those values whose body is the check ops themselves (the same op objects, so
diagnostics keep their source positions) and which returns the check results
the function returned (StableHLO's conformance modules return `check.eq`'s
`tensor<i1>`). `HostChecks.run` runs it in the interpreter on what IREE
returned, recording each check as `xquant-run` does for the interpreter: the
comparisons are the interpreter's (StableHLO's tolerances), the numbers
compared are IREE's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue

from xquant.backends.iree import IreeUnsupportedOpError
from xquant.dialects import stablehlo as shlo
from xquant.interpreter.check import CUSTOM_CALL_CHECKS, CheckResult, recording_checks
from xquant.interpreter.runner import run


def is_check(op: Operation) -> bool:
    """A `check.*` op or a `custom_call @check.*` the interpreter evaluates."""
    if isinstance(op, shlo.CustomCallOp):
        return op.call_target_name.data in CUSTOM_CALL_CHECKS
    return op.name.startswith("check.")


@dataclass(frozen=True)
class _Layout:
    """Where each original result of a function comes from after the split."""

    device_count: int
    sources: tuple[tuple[bool, int], ...]
    """Per original result: (from the host function?, index in that side's results)."""


@dataclass
class HostChecks:
    """The checks taken out of a module: one host function per function that had any."""

    module: ModuleOp = field(default_factory=lambda: ModuleOp([]))
    layouts: dict[str, _Layout] = field(default_factory=dict[str, _Layout])

    def run(
        self, function: str, values: Sequence[Any]
    ) -> tuple[tuple[Any, ...], list[CheckResult]]:
        """`function`'s results and its checks, from IREE's `values`."""
        layout = self.layouts.get(function)
        if layout is None:
            return tuple(values), []
        with recording_checks() as checks:
            host = run(self.module, function, *values[layout.device_count :])
        results = tuple(
            host[i] if on_host else values[i] for on_host, i in layout.sources
        )
        return results, list(checks)


def split_checks(module: ModuleOp) -> HostChecks:
    """Move the check ops of `module`'s functions into a host module (see above)."""
    host = HostChecks()
    for fn in [op for op in module.ops if isinstance(op, func.FuncOp)]:
        checks = [op for op in fn.walk() if is_check(op)]
        if checks:
            _split(fn, checks, host)
    return host


def _split(fn: func.FuncOp, checks: list[Operation], host: HostChecks) -> None:
    if len(fn.body.blocks) != 1 or not isinstance(
        ret := fn.body.block.last_op, func.ReturnOp
    ):
        raise IreeUnsupportedOpError(
            checks[0],
            f"'{checks[0].name}' op: the IREE backend evaluates checks only in "
            "single-block functions",
        )
    entry = fn.body.block
    for op in checks:
        if op.parent_block() is not entry or any(
            use.operation is not ret for r in op.results for use in r.uses
        ):
            raise IreeUnsupportedOpError(
                op,
                f"'{op.name}' op: the IREE backend evaluates only checks in a "
                "function's entry block whose results are only returned",
            )
    values: list[SSAValue] = []
    for operand in (v for op in checks for v in op.operands):
        if operand not in values:
            values.append(operand)
    sources: list[tuple[bool, int]] = []
    device: list[SSAValue] = []
    returned: list[SSAValue] = []
    for v in ret.operands:
        if isinstance(v.owner, Operation) and v.owner in checks:
            sources.append((True, len(returned)))
            returned.append(v)
        else:
            sources.append((False, len(device)))
            device.append(v)
    block = Block(arg_types=[v.type for v in values])
    for op in checks:
        op.detach()
        for i, operand in enumerate(op.operands):
            op.operands[i] = block.args[values.index(operand)]
        block.add_op(op)
    block.add_op(func.ReturnOp(*returned))
    name = fn.sym_name.data
    host.module.body.block.add_op(
        func.FuncOp(
            name,
            FunctionType.from_lists(block.arg_types, [v.type for v in returned]),
            Region(block),
        )
    )
    host.layouts[name] = _Layout(len(device), tuple(sources))
    entry.insert_op_before(func.ReturnOp(*device, *values), ret)
    ret.detach()
    ret.erase()
    fn.function_type = FunctionType.from_lists(
        list(fn.function_type.inputs.data),
        [*(v.type for v in device), *(v.type for v in values)],
    )
