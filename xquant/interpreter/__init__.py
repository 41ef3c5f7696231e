"""The xquant interpreter: xDSL's `Interpreter` with vectorized numpy implementations.

A ranked tensor is a numpy array of `xquant.numerics.dtypes.numpy_dtype(element_type)`;
ops evaluate on whole arrays (`linalg.generic` bodies run once on array views of the
iteration space, see `generic.py`). Use `register_implementations(interpreter)` on an
`xdsl.interpreter.Interpreter`, or `xquant.interpreter.runner.run` for the whole trip.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from xquant.interpreter.errors import XquantInterpreter
from xquant.interpreter.liveness import ReleaseDeadValues

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.interpreter import Interpreter, InterpreterFunctions

__all__ = [
    "EXTRA_IMPLEMENTATION_MODULES",
    "OWN_IMPLEMENTATION_MODULES",
    "make_interpreter",
    "register_implementations",
]

OWN_IMPLEMENTATION_MODULES = [
    "xquant.interpreter.builtin",
    "xquant.interpreter.arith",
    "xquant.interpreter.math",
    "xquant.interpreter.tensor",
    "xquant.interpreter.generic",
    "xquant.interpreter.linalg",
    "xquant.interpreter.scf",
]

EXTRA_IMPLEMENTATION_MODULES = [
    "xquant.interpreter.quant",
    "xquant.interpreter.shape",
    "xquant.interpreter.mx_tensor",
    "xquant.interpreter.stablehlo.constant",
    "xquant.interpreter.stablehlo.elementwise",
    "xquant.interpreter.stablehlo.quantize_ops",
    "xquant.interpreter.stablehlo.structural",
    "xquant.interpreter.stablehlo.dot_conv",
    "xquant.interpreter.stablehlo.reductions",
    "xquant.interpreter.stablehlo.data_movement",
    "xquant.interpreter.stablehlo.bitwise",
    "xquant.interpreter.stablehlo.control_flow",
    "xquant.interpreter.check",
    "xquant.interpreter.chlo",
    "xquant.interpreter.sdy",
    "xquant.interpreter.chlo_math",
    "xquant.interpreter.tosa",
]


def _stock_functions() -> list[InterpreterFunctions]:
    """xDSL's own implementations that the tensor-level interpreter can use."""
    from xdsl.interpreters import (
        affine,
        arith,
        builtin,
        cf,
        func,
        linalg,
        memref,
        ml_program,
        printf,
        scf,
        tensor,
    )

    return [
        affine.AffineFunctions(),
        arith.ArithFunctions(),
        builtin.BuiltinFunctions(),
        cf.CfFunctions(),
        func.FuncFunctions(),
        linalg.LinalgFunctions(),
        memref.MemRefFunctions(),
        ml_program.MLProgramFunctions(),
        printf.PrintfFunctions(),
        scf.ScfFunctions(),
        tensor.TensorFunctions(),
    ]


def _module_functions(name: str) -> list[InterpreterFunctions]:
    module = importlib.import_module(name)
    functions = getattr(module, "FUNCTIONS", None)
    if functions is None:
        raise ImportError(f"{name} does not define FUNCTIONS")
    # Fresh instances per interpreter: implementations may cache per-op data.
    fresh: list[InterpreterFunctions] = []
    for f in functions:
        try:
            fresh.append(type(f)())
        except TypeError:
            fresh.append(f)
    return fresh


def register_implementations(interpreter: Interpreter) -> None:
    """Register xDSL's stock implementations, then ours (overriding), then the
    other dialects' (`EXTRA_IMPLEMENTATION_MODULES`)."""
    for functions in _stock_functions():
        interpreter.register_implementations(functions, override=True)
    for name in OWN_IMPLEMENTATION_MODULES:
        for functions in _module_functions(name):
            interpreter.register_implementations(functions, override=True)
    for name in EXTRA_IMPLEMENTATION_MODULES:
        for functions in _module_functions(name):
            interpreter.register_implementations(functions, override=True)


def make_interpreter(module: ModuleOp) -> Interpreter:
    """An interpreter on `module` (64-bit index) with every implementation registered;
    any failure of an op is an `OpInterpretationError` naming that op."""
    interpreter = XquantInterpreter(module, index_bitwidth=64)
    register_implementations(interpreter)
    interpreter.listeners = (*interpreter.listeners, ReleaseDeadValues(interpreter))
    return interpreter
