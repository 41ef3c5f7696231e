"""The one door to xDSL 0.74's private names: each access xquant needs, as a function.

xquant's parsers, printers, context and interpreter need a few things xDSL keeps
private (the parser's current token, the interpreter's value scope and dispatch
table, ...). Nothing outside `xquant.compat` names them; it calls these functions,
and `tests/compat/test_xdsl_internals.py` checks each against the installed xDSL,
so an xDSL release that renames one fails there, in one place, instead of
somewhere in a pass. It belongs with `xquant.compat` in role but sits below every layer (it imports only
xDSL, and importing `xquant.compat` would load the fixes), so every layer may use it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues
from xdsl.ir import Attribute, Block, Dialect, Operation, SSAValue, TypeAttribute
from xdsl.parser import BaseParser, Parser
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRToken, MLIRTokenKind
from xdsl.utils.scoped_dict import ScopedDict

FloatTypeBase: type[TypeAttribute] = builtin._FloatType  # pyright: ignore[reportPrivateUsage]
"""The base class of xDSL's builtin float types (f16, bf16, f32, f8E4M3FN, ...)."""

OpImplementation = tuple[
    InterpreterFunctions,
    Callable[[InterpreterFunctions, Interpreter, Operation, PythonValues], Any],
]
"""What xDSL's dispatch table holds for an op: the functions object and the method."""


# --- parser


def current_token(parser: BaseParser) -> MLIRToken:
    """The token the parser is looking at."""
    return parser._current_token  # pyright: ignore[reportPrivateUsage]


def consume_token(parser: BaseParser, kind: MLIRTokenKind | None = None) -> MLIRToken:
    """Consume the current token (of `kind`, if given) and return it."""
    return parser._consume_token(kind)  # pyright: ignore[reportPrivateUsage]


def parse_optional_token(parser: BaseParser, kind: MLIRTokenKind) -> MLIRToken | None:
    """Consume the current token if it is of `kind`."""
    return parser._parse_optional_token(kind)  # pyright: ignore[reportPrivateUsage]


def resume_from(parser: BaseParser, position: int) -> None:
    """Move the parser to `position` of its input (after reading ahead by hand)."""
    parser._resume_from(position)  # pyright: ignore[reportPrivateUsage]


def parse_top_level_definition(parser: Parser) -> None:
    """One `{-# ... #-}` metadata dictionary or `#alias = ...` definition, as xDSL's
    `parse_module` reads them between top-level ops."""
    if current_token(parser).kind is MLIRTokenKind.FILE_METADATA_BEGIN:
        parser._parse_file_metadata_dictionary()  # pyright: ignore[reportPrivateUsage]
    else:
        parser._parse_alias_def()  # pyright: ignore[reportPrivateUsage]


# --- printer


def name_tables(printer: Printer) -> tuple[dict[SSAValue, str], dict[Block, str]]:
    """The printer's SSA value names and block numbers, to preset before printing."""
    return (
        printer._ssa_values,  # pyright: ignore[reportPrivateUsage]
        printer._blocks,  # pyright: ignore[reportPrivateUsage]
    )


def block_name(printer: Printer, block: Block) -> str:
    """The name the printer gives `block` (after `^`)."""
    return printer._get_block_name(block)  # pyright: ignore[reportPrivateUsage]


def print_new_line(printer: Printer) -> None:
    """A new line at the printer's current indentation."""
    printer._print_new_line()  # pyright: ignore[reportPrivateUsage]


def print_dense_element(
    attr: DenseIntOrFPElementsAttr, value: Any, printer: Printer
) -> None:
    """One element of a dense literal, as xDSL prints it."""
    attr._print_one_elem(value, printer)  # pyright: ignore[reportPrivateUsage]


def print_dense_list(
    attr: DenseIntOrFPElementsAttr,
    values: Sequence[Any],
    shape: Sequence[int],
    printer: Printer,
) -> None:
    """A dense literal's nested element list, as xDSL prints it."""
    attr._print_dense_list(values, shape, printer)  # pyright: ignore[reportPrivateUsage]


# --- context


def context_tables(
    ctx: Context,
) -> tuple[
    dict[str, Dialect],
    dict[str, type[Operation]],
    dict[str, type[Attribute]],
    dict[str, type[TypeAttribute]],
    dict[str, Callable[[], Dialect]],
]:
    """The context's loaded dialects, ops, attributes, types and registered dialects
    (the arguments `Context.__init__` takes after `allow_unregistered`)."""
    return (
        ctx._loaded_dialects,  # pyright: ignore[reportPrivateUsage]
        ctx._loaded_ops,  # pyright: ignore[reportPrivateUsage]
        ctx._loaded_attrs,  # pyright: ignore[reportPrivateUsage]
        ctx._loaded_types,  # pyright: ignore[reportPrivateUsage]
        ctx._registered_dialects,  # pyright: ignore[reportPrivateUsage]
    )


# --- interpreter


def value_scope(interpreter: Interpreter) -> ScopedDict[SSAValue, Any]:
    """The interpreter's current scope: SSA values to their runtime values."""
    return interpreter._ctx  # pyright: ignore[reportPrivateUsage]


def drop_values(interpreter: Interpreter, values: Sequence[SSAValue]) -> None:
    """Forget `values` in the interpreter's innermost scope (their memory can go)."""
    scope = interpreter._ctx._local_scope  # pyright: ignore[reportPrivateUsage]
    for value in values:
        scope.pop(value, None)


def implementations(
    interpreter: Interpreter,
) -> Mapping[type[Operation], OpImplementation]:
    """xDSL's dispatch table: each op class to its registered implementation."""
    return cast(
        Mapping[type[Operation], OpImplementation],
        interpreter._impls._impl_dict,  # pyright: ignore[reportPrivateUsage]
    )


class HookedInterpreter(Interpreter):
    """xDSL's `Interpreter` with a public hook around running one op.

    `run_op` dispatches through the private `_run_op`; subclasses override
    `interpret_op(op, inputs, run)` and call `run(op, inputs)` for xDSL's own step.
    """

    def interpret_op(
        self,
        op: Operation,
        inputs: PythonValues,
        run: Callable[[Operation, PythonValues], Any],
    ) -> Any:
        return run(op, inputs)

    def _run_op(self, op: Operation, inputs: PythonValues) -> Any:
        return self.interpret_op(op, inputs, super()._run_op)
