"""Fixes for the xDSL 0.74 bugs and gaps that xquant's IR runs into, installed on request.

Importing xquant changes nothing in xDSL. `install()` applies every fix at once; it is
called by xquant's own entry points (`xquant-opt`, `xquant-run`, the functions in
`xquant`) and by the lazy factories in `xquant.universe` when stock `xdsl-opt` loads
one of xquant's dialects or passes. So `xdsl-opt` on IR that uses none of them
behaves exactly as it does without xquant installed.

One module per fix, named after what it fixes; its docstring states the bug with a
minimal reproducer, and `tests/compat` checks that pristine xDSL still has it (when
such a test fails, xDSL has fixed the bug and the module can go). Differences that
only affect output are not patched: use `XQuantPrinter` from `xquant.compat.printer`.

To add a fix: a module with an idempotent `install()`, and one line in `install()`.
"""

from __future__ import annotations

from importlib.metadata import version

from xquant.compat import (
    arith_casts,
    dense_hex_blobs,
    dense_hex_float_elements,
    dense_literal_arrays,
    dense_resource_handles,
    dialect_attribute_verifiers,
    dialect_mnemonics,
    float_overflow_to_inf,
    func_declaration_attrs,
    linalg_generic_result_parens,
    linalg_input_casts,
    linalg_shaped_operands,
    linalg_transpose_broadcast,
    locations,
    quant_in_builtin_containers,
    string_literal_lexer,
    tensor_empty_sizes,
    tensor_rank0_reshapes,
    upstream_ops,
)

__all__ = ["SUPPORTED_XDSL", "check_xdsl_version", "install"]

SUPPORTED_XDSL = "0.74"
"""The xDSL release (major.minor) the fixes are written against."""


def check_xdsl_version(installed: str | None = None) -> None:
    """Fail unless `installed` (default: the installed xDSL's version) is 0.74.x."""
    installed = version("xdsl") if installed is None else installed
    if installed.split(".")[:2] != SUPPORTED_XDSL.split("."):
        raise RuntimeError(
            f"xquant's fixes to xDSL (xquant/compat) are written for xDSL "
            f"{SUPPORTED_XDSL}.x, but xDSL {installed} is installed: install "
            f"'xdsl>={SUPPORTED_XDSL},<0.75', or check each fix against this version "
            "(python -m pytest tests/compat)"
        )


_installed = False


def install() -> None:
    """Apply every fix to xDSL; idempotent. Raises RuntimeError on an xDSL other than 0.74.x."""
    global _installed
    if _installed:
        return
    check_xdsl_version()
    string_literal_lexer.install()
    locations.install()
    dense_hex_float_elements.install()
    dense_hex_blobs.install()
    dense_literal_arrays.install()  # after the dense fixes it falls back to
    float_overflow_to_inf.install()
    func_declaration_attrs.install()
    upstream_ops.install()  # first: the fixes below cover the ops it adds
    tensor_empty_sizes.install()
    tensor_rank0_reshapes.install()
    linalg_shaped_operands.install()
    linalg_input_casts.install()
    linalg_generic_result_parens.install()
    linalg_transpose_broadcast.install()
    quant_in_builtin_containers.install()
    dense_resource_handles.install()
    arith_casts.install()
    dialect_mnemonics.install()
    dialect_attribute_verifiers.install()
    _installed = True
