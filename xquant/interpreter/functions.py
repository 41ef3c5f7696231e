"""Building an `InterpreterFunctions` class with one implementation shared by many ops."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Operation

RunOp = Callable[[Interpreter, Operation, PythonValues], PythonValues]
"""What one op computes: its results from the interpreter, the op and its operands."""


def shared_functions(
    name: str, doc: str, op_classes: Iterable[type[Operation]], run: RunOp
) -> type[InterpreterFunctions]:
    """An `InterpreterFunctions` class named `name` in which every op of
    `op_classes` is implemented by `run` (a method `run_<op>` each, as
    `register_impls` needs)."""

    def method(op_class: type[Operation]) -> Callable[..., PythonValues]:
        @impl(op_class)
        def run_op(
            self: InterpreterFunctions,
            interpreter: Interpreter,
            op: Operation,
            args: PythonValues,
        ) -> PythonValues:
            return run(interpreter, op, args)

        return run_op

    methods = {f"run_{c.name.split('.', 1)[1]}": method(c) for c in op_classes}
    return register_impls(
        type(name, (InterpreterFunctions,), {"__doc__": doc, **methods})
    )
