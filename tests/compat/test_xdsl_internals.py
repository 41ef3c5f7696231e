"""`xquant.xdsl_internals`: each door to a private xDSL name works on the installed xDSL.

Every function is exercised on real xDSL objects, so an xDSL release that renames
or changes one of these privates fails here, by name, instead of deep in a pass.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import arith, builtin, func
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType, f32
from xdsl.interpreter import Interpreter, OpImplResult, PythonValues
from xdsl.interpreters.arith import ArithFunctions
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xquant import xdsl_internals as internals


def _parser(text: str) -> Parser:
    ctx = Context()
    for dialect in (builtin.Builtin, func.Func, arith.Arith):
        ctx.load_dialect(dialect)
    return Parser(ctx, text)


def test_parser_tokens() -> None:
    parser = _parser("- 1.5 foo")
    start = parser.pos
    assert internals.parse_optional_token(parser, MLIRTokenKind.MINUS) is not None
    assert internals.current_token(parser).kind == MLIRTokenKind.FLOAT_LIT
    assert internals.consume_token(parser, MLIRTokenKind.FLOAT_LIT).text == "1.5"
    assert internals.current_token(parser).text == "foo"
    internals.resume_from(parser, start)
    assert internals.current_token(parser).kind == MLIRTokenKind.MINUS


def test_float_type_base() -> None:
    assert isinstance(f32, internals.FloatTypeBase)
    assert not isinstance(builtin.i32, internals.FloatTypeBase)


def test_printer_helpers() -> None:
    import io

    stream = io.StringIO()
    printer = Printer(stream=stream)
    attr = DenseIntOrFPElementsAttr.from_list(TensorType(f32, [2]), [1.0, 2.0])
    internals.print_dense_element(attr, 1.0, printer)
    printer.print_string(";")
    internals.print_dense_list(attr, attr.get_values(), [2], printer)
    internals.print_new_line(printer)
    assert stream.getvalue() == "1.000000e+00;[1.000000e+00, 2.000000e+00]\n"


def test_context_tables() -> None:
    ctx = Context()
    ctx.load_dialect(arith.Arith)
    dialects, ops, attrs, types, registered = internals.context_tables(ctx)
    assert "arith" in dialects and "arith.addi" in ops
    assert isinstance(attrs, dict) and isinstance(types, dict)
    assert isinstance(registered, dict)


class _Recording(internals.HookedInterpreter):
    def __init__(self, module: ModuleOp) -> None:
        super().__init__(module)
        self.seen: list[str] = []

    def interpret_op(self, op: Operation, inputs: PythonValues, run) -> OpImplResult:  # type: ignore[override]
        self.seen.append(op.name)
        return run(op, inputs)


def test_interpreter_internals() -> None:
    module = _parser(
        "func.func @f(%a: i32) -> i32 {\n"
        "  %b = arith.addi %a, %a : i32\n"
        "  func.return %b : i32\n}"
    ).parse_module()
    interpreter = _Recording(module)
    interpreter.register_implementations(ArithFunctions())
    (add,) = [op for op in module.walk() if isinstance(op, arith.AddiOp)]
    assert type(add) in internals.implementations(interpreter)
    functions, method = internals.implementations(interpreter)[arith.AddiOp]
    assert method(functions, interpreter, add, (2, 3)).values == (5,)
    scope = internals.value_scope(interpreter)
    scope[add.result] = 7
    assert internals.value_scope(interpreter)[add.result] == 7
    internals.drop_values(interpreter, [add.result])
    assert add.result not in internals.value_scope(interpreter)
    assert interpreter.run_op(add, (1, 2)) == (3,)
    assert interpreter.seen == ["arith.addi"]
    assert isinstance(interpreter, Interpreter)


def test_top_level_definition() -> None:
    parser = _parser("#a = 5 : i32\n")
    internals.parse_top_level_definition(parser)
    assert internals.current_token(parser).kind == MLIRTokenKind.EOF


def test_printer_name_tables() -> None:
    module = _parser(
        "func.func @f(%a: i32) -> i32 {\n  func.return %a : i32\n}"
    ).parse_module()
    printer = Printer()
    values, blocks = internals.name_tables(printer)
    (function,) = module.ops
    block = function.regions[0].blocks.first
    assert block is not None
    values[block.args[0]] = "named"
    assert isinstance(blocks, dict)
    assert internals.block_name(printer, block) == "bb0"
