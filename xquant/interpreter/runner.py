"""Run a function of a module on numpy values; read and write MLIR dense literals."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
from numpy.typing import NDArray
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    TensorType,
    UnrankedTensorType,
    i8,
)
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import InterpretationError
from xdsl.utils.hints import isa
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xquant.asm.diagnostics import remember_spans
from xquant.asm.located_parser import parse_located
from xquant.context import make_context
from xquant.dialects.quant.nf4 import double_quantized_of
from xquant.dialects.quant.superblock import superblock_of
from xquant.dialects.quant.types import StorageQuantizedType
from xquant.interpreter import make_interpreter
from xquant.interpreter.arith import attribute_value
from xquant.interpreter.check import recording_checks
from xquant.numerics import nf4_double
from xquant.numerics.dtypes import (
    integer_facts,
    integer_range,
    numpy_dtype,
    storage_dtype,
)
from xquant.numerics.float_format import format_float
from xquant.numerics.gguf.layouts import PackedBlocks
from xquant.numerics.values import (
    as_value,
    dtype_of,
    element_type,
    is_float_dtype,
    is_ml_float,
    reassociating_fp_reductions,
)
from xquant.xdsl_internals import current_token

__all__ = [
    "RunSetupError",
    "check_argument",
    "format_dense_literal",
    "format_value",
    "holder_dtype",
    "load_dense_literal",
    "lookup_function",
    "run",
]


class RunSetupError(InterpretationError, ValueError):
    """No such function, or arguments that do not match its type.

    A diagnostic like every other error of the API; a `ValueError` too, as it
    was before there was a diagnostic for it.
    """


def lookup_function(module: ModuleOp, function_name: str) -> func.FuncOp:
    """The `func.func` named `function_name` (`RunSetupError` if there is none)."""
    op = SymbolTable.lookup_symbol(module, function_name)
    if not isinstance(op, func.FuncOp):
        names = [o.sym_name.data for o in module.walk() if isinstance(o, func.FuncOp)]
        raise RunSetupError(
            f"no function named '{function_name}' in the module (functions: {', '.join(names) or 'none'})"
        )
    return op


def _type_str(t: Attribute) -> str:
    s = io.StringIO()
    Printer(stream=s).print_attribute(t)
    return s.getvalue()


def holder_dtype(t: Attribute) -> np.dtype[Any] | None:
    """The numpy dtype the interpreter holds values of `t` in (quantized: storage integers)."""
    el = element_type(t)
    if isinstance(el, StorageQuantizedType):
        if el.float_storage is not None:
            return el.float_storage.dtype
        return storage_dtype(el.storage_width, el.is_signed)
    try:
        return dtype_of(t)
    except (ValueError, TypeError):
        return None


def _storage_from_i1_literal(value: NDArray[Any], t: Attribute) -> NDArray[Any]:
    """A 1-bit storage literal reads as `i1` bools; the interpreter holds -1/0 (signed) or 1/0."""
    el = element_type(t)
    if value.dtype != np.bool_ or not isinstance(el, StorageQuantizedType):
        return value
    if el.storage_width != 1:
        return value
    bits = value.astype(storage_dtype(1, el.is_signed))
    return -bits if el.is_signed else bits


def _literal_type(t: Attribute) -> tuple[Attribute, str]:
    """The builtin type whose literal holds a value of type `t`, and a note naming `t`
    when they differ: quantized values are their storage integers (`iN`, or `uiN` for
    unsigned storage, so that 200 stays 200)."""
    el = element_type(t)
    if not isinstance(el, StorageQuantizedType):
        return t, ""
    signedness = Signedness.SIGNLESS if el.is_signed else Signedness.UNSIGNED
    storage: Attribute = IntegerType(el.storage_width, signedness)
    if el.float_storage is not None:
        storage = el.storage_spec
    note = f"  // storage of {_type_str(t)}"
    if isinstance(t, TensorType):
        return TensorType(storage, t.get_shape()), note
    if isinstance(t, UnrankedTensorType):
        return UnrankedTensorType(storage), note
    return storage, note


def _check_int_range(value: NDArray[Any], typ: Attribute, where: str) -> None:
    """Integers of a width numpy has no dtype for (`i4`, `u6` storage) must fit that width."""
    el = element_type(_literal_type(typ)[0])
    if not isa(el, IntegerType) or value.size == 0:
        return
    width, signedness = integer_facts(el)
    if width == 1 or width == value.dtype.itemsize * 8:
        return
    signed = signedness != Signedness.UNSIGNED
    low, high = integer_range(width, signed)
    lo, hi = int(value.min()), int(value.max())
    if lo < low or hi > high:
        bad = lo if lo < low else hi
        raise RunSetupError(f"{where}: {bad} does not fit in {_type_str(el)}")


def _is_raw_ml_float(value: NDArray[Any], dt: np.dtype[Any]) -> bool:
    """`value` holds raw bytes (`V1`, `V2`) of an ml_dtypes float of the same size:
    `.npy` cannot name bf16 or the f8/f6/f4 types, so numpy saves them that way."""
    return (
        value.dtype.kind == "V"
        and value.dtype.names is None
        and value.dtype.itemsize == dt.itemsize
        and is_ml_float(dt)
    )


def _block_argument(value: Any, typ: Attribute, where: str) -> Any:
    """A block-packed quantized argument is given as its `i8` storage bytes (what
    `quant.scast` takes, and what results of these types print as)."""
    if isinstance(value, PackedBlocks | nf4_double.NF4Double):
        return value  # already checked and converted
    expected = f"the i8 storage bytes of {_type_str(typ)}"
    data: NDArray[Any] = np.asarray(value)
    if data.dtype != np.int8 or not isa(typ, TensorType[Attribute]):
        raise RunSetupError(f"{where}: expected {expected}, got {data.dtype}")
    shape = typ.get_shape()
    packed = superblock_of(typ) or double_quantized_of(typ)
    assert packed is not None
    want = packed.storage_shape(shape)
    if data.shape != want:
        raise RunSetupError(
            f"{where}: expected {expected}: tensor<{'x'.join(map(str, want))}xi8>"
            f", got shape {list(data.shape)}"
        )
    if (block := superblock_of(typ)) is not None:
        return PackedBlocks(data.view(np.uint8), tuple(shape), block.block_layout)
    qtype = double_quantized_of(typ)
    assert qtype is not None
    try:
        return nf4_double.from_bytes(
            data.view(np.uint8),
            tuple(shape),
            numpy_dtype(qtype.expressed_type),
            qtype.block,
            qtype.scaler_block,
        )
    except ValueError as err:
        raise RunSetupError(f"{where}: expected {expected}: {err}") from None


def check_argument(value: Any, typ: Attribute, position: int) -> Any:
    """`value` converted to the interpreter's representation of `typ`, or a
    `RunSetupError` that names the argument, the expected type and what was given."""
    where = f"argument #{position}"
    expected = _type_str(typ)
    if superblock_of(typ) is not None or double_quantized_of(typ) is not None:
        return _block_argument(value, typ, where)
    if isa(typ, TensorType | UnrankedTensorType):
        if isinstance(value, (list, tuple)):
            dt = holder_dtype(typ)
            value = np.asarray(value, dtype=dt)
        if not isa(value, np.ndarray):
            raise RunSetupError(
                f"{where}: expected {expected}, got a scalar {type(value).__name__} ({value!r})"
            )
        shape = typ.get_shape() if isa(typ, TensorType) else tuple(value.shape)
        if len(shape) != value.ndim or any(
            s != DYNAMIC_INDEX and s != v for s, v in zip(shape, value.shape)
        ):
            raise RunSetupError(
                f"{where}: expected {expected}, got an array of shape {list(value.shape)} ({value.dtype})"
            )
        value = _storage_from_i1_literal(value, typ)
        dt = holder_dtype(typ)
        if dt is not None and _is_raw_ml_float(value, dt):
            value = value.view(dt)
        if dt is not None and value.dtype != dt:
            raise RunSetupError(
                f"{where}: expected {expected} (numpy dtype {dt}), got an array of dtype {value.dtype}"
            )
        _check_int_range(value, typ, where)
        return value
    dt = holder_dtype(typ)
    if isa(value, np.ndarray):
        if value.ndim != 0:
            raise RunSetupError(
                f"{where}: expected a scalar {expected}, got an array of shape {list(value.shape)}"
            )
        value = value[()]
    if dt is None:
        return value
    if (
        isa(value, bool | np.bool_)
        and dt.kind != "b"
        and not isinstance(typ, IntegerType)
    ):
        raise RunSetupError(f"{where}: expected {expected}, got {value!r}")
    if isa(typ, IntegerType | IndexType):
        if isa(value, float | np.floating) and not float(value).is_integer():
            raise RunSetupError(
                f"{where}: expected an integer {expected}, got {value!r}"
            )
        if not isa(value, int | np.integer | np.bool_ | float | np.floating):
            raise RunSetupError(
                f"{where}: expected {expected}, got {type(value).__name__}"
            )
        iv = int(value)
        width = 64 if isinstance(typ, IndexType) else typ.width.data
        if not -(1 << (width - 1)) <= iv < (1 << width) and not (
            width == 1 and iv in (-1, 0, 1)
        ):
            raise RunSetupError(f"{where}: {iv} does not fit in {expected}")
        return as_value(iv, dt)
    if is_float_dtype(dt):
        if not isa(value, int | float | np.integer | np.floating) and not hasattr(
            value, "dtype"
        ):
            raise RunSetupError(
                f"{where}: expected {expected}, got {type(value).__name__}"
            )
        return (
            as_value(float(value), dt)
            if not isa(value, np.generic) or value.dtype != dt
            else value
        )
    return value


def _result(value: Any, typ: Attribute) -> Any:
    if (storage := block_storage(value)) is not None:
        return storage
    if isa(typ, TensorType | UnrankedTensorType):
        arr = np.asarray(value)
        dt = holder_dtype(typ)
        if dt is not None and arr.dtype != dt:
            arr = arr.astype(dt)
        return np.asarray(arr, order="C")
    dt = holder_dtype(typ)
    if dt is not None and not isa(value, np.ndarray):
        return as_value(value, dt)
    return value


def run(
    module_or_text: ModuleOp | str,
    function_name: str = "main",
    *args: Any,
    reassociate_fp_reductions: bool | None = None,
) -> tuple[Any, ...]:
    """Interpret `function_name` of a module (or module text) on numpy arrays / scalars.

    Arguments are checked against the function type (shape and dtype); results are
    numpy arrays (tensors) or numpy scalars; a block-packed quantized tensor
    (`!quant.superblock`, `!quant.double_quantized`) is its `i8` storage, the bytes
    `quant.scast` gives. Float matmuls and sums follow the IR's
    loop order unless `reassociate_fp_reductions` (None: as the caller's
    `reassociating_fp_reductions` block says, else off) lets them use BLAS.
    """
    if reassociate_fp_reductions is not None:
        with reassociating_fp_reductions(reassociate_fp_reductions):
            return run(module_or_text, function_name, *args)
    module = (
        _parse_remembering_spans(module_or_text)
        if isinstance(module_or_text, str)
        else module_or_text
    )
    fn = lookup_function(module, function_name)
    arg_types = fn.function_type.inputs.data
    if len(args) != len(arg_types):
        raise RunSetupError(
            f"function '{function_name}' takes {len(arg_types)} argument(s), got {len(args)}"
        )
    values = tuple(
        check_argument(v, t, i) for i, (v, t) in enumerate(zip(args, arg_types))
    )
    interpreter = make_interpreter(module)
    with np.errstate(all="ignore"):
        results = interpreter.call_op(fn, values)
    return tuple(_result(v, t) for v, t in zip(results, fn.function_type.outputs.data))


def _parse_remembering_spans(text: str) -> ModuleOp:
    """`xquant.parse_module`, keeping where each op was parsed so that an
    interpreter error can say `<string>:line:col`."""
    located = parse_located(make_context(), text, "<string>")
    remember_spans(located.op_spans)
    located.module.verify()
    return located.module


def load_dense_literal(text: str) -> Any:
    """Parse an MLIR literal such as `dense<[1.0, 2.0]> : tensor<2xf32>` (or a scalar
    `1.5 : f32`) into a numpy array (numpy scalar)."""
    parser = Parser(make_context(), text.strip(), "<literal>")
    attr = parser.parse_attribute()
    if current_token(parser).kind != MLIRTokenKind.EOF:
        parser.raise_error("unexpected text after the literal")
    if isa(attr, DenseIntOrFPElementsAttr):
        return attribute_value(attr, attr.type)
    if isa(attr, IntegerAttr | FloatAttr):
        return attribute_value(attr, attr.type)
    raise ValueError(f"not a dense int/float literal: {text!r}")


def _format_element(v: Any, el: Attribute, dt: np.dtype[Any]) -> str:
    if dt.kind == "b":
        return "true" if bool(v) else "false"
    if dt.kind in "iu":
        return str(int(v))
    return format_float(float(np.float64(np.asarray(v).astype(np.float64))), el)


def block_storage(value: Any) -> NDArray[np.int8] | None:
    """The `i8` bytes `quant.scast` gives for a value of a block-packed quant type
    (`!quant.superblock`, `!quant.double_quantized`), None for any other value."""
    if isinstance(value, PackedBlocks):
        return value.data.view(np.int8)
    if isinstance(value, nf4_double.NF4Double):
        return nf4_double.to_bytes(value).view(np.int8)
    return None


def format_value(value: Any, typ: Attribute) -> str:
    """A result as MLIR prints it: tensors as dense literals, scalars as `v : type`;
    block-packed quantized tensors as their `i8` storage bytes, with a note."""
    if superblock_of(typ) is not None or double_quantized_of(typ) is not None:
        storage = block_storage(value)
        data = np.asarray(value if storage is None else storage)
        text = format_dense_literal(data, TensorType(i8, data.shape))
        return f"{text}  // storage of {_type_str(typ)}"
    if isa(typ, TensorType | UnrankedTensorType):
        return format_dense_literal(value, typ)
    el, note = _literal_type(typ)
    return f"{_format_element(value, el, dtype_of(el))} : {_type_str(el)}{note}"


def format_dense_literal(value: Any, typ: Attribute | str) -> str:
    """`value` printed as an MLIR dense literal of tensor type `typ`
    (e.g. `dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>`), splats folded."""
    if isinstance(typ, str):
        typ = Parser(make_context(), typ).parse_type()
    typ, note = _literal_type(typ)
    el = element_type(typ)
    dt = dtype_of(el)
    arr = np.asarray(value)
    if arr.dtype != dt:
        arr = arr.astype(dt)
    if isinstance(typ, TensorType):  # dynamic dims take the value's size
        shape = tuple(
            s if s != DYNAMIC_INDEX else n for s, n in zip(typ.get_shape(), arr.shape)
        )
        typ = TensorType(el, shape)
    elif isinstance(typ, UnrankedTensorType):
        typ = TensorType(el, arr.shape)
    type_text = _type_str(typ) + note
    if arr.size == 0:
        return f"dense<> : {type_text}"
    cache: dict[bytes, str] = {}

    def fmt(v: Any) -> str:
        key = np.asarray(v).tobytes()
        s = cache.get(key)
        if s is None:
            s = _format_element(v, el, dt)
            cache[key] = s
        return s

    flat = arr.reshape(-1)
    first = flat[:1].tobytes()
    if arr.ndim == 0 or all(
        flat[i : i + 1].tobytes() == first for i in range(flat.size)
    ):
        return f"dense<{fmt(flat[0])}> : {type_text}"

    def nest(a: np.ndarray) -> str:
        if a.ndim == 1:
            return "[" + ", ".join(fmt(v) for v in a) + "]"
        return "[" + ", ".join(nest(sub) for sub in a) + "]"

    return f"dense<{nest(arr)}> : {type_text}"


def run_with_checks(
    module_or_text: ModuleOp | str, function_name: str = "main", *args: Any
) -> tuple[tuple[Any, ...], list[Any]]:
    """`run`, recording every check op (`check.*`, `custom_call @check.*`) it executes.

    Returns the results and the `xquant.interpreter.check.CheckResult`s in
    execution order; a failed check does not stop the run.
    """
    with recording_checks() as checks:
        results = run(module_or_text, function_name, *args)
    return results, list(checks)
