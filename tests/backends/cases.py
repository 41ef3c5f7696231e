"""Helpers of the IREE differential suite: comparing bits, checks as results, drawn arguments.

`same_bits` compares results by bit pattern (NaN payloads aside);
`checks_to_results` makes StableHLO's conformance modules return what their
checks look at; `arguments` draws deterministic inputs from a signature (for
the lowering corpora, whose functions take arguments); `chunks` splits a
file at `// -----` as xquant-run does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    FunctionType,
    IndexType,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, Operation

from tests.fetch_upstream_tests import SHARED_DIR
from xquant.numerics.dtypes import numpy_dtype, storage_dtype

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE_DIR = SHARED_DIR / "stablehlo-quantized"
SPLIT = "// -----"


# ----- comparing -----


def bits(a: Any) -> np.ndarray:
    """`a` as unsigned integers of its width (bool as uint8); NaNs all one pattern."""
    a = np.asarray(a)
    if a.dtype == np.bool_:
        return a.view(np.uint8)
    if (
        a.dtype.kind == "f"
        or a.dtype.kind == "V"
        or (a.dtype.itemsize and a.dtype.kind not in "iu")
    ):
        # ml_dtypes floats are kind "V"; NaN payloads and signs aside, as the brief says
        nan = np.isnan(a.astype(np.float32)) if a.dtype.itemsize <= 2 else np.isnan(a)
        out = a.view(f"uint{a.dtype.itemsize * 8}").copy()
        out[nan] = np.iinfo(out.dtype).max
        return out
    return a.view(f"uint{a.dtype.itemsize * 8}")


def same_bits(a: Any, b: Any) -> str | None:
    """None when `a` and `b` have the same dtype, shape and bits, else what differs."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype:
        return f"dtype {a.dtype} != {b.dtype}"
    if a.shape != b.shape:
        return f"shape {a.shape} != {b.shape}"
    diff = np.nonzero(bits(a).ravel() != bits(b).ravel())[0]
    if len(diff):
        i = int(diff[0])
        return f"{len(diff)} of {a.size} elements differ, first at flat {i}: {a.ravel()[i]!r} vs {b.ravel()[i]!r}"
    return None


# ----- checks become results -----


def _is_check(op: Operation) -> bool:
    if op.name.startswith("check."):
        return True
    target = getattr(op, "call_target_name", None)
    return target is not None and str(target.data).startswith("check.")


def checks_to_results(module: ModuleOp) -> None:
    """Each function returns the values its checks look at, instead of the checks' verdict."""
    for fn in [op for op in module.walk() if isinstance(op, func.FuncOp)]:
        if not fn.body.blocks:
            continue
        checks = [op for op in fn.walk() if _is_check(op)]
        if not checks:
            continue
        values = [v for op in checks for v in op.operands]
        ret = fn.body.blocks.last.last_op
        assert isinstance(ret, func.ReturnOp)
        new_ret = func.ReturnOp(*values)
        fn.body.blocks.last.insert_op_before(new_ret, ret)
        ret.detach()
        ret.erase()
        for op in reversed(checks):
            op.detach()
            op.erase()
        fn.function_type = FunctionType.from_lists(
            list(fn.function_type.inputs.data), [v.type for v in values]
        )


# ----- arguments from types -----


def _element_values(
    element: Attribute, shape: tuple[int, ...], rng: np.random.Generator
) -> np.ndarray:
    from xquant.dialects.quant.types import StorageQuantizedType

    if isinstance(element, StorageQuantizedType):
        lo, hi = int(element.storage_min), int(element.storage_max)  # pyright: ignore[reportUnknownArgumentType]
        dtype = storage_dtype(element.storage_type.width.data, element.is_signed)
        return rng.integers(lo, hi + 1, size=shape).astype(dtype)
    if isinstance(element, IntegerType | IndexType):
        dtype = numpy_dtype(element)
        if dtype == np.bool_:
            return rng.integers(0, 2, size=shape).astype(np.bool_)
        width = element.width.data if isinstance(element, IntegerType) else 64
        if width < 8:
            lo, hi = -(1 << (width - 1)), (1 << (width - 1)) - 1
        else:
            info = np.iinfo(dtype)
            lo, hi = max(int(info.min), -1000), min(int(info.max), 1000)
        return rng.integers(lo, hi + 1, size=shape).astype(dtype)
    dtype = numpy_dtype(element)
    x = np.asarray(rng.standard_normal(shape) * 4, dtype=np.float32)
    flat = x.reshape(-1)
    if flat.size >= 4:  # a tie, a NaN, an infinity and a huge value
        flat[:4] = [0.5, np.nan, np.inf, 3e4]
    return x.astype(dtype)


def arguments(signature: FunctionType, seed: int = 0) -> list[Any] | None:
    """Deterministic arguments for `signature` (dynamic sizes are 3), or None if one cannot be made."""
    rng = np.random.default_rng(seed)
    args: list[Any] = []
    for t in signature.inputs.data:
        if isinstance(t, TensorType):
            shape = tuple(3 if d < 0 else d for d in t.get_shape())
            try:
                args.append(_element_values(t.element_type, shape, rng))
            except (ValueError, TypeError, AttributeError):
                return None
        else:
            try:
                args.append(_element_values(t, (), rng)[()])
            except (ValueError, TypeError, AttributeError):
                return None
    return args


# ----- sources -----


def chunks(text: str) -> list[str]:
    """The `// -----` chunks of `text` (lines padded so positions stay the file's)."""
    from xquant.tools.xquant_run import _chunks  # pyright: ignore[reportPrivateUsage]

    return _chunks(text, SPLIT in text)
