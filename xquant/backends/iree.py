"""Run xquant IR natively: lower it, print it, compile it with IREE for the host CPU, run it.

The steps (`run` does all of them):

1. `lower_for_iree`: what is still quant / StableHLO / MX goes through the
   project's passes (`LOWERINGS`: the interpreter's numbers, so
   `lower-quant-ops{rounding=nearest-even}`), then `widen-boundary-types`
   (only byte-sized element types cross function boundaries). What is left
   must be builtin, func, arith, math, tensor, linalg, scf (and complex),
   or `stablehlo.sort`/`scatter` with their bodies, which IREE's StableHLO
   input converts (`iree_input`: sorts are made stable first): any other op
   is an `IreeUnsupportedOpError` on that op.
2. `print_for_iree`: the module as mlir-opt prints it (generic form for
   the ops whose custom form IREE's parser does not read the same way).
3. `compile_for_iree`: `iree.compiler.compile_str` for `llvm-cpu`,
   `--iree-llvmcpu-target-cpu=host`, and f64 kept as f64 (IREE demotes
   f64 to f32 by default, which changes the f64 rescales of the quantized
   lowerings). Compiled modules are cached by their text.
4. `run`: numpy arguments in (narrow types packed as the widened boundary
   expects), numpy arrays out, in the dtypes the interpreter returns.

Only `DiagnosticException` subclasses escape: `IreeNotInstalledError`
(the optional dependency is missing), `IreeUnsupportedOpError` (an op no
lowering handled), `IreeCompileError` (IREE rejected the printed IR: its
message located in that text, `<name>:line:col`, never a crash dump),
`IreeRuntimeError` (bad arguments or a runtime failure).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from io import StringIO
from typing import Any, cast

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import Builtin, FunctionType, ModuleOp, TensorType
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Attribute, Operation
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import DiagnosticException
from xdsl.utils.hints import isa

from xquant.asm.diagnostics import Diagnostic, OpDiagnostic, Severity, SourceLocation
from xquant.backends.iree_input import handed_to_iree, stabilize_sorts
from xquant.compat.printer import XQuantPrinter
from xquant.context import make_context
from xquant.dialects.quant.nf4 import double_quantized_of
from xquant.dialects.quant.superblock import superblock_of
from xquant.dialects.quant.types import StorageQuantizedType
from xquant.dialects.stablehlo.misc import CompositeOp
from xquant.interpreter.runner import block_storage
from xquant.numerics.dtypes import numpy_dtype, storage_dtype
from xquant.numerics.values import reassociates_fp_reductions
from xquant.transforms.utils.pipeline import apply_pipeline

__all__ = [
    "COMPILE_FLAGS",
    "LOWERINGS",
    "IreeCompileError",
    "IreeError",
    "IreeNotInstalledError",
    "IreeRuntimeError",
    "IreeUnsupportedOpError",
    "available",
    "compile_for_iree",
    "lower_for_iree",
    "print_for_iree",
    "run",
]

LOWERINGS: tuple[tuple[str, str], ...] = (
    ("sdy", "sdy-drop-shardings"),
    (
        "stablehlo",
        "stablehlo-legalize-composite-to-call,stablehlo-legalize-control-flow,"
        "stablehlo-legalize-quant-to-math{exact=true},stablehlo-legalize-to-linalg",
    ),
    (
        "chlo",
        "stablehlo-legalize-quant-to-math{exact=true},stablehlo-legalize-to-linalg",
    ),
    ("mx_tensor", "lower-mx-tensor"),
    ("quant", "lower-quant-ops{rounding=nearest-even}"),
)
"""The project's passes that take each dialect to linalg/arith/tensor, with the
interpreter's numbers; `strip-func-quant-types` follows when quantized types remain."""


def lowering_for(module: ModuleOp) -> str:
    """The pipeline `lower_for_iree` applies to `module` ('' if nothing is left to lower)."""
    dialects = {_dialect(op) for op in module.walk()}
    passes: list[str] = []
    for dialect, pipeline in LOWERINGS:
        if dialect in dialects and pipeline not in passes:
            passes.append(pipeline)
    if passes or any(_has_quant_type(t) for op in module.walk() for t in _types_of(op)):
        passes += ["strip-func-quant-types", "dce"]
    return ",".join(passes)


COMPILE_FLAGS = (
    "--iree-llvmcpu-target-cpu=host",
    "--iree-input-demote-f64-to-f32=false",
    "--iree-opt-const-eval=false",
    "--iree-llvmcpu-reassociate-fp-reductions=false",
    "--iree-dispatch-creation-data-tiling",
)
"""Host CPU; f64 kept (the quantized lowerings rescale in f64); float reductions
in their written order (the interpreter's); no compile-time
evaluation of constant subgraphs (it tripled compile times of the constant-fed
conformance modules, and every value is then computed by the generated code);
data tiling (packed matmul layouts: the 1024x1024 i8 matmul ran in 36 ms
instead of 133 ms)."""

IREE_DIALECTS = frozenset(
    {"builtin", "func", "arith", "math", "tensor", "linalg", "scf", "complex"}
)
"""The dialects the printed IR may use: what IREE's `auto` input takes as plain MLIR."""

_HIGH_LEVEL = ("quant", "stablehlo", "chlo", "mx_tensor", "tosa", "shape")

INPUT_NAME = "<iree-input>"
"""The buffer name IREE's diagnostics are located in (the printed, lowered IR)."""


class IreeError(DiagnosticException):
    """Anything the IREE backend reports."""


class IreeNotInstalledError(IreeError):
    """The optional `iree` extra is not installed."""


class IreeUnsupportedOpError(IreeError, OpDiagnostic):
    """An op that no lowering took to IREE's dialects."""

    def __init__(self, op: Operation, message: str):
        OpDiagnostic.__init__(self, op, message)


@dataclass
class IreeCompileError(IreeError):
    """IREE rejected the printed IR: `diagnostic` is its first error, located in `text`."""

    diagnostic: Diagnostic
    text: str = field(repr=False)

    def __post_init__(self) -> None:
        super().__init__(self.diagnostic.render().rstrip("\n"))

    @property
    def message(self) -> str:
        return self.diagnostic.message


class IreeRuntimeError(IreeError):
    """IREE's runtime refused the arguments or failed while running."""


def available() -> str | None:
    """None when IREE's compiler and runtime import, else a one-line reason."""
    try:
        import iree.compiler  # pyright: ignore[reportMissingImports, reportUnusedImport]
        import iree.runtime  # noqa: F401  # pyright: ignore[reportMissingImports, reportUnusedImport]
    except ImportError as err:
        return f"IREE is not installed ({err}); pip install 'xquant[iree]'"
    return None


def _require() -> None:
    if (reason := available()) is not None:
        raise IreeNotInstalledError(reason)


# ----- 1. lowering -----


def _dialect(op: Operation) -> str:
    return op.name.split(".", 1)[0]


def _types_of(op: Operation) -> list[Attribute]:
    types = [*op.operand_types, *op.result_types]
    if isinstance(op, func.FuncOp):
        types += [*op.function_type.inputs.data, *op.function_type.outputs.data]
    return types


def _has_quant_type(attr: Attribute) -> bool:
    element = attr.element_type if isa(attr, TensorType) else attr
    return element.name.startswith("quant.")


def lower_for_iree(module: ModuleOp, pipeline: str | None = None) -> ModuleOp:
    """Lower `module` in place to IREE's dialects, boundaries widened; return it.

    `pipeline` (xdsl-opt `-p` syntax) replaces `lowering_for(module)`. Raises `IreeUnsupportedOpError` at the
    first op outside `IREE_DIALECTS` (a check op, an unlowered StableHLO op).
    """

    def apply_passes(module: ModuleOp, pipeline: str) -> None:
        apply_pipeline(make_context(), module, pipeline)
        module.verify()

    _erase_uncalled_declarations(module)
    # IREE names the runtime module after `module @name` (JAX writes `@jit_f`);
    # the runner looks it up as IREE's default, `module`.
    module.properties.pop("sym_name", None)
    if pipeline := pipeline or lowering_for(module):
        apply_passes(module, pipeline)
    if stabilize_sorts(module):
        apply_passes(module, "stablehlo-legalize-to-linalg")  # the index iotas
    _forward_optimization_barriers(module)
    if any(op.name == "scf.parallel" for op in module.walk()):
        # IREE fails on (or crashes compiling) an scf.parallel carrying a tensor
        # through scf.reduce; nested scf.for in the interpreter's order is the same.
        apply_passes(module, "scf-parallel-to-for")
    _generalize_elementwise(module)
    apply_passes(module, "widen-boundary-types")
    for op in module.walk():
        if _dialect(op) not in IREE_DIALECTS and not handed_to_iree(op):
            raise IreeUnsupportedOpError(
                op,
                f"'{op.name}' op is not lowered to linalg/arith/tensor: the IREE backend cannot compile it",
            )
    return module


def _forward_optimization_barriers(module: ModuleOp) -> None:
    """`stablehlo.optimization_barrier` is the identity on values (it only stops
    XLA from moving ops across it); no lowering to linalg exists, so its
    results become its operands."""
    for op in list(module.walk()):
        if op.name == "stablehlo.optimization_barrier":
            for result, operand in zip(op.results, op.operands):
                result.replace_all_uses_with(operand)
            op.detach()
            op.erase()


def _generalize_elementwise(module: ModuleOp) -> None:
    """Named elementwise ops (`linalg.add`, `linalg.mul`, ...) as `linalg.generic`:
    IREE 3.13's parser no longer knows them (upstream replaced them by
    `linalg.elementwise`); their generic form is the same computation."""
    for op in list(module.walk()):
        if isinstance(op, ElementwiseOperation):
            generic = GenericOp(
                op.inputs,
                op.outputs,
                op.body.clone(),
                op.get_indexing_maps(),
                op.get_iterator_types(),
                op.results.types,
            )
            Rewriter.replace_op(op, generic)


def _erase_uncalled_declarations(module: ModuleOp) -> None:
    """Drop function declarations nothing calls (MLIR's symbol-dce would): a native
    module cannot link them, and their types (`!quant.calibrated`) need not lower."""
    called = {
        op.callee.root_reference.data
        for op in module.walk()
        if isinstance(op, func.CallOp)
    }
    for op in list(module.walk()):
        if (
            isinstance(op, func.FuncOp)
            and not op.body.blocks
            and op.sym_name.data not in called
        ):
            op.detach()
            op.erase()


# ----- 2. printing -----


def print_for_iree(module: ModuleOp) -> str:
    """The module as IREE's parser reads it (mlir-opt's text; xquant prints that),
    with the `{-# dialect_resources #-}` blobs its `dense_resource` constants name."""
    stream = StringIO()
    printer = XQuantPrinter(stream=stream)
    printer.print_op(module)
    printer.print_metadata([Builtin])
    return stream.getvalue()


# ----- 3. compiling -----

_DIAGNOSTIC = re.compile(
    r"^<stdin>:(\d+):(\d+): (error|warning|note|remark): (.*)$", re.MULTILINE
)
_TRAILING_LOC = re.compile(r" loc\((?:callsite|fused|\"<stdin>\").*\)$")
"""The location IREE appends to an op it prints inside a message (we show the line instead)."""
_CRASHED_PASS = re.compile(r"::(\w+Pass)::runOnOperation")


def _compile_error(text: str, stderr: str, exit_code: int | None) -> IreeCompileError:
    """IREE's first error, located in `text`; for a crash, the pass that crashed."""
    lines = text.splitlines()
    diagnostics: list[Diagnostic] = []
    for match in _DIAGNOSTIC.finditer(stderr):
        line, column = int(match[1]), int(match[2])
        severity = Severity(match[3])
        source = lines[line - 1] if 0 < line <= len(lines) else None
        diagnostic = Diagnostic(
            severity,
            _TRAILING_LOC.sub("", match[4]),
            SourceLocation(INPUT_NAME, line, column),
            source,
        )
        if severity is Severity.NOTE and diagnostics:
            diagnostics[-1].notes.append(diagnostic)
        elif severity is Severity.ERROR:
            diagnostics.append(diagnostic)
    if diagnostics:
        return IreeCompileError(diagnostics[0], text)
    if exit_code is not None and exit_code < 0:
        crashed = _CRASHED_PASS.search(stderr)
        where = f" in {crashed[1]}" if crashed else ""
        message = f"iree-compile crashed (signal {-exit_code}){where}"
    else:
        message = f"iree-compile failed (exit code {exit_code}) without a diagnostic"
    return IreeCompileError(Diagnostic(Severity.ERROR, message), text)


@lru_cache(maxsize=256)
def _compile_cached(text: str, flags: tuple[str, ...]) -> bytes:
    import iree.compiler as ireec  # pyright: ignore[reportMissingImports]

    try:
        # Untyped in iree: bytes, or None when an output file is named.
        flatbuffer = cast(
            "bytes | None",
            ireec.compile_str(  # pyright: ignore[reportUnknownMemberType]
                text, target_backends=["llvm-cpu"], extra_args=list(flags)
            ),
        )
    except ireec.CompilerToolError as err:  # pyright: ignore[reportUnknownMemberType]
        stderr = str(err)  # pyright: ignore[reportUnknownArgumentType]
        code = re.search(r"Error code: (-?\d+)", stderr)
        raise _compile_error(text, stderr, int(code[1]) if code else None) from None
    assert flatbuffer is not None
    return bytes(flatbuffer)


def compile_flags() -> tuple[str, ...]:
    """`COMPILE_FLAGS`, with float reductions reassociated inside
    `reassociating_fp_reductions()` (the interpreter's BLAS mode)."""
    if not reassociates_fp_reductions():
        return COMPILE_FLAGS
    return tuple(
        "--iree-llvmcpu-reassociate-fp-reductions=true"
        if f.startswith("--iree-llvmcpu-reassociate-fp-reductions")
        else f
        for f in COMPILE_FLAGS
    )


def compile_for_iree(text: str, flags: Sequence[str] | None = None) -> bytes:
    """The VM flatbuffer of `text` for `llvm-cpu` on this host (cached by text and
    flags; `compile_flags()` by default)."""
    flags = compile_flags() if flags is None else flags
    _require()
    return _compile_cached(text, tuple(flags))


# ----- 4. running -----


@dataclass(frozen=True)
class _Boundary:
    """How one argument or result crosses: its interpreter dtype, and its carrier dtype."""

    dtype: np.dtype[Any]
    carrier: np.dtype[Any] | None
    """The dtype `widen-boundary-types` made it cross as, or None if unchanged."""
    bits: bool
    """The carrier holds a float's bit pattern (not its value)."""
    scalar: bool
    """A scalar (the runtime takes a Python number), not a tensor (rank 0 included)."""


def _element(attr: Attribute) -> np.dtype[Any]:
    if superblock_of(attr) is not None or double_quantized_of(attr) is not None:
        return np.dtype(np.int8)  # block-packed: its raw bytes cross
    element = attr.element_type if isa(attr, TensorType) else attr
    if isinstance(
        element, StorageQuantizedType
    ):  # the interpreter holds storage integers
        return storage_dtype(element.storage_type.width.data, element.is_signed)
    return numpy_dtype(element)


def _boundary(before: Attribute, after: Attribute) -> _Boundary:
    dtype = _element(before)
    scalar = not isinstance(before, TensorType)
    if before == after:
        return _Boundary(dtype, None, False, scalar)
    carrier = _element(after)
    bits = dtype.kind not in "iub" and carrier.kind in "iu"
    return _Boundary(dtype, carrier, bits, scalar)


def _to_carrier(value: Any, boundary: _Boundary) -> Any:
    if (storage := block_storage(value)) is not None:
        value = storage
    array = np.asarray(value, dtype=boundary.dtype)
    if boundary.carrier is not None:
        if boundary.bits:
            array = array.view(f"uint{array.dtype.itemsize * 8}")
        array = array.astype(boundary.carrier)
    return array.item() if boundary.scalar else array


def _from_carrier(value: Any, boundary: _Boundary) -> np.ndarray:
    array = np.asarray(value)
    if boundary.carrier is None:
        return array.astype(boundary.dtype, copy=False)
    if boundary.bits:
        unsigned = f"uint{boundary.dtype.itemsize * 8}"
        return array.astype(boundary.carrier).astype(unsigned).view(boundary.dtype)
    return array.astype(boundary.dtype)


@lru_cache(maxsize=1)
def _config() -> Any:
    """One runtime configuration (a `local-task` device) for the process."""
    import iree.runtime as ireert  # pyright: ignore[reportMissingImports]

    return ireert.Config("local-task")  # pyright: ignore[reportUnknownMemberType]


@lru_cache(maxsize=64)
def _loaded(vmfb: bytes) -> tuple[Any, str]:
    """The runtime context holding the compiled module (cached with it), and the
    module's name (`module` unless the MLIR module has one, as JAX's `@jit_f`)."""
    import iree.runtime as ireert  # pyright: ignore[reportMissingImports]

    config = _config()
    module = ireert.VmModule.copy_buffer(config.vm_instance, vmfb)  # pyright: ignore[reportUnknownMemberType]
    context = ireert.SystemContext(vm_modules=[module], config=config)  # pyright: ignore[reportUnknownMemberType]
    return context, str(module.name)  # pyright: ignore[reportUnknownMemberType, reportUnknownArgumentType]


def _invoke(vmfb: bytes, function: str, args: list[Any]) -> list[Any]:
    context, name = _loaded(vmfb)
    try:
        entry = context.modules[name][function]
        results = entry(*args)
    except Exception as err:  # IREE's runtime raises ValueError/RuntimeError/KeyError
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise IreeRuntimeError(f"IREE runtime: @{function}: {first}") from err
    if results is None:
        return []
    if not isinstance(results, list | tuple):
        results = [results]
    return [r.to_host() if hasattr(r, "to_host") else r for r in results]  # pyright: ignore[reportUnknownVariableType, reportUnknownMemberType, reportUnknownArgumentType]


@dataclass
class Prepared:
    """A module lowered, printed and compiled for IREE, with its boundary conversions."""

    text: str
    vmfb: bytes
    signatures: dict[str, tuple[FunctionType, FunctionType]]

    def call(self, function: str, *args: Any) -> tuple[np.ndarray, ...]:
        if function not in self.signatures:
            raise IreeRuntimeError(f"no function @{function} in the module")
        before, after = self.signatures[function]
        inputs = [
            _boundary(b, a) for b, a in zip(before.inputs.data, after.inputs.data)
        ]
        outputs = [
            _boundary(b, a) for b, a in zip(before.outputs.data, after.outputs.data)
        ]
        if len(args) != len(inputs):
            raise IreeRuntimeError(
                f"function '{function}' takes {len(inputs)} argument(s), got {len(args)}"
            )
        try:
            carried = [_to_carrier(v, b) for v, b in zip(args, inputs)]
        except (TypeError, ValueError) as err:
            raise IreeRuntimeError(f"bad argument for @{function}: {err}") from err
        results = _invoke(self.vmfb, function, carried)
        return tuple(_from_carrier(r, b) for r, b in zip(results, outputs))


def prepare(
    module: ModuleOp,
    *,
    pipeline: str | None = None,
    in_place: bool = False,
    entry: str | None = None,
) -> Prepared:
    """Lower (a clone of, unless `in_place`) `module`, print and compile it for IREE.

    With `entry`, only that function and what it calls are kept: a function
    elsewhere in the module that cannot be lowered does not stop it.
    """
    _require()
    if not in_place:
        module = module.clone()
    if entry is not None:
        _keep_reachable(module, entry)
    before = _signatures(module)
    lower_for_iree(module, pipeline)
    after = _signatures(module)
    text = print_for_iree(module)
    vmfb = compile_for_iree(text)
    signatures = {name: (before[name], after[name]) for name in before if name in after}
    return Prepared(text, vmfb, signatures)


def _keep_reachable(module: ModuleOp, entry: str) -> None:
    """Erase the top-level functions `entry` does not (transitively) call."""
    functions = {
        op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)
    }
    if entry not in functions:
        raise IreeRuntimeError(f"no function @{entry} in the module")
    keep: set[str] = set()
    todo = [entry]
    while todo:
        name = todo.pop()
        if name in keep or name not in functions:
            continue
        keep.add(name)
        todo += [
            op.callee.root_reference.data
            for op in functions[name].walk()
            if isinstance(op, func.CallOp)
        ]
        todo += [
            op.decomposition.root_reference.data
            for op in functions[name].walk()
            if isinstance(op, CompositeOp)
        ]
    for name, op in functions.items():
        if name not in keep:
            op.detach()
            op.erase()


def _signatures(module: ModuleOp) -> dict[str, FunctionType]:
    return {
        op.sym_name.data: op.function_type
        for op in module.walk()
        if isinstance(op, func.FuncOp) and op.body.blocks
    }


def run(
    module: ModuleOp, function_name: str = "main", *args: Any
) -> tuple[np.ndarray, ...]:
    """Compile `function_name` of (a copy of) `module` with IREE (cached) and run it on numpy values."""
    return prepare(module, entry=function_name).call(function_name, *args)
