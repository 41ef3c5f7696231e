"""xquant: quantized tensor IR on xDSL.

Public API (nothing heavy is imported until used):
- `parse_module(text)`: parse with every xquant dialect loaded, then verify.
- `apply_passes(module, "pass-a,pass-b{opt=v}")`: run a pass pipeline in place.
- `print_module(module)`: the module's text, attribute dictionaries sorted as in MLIR.
- `run(module_or_text, function_name, *numpy_args)`: interpret a function on numpy arrays.

Importing xquant changes nothing in xDSL; each of these functions first installs
xquant's fixes to xDSL (`xquant.compat.install`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp

__all__ = ["apply_passes", "make_context", "parse_module", "print_module", "run"]


def make_context() -> Context:
    """A context with xDSL's dialects and every xquant dialect registered (lazily)."""
    from xdsl.context import Context
    from xdsl.universe import Universe

    from xquant.compat import install

    install()

    ctx = Context()
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    return ctx


def parse_module(text: str, name: str = "<string>") -> ModuleOp:
    """Parse and verify `text`.

    Raises only xDSL's `ParseError` (bad syntax or an invalid type, with a
    position) or `VerifyException` (an op that does not verify).
    """
    from xquant.tools.diagnostics import parse_located

    module = parse_located(make_context(), text, name).module
    module.verify()
    return module


def apply_passes(
    module: ModuleOp, pipeline: str, ctx: Context | None = None
) -> ModuleOp:
    """Apply a comma-separated pass pipeline (xdsl-opt `-p` syntax) to `module` in place."""
    from xdsl.passes import PassPipeline
    from xdsl.universe import Universe

    from xquant.compat import install

    install()
    passes = Universe.get_multiverse().all_passes
    PassPipeline.parse_spec(passes, pipeline).apply(ctx or make_context(), module)
    module.verify()
    return module


def print_module(module: ModuleOp, *, generic: bool = False) -> str:
    """`module` as text, with MLIR's sorted attribute dictionaries (`XQuantPrinter`)."""
    from io import StringIO

    from xquant.compat.printer import XQuantPrinter

    stream = StringIO()
    XQuantPrinter(stream=stream, print_generic_format=generic).print_op(module)
    return stream.getvalue()


def run(
    module_or_text: ModuleOp | str, function_name: str = "main", *args: Any
) -> tuple[np.ndarray, ...]:
    """Interpret `function_name` on numpy arrays (or scalars) and return its results."""
    from xquant.compat import install
    from xquant.interpreter.runner import run as _run

    install()
    return _run(module_or_text, function_name, *args)
