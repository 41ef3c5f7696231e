"""xquant: quantized tensor IR on xDSL.

Public API (nothing heavy is imported until used):
- `parse_module(text)`: parse with every xquant dialect loaded, then verify.
- `apply_passes(module, "pass-a,pass-b{opt=v}")`: run a pass pipeline in place.
- `print_module(module)`: the module's text, attribute dictionaries sorted as in MLIR.
- `bind_weights(module, {"w": array})`: bind numpy arrays as `dense_resource` blobs
  (function arguments `%w` become constants; existing `dense_resource<w>` get new data),
  so big weights are never printed or parsed as literals.
- `run(module_or_text, function_name, *numpy_args, backend="interpreter")`: run a function on
  numpy arrays (interpreted, or compiled by IREE with `backend="iree"`).

Importing xquant changes nothing in xDSL; each of these functions first installs
xquant's fixes to xDSL (`xquant.compat.install`).

Every import of an xquant module below is inside the function that needs it,
on purpose: `import xquant` takes about 10 ms, the modules behind the API
about 600 ms, and stock `xdsl-opt` imports this package at every start (its
`xdsl.universe` entry point is `xquant.universe`, a submodule).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping

    import numpy as np
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp

__all__ = [
    "apply_passes",
    "bind_weights",
    "make_context",
    "parse_module",
    "print_module",
    "run",
]


def make_context() -> Context:
    """A context with xDSL's dialects and every xquant dialect registered (lazily)."""
    # Lazy: see the module docstring.
    from xquant.context import make_context as _make_context

    return _make_context()


def parse_module(text: str, name: str = "<string>") -> ModuleOp:
    """Parse and verify `text`.

    Raises only xDSL's `ParseError` (bad syntax or an invalid type, with a
    position) or `VerifyException` (an op that does not verify, or a use its
    definition does not dominate). Op positions are remembered, so later
    interpreter and pass errors name `file:line:col`.
    """
    # Lazy: see the module docstring.
    from xdsl.utils.exceptions import VerifyException

    from xquant.asm.diagnostics import remember_spans
    from xquant.asm.located_parser import parse_located
    from xquant.asm.verifier import VERIFIER_CRASHES, first_verify_failure
    from xquant.transforms.utils.pipeline import verify_dominance

    located = parse_located(make_context(), text, name)
    module = located.module
    remember_spans(located.op_spans)
    try:
        module.verify()
    except (VerifyException, *VERIFIER_CRASHES) as err:
        # The failing op's own message (xDSL's repeats the module); a crash of
        # an xDSL verifier becomes that op's VerifyException.
        failure = first_verify_failure(module)
        message = failure[1] if failure is not None else str(err)
        raise VerifyException(message) from err
    verify_dominance(module)
    return module


def apply_passes(
    module: ModuleOp, pipeline: str, ctx: Context | None = None
) -> ModuleOp:
    """Apply a comma-separated pass pipeline (xdsl-opt `-p` syntax) to `module` in place.

    Only diagnostics escape: a pass that crashes is a `PassCrashError` naming it.
    """
    # Lazy: see the module docstring.
    from xquant.transforms.utils.pipeline import apply_pipeline

    apply_pipeline(ctx or make_context(), module, pipeline)
    module.verify()
    return module


def print_module(
    module: ModuleOp, *, generic: bool = False, debuginfo: bool = False
) -> str:
    """`module` as text, as `mlir-opt` (and `xquant-opt`) print it: `module`,
    `%arg0`/`%0` names, `#map` aliases, sorted attribute dictionaries; with
    `debuginfo`, locations as under `--mlir-print-debuginfo`.

    Blobs that `dense_resource` attributes name (parsed, or bound by
    `bind_weights`) follow in a `{-# dialect_resources ... #-}` section. Stock
    `xdsl-opt` and `str(module)` keep xDSL's own printer.
    """
    # Lazy: see the module docstring.
    from xdsl.dialects.builtin import Builtin

    from xquant.asm.printer import module_to_mlir

    return module_to_mlir(
        module, generic=generic, debuginfo=debuginfo, dialects=[Builtin]
    )


def bind_weights(module: ModuleOp, weights: Mapping[str, Any]) -> ModuleOp:
    """Bind numpy arrays to `module` as `dense_resource` blobs, in place; returns `module`.

    A name that is a function argument (`%w`) becomes an `arith.constant
    dense_resource<w>` at the function's entry and leaves its signature; a name
    that is the handle of a `dense_resource<w>` already in the module gets the
    array as its blob. Arrays are stored once, in the tensor's element type
    (floats rounded to nearest-even); `run` decodes them without a copy per run
    and `print_module` writes them in the `{-# dialect_resources #-}` section.
    An unknown name or a shape mismatch is a `DiagnosticException`.

        module = parse_module(text)  # func.func @main(%x: ..., %w: tensor<64x32xf32>)
        bind_weights(module, {"w": weight})
        (y,) = run(module, "main", x)
    """
    # Lazy: see the module docstring.
    from xquant.compat import install
    from xquant.interpreter.resources import bind_weights as _bind

    install()
    return _bind(module, weights)


def run(
    module_or_text: ModuleOp | str,
    function_name: str = "main",
    *args: Any,
    backend: str = "interpreter",
    reassociate_fp_reductions: bool | None = None,
) -> tuple[np.ndarray, ...]:
    """Run `function_name` on numpy arrays (or scalars) and return its results.

    `backend="interpreter"` (the default) interprets the IR as it is;
    `backend="iree"` lowers a copy to linalg/arith/tensor and runs it compiled
    by IREE for the host CPU (`xquant.backends.iree`, the optional `iree` extra).

    Float matmuls and sums are computed in the IR's loop order, one rounding per
    step, so results are bit-identical before and after lowering and between the
    backends. `reassociate_fp_reductions=True` lets them sum in any order (BLAS
    for f32/f64; IREE's `--iree-llvmcpu-reassociate-fp-reductions`): several
    times faster on big matmuls, last bits no longer defined by the IR. None
    (the default) keeps the caller's `reassociating_fp_reductions()` choice,
    off unless one is open.
    """
    # Lazy: see the module docstring.
    from xquant.compat import install

    install()
    # Lazy: see the module docstring.
    from xquant.numerics.values import reassociating_fp_reductions

    if backend == "iree":
        # Lazy: see the module docstring.
        from xquant.backends.iree import run as _run_iree

        module = (
            parse_module(module_or_text)
            if isinstance(module_or_text, str)
            else module_or_text
        )
        if reassociate_fp_reductions is None:
            return _run_iree(module, function_name, *args)
        with reassociating_fp_reductions(reassociate_fp_reductions):
            return _run_iree(module, function_name, *args)
    if backend != "interpreter":
        from xdsl.utils.exceptions import DiagnosticException

        raise DiagnosticException(
            f"unknown backend {backend!r}: 'interpreter' or 'iree'"
        )
    # Lazy: see the module docstring.
    from xquant.interpreter.runner import run as _run

    return _run(
        module_or_text,
        function_name,
        *args,
        reassociate_fp_reductions=reassociate_fp_reductions,
    )
