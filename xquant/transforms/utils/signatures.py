"""The one helper for passes that change the types crossing function boundaries.

`convert_function_boundaries` rewrites `func.func` signatures (declarations
too), entry block arguments, `func.return` operands and `func.call`
operands and results with a 1:1 type conversion, and materializes the
old type inside bodies with caller-supplied cast ops, as MLIR's
`populateFunctionOpInterfaceTypeConversionPattern` +
`populateReturnOpTypeConversionPattern` + `populateCallOpTypeConversionPattern`
do together.

Where the cast of a `func.return` / `func.call` operand goes is the caller's
choice: before the user (the default), or as MLIR's dialect conversion
materializes it -- right after the value's definition (at the start of its
block for a block argument), one cast per value and type shared by all its
uses (`upstream_placement=True`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

TypeConversion = Callable[[Attribute], Attribute | None]
"""The converted type, or None when the type is legal as it is."""

Materialize = Callable[[SSAValue, Attribute], Operation]
"""An op casting `value` to `type` (one result)."""


def convert_function_boundaries(
    module: ModuleOp,
    convert: TypeConversion,
    materialize: Materialize,
    *,
    upstream_placement: bool = False,
) -> None:
    """Convert every function boundary in `module`; casts bridge old and new types."""
    rewriter = Rewriter()
    casts = _OperandCasts(materialize, upstream_placement)
    for op in list(module.walk()):
        if isinstance(op, func.FuncOp):
            _convert_func(op, convert, materialize, rewriter)
        elif isinstance(op, func.ReturnOp):
            _convert_operands(op, convert, casts)
        elif isinstance(op, func.CallOp):
            _convert_call(op, convert, materialize, casts, rewriter)


class _OperandCasts:
    """Casts of operands to their converted type, placed before the user or as MLIR does."""

    def __init__(self, materialize: Materialize, upstream_placement: bool):
        self.materialize = materialize
        self.upstream_placement = upstream_placement
        self.cache: dict[tuple[SSAValue, Attribute], SSAValue] = {}

    def cast(self, value: SSAValue, type: Attribute, user: Operation) -> SSAValue:
        if not self.upstream_placement:
            cast = self.materialize(value, type)
            Rewriter.insert_op(cast, InsertPoint.before(user))
            return cast.results[0]
        if (cached := self.cache.get((value, type))) is not None:
            return cached
        cast = self.materialize(value, type)
        owner = value.owner
        # MLIR's computeInsertPoint: just after the defining op, or the block's start.
        where = (
            InsertPoint.at_start(owner)
            if isinstance(owner, Block)
            else InsertPoint.after(owner)
        )
        Rewriter.insert_op(cast, where)
        self.cache[(value, type)] = cast.results[0]
        return cast.results[0]


def _converted(
    types: tuple[Attribute, ...] | list[Attribute], convert: TypeConversion
) -> list[Attribute]:
    return [new if (new := convert(t)) is not None else t for t in types]


def _retype_values(
    values: Sequence[SSAValue],
    convert: TypeConversion,
    materialize: Materialize,
    rewriter: Rewriter,
    insert_point: Callable[[], InsertPoint],
) -> None:
    """Give each convertible value its converted type; its uses read a cast back to the old type.

    `insert_point` is asked again for each cast (each goes to the current
    start of the block, or right after the op, as MLIR places them).
    """
    for value in list(values):
        new_type = convert(value.type)
        if new_type is None:
            continue
        old_type = value.type
        new_value = rewriter.replace_value_with_new_type(value, new_type)
        cast = materialize(new_value, old_type)
        Rewriter.insert_op(cast, insert_point())
        new_value.replace_uses_with_if(
            cast.results[0], lambda use: use.operation is not cast
        )


def _convert_func(
    op: func.FuncOp,
    convert: TypeConversion,
    materialize: Materialize,
    rewriter: Rewriter,
) -> None:
    inputs = _converted(list(op.function_type.inputs.data), convert)
    outputs = _converted(list(op.function_type.outputs.data), convert)
    op.function_type = FunctionType.from_lists(inputs, outputs)
    if not op.body.blocks:
        return
    entry = op.body.blocks.first
    assert entry is not None
    _retype_values(
        entry.args, convert, materialize, rewriter, lambda: InsertPoint.at_start(entry)
    )


def _convert_operands(
    op: Operation, convert: TypeConversion, casts: _OperandCasts
) -> None:
    for index, operand in enumerate(op.operands):
        new_type = convert(operand.type)
        if new_type is None:
            continue
        op.operands[index] = casts.cast(operand, new_type, op)


def _convert_call(
    op: func.CallOp,
    convert: TypeConversion,
    materialize: Materialize,
    casts: _OperandCasts,
    rewriter: Rewriter,
) -> None:
    _convert_operands(op, convert, casts)
    _retype_values(
        op.results, convert, materialize, rewriter, lambda: InsertPoint.after(op)
    )
