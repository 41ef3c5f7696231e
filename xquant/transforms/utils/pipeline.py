"""Apply a pass pipeline so that only diagnostics escape.

A pass that meets IR it cannot handle raises a `DiagnosticException`
(`OpDiagnostic`, `VerifyException`, `PassFailedException`). Anything else out
of a pass (an `IndexError` in a pattern) is a bug in that pass; it still
reaches the caller as a diagnostic, a `PassCrashError` naming the pass, with
the original error chained.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.arg_spec import parse_pipeline as parse_arg_specs
from xdsl.utils.exceptions import (
    DiagnosticException,
    PassFailedException,
    VerifyException,
)

from xquant.asm.diagnostics import OpDiagnostic
from xquant.transforms.canonicalize import CanonicalizePass
from xquant.transforms.utils.pass_options import check_option_values


class DominanceError(VerifyException, OpDiagnostic):
    """An operand used where its definition does not dominate the use."""

    def __init__(self, op: Operation, message: str):
        OpDiagnostic.__init__(self, op, message)


__all__ = [
    "PassCrashError",
    "PipelineSpecError",
    "apply_module_passes",
    "apply_pipeline",
    "parse_pipeline",
    "verify_dominance",
]


class PassCrashError(PassFailedException):
    """`pass_name` failed with an error that is not a diagnostic (a bug in the pass)."""

    def __init__(self, pass_name: str, error: Exception):
        text = str(error).split("\n", 1)[0]
        super().__init__(
            f"pass '{pass_name}' failed: {type(error).__name__}"
            + (f": {text}" if text else "")
        )
        self.pass_name = pass_name


class PipelineSpecError(PassFailedException, ValueError):
    """The pipeline text names an unknown pass or option (also a `ValueError`, as xDSL raises)."""


def pass_table() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every registered pass by name, as xquant's tools and API run them: the
    `xdsl.universe` plugins' passes, with `canonicalize` as MLIR's
    (`xquant.transforms.canonicalize`; stock `xdsl-opt` keeps xDSL's)."""
    from xdsl.universe import Universe

    return {
        **Universe.get_multiverse().all_passes,
        CanonicalizePass.name: lambda: CanonicalizePass,
    }


def parse_pipeline(spec: str) -> tuple[ModulePass, ...]:
    """The passes of `spec` (xdsl-opt `-p` syntax) from every registered universe;
    an unknown pass or option, or an option value the pass does not accept, is a
    `PipelineSpecError` saying so (as `xquant-opt` reports it)."""
    try:
        table = pass_table()
        specs = tuple(parse_arg_specs(spec))
        for arg_spec in specs:
            if arg_spec.name not in table:
                continue  # xDSL's own error below names every unknown pass
            bad = check_option_values(table[arg_spec.name](), arg_spec.parameters)
            if bad is not None:
                raise PipelineSpecError(f"bad pass pipeline '{spec}': {bad}")
        return PassPipeline.parse_spec(table, spec).passes
    except DiagnosticException:
        raise
    except Exception as err:
        raise PipelineSpecError(f"bad pass pipeline '{spec}': {err}") from err


def verify_dominance(module: ModuleOp) -> None:
    """Raise a `DominanceError` at the first use its definition does not dominate.

    xDSL 0.74's verifier does not check dominance, so `%0 = arith.addf %1, %1`
    before `%1` is defined verifies, and passes and the interpreter meet a value
    that does not exist yet. Within a block the definition must come first; a
    value of another block must be defined in an enclosing one. Uses across the
    blocks of one multi-block region are not checked (that needs the CFG).
    """
    positions: dict[Operation, int] = {}
    for op in module.walk():
        if op.parent is not None and op.parent.first_op is op:
            for index, sibling in enumerate(op.parent.ops):
                positions[sibling] = index
    for op in module.walk():
        for number, operand in enumerate(op.operands):
            if not _dominates(operand, op, positions):
                raise DominanceError(
                    op,
                    f"'{op.name}' op operand #{number} does not dominate this use",
                )


def _dominates(
    value: SSAValue, user: Operation, positions: dict[Operation, int]
) -> bool:
    block: Block | None = (
        value.block if isinstance(value, BlockArgument) else value.owner.parent_block()
    )
    if block is None:
        return True
    definer = None if isinstance(value, BlockArgument) else value.owner
    current: Operation | None = user
    while current is not None:
        if current.parent is block:
            if definer is None:
                return True
            assert isinstance(definer, Operation)
            return positions[definer] < positions[current]
        parent_region = current.parent_region()
        if (
            parent_region is not None
            and block.parent is parent_region
            and len(parent_region.blocks) > 1
        ):
            return True  # another block of the same CFG region: not checked
        current = current.parent_op()
    return False


def apply_pipeline(ctx: Context, module: ModuleOp, spec: str) -> None:
    """Apply the passes of `spec` to `module` in place; only diagnostics escape."""
    apply_module_passes(ctx, module, parse_pipeline(spec))


def apply_module_passes(
    ctx: Context, module: ModuleOp, passes: Sequence[ModulePass]
) -> None:
    """Apply `passes` in order (dominance checked first); only diagnostics escape."""
    verify_dominance(module)
    for module_pass in passes:
        try:
            module_pass.apply(ctx, module)
        except DiagnosticException:
            raise
        except Exception as err:
            raise PassCrashError(module_pass.name, err) from err
